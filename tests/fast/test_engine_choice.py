"""``simulate`` and ``tournament`` choose the fast engine by themselves, say so, and fall back safely."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gamebag.core.errors import GamebagError
from gamebag.fast import registry
from gamebag.fast.eel.engine import EelFamilyEngine
from gamebag.sim.simulate import SimulationSpec, choose_engine, run_simulation
from gamebag.sim.tournament import TournamentSpec, run_tournament

GAMEBAG = [sys.executable, "-m", "gamebag.cli"]


def spec(agents: tuple[str, ...] = ("random", "heuristic", "random"), games: int = 400) -> SimulationSpec:
    return SimulationSpec(game="wriggle-roulette", players=3, agents=agents, games=games, seed=5)


def test_auto_picks_the_fast_engine_when_everything_has_a_kernel() -> None:
    result = run_simulation(spec())
    assert result.engine == "fast" and result.engine_reason is None
    assert result.to_json()["engine"] == "fast"
    assert sum(result.win_share) == pytest.approx(1.0)
    rules = run_simulation(spec(), engine="rules")
    assert rules.engine == "rules" and rules.to_json()["engine"] == "rules"
    # Different random streams, same game: the heuristic seat wins most on both engines.
    assert result.win_share[1] > max(result.win_share[0], result.win_share[2])
    assert rules.win_share[1] > max(rules.win_share[0], rules.win_share[2])


def test_fast_results_do_not_depend_on_workers_or_chunks() -> None:
    one = run_simulation(spec(games=3000), workers=1, engine="fast")
    two = run_simulation(spec(games=3000), workers=2, engine="fast")
    assert one.win_share == two.win_share and one.mean_score == two.mean_score
    assert one.mean_rounds == two.mean_rounds


def test_auto_falls_back_to_the_rules_engine_and_says_why() -> None:
    result = run_simulation(spec(("random", "ismcts:iterations=5", "random"), games=3))
    assert result.engine == "rules"
    assert result.engine_reason is not None and "ismcts" in result.engine_reason
    assert choose_engine(spec(), "auto", keep_records=True).engine == "rules"


def test_fast_engine_that_cannot_run_is_a_clear_error() -> None:
    with pytest.raises(GamebagError, match="no compiled policy"):
        choose_engine(spec(("random", "ismcts", "random")), "fast")
    with pytest.raises(GamebagError, match="records"):
        choose_engine(spec(), "fast", keep_records=True)
    with pytest.raises(GamebagError, match="auto, rules, fast"):
        choose_engine(spec(), "turbo")


def test_a_missing_compiler_means_the_rules_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "compiler_problem", lambda: "numba is not usable here (ImportError: gone)")
    result = run_simulation(spec(games=20))
    assert result.engine == "rules" and "numba is not usable" in str(result.engine_reason)


def test_a_kernel_that_fails_when_it_runs_hands_over_to_the_rules_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("LLVM exploded")

    monkeypatch.setattr(EelFamilyEngine, "play", broken)
    result = run_simulation(spec(games=20))
    assert result.engine == "rules" and "LLVM exploded" in str(result.engine_reason)
    assert len(result.win_share) == 3
    with pytest.raises(GamebagError, match="LLVM exploded"):
        run_simulation(spec(games=20), engine="fast")


def test_simulate_command_reports_the_engine() -> None:
    done = subprocess.run(
        [*GAMEBAG, "simulate", "eel-harvest", "-n", "3", "-g", "500", "-a", "heuristic", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["engine"] == "fast"
    table = subprocess.run(
        [*GAMEBAG, "simulate", "eel-harvest", "-n", "3", "-g", "5", "--engine", "rules"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert table.returncode == 0 and "engine: rules" in table.stdout
    bad = subprocess.run(
        [*GAMEBAG, "simulate", "eel-harvest", "-g", "5", "-a", "ismcts", "--engine", "fast"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode != 0 and "no compiled policy" in bad.stderr and "Traceback" not in bad.stderr


def test_tournament_runs_compiled_matchups_on_the_fast_engine() -> None:
    field = TournamentSpec(
        game="wriggle-roulette", players=2, agents=("random", "heuristic"), games=40, seed=1, auto_ladder=False
    )
    fast = run_tournament(field)
    assert fast.engine == "fast" and fast.to_json()["engine"] == "fast"
    assert fast.matrix[1][0] is not None and fast.matrix[1][0].rate > 0.5
    again = run_tournament(field, workers=2)
    assert again.matrix[1][0] == fast.matrix[1][0]
    rules = run_tournament(field, engine="rules")
    assert rules.engine == "rules"
    mixed = run_tournament(
        TournamentSpec(
            game="wriggle-roulette",
            players=2,
            agents=("random", "heuristic", "ismcts:iterations=4"),
            games=2,
            seed=1,
            auto_ladder=False,
        )
    )
    assert mixed.engine == "mixed" and "ismcts" in str(mixed.engine_reason)
    with pytest.raises(GamebagError, match="no compiled policy"):
        run_tournament(
            TournamentSpec(
                game="wriggle-roulette",
                players=2,
                agents=("random", "ismcts:iterations=4"),
                games=2,
                seed=1,
                auto_ladder=False,
            ),
            engine="fast",
        )


def test_a_missing_numba_gives_one_notice_and_the_rules_engines_result() -> None:
    # ``sys.modules["numba"] = None`` makes every ``import numba`` fail, as on a machine without it.
    script = (
        "import sys; sys.modules['numba'] = None\n"
        "from gamebag.cli.app import main\n"
        "sys.argv = ['gamebag', 'simulate', 'wriggle-roulette', '-n', '3', '-g', '6', '--seed', '4', '--json']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    notices = [line for line in done.stderr.splitlines() if line.startswith("notice:")]
    assert len(notices) == 1 and "numba is not usable" in notices[0], done.stderr
    result = json.loads(done.stdout)
    assert result["engine"] == "rules"
    expected = run_simulation(SimulationSpec("wriggle-roulette", 3, ("random",) * 3, 6, 4), engine="rules")
    assert result["win_share"] == pytest.approx(expected.win_share)


def test_a_kernel_failing_as_it_runs_gives_one_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from gamebag.cli.app import app

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("LLVM exploded")

    monkeypatch.setattr(EelFamilyEngine, "play", broken)
    runner = CliRunner()
    done = runner.invoke(app, ["simulate", "wriggle-roulette", "-n", "3", "-g", "6", "--json"])
    assert done.exit_code == 0, done.output
    assert done.stderr.count("notice: using the rules engine") == 1 and "LLVM exploded" in done.stderr
    assert json.loads(done.stdout)["engine"] == "rules"
    field = ["tournament", "wriggle-roulette", "-n", "2", "-a", "random,heuristic", "-g", "4", "--no-ladder", "--json"]
    done = runner.invoke(app, field)
    assert done.exit_code == 0, done.output
    assert done.stderr.count("notice: using the rules engine") == 1 and "LLVM exploded" in done.stderr
    assert json.loads(done.stdout)["engine"] == "rules"


def test_a_switched_off_compiler_is_a_compiler_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    import numba

    registry.compiler_problem.cache_clear()
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    try:
        assert "NUMBA_DISABLE_JIT" in str(registry.compiler_problem())
    finally:
        registry.compiler_problem.cache_clear()


@pytest.mark.parametrize(
    ("game", "names"),
    [("catch-a-dragon", {"rounds", "tiebreak_cap"}), ("pig", {"goal"}), ("wriggle-roulette", {"goal"})],
)
def test_both_engines_say_how_games_ended_as_termination_names_it(game: str, names: set[str]) -> None:
    for engine in ("fast", "rules"):
        result = run_simulation(SimulationSpec(game, 2, ("random", "random"), 200, 3), engine=engine)
        ended = result.extra["ended_by"]
        assert set(ended) <= names and sum(ended.values()) == 200, (engine, ended)
    if game == "catch-a-dragon":
        # With no tie-break rounds, leaders tied after the last round share the win at once.
        for engine in ("fast", "rules"):
            spec = SimulationSpec(game, 2, ("random", "random"), 300, 3, {"rounds": 1, "max_tiebreak_rounds": 0})
            ended = run_simulation(spec, engine=engine).extra["ended_by"]
            assert ended.get("tiebreak_cap", 0) > 0 and sum(ended.values()) == 300, (engine, ended)
