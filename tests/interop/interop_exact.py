"""Exact answers computed with gamebag alone, to compare OpenSpiel's algorithms against.

* ``one_grab_matrix``: seat 0's exact win share for every joint action at a
  two-seat simultaneous node, when the game is cut off after that decision
  (the OpenSpiel adapter's ``max_game_length`` rule: highest score shares the win);
* ``matrix_game_value``: the exact value of a zero-sum matrix game (simplex
  method in ``Fraction`` arithmetic with Bland's rule, so it always terminates);
* ``expectimax``: the exact win share of one seat from a position where only that
  seat decides (the others have no choices left), over gamebag states.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from gamebag.core.protocol import Game, NodeKind
from gamebag.core.results import leaders_share


def _share(values: tuple[float, ...], seat: int) -> Fraction:
    return Fraction(values[seat]).limit_denominator(1000)


def cut_off_share(game: Game[Any, Any, Any], state: Any, seat: int) -> Fraction:
    """The seat's share when play stops at ``state``: the result if over, else highest score wins."""
    if game.is_terminal(state):
        return _share(game.returns(state), seat)
    return _share(leaders_share(game.scores(state), game.score_sign()), seat)


def one_grab_matrix(game: Game[Any, Any, Any], state: Any) -> list[list[Fraction]]:
    """Seat 0's expected share after one joint action of seats 0 and 1 and the chance that follows."""
    rows = []
    for a in game.legal_actions(state, 0):
        row = []
        for b in game.legal_actions(state, 1):
            after = game.apply(state, {0: a, 1: b})
            if game.node_kind(after) is NodeKind.CHANCE:
                value = sum(
                    (p * cut_off_share(game, game.apply_chance(after, o), 0) for o, p in game.chance_outcomes(after)),
                    Fraction(0),
                )
            else:
                value = cut_off_share(game, after, 0)
            row.append(value)
        rows.append(row)
    return rows


def matrix_game_value(matrix: list[list[Fraction]]) -> Fraction:
    """The value for the row player (maximiser) of a zero-sum matrix game, exactly."""
    shift = 1 - min(min(row) for row in matrix)  # make every entry at least 1
    a = [[entry + shift for entry in row] for row in matrix]
    rows, cols = len(a), len(a[0])
    # Column player's LP: maximise sum(w) subject to A w <= 1, w >= 0; value = 1 / max - shift.
    tableau = [[*a[i], *(Fraction(int(i == j)) for j in range(rows)), Fraction(1)] for i in range(rows)]
    objective = [Fraction(-1)] * cols + [Fraction(0)] * (rows + 1)
    basis = [cols + i for i in range(rows)]
    while True:
        entering = next((j for j in range(cols + rows) if objective[j] < 0), None)
        if entering is None:
            break
        candidates = [
            (tableau[i][-1] / tableau[i][entering], basis[i], i) for i in range(rows) if tableau[i][entering] > 0
        ]
        _, _, pivot_row = min(candidates)
        pivot = tableau[pivot_row][entering]
        tableau[pivot_row] = [x / pivot for x in tableau[pivot_row]]
        for i in range(rows):
            if i != pivot_row and tableau[i][entering] != 0:
                factor = tableau[i][entering]
                tableau[i] = [x - factor * y for x, y in zip(tableau[i], tableau[pivot_row], strict=True)]
        factor = objective[entering]
        objective = [x - factor * y for x, y in zip(objective, tableau[pivot_row], strict=True)]
        basis[pivot_row] = entering
    return 1 / objective[-1] - shift


def expectimax(game: Game[Any, Any, Any], state: Any, seat: int) -> Fraction:
    """The seat's best expected share from ``state`` when it is the only one deciding."""

    @cache
    def value(node: Any) -> Fraction:
        kind = game.node_kind(node)
        if kind is NodeKind.TERMINAL:
            return _share(game.returns(node), seat)
        if kind is NodeKind.CHANCE:
            return sum((p * value(game.apply_chance(node, o)) for o, p in game.chance_outcomes(node)), Fraction(0))
        acting = game.acting_players(node)
        if acting != (seat,):
            raise ValueError(f"seats {acting} decide at a node below the position; expectimax needs seat {seat} alone")
        return max(value(game.apply(node, {seat: action})) for action in game.legal_actions(node, seat))

    return value(state)
