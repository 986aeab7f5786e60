"""OpenSpiel's own algorithms on small configurations of our games, against our answers.

* CFR (OpenSpiel's C++ solver, through ``turn_based_simultaneous_game``) on one
  simultaneous grab of the Eel games, cut off after it (``max_game_length=1``):
  its average policy is worth the exact value of the matrix game that gamebag
  computes, and OpenSpiel finds it unexploitable. OpenSpiel's ``nash_conv`` of the
  uniform policy equals the one computed exactly from gamebag's chance outcomes.
* Expectiminimax (OpenSpiel's Python algorithm) on the last turn of a two-player
  Catch A Dragon endgame (a ``start`` position): the same win chance as the
  project's exact turn solver and as an expectimax over gamebag states.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pyspiel
import pytest
from interop_exact import expectimax, matrix_game_value, one_grab_matrix
from open_spiel.python.algorithms.minimax import expectiminimax

from gamebag.agents.solvers.solutions import turn_model
from gamebag.agents.solvers.turn_graph import compile_turn, exact_expectimax
from gamebag.interop.openspiel_game import GamebagSpielState, load, start_string

CFR_ITERATIONS = 100


@pytest.mark.parametrize("game_id", ["eel-harvest", "wriggle-roulette"])
def test_cfr_on_one_grab_matches_the_exact_matrix_game(game_id: str) -> None:
    game = load(game_id, 2, max_game_length=1)
    root = game.new_initial_state()
    core = root.track.config.game
    matrix = one_grab_matrix(core, root.track.state)
    value = matrix_game_value(matrix)

    tree = pyspiel.convert_to_cached_tree(pyspiel.convert_to_turn_based(game))
    solver = pyspiel.CFRSolver(tree)
    for _ in range(CFR_ITERATIONS):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    returns = pyspiel.expected_returns(tree.new_initial_state(), average, -1, True)
    assert returns[0] == pytest.approx(float(value), abs=1e-3)
    assert pyspiel.exploitability(tree, average) < 1e-3

    # NashConv of the uniform policy, exactly from gamebag: each seat's best
    # response to a uniform opponent minus what uniform play earns it.
    n = len(matrix)
    uniform_value = sum((sum(row, Fraction(0)) for row in matrix), Fraction(0)) / (n * n)
    best_row = max(sum(row, Fraction(0)) / n for row in matrix)
    best_column = max(sum((1 - matrix[a][b] for a in range(n)), Fraction(0)) / n for b in range(n))
    ours = (best_row - uniform_value) + (best_column - (1 - uniform_value))
    assert ours > 0
    theirs = pyspiel.nash_conv(tree, pyspiel.UniformRandomPolicy(tree))
    assert theirs == pytest.approx(float(ours), abs=1e-12)


def _final_turn_position(dice_left: int, seed: int) -> GamebagSpielState:
    """A seeded two-player Catch A Dragon game played to seat 1's last turn, mid-turn."""
    game = load("catch-a-dragon", 2, max_tiebreak_rounds=0)
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            core = state.track.config.game
            view = core.public_view(state.track.state)
            if (view["round"], view["turn_seat"], view["phase"], view["dice_left"]) == (4, 1, "decide", dice_left):
                return state
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_expectiminimax_on_a_catch_a_dragon_endgame_matches_our_solver() -> None:
    position = _final_turn_position(dice_left=3, seed=3)
    endgame = load("catch-a-dragon", 2, max_tiebreak_rounds=0, start=start_string(position))
    root = endgame.new_initial_state()
    core = root.track.config.game
    state = root.track.state

    theirs, _ = expectiminimax(root, 50, None, 1)

    by_states = expectimax(core, state, 1)
    model = turn_model(core)
    turn = model.turn_position(core.observation(state, 1))
    lead = turn.scores[0] - turn.scores[1]  # seat 1 must beat this with its last turn

    def share(points: int) -> Fraction:
        return Fraction(1) if points > lead else Fraction(1, 2) if points == lead else Fraction(0)

    graph = compile_turn(model)
    by_solver = exact_expectimax(graph, share).values[graph.index[turn.node]]

    assert by_solver == by_states
    assert 0 < by_solver < 1
    assert theirs == pytest.approx(float(by_solver), abs=1e-12)
