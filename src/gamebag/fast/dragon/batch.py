"""Batched Catch A Dragon kernels: whole games for a list of policies, step batches, observations.

Game ``i`` of a run draws from the counter-based generator keyed by ``game_key(run, i)``:
one draw per die rolled and one per ``random`` choice, in play order, so the same game
comes out of ``play_games`` and of a step batch driven by ``policy_rows``.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from gamebag.fast.dragon.kernel import (
    apply_action,
    held_code,
    is_legal,
    legal_range,
    reset_row,
    roll_on,
)
from gamebag.fast.dragon.layout import (
    COLLECTED,
    COLLECTING,
    COLLECTIONS,
    CONFIG,
    DECIDING,
    DICE,
    FIELDS,
    LEGAL_LIST,
    MARGIN_AT,
    OVER,
    OWN_SEAT,
    PHASE,
    PLAYERS,
    POINTS,
    ROLL,
    ROLLED,
    ROUND,
    ROUNDS,
    ROUNDS_LEFT_AT,
    SCORES,
    SEAT,
    SIDES,
    STOP,
    TIEBREAKS,
    TURN_AT,
    WINNERS,
    FloatArray,
    FloatArray32,
    Int8Array,
    IntArray,
    RulesArrays,
    TablesArrays,
    U64Array,
)
from gamebag.fast.dragon.policies import (
    choose,
)
from gamebag.fast.learner import first_refused_choice
from gamebag.fast.rng import game_key, helper
from gamebag.games.catch_a_dragon.rules import (
    MARGIN_REACH,
    OBSERVATION_SIZE,
    ROUNDS_LEFT,
    TURN_REACH,
)


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
