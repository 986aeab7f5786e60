"""Pig: rules from hand-written records, and the win solver against the published result."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.agents.solvers.model import RaceModel
from gamebag.agents.solvers.race import solve_race_win
from gamebag.agents.solvers.solutions import score_solution, turn_model, win_solution
from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError
from gamebag.core.records import Record, replay
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game

Z99 = 2.5758


def play(events: list[dict[str, Any]], **options: Any) -> tuple[Any, Any]:
    record = Record.from_json({"game": "pig", "players": 2, "options": options, "events": events})
    return replay(record, gamebag.make)


def test_rolling_holding_and_losing_the_turn_total() -> None:
    game, state = play(
        [
            {"chance": 4},
            {"moves": {"0": "roll"}},
            {"chance": 6},
            {"moves": {"0": "hold"}},  # seat 0 banks 10
            {"chance": 5},
            {"moves": {"1": "roll"}},
            {"chance": 1},  # seat 1 loses its 5
        ]
    )
    assert state.scores == (10, 0)
    assert state.seat == 0 and state.turn_total == 0 and state.phase == "roll"
    assert game.round_number(state) == 2


def test_reaching_the_goal_wins_at_once() -> None:
    game, state = play([{"chance": 6}, {"moves": {"0": "roll"}}, {"chance": 4}], goal=10)
    assert game.is_terminal(state) and game.winners(state) == (0,) and state.scores == (10, 0)
    assert "seat 0 wins" in gamebag.entry("pig").render_view(game.public_view(state))


def test_illegal_moves() -> None:
    game = gamebag.make("pig")
    state = game.initial_state()
    with pytest.raises(IllegalActionError):
        game.apply(state, {0: "hold"})  # a turn starts with a roll
    state = game.apply_chance(state, 3)
    with pytest.raises(IllegalActionError, match="'hold' or 'roll'"):
        game.apply(state, {0: "pass"})
    with pytest.raises(IllegalChanceOutcomeError):
        game.apply_chance(game.initial_state(), 7)
    with pytest.raises(IllegalActionError):
        game.action_from_json(3)


def neller_value_iteration(goal: int, hold_at_zero: bool) -> float:
    """Plain value iteration over (i, j, k), written independently of the solver."""
    win = np.zeros((goal, goal, goal))
    while True:
        delta = 0.0
        for i in range(goal):
            for j in range(goal):
                for k in range(goal - i):
                    roll = (1 - win[j, i, 0]) / 6
                    for face in range(2, 7):
                        roll += (1.0 if i + k + face >= goal else win[i, j, k + face]) / 6
                    value = roll
                    if k > 0 or hold_at_zero:
                        value = max(roll, 1 - win[j, i + k, 0] if i + k < goal else 1.0)
                    delta = max(delta, abs(value - win[i, j, k]))
                    win[i, j, k] = value
        if delta < 1e-13:
            return float(win[0, 0, 0])


@pytest.mark.parametrize("goal", [6, 12])
def test_race_solver_matches_plain_value_iteration(goal: int) -> None:
    model = turn_model(gamebag.make("pig", goal=goal))
    assert isinstance(model, RaceModel)
    solved = solve_race_win(model).value
    assert solved == pytest.approx(neller_value_iteration(goal, hold_at_zero=False), abs=1e-11)
    assert solved == pytest.approx(neller_value_iteration(goal, hold_at_zero=True), abs=1e-11)


def test_published_first_player_advantage() -> None:
    solution = win_solution(gamebag.make("pig"))
    assert round(solution.value, 4) == 0.5306  # Neller and Presser (2004)
    assert solution.win_probability.shape == (100, 100)


def test_optimal_score_holds_at_twenty() -> None:
    solution = score_solution(gamebag.make("pig"))
    assert solution.action_at(("decide", 19)) == "roll"
    assert solution.action_at(("decide", 20)) == "hold"  # rolling on 20 only ties in expectation
    assert solution.action_at(("decide", 25)) == "hold"


def test_optimal_win_agent_monte_carlo_small_goal() -> None:
    game = gamebag.make("pig", goal=20)
    agents = [make_agent("optimal-win", game), make_agent("optimal-win", game)]
    shares = [play_game(game, agents, derive_rng("pig", i), keep_record=False).returns[0] for i in range(4000)]
    mean = sum(shares) / len(shares)
    spread = math.sqrt(mean * (1 - mean))
    exact = win_solution(game).value
    assert abs(mean - exact) <= Z99 * spread / math.sqrt(len(shares))


def test_optimal_win_beats_hold_at_twenty() -> None:
    game = gamebag.make("pig", goal=30)
    agents = [make_agent("optimal-win", game), make_agent("heuristic", game)]
    swapped = [agents[1], agents[0]]
    first = [play_game(game, agents, derive_rng("pig-h", i), keep_record=False).returns[0] for i in range(1000)]
    second = [play_game(game, swapped, derive_rng("pig-h2", i), keep_record=False).returns[1] for i in range(1000)]
    assert (sum(first) + sum(second)) / 2000 > 0.5


def test_the_documented_example_record() -> None:
    text = (Path(__file__).parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    example = json.loads(text.split("## Pig (`pig`)")[1].split("```json")[1].split("```")[0])
    _, state = replay(Record.from_json(example), gamebag.make)
    assert state.scores == (10, 0) and state.seat == 0 and state.phase == "roll"
