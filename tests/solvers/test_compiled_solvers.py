"""The compiled solver passes find the values and choices of the NumPy reference passes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gamebag
from gamebag.agents.solvers import race, turn_graph
from gamebag.agents.solvers.model import RaceModel, RoundsModel
from gamebag.agents.solvers.race import solve_race_win
from gamebag.agents.solvers.rounds import SHARE, _end_values, solve_rounds_win
from gamebag.agents.solvers.solutions import turn_model
from gamebag.agents.solvers.turn_graph import (
    compile_turn,
    decision_reach,
    decision_reach_reference,
    evaluate,
    evaluate_reference,
)

VALUE_TOLERANCE = 1e-12


@pytest.mark.parametrize("game_id, options", [("catch-a-dragon", {}), ("catch-a-dragon", {"dice": 5}), ("pig", {})])
def test_evaluate_and_reach_equal_the_numpy_passes(game_id: str, options: dict[str, Any]) -> None:
    model = turn_model(gamebag.make(game_id, 2, **options))
    graph = compile_turn(model)
    rng = np.random.default_rng(7)
    end_values = rng.random((len(graph.end_nodes), 40))
    compiled, reference = evaluate(graph, end_values), evaluate_reference(graph, end_values)
    assert np.allclose(compiled.values, reference.values, rtol=0, atol=VALUE_TOLERANCE)
    assert (compiled.choices == reference.choices).all()
    fixed = rng.integers(0, 2, size=(len(graph.decision_nodes), 40)).astype(np.int8)
    fixed[[len(graph.children[n]) < 2 for n in graph.decision_nodes]] = 0
    compiled, reference = evaluate(graph, end_values, fixed), evaluate_reference(graph, end_values, fixed)
    assert np.allclose(compiled.values, reference.values, rtol=0, atol=VALUE_TOLERANCE)
    assert (compiled.choices == reference.choices).all()
    single = fixed[:, :1]
    assert np.allclose(
        evaluate(graph, end_values, single).values, evaluate_reference(graph, end_values, single).values, atol=1e-12
    )
    assert np.allclose(decision_reach(graph, fixed), decision_reach_reference(graph, fixed), rtol=0, atol=1e-14)


@pytest.mark.parametrize(
    "options",
    [pytest.param({"goal": 100}, marks=pytest.mark.slow), {"goal": 40, "die_sides": 2}, {"goal": 60, "die_sides": 12}],
)
def test_race_solve_equals_the_reference(options: dict[str, Any]) -> None:
    model = turn_model(gamebag.make("pig", **options))
    assert isinstance(model, RaceModel)
    graph = compile_turn(model)
    compiled = solve_race_win(model, graph)
    reference = solve_race_win(model, graph, compiled=False)
    assert np.allclose(compiled.win_probability, reference.win_probability, rtol=0, atol=VALUE_TOLERANCE)
    assert (compiled.choices == reference.choices).all()
    assert compiled.sweeps == reference.sweeps
    if options == {"goal": 100}:
        assert round(compiled.value, 4) == 0.5306  # Neller and Presser's figure


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"duplicate_bust": "none-new", "cyclic": False},
        pytest.param({"dice": 6, "rounds": 2}, marks=pytest.mark.slow),
        {"rounds": 12, "dice": 3},
    ],
)
def test_rounds_solve_equals_the_reference(options: dict[str, Any]) -> None:
    model = turn_model(gamebag.make("catch-a-dragon", 2, **options))
    assert isinstance(model, RoundsModel)
    graph = compile_turn(model)
    compiled = solve_rounds_win(model, graph)
    reference = solve_rounds_win(model, graph, compiled=False)
    assert abs(compiled.value - reference.value) < VALUE_TOLERANCE
    for name, share in reference.breakdown.items():
        assert abs(compiled.breakdown[name] - share) < VALUE_TOLERANCE
    for key, level in reference.levels.items():
        fast = compiled.levels[key]
        assert (fast.low, fast.high) == (level.low, level.high)
        assert np.allclose(fast.start_values, level.start_values, rtol=0, atol=VALUE_TOLERANCE)
        differ = fast.choices != level.choices
        if differ.any():
            # Rounding may flip a choice between options tied within the tie tolerance;
            # then both are optimal: following either gives the same values.
            round_no, seat = key
            turn = (round_no, seat, level.low, level.high)
            end_values = _end_values(graph, reference.levels, reference.rounds, reference.tiebreak_rounds, SHARE, turn)
            best = evaluate_reference(graph, end_values).values[graph.root]
            followed = evaluate_reference(graph, end_values, fast.choices).values[graph.root]
            assert np.allclose(followed, best, rtol=0, atol=1e-11)
            assert differ.sum() < 0.001 * differ.size


def test_solvers_fall_back_to_numpy_without_a_working_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    pig = turn_model(gamebag.make("pig", goal=30))
    dragon = turn_model(gamebag.make("catch-a-dragon", 2, rounds=2))
    assert isinstance(pig, RaceModel) and isinstance(dragon, RoundsModel)
    compiled_race, compiled_rounds = solve_race_win(pig), solve_rounds_win(dragon)
    monkeypatch.setattr(turn_graph, "compiled_kernels", lambda: None)
    monkeypatch.setattr(race, "compiled_kernels", lambda: None)
    fallback_race, fallback_rounds = solve_race_win(pig), solve_rounds_win(dragon)
    assert np.allclose(fallback_race.win_probability, compiled_race.win_probability, rtol=0, atol=VALUE_TOLERANCE)
    assert abs(fallback_rounds.value - compiled_rounds.value) < VALUE_TOLERANCE
