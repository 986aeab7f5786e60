"""The compiled engine of Catch A Dragon By The Tail: whole-game and step kernels, compiled policies.

A position is one row of an int32 *board* mirroring ``DragonState``: eight score
columns (seats past the player count stay 0), the round, the seat to move, the
phase, the collected and the rolled dice as counts per face, the winners as a
bit mask, and the last finished turn (its seat, round, dice, roll, points and how
it ended). Every rule option is a kernel parameter: ``dice``, ``rounds``,
``max_tiebreak_rounds``, ``duplicate_bust`` and ``cyclic`` (through a table of
the points of every possible set, computed by the rules' own ``set_points``);
``faces`` only names colours and changes nothing in play.

A set is named by a *set code* below ``SET_CODES``: the bit mask of its faces for
the empty set, one dragon and different colours, ``64 + 6 * (face - 1) + count - 1``
for two or more identical dragons. A roll is named by its rank among the 924
rolls of at most six dice (``roll_rank``). Policies read small tables indexed by
these codes: the heuristic's value of every set, and the solved optimal-score
and optimal-win choices. ``tests/fast/test_fast_dragon.py`` proves the kernels
equal to ``games/catch_a_dragon``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any, ClassVar, Final

import numba
import numpy as np
import numpy.typing as npt

from gamebag.core.protocol import Game
from gamebag.core.traits import Termination
from gamebag.fast import solved
from gamebag.fast.base import (
    BatchResult,
    FastEngine,
    LearnerStep,
    LearnerView,
    PreparedCache,
    StepBatch,
    illegal_learner_action,
)
from gamebag.fast.learner import first_refused_choice
from gamebag.fast.registry import register_engine
from gamebag.fast.rng import draw_below, game_key, helper, run_key
from gamebag.games.catch_a_dragon.dice import all_collections, bust_probability, legal_collections, set_points
from gamebag.games.catch_a_dragon.rules import (
    MARGIN_REACH,
    OBSERVATION_SIZE,
    ROUNDS_LEFT,
    TURN_REACH,
    DragonState,
    Phase,
)

SIDES = 6
MAX_PLAYERS = 8
MAX_DICE = 6
# Board columns: scores first, then the position, then the last finished turn.
SCORES = 0
ROUND = 8
SEAT = 9
PHASE = 10
COLLECTED = 11  # six counts, faces 1 to 6
ROLLED = 17  # six counts
WINNERS = 23  # bit mask of the winning seats
LAST = 24  # 1 once a turn has finished
LAST_SEAT = 25
LAST_ROUND = 26
LAST_COLLECTED = 27  # six counts
LAST_ROLL = 33  # six counts
LAST_POINTS = 39
LAST_ENDED = 40  # index into TURN_ENDINGS
FIELDS = 41
TURN_ENDINGS = ("bust", "stop", "four")
BUST, STOP_END, FOUR = 0, 1, 2
# Phases, in the order of the rules engine's ``Phase`` enum.
ROLLING, COLLECTING, DECIDING, OVER = 0, 1, 2, 3
# Action indices: ``CatchADragon.all_actions()`` is (stop, roll, *collections).
STOP, ROLL = 0, 1
DUPLICATE_RULES = ("any", "none-new")
SET_CODES = 64 + 36
ROLL_CODES = 7**6  # base-7 numbers of six face counts
ROLL_RANKS = 924  # rolls of at most six dice
POLICIES: tuple[str, ...] = ("random", "heuristic", "optimal-score", "optimal-win")
RANDOM, HEURISTIC, OPTIMAL_SCORE, OPTIMAL_WIN = range(4)
# How a game ended (BatchResult.ended_by), as the rules' ``termination()`` names it.
DRAGON_ENDINGS = (Termination.ROUNDS.value, Termination.TIEBREAK_CAP.value)
# Where the observation's end-game part starts: the seat one-hot, the rounds left, the two thermometers.
OWN_SEAT = 29
ROUNDS_LEFT_AT = OWN_SEAT + MAX_PLAYERS
MARGIN_AT = ROUNDS_LEFT_AT + ROUNDS_LEFT
TURN_AT = MARGIN_AT + 2 * MARGIN_REACH + 1
# The heuristic agent's typical gains (agents/heuristics/catch_a_dragon.py).
DIFFERENT_GAIN = 2.0
ONE_DRAGON_GAIN = 1.5

IntArray = npt.NDArray[np.int32]
Int8Array = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]
FloatArray32 = npt.NDArray[np.float32]
U64Array = npt.NDArray[np.uint64]


# ---- set codes and roll ranks (plain Python, built once) -----------------------------------
def set_code(faces: Sequence[int]) -> int:
    """The code of a valid set given as face numbers."""
    if len(faces) >= 2 and len(set(faces)) == 1:
        return 64 + 6 * (faces[0] - 1) + len(faces) - 1
    mask = 0
    for face in faces:
        mask |= 1 << (face - 1)
    return mask


def set_faces(code: int) -> tuple[int, ...]:
    """The sorted faces of a set code."""
    if code >= 64:
        face, count = divmod(code - 64, 6)
        return (face + 1,) * (count + 1)
    return tuple(face for face in range(1, SIDES + 1) if code >> (face - 1) & 1)


def roll_code(faces: Sequence[int]) -> int:
    """The base-7 number of a roll's face counts."""
    code = 0
    for face in faces:
        code += 7 ** (face - 1)
    return code


@cache
def roll_tables() -> tuple[npt.NDArray[np.int16], tuple[tuple[int, ...], ...]]:
    """(rank of every base-7 roll code, -1 for none; the sorted roll of every rank)."""
    rank = np.full(ROLL_CODES, -1, dtype=np.int16)
    rolls: list[tuple[int, ...]] = []
    for counts in product(range(MAX_DICE + 1), repeat=SIDES):
        if sum(counts) <= MAX_DICE:
            roll = tuple(face for face in range(1, SIDES + 1) for _ in range(counts[face - 1]))
            rank[roll_code(roll)] = len(rolls)
            rolls.append(roll)
    return rank, tuple(rolls)


@cache
def points_table(cyclic: bool) -> IntArray:
    """The rules' points of every valid set code (0 for codes that name no set)."""
    table = np.zeros(SET_CODES, dtype=np.int32)
    for code in range(SET_CODES):
        table[code] = set_points(set_faces(code), cyclic)
    return table


@cache
def collection_table(dice: int) -> Int8Array:
    """``[action, face]``: the dice each collection action takes (rows 0 and 1, stop and roll, are 0)."""
    collections = all_collections(dice)
    table = np.zeros((2 + len(collections), SIDES), dtype=np.int8)
    for k, collection in enumerate(collections):
        for face in collection:
            table[2 + k, face - 1] += 1
    return table


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


# The rules as arrays: CONFIG holds (players, dice, rounds, most tie-break rounds); the
# others are the points of every set code, the dice each action collects, the rank of
# every roll code, and the legal collections of every (set code, roll rank) as ranges
# of LEGAL_LIST (an empty range: the roll busts the set), built from the rules' own
# ``legal_collections``.
CONFIG: Final = 0
POINTS: Final = 1
COLLECTIONS: Final = 2
ROLL_RANK: Final = 3
LEGAL_START: Final = 4
LEGAL_LIST: Final = 5
PLAYERS, DICE, ROUNDS, TIEBREAKS = range(4)
# The policies' tables (see ``policy_tables``), in this order.
HEURISTIC_VALUE: Final = 0
HEURISTIC_ROLL: Final = 1
SCORE_COLLECT: Final = 2
SCORE_DECIDE: Final = 3
WIN_SLOT: Final = 4
WIN_CHOICES: Final = 5
WIN_OFFSET: Final = 6
WIN_LOW: Final = 7
WIN_WIDTH: Final = 8
RulesArrays = tuple[IntArray, IntArray, Int8Array, npt.NDArray[np.int16], IntArray, Int8Array]
TablesArrays = tuple[
    FloatArray, Int8Array, Int8Array, Int8Array, IntArray, Int8Array, npt.NDArray[np.int64], IntArray, IntArray
]


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


# ---- the policies --------------------------------------------------------------------------
@helper
def choose(
    policy: int, board: IntArray, i: int, key: np.uint64, counters: U64Array, rules: RulesArrays, tables: TablesArrays
) -> int:
    """The action ``policy`` takes at row ``i`` (collecting or deciding)."""
    deciding = board[i, PHASE] == DECIDING
    code = held_code(board, i, COLLECTED)
    first, last = (0, 0) if deciding else legal_range(board, i, rules)
    if policy == RANDOM:
        if deciding:
            pick = int(draw_below(key, counters[i], np.int64(2)))
            counters[i] += np.uint64(1)
            return pick
        pick = int(draw_below(key, counters[i], np.int64(last - first)))
        counters[i] += np.uint64(1)
        return int(rules[LEGAL_LIST][first + pick])
    if policy == HEURISTIC:
        if deciding:
            return ROLL if tables[HEURISTIC_ROLL][code] else STOP
        best = -1
        best_value = 0.0
        collections = rules[COLLECTIONS]
        for k in range(first, last):
            action = rules[LEGAL_LIST][k]
            size = 0
            distinct = 0
            mask = 0
            face = 0
            for f in range(SIDES):
                count = board[i, COLLECTED + f] + collections[action, f]
                if count > 0:
                    size += count
                    distinct += 1
                    mask |= 1 << f
                    face = f
            after = 64 + 6 * face + size - 1 if size >= 2 and distinct == 1 else mask
            value = tables[HEURISTIC_VALUE][after]
            if best < 0 or value > best_value:  # ties go to the first, as max() does
                best = action
                best_value = value
        return best
    if policy == OPTIMAL_SCORE:
        if deciding:
            return int(tables[SCORE_DECIDE][code])
        return int(tables[SCORE_COLLECT][code, rolled_rank(board, i, rules[ROLL_RANK])])
    seat = board[i, SEAT]
    round_no = board[i, ROUND]
    if deciding:
        slot = tables[WIN_SLOT][code, 0]
    else:
        slot = tables[WIN_SLOT][code, rolled_rank(board, i, rules[ROLL_RANK]) + 1]
    width = tables[WIN_WIDTH][round_no, seat]
    column = board[i, SCORES] - board[i, SCORES + 1] - tables[WIN_LOW][round_no, seat]
    if slot < 0 or column < 0 or column >= width:
        raise ValueError("optimal-win: a position outside the solved table")
    return int(tables[WIN_CHOICES][tables[WIN_OFFSET][round_no, seat] + slot * width + column])


# ---- whole games ---------------------------------------------------------------------------
@helper
def play_on(
    board: IntArray,
    key: np.uint64,
    counters: U64Array,
    rules: RulesArrays,
    policies: Int8Array,
    tables: TablesArrays,
    rolled: Int8Array,
) -> None:
    """Play row 0 of ``board`` to the end with the seats' compiled policies."""
    roll_on(board, 0, key, counters, rules, rolled)
    while board[0, PHASE] != OVER:
        action = choose(policies[board[0, SEAT]], board, 0, key, counters, rules, tables)
        apply_action(board, 0, action, rules)
        roll_on(board, 0, key, counters, rules, rolled)


@numba.njit(cache=True)
def play_games(
    run: np.uint64, start: int, stop: int, rules: RulesArrays, policies: Int8Array, tables: TablesArrays
) -> tuple[IntArray, FloatArray, IntArray]:
    """Scores, win shares and rounds of games ``start .. stop - 1`` of the run keyed ``run``."""
    players = rules[CONFIG][PLAYERS]
    games = stop - start
    scores = np.zeros((games, players), dtype=np.int32)
    returns = np.zeros((games, players), dtype=np.float64)
    length = np.zeros(games, dtype=np.int32)
    board = np.zeros((1, FIELDS), dtype=np.int32)
    counters = np.zeros(1, dtype=np.uint64)
    rolled = np.zeros(SIDES, dtype=np.int8)
    for g in range(games):
        key = game_key(run, np.int64(start + g))
        counters[0] = np.uint64(0)
        reset_row(board, 0)
        play_on(board, key, counters, rules, policies, tables, rolled)
        winners = 0
        for p in range(players):
            scores[g, p] = board[0, SCORES + p]
            winners += board[0, WINNERS] >> p & 1
        for p in range(players):
            if board[0, WINNERS] >> p & 1:
                returns[g, p] = 1.0 / winners
        length[g] = board[0, ROUND]
    return scores, returns, length


# ---- step batches --------------------------------------------------------------------------
@numba.njit(cache=True)
def roll_rows(board: IntArray, keys: U64Array, counters: U64Array, rules: RulesArrays) -> None:
    """Resolve every pending roll until each game waits for a decision or is over."""
    rolled = np.zeros(SIDES, dtype=np.int8)
    for i in range(board.shape[0]):
        roll_on(board, i, keys[i], counters, rules, rolled)


@numba.njit(cache=True)
def step_rows(
    board: IntArray,
    keys: U64Array,
    counters: U64Array,
    actions: npt.NDArray[np.int64],
    finished: npt.NDArray[np.bool_],
    rules: RulesArrays,
) -> int:
    """Apply each acting seat's action and roll on; returns the first row with an illegal action, or -1."""
    for i in range(board.shape[0]):
        phase = board[i, PHASE]
        if COLLECTING <= phase <= DECIDING and not is_legal(board, i, int(actions[i, board[i, SEAT]]), rules):
            return i
    rolled = np.zeros(SIDES, dtype=np.int8)
    for i in range(board.shape[0]):
        finished[i] = False
        phase = board[i, PHASE]
        if phase != COLLECTING and phase != DECIDING:
            continue
        apply_action(board, i, int(actions[i, board[i, SEAT]]), rules)
        roll_on(board, i, keys[i], counters, rules, rolled)
        finished[i] = board[i, PHASE] == OVER
    return -1


@numba.njit(cache=True)
def policy_rows(
    policies: Int8Array, board: IntArray, keys: U64Array, counters: U64Array, rules: RulesArrays, tables: TablesArrays
) -> npt.NDArray[np.int64]:
    """Each acting seat's action under its compiled policy (0 elsewhere)."""
    actions = np.zeros((board.shape[0], policies.shape[0]), dtype=np.int64)
    for i in range(board.shape[0]):
        phase = board[i, PHASE]
        if COLLECTING <= phase <= DECIDING:
            seat = board[i, SEAT]
            actions[i, seat] = choose(policies[seat], board, i, keys[i], counters, rules, tables)
    return actions


@numba.njit(cache=True)
def legal_rows(board: IntArray, rules: RulesArrays) -> npt.NDArray[np.bool_]:
    """``[rows, players, actions]``: the legal actions of the seat to move."""
    mask = np.zeros((board.shape[0], rules[CONFIG][PLAYERS], rules[COLLECTIONS].shape[0]), dtype=np.bool_)
    for i in range(board.shape[0]):
        phase = board[i, PHASE]
        seat = board[i, SEAT]
        if phase == DECIDING:
            mask[i, seat, STOP] = True
            mask[i, seat, ROLL] = True
        elif phase == COLLECTING:
            first, last = legal_range(board, i, rules)
            for k in range(first, last):
                mask[i, seat, rules[LEGAL_LIST][k]] = True
    return mask


@helper
def thermometer_into(out: FloatArray32, i: int, slot: int, start: int, value: int, reach: int) -> None:
    """``rules.thermometer(value, reach)`` written from ``out[i, slot, start]`` on (the row starts zeroed)."""
    for k in range(2 * reach + 1):
        if value >= k - reach:
            out[i, slot, start + k] = 1.0


@helper
def margin_of(board: IntArray, i: int, player: int, players: int, banked: int) -> int:
    """``rules.margin`` of ``player`` at row ``i``, the seat to move's total raised by ``banked``."""
    if players == 1:
        return 0
    seat = board[i, SEAT]
    best = -(1 << 30)
    for k in range(players):
        if k != player:
            best = max(best, board[i, SCORES + k] + (banked if k == seat else 0))
    return int(board[i, SCORES + player] + (banked if player == seat else 0) - best)


@helper
def observe_into(board: IntArray, i: int, player: int, rules: RulesArrays, out: FloatArray32, slot: int) -> None:
    """``CatchADragon.observation_tensor`` of ``player`` at row ``i``, written into ``out[i, slot]``."""
    config = rules[CONFIG]
    players = config[PLAYERS]
    dice = config[DICE]
    rounds = config[ROUNDS]
    scale = max(16, dice * dice)
    top = scale * rounds
    phase = board[i, PHASE]
    held = rules[POINTS][held_code(board, i, COLLECTED)]
    for k in range(OBSERVATION_SIZE):
        out[i, slot, k] = 0.0
    for f in range(SIDES):
        out[i, slot, f] = board[i, COLLECTED + f] / dice
        out[i, slot, 6 + f] = board[i, ROLLED + f] / dice
    out[i, slot, 12 + phase] = 1.0
    out[i, slot, 16] = 1.0 if board[i, SEAT] == player and phase != OVER else 0.0
    out[i, slot, 17] = held / scale
    for k in range(players):
        out[i, slot, 18 + k] = board[i, SCORES + (player + k) % players] / top
    out[i, slot, 26] = ((board[i, SEAT] - player) % players) / 8
    out[i, slot, 27] = min(board[i, ROUND], rounds) / rounds
    out[i, slot, 28] = max(0, board[i, ROUND] - rounds) / max(1, config[TIEBREAKS])
    out[i, slot, OWN_SEAT + player] = 1.0
    out[i, slot, ROUNDS_LEFT_AT + min(ROUNDS_LEFT - 1, max(0, rounds - board[i, ROUND]))] = 1.0
    thermometer_into(out, i, slot, MARGIN_AT, margin_of(board, i, player, players, 0), MARGIN_REACH)
    thermometer_into(out, i, slot, TURN_AT, margin_of(board, i, player, players, held), TURN_REACH)


@numba.njit(cache=True)
def observe_rows(board: IntArray, rules: RulesArrays) -> FloatArray32:
    """``CatchADragon.observation_tensor`` of every seat of every row."""
    players = rules[CONFIG][PLAYERS]
    out = np.zeros((board.shape[0], players, OBSERVATION_SIZE), dtype=np.float32)
    for i in range(board.shape[0]):
        for player in range(players):
            observe_into(board, i, player, rules, out, player)
    return out


@numba.njit(cache=True)
def learner_step_rows(
    board: IntArray,
    keys: U64Array,
    counters: U64Array,
    finished: npt.NDArray[np.bool_],
    index: npt.NDArray[np.int64],
    run: np.uint64,
    rules: RulesArrays,
    tables: TablesArrays,
    seat: int,
    policy: int,
    chosen: npt.NDArray[np.int64],
    acting: npt.NDArray[np.bool_],
    masks: npt.NDArray[np.bool_],
    moves: npt.NDArray[np.int64],
    out_observations: FloatArray32,
    out_masks: npt.NDArray[np.bool_],
    out_acting: npt.NDArray[np.bool_],
    out_rewards: FloatArray,
    out_done: npt.NDArray[np.bool_],
) -> int:
    """``StepBatch.learner_step`` in one call: the check, the opponents' choices, the step, restarts, the view.

    Returns ``-1``; or the first env whose acting learner's ``chosen`` action is outside
    ``masks`` (then nothing changed); or, should the rules refuse a move (a ``before``
    that is not this batch's view), ``num_envs`` plus that env, with nothing applied.
    The seat to move takes its policy draw even where it is the learner (whose choice then
    replaces it), every move is checked before any is applied, and a finished env goes on
    with game ``index + num_envs``, as the default's ``policy_actions``, ``step`` and
    ``reset_done`` do. ``moves`` is scratch: each env's move by the seat to move.
    """
    rows = board.shape[0]
    top = masks.shape[1]
    refused = first_refused_choice(chosen, acting, masks)
    if refused >= 0:
        return refused
    for i in range(rows):
        phase = board[i, PHASE]
        moves[i] = 0
        if COLLECTING <= phase <= DECIDING:
            moves[i] = choose(policy, board, i, keys[i], counters, rules, tables)
            if board[i, SEAT] == seat:
                moves[i] = chosen[i] if acting[i] else 0
    for i in range(rows):
        phase = board[i, PHASE]
        if COLLECTING <= phase <= DECIDING and not is_legal(board, i, int(moves[i]), rules):
            return int(rows + i)
    rolled = np.zeros(SIDES, dtype=np.int8)
    players = rules[CONFIG][PLAYERS]
    for i in range(rows):
        finished[i] = False
        out_rewards[i] = 0.0
        phase = board[i, PHASE]
        if COLLECTING <= phase <= DECIDING:
            apply_action(board, i, int(moves[i]), rules)
            roll_on(board, i, keys[i], counters, rules, rolled)
            finished[i] = board[i, PHASE] == OVER
            if finished[i]:
                winners = 0
                for p in range(players):
                    winners += board[i, WINNERS] >> p & 1
                out_rewards[i] = (board[i, WINNERS] >> seat & 1) / winners
        out_done[i] = board[i, PHASE] == OVER
    for i in range(rows):
        if out_done[i]:
            index[i] += rows
            reset_row(board, i)
            keys[i] = game_key(run, index[i])
            counters[i] = np.uint64(0)
            roll_on(board, i, keys[i], counters, rules, rolled)
            finished[i] = False  # every game needs at least one decision
        phase = board[i, PHASE]
        out_acting[i] = COLLECTING <= phase <= DECIDING and board[i, SEAT] == seat
        for a in range(top):
            out_masks[i, a] = not out_acting[i]
        if phase == DECIDING and out_acting[i]:
            out_masks[i, STOP] = True
            out_masks[i, ROLL] = True
        elif out_acting[i]:
            first, last = legal_range(board, i, rules)
            for k in range(first, last):
                out_masks[i, rules[LEGAL_LIST][k]] = True
        observe_into(board, i, seat, rules, out_observations, 0)
    return -1


# ---- configuration and tables --------------------------------------------------------------
@dataclass(frozen=True)
class DragonRules:
    """The options of one configured Catch A Dragon that change play."""

    players: int
    dice: int
    rounds: int
    tiebreaks: int
    duplicate_bust: str
    cyclic: bool


def _int_option(game: Game[Any, Any, Any], name: str, default: int) -> int:
    value = game.options.get(name, default)
    return value if isinstance(value, int) else default


def rules_of(game: Game[Any, Any, Any]) -> DragonRules:
    return DragonRules(
        players=game.num_players,
        dice=_int_option(game, "dice", 4),
        rounds=_int_option(game, "rounds", 4),
        tiebreaks=_int_option(game, "max_tiebreak_rounds", 10),
        duplicate_bust=str(game.options.get("duplicate_bust", "any")),
        cyclic=bool(game.options.get("cyclic", True)),
    )


@cache
def legal_tables(dice: int, duplicate_bust: str) -> tuple[IntArray, Int8Array]:
    """(range starts by set code x roll rank, action indices): the rules' ``legal_collections``."""
    action_of = {collection: 2 + k for k, collection in enumerate(all_collections(dice))}
    _, rolls = roll_tables()
    starts = np.zeros(SET_CODES * ROLL_RANKS + 1, dtype=np.int32)
    actions: list[int] = []
    for code in range(SET_CODES):
        held = set_faces(code)
        for rank, roll in enumerate(rolls):
            starts[code * ROLL_RANKS + rank] = len(actions)
            if len(held) < dice and len(roll) == dice - len(held) and (code < 64 or len(held) >= 2):
                actions.extend(action_of[c] for c in legal_collections(held, roll, duplicate_bust))
    starts[-1] = len(actions)
    return starts, np.array(actions, dtype=np.int8)


@cache
def rules_arrays(rules: DragonRules) -> RulesArrays:
    """The kernels' view of ``rules`` (see ``CONFIG`` ... ``LEGAL_LIST``)."""
    config = np.array([rules.players, rules.dice, rules.rounds, rules.tiebreaks], dtype=np.int32)
    starts, actions = legal_tables(rules.dice, rules.duplicate_bust)
    return (config, points_table(rules.cyclic), collection_table(rules.dice), roll_tables()[0], starts, actions)


def _counts(faces: tuple[int, ...]) -> list[int]:
    return [faces.count(face) for face in range(1, SIDES + 1)]


_PHASE_INDEX = {phase: k for k, phase in enumerate(Phase)}


def board_row(state: DragonState) -> list[int]:
    """A rules-engine state as a board row (the exact replays prove the two agree)."""
    row = [*state.scores, *([0] * (MAX_PLAYERS - len(state.scores)))]
    row += [state.round_no, state.seat, _PHASE_INDEX[state.phase], *_counts(state.collected), *_counts(state.rolled)]
    row.append(sum(1 << seat for seat in state.winners))
    last = state.last_turn
    if last is None:
        return row + [0] * (FIELDS - len(row))
    row += [1, last.seat, last.round_no, *_counts(last.collected), *_counts(last.last_roll), last.points]
    row.append(TURN_ENDINGS.index(last.ended_by))
    return row


def heuristic_points(faces: tuple[int, ...], cyclic: bool) -> float:
    """The heuristic agent's scoring: the game's own ``set_points``."""
    return float(set_points(faces, cyclic))


def heuristic_bust_chance(faces: tuple[int, ...], duplicate_bust: str, dice_in_all: int) -> float:
    """The heuristic agent's bust chance: the game's own exact ``bust_probability``."""
    return float(bust_probability(faces, duplicate_bust, dice_in_all))


def heuristic_estimate(faces: tuple[int, ...], cyclic: bool, duplicate_bust: str, dice_in_all: int) -> float:
    """The heuristic agent's value of rolling on with ``faces`` (same arithmetic, same order)."""
    points = heuristic_points(faces, cyclic)
    if len(faces) == dice_in_all:
        return points
    if len(faces) == 1:
        gain = ONE_DRAGON_GAIN
    elif len(set(faces)) == 1:
        gain = float((len(faces) + 1) ** 2 - len(faces) ** 2)
    else:
        gain = DIFFERENT_GAIN
    return (1.0 - heuristic_bust_chance(faces, duplicate_bust, dice_in_all)) * (points + gain)


def heuristic_tables(rules: DragonRules) -> tuple[FloatArray, Int8Array]:
    """``[set code]``: the heuristic's worth of a set (the better of stopping and rolling on), and if it rolls on."""
    value = np.zeros(SET_CODES, dtype=np.float64)
    roll = np.zeros(SET_CODES, dtype=np.int8)
    for code in range(SET_CODES):
        faces = set_faces(code)
        if len(faces) > rules.dice:
            continue
        points = heuristic_points(faces, rules.cyclic)
        estimate = heuristic_estimate(faces, rules.cyclic, rules.duplicate_bust, rules.dice)
        value[code] = max(points, estimate)
        roll[code] = 1 if estimate > points else 0
    return value, roll


def _node_codes(node: Hashable) -> tuple[int, int]:
    """(set code, roll rank, or -1 at a stop-or-roll node) of a turn decision node."""
    if not isinstance(node, tuple) or node[0] not in ("collect", "decide"):
        raise TypeError(f"{node!r} is not a decision node of a Catch A Dragon turn")
    if node[0] == "decide":
        return set_code(node[1]), -1
    return set_code(node[1]), int(roll_tables()[0][roll_code(node[2])])


def score_tables(game: Game[Any, Any, Any]) -> tuple[Int8Array, Int8Array]:
    """``[set code, roll rank]`` and ``[set code]``: the optimal-score action at every decision."""
    # The solved policy is the optimal-score agent's own (computed once per process).
    solution = solved.solution(game, "score")
    collect = np.full((SET_CODES, ROLL_RANKS), -1, dtype=np.int8)
    decide = np.full(SET_CODES, -1, dtype=np.int8)
    for node in solution.graph.decision_nodes:
        turn_node = solution.graph.nodes[node]
        code, rank = _node_codes(turn_node)
        action = game.action_index(solution.action_at(turn_node))
        if rank < 0:
            decide[code] = action
        else:
            collect[code, rank] = action
    return collect, decide


def win_tables(game: Game[Any, Any, Any]) -> tuple[IntArray, Int8Array, npt.NDArray[np.int64], IntArray, IntArray]:
    """The optimal-win action for every (round, seat, score difference, decision), flattened.

    Returns the decision slot of every (set code, roll rank + 1; column 0 for the
    stop-or-roll node), the actions, and each level's offset, smallest difference and width.
    """
    # The solved policy is the optimal-win agent's own (computed once per process), a rounds solution.
    solution = solved.solution(game, "win")
    graph = solution.graph
    slots = np.full((SET_CODES, ROLL_RANKS + 1), -1, dtype=np.int32)
    widest = max(len(graph.actions[n]) for n in graph.decision_nodes)
    actions = np.zeros((len(graph.decision_nodes), widest), dtype=np.int8)
    for slot, node in enumerate(graph.decision_nodes):
        code, rank = _node_codes(graph.nodes[node])
        slots[code, rank + 1] = slot
        for k, action in enumerate(graph.actions[node]):
            actions[slot, k] = game.action_index(action)
    last_round = solution.rounds + solution.tiebreak_rounds
    offset = np.zeros((last_round + 1, 2), dtype=np.int64)
    low = np.zeros((last_round + 1, 2), dtype=np.int32)
    width = np.zeros((last_round + 1, 2), dtype=np.int32)
    parts = []
    position = 0
    for (round_no, seat), level in sorted(solution.levels.items()):
        parts.append(np.take_along_axis(actions, level.choices.astype(np.int64), axis=1).ravel())
        offset[round_no, seat] = position
        low[round_no, seat] = level.low
        width[round_no, seat] = level.choices.shape[1]
        position += level.choices.size
    return slots, np.concatenate(parts).astype(np.int8), offset, low, width


_TABLES: dict[tuple[Any, ...], TablesArrays] = {}
KEPT_TABLES = 8  # configurations whose tables stay in memory (a simulation asks once per chunk)


def policy_tables(game: Game[Any, Any, Any], agents: Sequence[str]) -> TablesArrays:
    """The tables the named policies read (a placeholder where no policy reads one), kept per configuration."""
    key = (game.num_players, tuple(sorted(game.options.items())), *(name in agents for name in POLICIES[1:]))
    tables = _TABLES.get(key)
    if tables is None:
        if len(_TABLES) >= KEPT_TABLES:
            _TABLES.pop(next(iter(_TABLES)))
        tables = _TABLES[key] = _build_tables(game, agents)
    return tables


def _build_tables(game: Game[Any, Any, Any], agents: Sequence[str]) -> TablesArrays:
    rules = rules_of(game)
    value, roll = heuristic_tables(rules) if "heuristic" in agents else (np.zeros(1), np.zeros(1, dtype=np.int8))
    collect, decide = (
        score_tables(game)
        if "optimal-score" in agents
        else (np.zeros((1, 1), dtype=np.int8), np.zeros(1, dtype=np.int8))
    )
    if "optimal-win" in agents:
        slots, choices, offset, low, width = win_tables(game)
    else:
        slots, choices = np.zeros((1, 1), dtype=np.int32), np.zeros(1, dtype=np.int8)
        offset, low, width = np.zeros((1, 1), dtype=np.int64), np.zeros((1, 1), np.int32), np.zeros((1, 1), np.int32)
    return (value, roll, collect, decide, slots, choices, offset, low, width)


def policy_codes(agents: Sequence[str]) -> Int8Array:
    return np.array([POLICIES.index(agent) for agent in agents], dtype=np.int8)


# ---- the engine ----------------------------------------------------------------------------
class DragonStepBatch(StepBatch):
    """``num_envs`` games of Catch A Dragon as one board (see the module docstring)."""

    def __init__(self, game: Game[Any, Any, Any], num_envs: int) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.game = game
        self.rules = rules_arrays(rules_of(game))
        self.num_envs = num_envs
        self.num_players = game.num_players
        self.num_actions = int(self.rules[COLLECTIONS].shape[0])
        self.observation_size = OBSERVATION_SIZE
        self.board = np.zeros((num_envs, FIELDS), dtype=np.int32)
        self.keys = np.zeros(num_envs, dtype=np.uint64)
        self.counters = np.zeros(num_envs, dtype=np.uint64)
        self.index = np.zeros(num_envs, dtype=np.int64)
        self.finished = np.zeros(num_envs, dtype=np.bool_)
        self.run = np.uint64(0)

    def reset(self, seed: int | str, first_index: int = 0) -> None:
        self.run = run_key(seed)
        self.index[:] = np.arange(first_index, first_index + self.num_envs, dtype=np.int64)
        self._restart(np.ones(self.num_envs, dtype=np.bool_))

    def _restart(self, rows: npt.NDArray[np.bool_]) -> None:
        for i in np.nonzero(rows)[0]:
            reset_row(self.board, int(i))
            self.keys[i] = game_key(self.run, self.index[i])
            self.counters[i] = 0
        roll_rows(self.board, self.keys, self.counters, self.rules)
        # Every game needs at least one decision, so a restarted game is never over.
        self.finished[rows] = False

    def reset_done(self) -> npt.NDArray[np.bool_]:
        """Finished env ``k`` goes on with game ``index + num_envs`` (indices never repeat)."""
        done = self.done()
        self.index[done] += self.num_envs
        self._restart(done)
        return done

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        moves = np.asarray(actions, dtype=np.int64)
        if moves.shape != (self.num_envs, self.num_players):
            raise ValueError(f"actions must have shape ({self.num_envs}, {self.num_players}), not {moves.shape}")
        bad = step_rows(self.board, self.keys, self.counters, moves, self.finished, self.rules)
        if bad >= 0:
            seat = int(self.board[bad, SEAT])
            allowed = np.nonzero(self.legal_mask()[bad, seat])[0].tolist()
            raise ValueError(
                f"env {bad}: action {int(moves[bad, seat])} is not legal for seat {seat} now; legal action "
                f"indices: {allowed}; nothing was applied"
            )

    def policy_actions(self, agents: Sequence[str]) -> npt.NDArray[np.int64]:
        tables = policy_tables(self.game, agents)
        return policy_rows(policy_codes(agents), self.board, self.keys, self.counters, self.rules, tables)

    def learner_step(self, seat: int, policy: str, chosen: npt.NDArray[np.int64], before: LearnerView) -> LearnerStep:
        """The default's step in one compiled call (the same games, draws and views)."""
        agents = [policy] * self.num_players
        tables = policy_tables(self.game, agents)
        code = int(policy_codes(agents)[0])
        n = self.num_envs
        moves = np.empty(n, np.int64)
        observations = np.empty((n, 1, OBSERVATION_SIZE), np.float32)
        masks = np.empty((n, self.num_actions), np.bool_)
        acting = np.empty(n, np.bool_)
        rewards = np.empty(n, np.float64)
        done = np.empty(n, np.bool_)
        learner_moves = np.ascontiguousarray(chosen, dtype=np.int64)
        bad = learner_step_rows(
            self.board, self.keys, self.counters, self.finished, self.index, self.run, self.rules, tables,
            seat, code, learner_moves, before.acting, before.masks, moves,
            observations, masks, acting, rewards, done,
        )  # fmt: skip
        if 0 <= bad < n:
            raise illegal_learner_action(bad, learner_moves, before.masks)
        if bad >= n:
            env = bad - n
            raise ValueError(
                f"env {env}: action {int(moves[env])} is not legal for seat {int(self.board[env, SEAT])} now; "
                "the view this step started from is not this batch's; nothing was applied"
            )
        return LearnerStep(LearnerView(observations[:, 0], masks, acting), rewards, done)

    def to_act(self) -> npt.NDArray[np.bool_]:
        phase = self.board[:, PHASE]
        acting = (phase == COLLECTING) | (phase == DECIDING)
        seats = self.board[:, SEAT]
        return np.asarray(acting[:, np.newaxis] & (seats[:, np.newaxis] == np.arange(self.num_players)[np.newaxis, :]))

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        return legal_rows(self.board, self.rules)

    def observations(self) -> npt.NDArray[np.float32]:
        return observe_rows(self.board, self.rules)

    def rewards(self) -> npt.NDArray[np.float64]:
        out = np.zeros((self.num_envs, self.num_players), dtype=np.float64)
        rows = np.nonzero(self.finished)[0]
        winners = (self.board[rows, WINNERS][:, np.newaxis] >> np.arange(self.num_players)[np.newaxis, :]) & 1
        out[rows] = winners / winners.sum(axis=1, keepdims=True)
        return out

    def done(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.board[:, PHASE] == OVER)

    def state_arrays(self) -> dict[str, npt.NDArray[Any]]:
        b = self.board
        return {
            "scores": b[:, SCORES : SCORES + self.num_players],
            "round": b[:, ROUND],
            "seat": b[:, SEAT],
            "phase": b[:, PHASE],
            "collected": b[:, COLLECTED : COLLECTED + SIDES],
            "rolled": b[:, ROLLED : ROLLED + SIDES],
            "winners": b[:, WINNERS],
            "last_turn": b[:, LAST:FIELDS],
            "game_index": self.index,
            "draws": self.counters,
        }


class DragonEngine(FastEngine):
    """Catch A Dragon By The Tail with every option, for any compiled policies."""

    game_id: ClassVar[str] = "catch-a-dragon"

    def __init__(self) -> None:
        self._prepared: PreparedCache[Any] = PreparedCache(KEPT_TABLES)

    def policies(self, game: Game[Any, Any, Any]) -> tuple[str, ...]:
        # The win objective is solved for two players only.
        return POLICIES if game.num_players == 2 else POLICIES[:3]

    def play(
        self, game: Game[Any, Any, Any], agents: Sequence[str], seed: int | str, start: int, stop: int
    ) -> BatchResult:
        self.check_batch(game, agents, start, stop)
        rules = rules_arrays(rules_of(game))
        tables = policy_tables(game, agents)
        scores, returns, length = play_games(run_key(seed), start, stop, rules, policy_codes(agents), tables)
        # The rules' ``termination()``: tied leaders share the win only when the tie-break rounds ran out.
        shared = (np.count_nonzero(returns, axis=1) > 1).astype(np.int8)
        return BatchResult.seat_zero_starts(start, scores, returns, length, shared, DRAGON_ENDINGS)

    def step_batch(self, game: Game[Any, Any, Any], num_envs: int) -> StepBatch:
        return DragonStepBatch(game, num_envs)

    def playout(
        self, game: Game[Any, Any, Any], state: Any, agents: Sequence[str], seed: int
    ) -> tuple[float, ...] | None:
        if not isinstance(state, DragonState):
            return None
        prepared = self._prepared.get(
            game,
            agents,
            lambda: (
                None
                if self.unsupported(game, agents) is not None
                else (rules_arrays(rules_of(game)), policy_codes(agents), policy_tables(game, agents))
            ),
        )
        if prepared is None:
            return None
        rules, codes, tables = prepared
        board = np.array([board_row(state)], dtype=np.int32)
        play_on(board, np.uint64(seed), np.zeros(1, np.uint64), rules, codes, tables, np.zeros(SIDES, np.int8))
        winners = int(board[0, WINNERS])
        share = 1.0 / winners.bit_count()
        return tuple(share if winners >> seat & 1 else 0.0 for seat in range(game.num_players))


ENGINE = register_engine(DragonEngine())
