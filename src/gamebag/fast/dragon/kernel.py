"""The Catch A Dragon rules as numba functions over one board row (see ``layout``).

These mirror ``gamebag.games.catch_a_dragon.rules`` step for step: ``end_turn`` is the
rules' ``_end_turn``, ``apply_roll`` and ``apply_action`` apply a chance outcome and an
action, ``is_legal`` reads the legal collections out of ``RulesArrays``. Every rule option
is a kernel parameter: ``dice``, ``rounds``, ``max_tiebreak_rounds``, ``duplicate_bust`` and
``cyclic`` (through a table of the points of every possible set, computed by the rules'
own ``set_points``); ``faces`` only names colours and changes nothing in play.
``tests/fast/test_fast_dragon.py`` replays rules-engine games through them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.dragon.layout import (
    BUST,
    COLLECTED,
    COLLECTING,
    COLLECTIONS,
    CONFIG,
    DECIDING,
    DICE,
    FIELDS,
    FOUR,
    LAST,
    LAST_COLLECTED,
    LAST_ENDED,
    LAST_POINTS,
    LAST_ROLL,
    LAST_ROUND,
    LAST_SEAT,
    LEGAL_LIST,
    LEGAL_START,
    OVER,
    PHASE,
    PLAYERS,
    POINTS,
    ROLL,
    ROLL_RANK,
    ROLL_RANKS,
    ROLLED,
    ROLLING,
    ROUND,
    ROUNDS,
    SCORES,
    SEAT,
    SIDES,
    STOP,
    STOP_END,
    TIEBREAKS,
    WINNERS,
    Int8Array,
    IntArray,
    RulesArrays,
    U64Array,
)
from gamebag.fast.rng import draw_below, helper


# ---- the rules -----------------------------------------------------------------------------
@helper
def held_code(board: IntArray, i: int, column: int) -> int:
    """The set code of the six counts at ``board[i, column:column + 6]``."""
    size = 0
    distinct = 0
    mask = 0
    face = 0
    for f in range(SIDES):
        count = board[i, column + f]
        if count > 0:
            size += count
            distinct += 1
            mask |= 1 << f
            face = f
    if size >= 2 and distinct == 1:
        return 64 + 6 * face + size - 1
    return mask


@helper
def held_size(board: IntArray, i: int) -> int:
    size = 0
    for f in range(SIDES):
        size += board[i, COLLECTED + f]
    return size


@helper
def rolled_rank(board: IntArray, i: int, roll_rank: npt.NDArray[np.int16]) -> int:
    """The rank of the roll in row ``i`` (see ``roll_tables``)."""
    base7 = 0
    power = 1
    for f in range(SIDES):
        base7 += board[i, ROLLED + f] * power
        power *= 7
    return int(roll_rank[base7])


@helper
def legal_range(board: IntArray, i: int, rules: RulesArrays) -> tuple[int, int]:
    """The slice of ``LEGAL_LIST`` holding the legal collections of row ``i``'s set and roll."""
    where = held_code(board, i, COLLECTED) * ROLL_RANKS + rolled_rank(board, i, rules[ROLL_RANK])
    return int(rules[LEGAL_START][where]), int(rules[LEGAL_START][where + 1])


@helper
def end_turn(board: IntArray, i: int, points: int, ended: int, config: IntArray) -> None:
    """The rules' ``_end_turn``: bank ``points``, record the turn, pass on or finish the game."""
    players = config[PLAYERS]
    rounds = config[ROUNDS]
    seat = board[i, SEAT]
    board[i, SCORES + seat] += points
    board[i, LAST] = 1
    board[i, LAST_SEAT] = seat
    board[i, LAST_ROUND] = board[i, ROUND]
    for f in range(SIDES):
        board[i, LAST_COLLECTED + f] = board[i, COLLECTED + f]
        board[i, LAST_ROLL + f] = board[i, ROLLED + f]
        board[i, COLLECTED + f] = 0
        board[i, ROLLED + f] = 0
    board[i, LAST_POINTS] = points
    board[i, LAST_ENDED] = ended
    board[i, PHASE] = ROLLING
    if seat + 1 < players:
        board[i, SEAT] = seat + 1
        return
    round_no = board[i, ROUND]
    if round_no >= rounds:
        best = board[i, SCORES]
        for p in range(1, players):
            best = max(best, board[i, SCORES + p])
        leaders = 0
        mask = 0
        for p in range(players):
            if board[i, SCORES + p] == best:
                leaders += 1
                mask |= 1 << p
        if leaders == 1 or round_no - rounds >= config[TIEBREAKS]:
            board[i, WINNERS] = mask
            board[i, PHASE] = OVER
            return  # the seat stays with the last player, as in the rules engine
    board[i, SEAT] = 0
    board[i, ROUND] = round_no + 1


@helper
def apply_roll(board: IntArray, i: int, rolled: Int8Array, rules: RulesArrays) -> None:
    """The dice show ``rolled`` (counts per face) for the seat to move (the row must be rolling)."""
    for f in range(SIDES):
        board[i, ROLLED + f] = rolled[f]
    first, last = legal_range(board, i, rules)
    if first == last:
        end_turn(board, i, 0, BUST, rules[CONFIG])
    else:
        board[i, PHASE] = COLLECTING


@helper
def apply_action(board: IntArray, i: int, action: int, rules: RulesArrays) -> None:
    """The seat to move takes ``action`` (an index of ``all_actions()``, legal here)."""
    points = rules[POINTS]
    if board[i, PHASE] == DECIDING:
        if action == ROLL:
            board[i, PHASE] = ROLLING
            for f in range(SIDES):
                board[i, ROLLED + f] = 0
        else:
            end_turn(board, i, points[held_code(board, i, COLLECTED)], STOP_END, rules[CONFIG])
        return
    for f in range(SIDES):
        board[i, COLLECTED + f] += rules[COLLECTIONS][action, f]
    if held_size(board, i) == rules[CONFIG][DICE]:
        end_turn(board, i, points[held_code(board, i, COLLECTED)], FOUR, rules[CONFIG])
    else:
        board[i, PHASE] = DECIDING


@helper
def is_legal(board: IntArray, i: int, action: int, rules: RulesArrays) -> bool:
    """Whether the seat to move at row ``i`` may take ``action`` now."""
    phase = board[i, PHASE]
    if phase == DECIDING:
        return STOP <= action <= ROLL
    if phase != COLLECTING:
        return False
    first, last = legal_range(board, i, rules)
    for k in range(first, last):  # noqa: SIM110 - numba compiles loops, not generators
        if rules[LEGAL_LIST][k] == action:
            return True
    return False


@helper
def reset_row(board: IntArray, i: int) -> None:
    """Round 1, seat 0 about to roll, nothing scored."""
    for column in range(FIELDS):
        board[i, column] = 0
    board[i, ROUND] = 1


@helper
def roll_dice(board: IntArray, i: int, key: np.uint64, counters: U64Array, dice: int, rolled: Int8Array) -> None:
    """Roll every uncollected die with the game's stream (one draw per die)."""
    for f in range(SIDES):
        rolled[f] = 0
    for _ in range(dice - held_size(board, i)):
        face = int(draw_below(key, counters[i], np.int64(SIDES)))
        counters[i] += np.uint64(1)
        rolled[face] += 1


@helper
def roll_on(board: IntArray, i: int, key: np.uint64, counters: U64Array, rules: RulesArrays, rolled: Int8Array) -> None:
    """Resolve row ``i``'s rolls until its seat must decide or the game is over."""
    while board[i, PHASE] == ROLLING:
        roll_dice(board, i, key, counters, rules[CONFIG][DICE], rolled)
        apply_roll(board, i, rolled, rules)
