"""The equilibrium agent's solved rounds are cached once per process (shared by its agents, bounded
in bytes, without changing a single decision), and a tournament that will take long with it says
so, with an estimate, before the first game."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

import gamebag
import gamebag.cli.commands.tournament as tournament_command
from gamebag.agents.equilibrium import agent as equilibrium
from gamebag.agents.equilibrium.solver import RoundBatch, RoundSolver
from gamebag.agents.registry import make_agent
from gamebag.cli.app import app
from gamebag.core.rng import make_rng
from gamebag.sim.play import play_game
from gamebag.sim.tournament import TournamentSpec, long_run_warning


@pytest.fixture
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> equilibrium.SolutionCache:
    cache = equilibrium.SolutionCache(equilibrium.CACHE_BYTES)
    monkeypatch.setattr(equilibrium, "SOLUTIONS", cache)
    return cache


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Every round the solver is asked for, by its scores (the real solver still does the work)."""
    asked: list[tuple[int, int]] = []
    solve = RoundSolver.solve

    def counted(self: RoundSolver, scores: Any, continuation: Any) -> RoundBatch:
        asked.extend(tuple(s) for s in scores)
        return solve(self, scores, continuation)

    monkeypatch.setattr(RoundSolver, "solve", counted)
    return asked


def test_agents_of_the_same_rules_share_each_solved_round(
    fresh_cache: equilibrium.SolutionCache, solves: list[tuple[int, int]]
) -> None:
    game = gamebag.make("wriggle-roulette", 2)
    first, second = equilibrium.EquilibriumAgent(game), equilibrium.EquilibriumAgent(game)
    solution = first.round_solution(3, 4)
    assert second.round_solution(3, 4) is solution
    assert solves == [(3, 4)]
    assert (fresh_cache.solves, fresh_cache.hits) == (1, 1)
    assert fresh_cache.bytes == solution.both.nbytes + sum(a.nbytes for a in solution.lone + solution.ends)


def test_a_game_played_again_solves_nothing_and_decides_the_same(
    fresh_cache: equilibrium.SolutionCache, solves: list[tuple[int, int]]
) -> None:
    game = gamebag.make("wriggle-roulette", 2)

    def play() -> Any:
        seats = [equilibrium.EquilibriumAgent(game), make_agent("heuristic", game)]  # new agents each time
        return play_game(game, seats, make_rng(11), keep_record=True)

    first = play()
    solved = len(solves)
    assert solved >= 1 and (0, 0) in solves
    second = play()
    assert len(solves) == solved  # every round came from the cache
    assert first.record is not None and second.record is not None
    assert first.record.events == second.record.events
    assert first.returns == second.returns


def test_the_cache_keeps_its_byte_limit_dropping_the_least_recently_used() -> None:
    cache = equilibrium.SolutionCache(limit=100)
    size = len  # each entry's size is its length
    cache.get("a", lambda: "x" * 40, size)
    cache.get("b", lambda: "y" * 40, size)
    assert cache.get("a", lambda: "never solved", size) == "x" * 40  # a hit: now the most recent
    cache.get("c", lambda: "z" * 40, size)  # 120 bytes: the least recently used (b) goes
    assert len(cache) == 2 and cache.bytes == 80
    assert cache.get("b", lambda: "solved again", size) == "solved again"
    assert (cache.hits, cache.solves) == (1, 4)


def spec(games: int) -> TournamentSpec:
    return TournamentSpec(
        game="wriggle-roulette", players=2, agents=("equilibrium", "heuristic"), games=games, seed=0, auto_ladder=False
    )


def test_a_long_equilibrium_tournament_is_announced_with_an_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(equilibrium, "seconds_per_round", lambda game: 1.5)
    game = gamebag.make("wriggle-roulette", 2)
    # 1,000 games x 2 rounds a game x 1.5 s a round = 50 minutes on one process, 25 on two.
    warning = long_run_warning(spec(1000), game)
    assert warning is not None and "1,000 games may take about 50 minutes" in warning
    assert "about 25 minutes" in (long_run_warning(spec(1000), game, workers=2) or "")
    assert long_run_warning(spec(10), game) is None  # 30 s: no warning
    heuristics = TournamentSpec(game="wriggle-roulette", players=2, agents=("heuristic", "random"), games=10**5, seed=0)
    assert long_run_warning(heuristics, game) is None


def test_the_cli_warns_before_the_first_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(equilibrium, "seconds_per_round", lambda game: 1.5)
    started: list[str] = []

    def tripwire(*args: object, **kwargs: object) -> None:
        started.append("run")
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament_command, "run_tournament", tripwire)
    outcome = CliRunner().invoke(
        app, ["tournament", "wriggle-roulette", "--agents", "equilibrium,heuristic", "--games", "1000", "--no-ladder"]
    )
    assert started == ["run"]
    assert "warning: the equilibrium agent solves each new round it meets" in outcome.stderr
    assert "may take about 50 minutes" in outcome.stderr


def test_warm_solves_a_round_through_the_compiled_kernels(capsys: pytest.CaptureFixture[str]) -> None:
    from gamebag.agents.equilibrium import warm
    from gamebag.agents.equilibrium.solver import compiled_kernels

    warm.main()
    line = capsys.readouterr().out.strip()
    assert line.startswith("gamebag.agents.equilibrium.warm: round solver ")
    assert ("round solver compiled," in line) == (compiled_kernels() is not None)
