"""Exact analyses agree with the solvers: known blunders, known lucky rolls, and the books balance."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest

import gamebag
from gamebag.agents.base import Agent, SeatView
from gamebag.agents.equilibrium.solver import EQUILIBRIUM, solve_matrix_games
from gamebag.agents.registry import heuristic_for
from gamebag.agents.solvers.solutions import win_solution
from gamebag.analysis import AnalysisSettings, analyse_record
from gamebag.analysis.eel import EelEquilibriumEvaluator
from gamebag.analysis.figures import BLUNDER, MISTAKE, move_accuracy
from gamebag.analysis.turns import TurnWinEvaluator
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.records import Record
from gamebag.core.rng import Rng
from gamebag.sim.play import play_game

GOAL = 20


def pig_record(events: list[Any]) -> Record:
    return Record("pig", 2, {"goal": GOAL}, [e if isinstance(e, dict) else {"chance": e} for e in events])


def moves(seat: int, action: str) -> dict[str, Any]:
    return {"moves": {str(seat): action}}


# Seat 0 busts; seat 1 banks 19 (6+6+4+3); seat 0 rolls a 2 and holds (the blunder: seat 1 needs one
# roll that is not a 1); seat 1 then rolls a 2 and wins.
PIG_BLUNDER = [
    1,
    6, moves(1, "roll"), 6, moves(1, "roll"), 4, moves(1, "roll"), 3, moves(1, "hold"),
    2, moves(0, "hold"),
    2,
]  # fmt: skip


def reference_roll(table: np.ndarray, mine: int, theirs: int, total: int) -> float:
    """The mover's chance to win if it rolls at ``total``, from the solver's start-of-turn table only."""

    @cache
    def roll(t: int) -> float:
        value = (1.0 - table[theirs, mine]) / 6
        for face in range(2, 7):
            after = t + face
            if mine + after >= GOAL:
                value += 1.0 / 6
            else:
                value += max(1.0 - table[theirs, mine + after], roll(after)) / 6
        return value

    return roll(total)


def test_pig_known_blunder_and_lucky_roll_match_the_solver() -> None:
    analysis = analyse_record(pig_record(PIG_BLUNDER))
    table = win_solution(gamebag.make("pig", 2, goal=GOAL)).win_probability
    hold = next(d for d in analysis.decisions if d.event == 10)
    assert (hold.seat, hold.action, hold.best) == (0, "hold", ["roll"])
    assert hold.value.mean == pytest.approx(1.0 - table[19, 2], abs=1e-9)
    assert hold.best_value.mean == pytest.approx(reference_roll(table, 0, 19, 2), abs=1e-9)
    assert hold.loss.mean == pytest.approx(hold.best_value.mean - hold.value.mean, abs=1e-12)
    assert hold.loss.mean >= BLUNDER and hold.label == "blunder"
    seat0, seat1 = analysis.seats
    assert seat0.count("blunder") == 1 and seat0.accuracy == pytest.approx(move_accuracy(hold.loss.mean))
    # The last roll (event 11): seat 1 at 19 against 2 wins at once; before it, its chance was W[19, 2].
    last = dict(seat1.luck_events)[11]
    assert last.mean == pytest.approx(1.0 - table[19, 2], abs=1e-9)
    assert seat0.luck.mean == pytest.approx(-seat1.luck.mean, abs=1e-12)
    # The very first roll (a 1) cost seat 0 exactly W[0, 0] minus its chance at 0-0 with seat 1 to move.
    assert dict(seat0.luck_events)[0].mean == pytest.approx((1.0 - table[0, 0]) - table[0, 0], abs=1e-9)


def books_balance(analysis: Any, game: Game[Any, Any, Any], start: float) -> None:
    """Two-player turn games: result - start = luck - own losses + the opponent's losses (telescoping)."""
    for seat, report in enumerate(analysis.seats):
        other = analysis.seats[1 - seat]
        own = sum(d.loss.mean for d in report.decisions)
        theirs = sum(d.loss.mean for d in other.decisions)
        begin = start if seat == 0 else 1.0 - start
        assert report.result - begin == pytest.approx(report.luck.mean - own + theirs, abs=1e-9)


class StopWhenBehind(Agent):
    """The heuristic, except that in the last regular round seat 1 stops as soon as it may (a known error)."""

    name = "stopper"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.inner = heuristic_for(game)

    def act(self, view: SeatView, rng: Rng) -> Any:
        if "stop" in view.legal_actions and view.observation["round"] >= 4:
            return "stop"
        return self.inner.act(view, rng)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_catch_a_dragon_values_are_the_solver_values(seed: int) -> None:
    game = gamebag.make("catch-a-dragon", 2)
    played = play_game(game, [heuristic_for(game), StopWhenBehind(game)], Rng(seed))
    assert played.record is not None
    analysis = analyse_record(played.record)
    solution = win_solution(game)
    evaluator = TurnWinEvaluator(game)
    state = game.initial_state()
    decisions = {(d.event, d.seat): d for d in analysis.decisions}
    for index, event in enumerate(played.record.events):
        if game.node_kind(state) is NodeKind.CHANCE and game.observation(state, 0)["phase"] == "roll":
            position = evaluator.model.turn_position(game.observation(state, 0))
            if position.node == evaluator.graph.nodes[evaluator.graph.root]:
                level = solution.level(position.round, position.seat)
                seat0 = float(level.start_values[level.column(position.scores[0] - position.scores[1])])
                assert evaluator.value(state, 0, index).mean == pytest.approx(seat0, abs=1e-9)
        if "moves" in event and len(game.legal_actions(state, game.acting_players(state)[0])) > 1:
            seat = game.acting_players(state)[0]
            decision = decisions[(index, seat)]
            position = evaluator.model.turn_position(game.observation(state, seat))
            optimal = game.action_to_json(solution.action_for(position))
            assert optimal in decision.best  # the solver's own choice is among the best
        state = gamebag.core.records.apply_event(game, state, event)
    labelled = [d for d in analysis.decisions if d.label is not None]
    assert all(d.loss.mean >= 0.05 for d in labelled)
    books_balance(analysis, game, solution.value)


def test_dragon_stopping_behind_in_the_last_round_is_labelled() -> None:
    game = gamebag.make("catch-a-dragon", 2)
    for seed in range(40):
        played = play_game(game, [heuristic_for(game), StopWhenBehind(game)], Rng(seed))
        assert played.record is not None
        analysis = analyse_record(played.record, AnalysisSettings(seats=(1,)))
        big = [d for d in analysis.decisions if d.action == "stop" and d.loss.mean >= MISTAKE]
        if big:
            assert all(d.best == ["roll"] and d.label in ("mistake", "blunder") for d in big)
            assert analysis.seats[0].count("mistake") + analysis.seats[0].count("blunder") >= len(big)
            return
    raise AssertionError("no game in 40 where stopping early cost seat 1 a mistake")


def test_exact_chance_values_are_expectations() -> None:
    """Before a roll, a seat's value is exactly the mean of its values after each outcome (luck averages 0)."""
    game = gamebag.make("catch-a-dragon", 2)
    evaluator = TurnWinEvaluator(game)
    state = game.apply_chance(game.initial_state(), (3, 4, 5, 5))
    state = game.apply(state, {0: (3, 4)})
    state = game.apply(state, {0: "roll"})
    for seat in (0, 1):
        mean = sum(
            float(p) * evaluator.value(game.apply_chance(state, outcome), seat, 1).mean
            for outcome, p in game.chance_outcomes(state)
        )
        assert evaluator.value(state, seat, 0).mean == pytest.approx(mean, abs=1e-9)


def test_eel_two_player_values_are_the_equilibrium_values() -> None:
    game = gamebag.make("wriggle-roulette", 2)
    evaluator = EelEquilibriumEvaluator(game)
    state = game.initial_state()
    state = game.apply_chance(game.apply(state, {0: 1, 1: 1}), ("E", "E"))  # both hold one eel
    agent = evaluator.agent
    solution = agent.round_solution(0, 0)
    q = agent.solver.both_q(solution, np.array([1]), np.array([1]), np.array([0]))[EQUILIBRIUM, 0]
    rows, columns = solve_matrix_games(q[np.newaxis])
    legal = game.legal_actions(state, 0)
    for seat in (0, 1):
        found = evaluator.choices(state, seat, legal, 2)
        against = q @ columns[0] if seat == 0 else 1.0 - rows[0] @ q
        for count in legal:
            assert found.values[count].mean == pytest.approx(float(against[count]), abs=1e-9)
        mix = rows[0] if seat == 0 else columns[0]
        assert set(found.best) == {c for c in legal if mix[c] > 1e-6}
    # Rounds solved in one batch (as a walk through a record does) give the very same values.
    batched = EelEquilibriumEvaluator(game)
    batched.prepare([game.initial_state()._replace(scores=(3, 5)), state])
    for seat in (0, 1):
        assert batched.choices(state, seat, legal, 2) == evaluator.choices(state, seat, legal, 2)
    # The draw after a one-one grab: the value before is the mean of the values after (4 outcomes).
    grabbed = game.apply(state, {0: 1, 1: 1})
    for seat in (0, 1):
        mean = sum(
            float(p) * evaluator.value(game.apply_chance(grabbed, outcome), seat, 1).mean
            for outcome, p in game.chance_outcomes(grabbed)
        )
        assert evaluator.value(grabbed, seat, 0).mean == pytest.approx(mean, abs=1e-9)
        assert evaluator.value(grabbed, seat, 0).mean == pytest.approx(
            float(q[1, 1]) if seat == 0 else 1.0 - float(q[1, 1]), abs=1e-12
        )
