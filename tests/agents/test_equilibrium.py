"""The equilibrium agent: its round model agrees with the rules engine, its strategies are equilibria."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gamebag
from equality_sets import EQUILIBRIUM
from gamebag.agents.base import SeatView
from gamebag.agents.equilibrium.agent import EquilibriumAgent, continuation_for
from gamebag.agents.equilibrium.build import SHIPPED
from gamebag.agents.equilibrium.model import TARGET, rules_for
from gamebag.agents.equilibrium.solver import (
    RoundBatch,
    RoundSolver,
    exploitability_gap,
    solve_matrix_games,
)
from gamebag.agents.equilibrium.tables import EXPLOITABILITY, TABLES
from gamebag.agents.registry import make_agent
from gamebag.core.errors import UnknownAgentError
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import make_rng
from gamebag.sim.play import play_game

# The round model's equality option sets (tests/equality_sets.py, read by the coverage test too):
# the shipped tables' rule sets and, for every number and rotate_start, other values.
MODEL_CONFIGS = [(option_set.game_id, option_set.options) for option_set in EQUILIBRIUM]
CHECK_ITERATIONS = 50
CHECK_TOLERANCE = 0.05
CONFIGS = [
    ("eel-harvest", {}),
    ("eel-harvest", {"outbreak_scores_reserve": True}),
    ("eel-harvest", {"draw": "dice"}),
    ("eel-harvest", {"lone_player_grabs": 2}),
    ("eel-harvest", {"lone_player_grabs": 0}),
    ("wriggle-roulette", {}),
]


def engine_value(
    game: Game[Any, Any, Any], state: Any, start: Any, solution: RoundBatch, entry: int, continuation: np.ndarray
) -> float:
    """Seat 0's value of ``state`` read from the solver's arrays (batch entry ``entry``: the round
    that began at ``start``'s scores), found through the rules engine."""
    if game.is_terminal(state):
        return game.returns(state)[0]
    if game.node_kind(state) is NodeKind.CHANCE:
        return sum(
            float(p) * engine_value(game, game.apply_chance(state, o), start, solution, entry, continuation)
            for o, p in game.chance_outcomes(state)
        )
    if state.round_no != start.round_no:
        return float(continuation[0, state.scores[0], state.scores[1]])
    if all(state.in_round):
        return float(solution.both[entry, state.reserves[0], state.reserves[1], state.centre])
    seat = state.in_round.index(True)
    other = 1 - seat
    gained = state.scores[other] - start.scores[other]
    level = 0 if state.lone_left is None else state.lone_left - 1
    return float(solution.lone[seat][entry, gained, state.reserves[seat], state.centre, level])


def positions(game: Game[Any, Any, Any], seed: int, wanted: int) -> list[Any]:
    """Decision states of two-player playouts where seat 0 grabs small counts (so rounds last)."""
    rng = make_rng(seed)
    found: list[Any] = []
    while len(found) < wanted:
        state = game.initial_state()
        while not game.is_terminal(state) and len(found) < wanted:
            if game.node_kind(state) is NodeKind.CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                continue
            if rng.random() < 0.3:
                found.append(state)
            moves = {p: rng.choice([0, 1, 2, 3, 3, 4]) for p in game.acting_players(state)}
            state = game.apply(state, moves)
    return found


@pytest.mark.parametrize(("game_id", "options"), MODEL_CONFIGS, ids=[f"{g}-{o}" for g, o in MODEL_CONFIGS])
def test_round_model_matches_the_rules_engine(game_id: str, options: dict[str, Any]) -> None:
    game = gamebag.make(game_id, 2, **options)
    rules = rules_for(game)
    # The check compares the model's action values with the engine's, both read from the same
    # solution arrays, so it holds for any solution: a loose equilibrium tolerance keeps it fast.
    solver = RoundSolver(rules, iterations=CHECK_ITERATIONS, tolerance=CHECK_TOLERANCE)
    # A random continuation table makes any wrong transition or payoff show up.
    continuation = np.random.default_rng(5).random((1, rules.target, rules.target))
    checked = [
        state
        for state in positions(game, seed=len(options) + 3, wanted=14)
        # The round-start scores of a lone position are not in the state; with dice the
        # solver caps a reserve at 51 eels (documented).
        if all(state.in_round) and not (rules.dice and max(state.reserves) > rules.eels - 2 * rules.max_grab)
    ]
    # Every round these positions are in, solved in one batch (one entry per start score pair).
    keys = sorted({(state.scores[0], state.scores[1]) for state in checked})
    solution = solver.solve(keys, continuation)
    entries = {key: entry for entry, key in enumerate(keys)}
    checked_both = checked_lone = 0
    for state in checked:
        start = state
        entry = entries[(state.scores[0], state.scores[1])]
        q = solver.both_q(
            solution, np.array([state.reserves[0]]), np.array([state.reserves[1]]), np.array([state.centre])
        )[entry, 0]
        for a0 in range(rules.actions):
            for a1 in range(rules.actions):
                after = game.apply(state, {0: a0, 1: a1})
                expected = engine_value(game, after, start, solution, entry, continuation)
                assert q[a0, a1] == pytest.approx(expected, abs=1e-9), (state, a0, a1)
        checked_both += 1
        # Follow seat 0 exiting while seat 1 grabs, to check the lone player's values too.
        after = game.apply(state, {0: 0, 1: 2})
        rng = make_rng(checked_both)
        while game.node_kind(after) is NodeKind.CHANCE:
            after = game.apply_chance(after, game.sample_chance(after, rng))
        if game.is_terminal(after) or after.round_no != state.round_no or not any(after.in_round):
            continue
        seat = after.in_round.index(True)
        level = 0 if after.lone_left is None else after.lone_left - 1
        gained = after.scores[1 - seat] - state.scores[1 - seat]
        lone_q = solver.lone_q(
            seat,
            solution.lone[seat],
            solution.ends[1 + seat],
            np.array([after.reserves[seat]]),
            np.array([after.centre]),
        )[entry, gained, 0, level]
        for count in range(rules.actions):
            result = game.apply(after, {seat: count})
            expected = engine_value(game, result, state, solution, entry, continuation)
            assert lone_q[count] == pytest.approx(expected, abs=1e-9)
        checked_lone += 1
    assert checked_both >= 5
    if rules.lone_grabs != 0:  # with no lone grabs allowed, nobody is ever alone in a round
        assert checked_lone >= 1


def test_matrix_games_are_solved_to_equilibrium() -> None:
    rng = np.random.default_rng(2)
    payoffs = rng.random((300, 7, 7))
    rows, columns = solve_matrix_games(payoffs)
    assert np.allclose(rows.sum(axis=1), 1) and np.allclose(columns.sum(axis=1), 1)
    assert (rows >= 0).all() and (columns >= 0).all()
    assert exploitability_gap(payoffs, rows, columns).max() < 1e-3
    # Matching pennies: the only equilibrium is one half each.
    pennies = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    rows, columns = solve_matrix_games(pennies)
    assert rows[0] == pytest.approx([0.5, 0.5]) and columns[0] == pytest.approx([0.5, 0.5])


def test_best_response_tracks_bracket_the_equilibrium() -> None:
    solver = RoundSolver(rules_for(gamebag.make("eel-harvest", 2)))
    continuation = np.repeat(np.random.default_rng(1).random((1, TARGET, TARGET)), 3, axis=0)
    roots = solver.solve([(12, 15), (3, 4)], continuation).roots
    for equilibrium, seat0_best, seat1_best in roots:
        assert seat0_best >= equilibrium - 1e-9
        assert seat1_best <= equilibrium + 1e-9
        assert seat0_best - seat1_best < 0.01


def test_tables_ship_for_default_rules_with_exploitability() -> None:
    for rules in SHIPPED:
        table = np.array(TABLES[rules.key])
        assert table.shape == (TARGET, TARGET)
        assert ((table >= 0) & (table <= 1)).all()
        figures = EXPLOITABILITY[rules.key]
        assert 0 <= figures["exploitability"] < 0.01
        # With two players the seats are symmetric (the start player never matters), so
        # W[s0, s1] + W[s1, s0] = 1 up to the solver's per-grab tolerance.
        assert np.allclose(table + table.T, 1.0, atol=1e-3)
        assert table[0, 0] == pytest.approx(0.5, abs=1e-3)
        if rules.rule_set == "wriggle-roulette":
            # First to 20 wins at once: a point more never hurts. (Not so in Eel Harvest, where
            # reaching 20 ends the game at the round's end, perhaps with the opponent ahead.)
            assert (np.diff(table, axis=0) > -1e-3).all()


@pytest.mark.parametrize("game_id", ["eel-harvest", "wriggle-roulette"])
def test_agent_plays_legal_moves_and_beats_random(game_id: str) -> None:
    game = gamebag.make(game_id, 2)
    agent = make_agent("equilibrium", game)
    opponent = make_agent("random", game)
    wins = 0.0
    for index in range(6):
        seats = [agent, opponent] if index % 2 == 0 else [opponent, agent]
        result = play_game(game, seats, make_rng(index), keep_record=False)
        wins += result.returns[index % 2]
    assert wins >= 5


def test_agent_exits_to_win_wriggle_roulette_at_once() -> None:
    game = gamebag.make("wriggle-roulette", 2)
    state = game.initial_state()
    state = state._replace(scores=(15, 17), reserves=(6, 2), bag_eels=43, bag_snakes=15, centre=2)
    agent = EquilibriumAgent(game)
    assert agent.act(SeatView(game, state, 0), make_rng(1)) == 0


@pytest.mark.parametrize(("game_id", "options"), CONFIGS, ids=[f"{g}-{o}" for g, o in CONFIGS])
def test_every_playable_option_set_has_a_table(game_id: str, options: dict[str, Any]) -> None:
    continuation, key = continuation_for(rules_for(gamebag.make(game_id, 2, **options)))
    assert key in TABLES and continuation.shape == (1, TARGET, TARGET)


def test_agent_refuses_other_games_and_player_counts() -> None:
    with pytest.raises(UnknownAgentError, match="two-player"):
        make_agent("equilibrium", gamebag.make("eel-harvest", 3))
    with pytest.raises(UnknownAgentError, match="no parameter"):
        make_agent("equilibrium:depth=3", gamebag.make("eel-harvest", 2))
