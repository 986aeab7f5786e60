"""Estimated analyses: intervals, labels only beyond noise, reproducibility, and the seat's information only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.registry import heuristic_for
from gamebag.agents.solvers.solutions import score_solution
from gamebag.analysis import AnalysisSettings, analyse_record
from gamebag.analysis.estimate import BLOCK, RolloutEvaluator
from gamebag.analysis.figures import BLUNDER, label
from gamebag.analysis.run import DEFAULT_PLAYOUTS, GAME_STEPS, MIN_PLAYOUTS, select_evaluator
from gamebag.analysis.turns import TurnPoints
from gamebag.core.protocol import NodeKind
from gamebag.core.records import Record, apply_event
from gamebag.core.rng import Rng
from gamebag.sim.play import play_game

CHEAP = AnalysisSettings(playouts=20, seed=7)


def played(game_id: str, players: int, seed: int) -> Record:
    game = gamebag.make(game_id, players)
    result = play_game(game, [heuristic_for(game)] * players, Rng(seed))
    assert result.record is not None
    return result.record


def test_three_player_eel_is_estimated_with_intervals_and_reproducible() -> None:
    record = played("eel-harvest", 3, 4)
    first = analyse_record(record, CHEAP).to_json()
    assert first == {**analyse_record(record, CHEAP).to_json(), "seconds": first["seconds"]}
    assert first["exact"] is False and first["playouts"] == CHEAP.playouts
    assert {d["seat"] for d in first["decisions"]} == {0, 1, 2}
    for d in first["decisions"]:
        low, high = d["value_interval"]
        assert low <= d["value"] <= high and d["exact"] is False
        low, high = d["loss_interval"]
        assert d["label"] is None or low > 0  # never a label for what noise alone could give
        assert d["loss"] >= 0 and d["action"] in range(5)
    for seat in first["seats"]:
        low, high = seat["luck_interval"]
        assert low <= seat["luck"] <= high
        assert 0 <= seat["accuracy"] <= 100


def test_leaving_early_while_the_others_play_on_is_a_blunder() -> None:
    """Eel Harvest, three players: seat 0 (17 banked, 3 held) exiting lets the others (15, 2 held) play
    past it; staying in is far better, and the estimate says so beyond its noise."""
    game = gamebag.make("eel-harvest", 3)
    state = game.initial_state()._replace(scores=(17, 15, 15))
    state = game.apply_chance(game.apply(state, {0: 3, 1: 1, 2: 1}), ("EEE", "E", "E"))
    state = game.apply_chance(game.apply(state, {0: 1, 1: 2, 2: 2}), ("S", "SE", "SE"))
    evaluator = RolloutEvaluator(game, 100, seed=1)
    found = evaluator.choices(state, 0, game.legal_actions(state, 0), 4)
    assert found.best != (0,)
    exit_loss = found.losses[0]
    assert exit_loss.low > BLUNDER and label(exit_loss) == "blunder"
    assert label(found.losses[found.best[0]]) is None


def test_dragon_with_three_players_has_exact_points() -> None:
    record = played("catch-a-dragon", 3, 2)
    game = gamebag.make("catch-a-dragon", 3)
    analysis = analyse_record(record, CHEAP)
    assert "optimal-score" in analysis.method
    solution = score_solution(game)
    points = TurnPoints(game)
    state = game.initial_state()
    checked = 0
    for index, event in enumerate(record.events):
        if "moves" in event:
            seat = game.acting_players(state)[0]
            legal = game.legal_actions(state, seat)
            decision = next((d for d in analysis.decisions if d.event == index), None)
            if decision is not None:
                position = points.model.turn_position(game.observation(state, seat))
                node = solution.graph.index[position.node]
                assert decision.points is not None
                assert decision.points["best_value"] == pytest.approx(float(solution.node_values[node]), abs=1e-9)
                assert decision.points["loss"] >= 0
                checked += 1
            assert decision is not None or len(legal) == 1
        state = apply_event(game, state, event)
    assert checked > 0


# What an evaluator may ask about the true state for a seat: public facts, and the seat's own view,
# legal actions and information set. Everything else would read what the seat could not know.
SEAT_METHODS = ("observation", "legal_actions", "resample_from_infostate")
PUBLIC_METHODS = ("node_kind", "is_terminal", "acting_players")
GUARDED = (
    "apply", "apply_chosen", "_apply_unchecked", "apply_chance", "sample_chance", "sample_and_apply_chance",
    "advance_chance", "chance_outcomes", "chance_probabilities", "legal_actions_by_seat", "public_view",
    "scores", "returns", "winners", "observation_tensor", "round_number", "termination",
)  # fmt: skip


def spy_on(game: Any, truths: list[Any], seat: int) -> None:
    """Make ``game`` raise whenever it is asked about one of ``truths`` beyond what ``seat`` may know."""

    def guard(name: str, method: Any) -> Any:
        def checked(*args: Any, **kwargs: Any) -> Any:
            if args and any(args[0] is truth for truth in truths):
                player = args[1] if len(args) > 1 else None
                if name not in PUBLIC_METHODS and not (name in SEAT_METHODS and player == seat):
                    raise AssertionError(f"{name} read the true state for seat {player}")
            return method(*args, **kwargs)

        return checked

    for name in (*GUARDED, *SEAT_METHODS):
        setattr(game, name, guard(name, getattr(game, name)))


def test_eigen_kweek_analysis_reads_only_the_seats_information() -> None:
    """The estimator touches the true state only through the seat's view, legal actions and information set."""
    game = gamebag.make("eigen-kweek", 3)
    agents = [heuristic_for(game)] * 3
    rng = Rng(3)
    state = game.initial_state()
    decisions = chances = 0
    for step in range(300):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            break
        if kind is NodeKind.CHANCE:
            after = game.advance_chance(state, rng)
            if chances < 2 and step > 20:
                spied = gamebag.make("eigen-kweek", 3)
                spy_on(spied, [state, after], 0)
                RolloutEvaluator(spied, 10, seed=5).chance_change(state, after, 0, step)
                chances += 1
            state = after
            continue
        legal = game.legal_actions(state, 0)
        if 0 in game.acting_players(state) and len(legal) > 1 and decisions < 2:
            spied = gamebag.make("eigen-kweek", 3)
            spy_on(spied, [state], 0)
            found = RolloutEvaluator(spied, 10, seed=5).choices(state, 0, legal, step)
            assert set(found.values) == set(legal)
            decisions += 1
        by_seat = game.legal_actions_by_seat(state)
        moves = {p: agents[p].act(SeatView(game, state, p, c), rng) for p, c in by_seat.items()}
        state = game.apply_chosen(state, moves, by_seat)
    assert decisions == 2 and chances == 2


def test_the_others_simultaneous_grabs_do_not_change_a_seats_analysis() -> None:
    """Two Eel records that differ only in seat 1's grab at event 0 (hidden from seat 0 when it chose)
    give seat 0's first decision the same analysis."""
    game = gamebag.make("wriggle-roulette", 3)
    agents = [heuristic_for(game)] * 3
    records = []
    for grab in (1, 4):
        state = game.apply(game.initial_state(), {0: 3, 1: grab, 2: 2})
        record = Record(game.game_id, 3, {}, [{"moves": {"0": 3, "1": grab, "2": 2}}])
        rng = Rng(11)
        while not game.is_terminal(state):
            if game.node_kind(state) is NodeKind.CHANCE:
                outcome, state = game.sample_and_apply_chance(state, rng)
                record.events.append({"chance": game.outcome_to_json(outcome)})
                continue
            by_seat = game.legal_actions_by_seat(state)
            moves = {p: agents[p].act(SeatView(game, state, p, c), rng) for p, c in by_seat.items()}
            state = game.apply_chosen(state, moves, by_seat)
            record.events.append({"moves": {str(p): a for p, a in moves.items()}})
        records.append(analyse_record(record, AnalysisSettings(seats=(0,), playouts=20, seed=3)))
    first, second = (next(d for d in a.decisions if d.event == 0) for a in records)
    assert first == second
    assert first.action == 3


GAMEBAG = [sys.executable, "-m", "gamebag.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMEBAG, *args], capture_output=True, text=True, timeout=300)


def write(tmp_path: Path, data: Any, name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_cli_json_and_refusals(tmp_path: Path) -> None:
    record = played("catch-a-dragon", 2, 5).to_json()
    path = write(tmp_path, record)
    result = run("analyse", str(path), "--json", "--seat", "1")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [s["seat"] for s in data["seats"]] == [1]
    for key in ("accuracy", "luck", "inaccuracies", "mistakes", "blunders"):
        assert key in data["seats"][0]
    for d in data["decisions"]:
        assert set(d) >= {"event", "seat", "action", "best", "value", "best_value", "loss", "label", "exact"}
        assert d["exact"] is True and d["seat"] == 1
    text = run("analyse", str(path))
    assert text.returncode == 0 and "seat 0: accuracy" in text.stdout
    refusals = {
        "unfinished": (write(tmp_path, {**record, "events": record["events"][:-1]}, "cut.json"), [], "not over"),
        "broken": (write(tmp_path, {**record, "events": [{"moves": {"0": "stop"}}]}, "bad.json"), [], "event 0"),
        "budget": (path, ["--budget", "6000"], "--budget must be 10 to 5000"),
        "seat": (path, ["--seat", "2"], "seats are 0 to 1"),
    }
    for name, (file, extra, message) in refusals.items():
        refused = run("analyse", str(file), "--json", *extra)
        assert refused.returncode == 2, name
        assert refused.stdout == "" and message in refused.stderr, (name, refused.stderr)
        assert len(refused.stderr.strip().splitlines()) == 1, name


def test_two_player_eel_with_other_numbers_falls_back_to_estimates() -> None:
    """The equilibrium's tables hold the rulebook's numbers only: a changed target is estimated, not refused."""
    game = gamebag.make("eel-harvest", 2, target=12)
    result = play_game(game, [heuristic_for(game)] * 2, Rng(1))
    assert result.record is not None
    analysis = analyse_record(result.record, AnalysisSettings(playouts=10))
    assert not analysis.exact and analysis.method.startswith("estimate")
    assert len(analysis.seats) == 2 and all(d.exact is False for d in analysis.decisions)


def test_playouts_stop_once_every_interval_is_narrow_and_long_games_get_fewer() -> None:
    """A decision whose choices all lead to the same result costs one block of playouts; one whose results
    are noise uses the whole budget; without --budget, a game asking for many values gets fewer per value."""
    game = gamebag.make("eel-harvest", 3)
    state = game.initial_state()
    legal = game.legal_actions(state, 0)
    evaluator = RolloutEvaluator(game, 200, seed=1)
    calls: list[int] = []

    def same(state: Any, rng: Rng) -> tuple[float, ...]:
        calls.append(1)
        return (1.0, 0.0, 0.0)

    evaluator._playout = same  # type: ignore[method-assign]
    found = evaluator.choices(state, 0, legal, 0)
    assert len(calls) == BLOCK * len(legal) and all(loss.mean == 0.0 for loss in found.losses.values())
    calls.clear()

    def noise(state: Any, rng: Rng) -> tuple[float, ...]:
        calls.append(1)
        return (float(Rng(len(calls)).random() < 0.5), 0.0, 0.0)  # independent of the action's seed

    evaluator._playout = noise  # type: ignore[method-assign]
    evaluator.choices(state, 0, legal, 1)
    assert len(calls) == 200 * len(legal)
    # Without --budget: a short game (about 170 values over 15 events, weighted by the events left after
    # each) keeps the default; a long one (about 1,300 over 230) gets fewer, never under the minimum.
    assert select_evaluator(game, AnalysisSettings(), demand=1400).playouts == DEFAULT_PLAYOUTS
    kweek = select_evaluator(game, AnalysisSettings(), demand=150_000).playouts
    assert kweek == GAME_STEPS // 150_000 and MIN_PLAYOUTS < kweek < DEFAULT_PLAYOUTS
    assert select_evaluator(game, AnalysisSettings(), demand=10**9).playouts == MIN_PLAYOUTS
    assert select_evaluator(game, AnalysisSettings(playouts=300), demand=150_000).playouts == 300  # --budget
