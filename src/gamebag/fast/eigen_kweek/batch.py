"""Batched Eigen Kweek kernels: whole games for a list of policies, and search playouts.

Game ``i`` of a run draws from the counter-based generator keyed by
``game_key(run, i)``: every chance event (a card from the stack, a coin from the bag
or from PASTOOR's victim) and every policy draw (the random policy's pick, the
heuristic's tie-breaks and bid jitter) in the order the game meets them, acting seats
in seat order. Besides scores and winners, ``play_games`` records per round which card
each seat chose, played, had blocked and kept (``REC_*`` in ``layout``). Seats choose
through ``learned.pick``, so a ``learned`` seat plays the shipped network in the kernel.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.heuristic import choose
from gamebag.fast.eigen_kweek.kernel import acting, apply_moves, is_chance, play_chance
from gamebag.fast.eigen_kweek.layout import (
    C_PLAYERS,
    END_STEP_CAP,
    ENDED_BY,
    MAX_DECISIONS,
    MAX_SEATS,
    REC_BLOCKED,
    REC_CHOSE,
    REC_KEPT,
    REC_PLAYED,
    REC_READY,
    ROUND,
    SCRATCH,
    ST_OVER,
    STEP,
    WIDTH,
    WINNERS,
)
from gamebag.fast.eigen_kweek.learned import LEARNED_CODE, pick
from gamebag.fast.eigen_kweek.observe import OBSERVATION_SIZE
from gamebag.fast.eigen_kweek.phases import new_game, sacks
from gamebag.fast.rng import game_key, helper
from gamebag.fast.weights import S_OUT

Row = npt.NDArray[np.int32]
Int64s = npt.NDArray[np.int64]
UInt64s = npt.NDArray[np.uint64]
Int32s = npt.NDArray[np.int32]
Int16s = npt.NDArray[np.int16]
Int8s = npt.NDArray[np.int8]
Floats = npt.NDArray[np.float64]
Floats32 = npt.NDArray[np.float32]


@helper
def run_game(
    s: Row,
    cfg: Int64s,
    acts: Int64s,
    pays: Int64s,
    codes: Int64s,
    abstain: Int64s,
    key: np.uint64,
    ctr: UInt64s,
    w: Int64s,
    moves: Int64s,
    records: Int16s,
    values: Floats32,
    shape: Int64s,
    obs: Floats32,
    buffers: Floats,
) -> bool:  # pragma: no cover - compiled
    """Play ``s`` to its end; ``records[round - 1, kind, seat]`` (if it has rows) gets each round's cards.

    ``values``, ``shape``: the packed network of ``learned`` seats (``learned.pick``), with
    its buffers ``obs`` and ``buffers``.

    Returns False when the game met the decision cap (a runaway policy), True when it ended.
    """
    n = cfg[C_PLAYERS]
    decisions = 0
    while s[STEP] != ST_OVER:
        if is_chance(s):
            play_chance(s, cfg, key, ctr, w)
        else:
            for p in range(MAX_SEATS):
                moves[p] = -1
            for p in range(n):  # seats that do not act draw nothing: skip them
                if not acting(s, cfg, p):
                    continue
                code = codes[p]
                if code == LEARNED_CODE:
                    moves[p] = pick(s, cfg, acts, pays, p, code, abstain[p], key, ctr, w, values, shape, obs, buffers)
                else:  # random and heuristic (``choose`` is inlined: no call for the commonest decisions)
                    moves[p] = choose(s, cfg, acts, pays, p, code, abstain[p], key, ctr, w)
            apply_moves(s, cfg, acts, moves, w)
            decisions += 1
            if decisions >= MAX_DECISIONS:
                return False
        ready = s[REC_READY]
        if ready > 0:
            if ready <= records.shape[0]:
                for p in range(n):
                    records[ready - 1, 0, p] = s[REC_CHOSE + p]
                    records[ready - 1, 1, p] = s[REC_PLAYED + p]
                    records[ready - 1, 2, p] = s[REC_BLOCKED + p]
                    records[ready - 1, 3, p] = s[REC_KEPT + p]
            s[REC_READY] = 0
    return True


@numba.njit(cache=True)
def play_games(
    cfg: Int64s,
    acts: Int64s,
    pays: Int64s,
    codes: Int64s,
    abstain: Int64s,
    run: np.uint64,
    start: int,
    scores: Int32s,
    returns: Floats,
    length: Int32s,
    ended_by: Int8s,
    records: Int16s,
    values: Floats32,
    shape: Int64s,
) -> None:  # pragma: no cover - compiled
    """Games ``start .. start + len(length) - 1``; ``records[game, round, kind, seat]`` as ``run_game`` writes."""
    n = cfg[C_PLAYERS]
    s = np.zeros(WIDTH, np.int32)
    w = np.zeros(SCRATCH, np.int64)
    moves = np.full(MAX_SEATS, -1, np.int64)
    ctr = np.zeros(1, np.uint64)
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    buffers = np.zeros((2, hidden_width(shape)), np.float64)
    for g in range(length.shape[0]):
        key = game_key(run, np.int64(start + g))
        ctr[0] = 0
        new_game(s, cfg)
        finished = run_game(
            s, cfg, acts, pays, codes, abstain, key, ctr, w, moves, records[g], values, shape, obs, buffers
        )
        length[g] = s[ROUND]
        winners = 0
        for p in range(n):
            scores[g, p] = sacks(s, p)
            if (s[WINNERS] >> p) & 1:
                winners += 1
        for p in range(n):
            returns[g, p] = 1.0 / winners if finished and (s[WINNERS] >> p) & 1 else 0.0
        ended_by[g] = s[ENDED_BY] if finished else END_STEP_CAP


@numba.njit(cache=True)
def play_out(
    s: Row,
    cfg: Int64s,
    acts: Int64s,
    pays: Int64s,
    codes: Int64s,
    abstain: Int64s,
    key: np.uint64,
    values: Floats32,
    shape: Int64s,
) -> bool:  # pragma: no cover - compiled
    """Play the position ``s`` to its end in place (search playouts); False at the decision cap."""
    w = np.zeros(SCRATCH, np.int64)
    moves = np.full(MAX_SEATS, -1, np.int64)
    ctr = np.zeros(1, np.uint64)
    records = np.zeros((0, 4, MAX_SEATS), np.int16)
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    buffers = np.zeros((2, hidden_width(shape)), np.float64)
    return run_game(s, cfg, acts, pays, codes, abstain, key, ctr, w, moves, records, values, shape, obs, buffers)


@helper
def hidden_width(shape: Int64s) -> int:  # pragma: no cover - compiled
    """The widest hidden layer of a packed network (at least 1): its buffers' width."""
    width = 1
    for k in range(shape.shape[0] - 1):
        width = max(width, shape[k, S_OUT])
    return width
