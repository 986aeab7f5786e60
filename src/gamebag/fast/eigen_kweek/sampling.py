"""Batched playouts from a seat's information set, compiled: many drawn worlds and playouts per call.

The analysis of a finished game asks, at each decision, what every legal action of a seat is worth
from what that seat knew, and at each chance event how much it moved the seat's winning chance.
These kernels answer a whole block of playouts in one call, never leaving the compiled engine:

* ``choice_playouts``: draw ``i`` of a run (key ``game_key(run, first + i)``) redraws a world from
  the seat's information set (``resample.resample_row``), lets the other acting seats choose as
  their compiled policies would there, then plays each still-live action of the seat from that
  world to the end with one playout key (common random numbers: the actions differ only by
  themselves), writing the seat's win share;
* ``chance_pairs``: draw ``i`` redraws the worlds just before and just after a chance event, draws
  the event again in the one before, and plays both on with one playout key: the real outcome's
  win share and a fresh outcome's, whose paired difference is the event's luck;
* ``resample_rows``: the drawn worlds themselves (the tests compare them with the rules engine).

Each kernel adds to ``cost[0]`` the rounds its playouts played (plus one per playout): a measure of
the work done that does not depend on the machine, so a budget in it gives the same answer on any
machine and load.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.batch import hidden_width, run_game
from gamebag.fast.eigen_kweek.heuristic import choose
from gamebag.fast.eigen_kweek.kernel import acting, apply_chance, apply_moves, sample_chance
from gamebag.fast.eigen_kweek.layout import C_PLAYERS, MAX_SEATS, ROUND, SCRATCH, WINNERS
from gamebag.fast.eigen_kweek.learned import LEARNED_CODE, pick
from gamebag.fast.eigen_kweek.observe import OBSERVATION_SIZE
from gamebag.fast.eigen_kweek.resample import resample_row
from gamebag.fast.rng import game_key, helper

Row = npt.NDArray[np.int32]
Rows = npt.NDArray[np.int32]
Int64s = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Floats32 = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]
# Sub-keys of a draw's key: the playout after the choice, and the chance event drawn again.
PLAYOUT_STREAM = 1
CHANCE_STREAM = 2
# A playout that met the decision cap (a runaway policy) reports this instead of a share.
RUNAWAY = -1.0


@helper
def share(s: Row, seat: int, n: int) -> float:  # pragma: no cover - compiled
    """``seat``'s share of the win in the finished position ``s`` (1 / winners, or 0)."""
    winners = 0
    for p in range(n):
        winners += (s[WINNERS] >> p) & 1
    if winners == 0 or not (s[WINNERS] >> seat) & 1:
        return 0.0
    return 1.0 / winners


@numba.njit(cache=True)
def choice_playouts(
    base: Row,
    cfg: Int64s,
    quiet: Int64s,
    acts: Int64s,
    pays: Int64s,
    codes: Int64s,
    masks: Int64s,
    seat: int,
    actions: Int64s,
    live: Bools,
    run: np.uint64,
    first: int,
    out: Floats,
    cost: Int64s,
    values: Floats32,
    shape: Int64s,
) -> None:  # pragma: no cover - compiled
    """``out[i, j]``: ``seat``'s win share after ``actions[j]`` in draw ``first + i`` (NaN where not live).

    ``cfg`` is the configuration (its seat count and coin visibility shape the draw); ``quiet`` the
    one the playouts run under (``EigenKweekEngine._whole_game_config``).
    """
    n = cfg[C_PLAYERS]
    world = np.zeros_like(base)
    s = np.zeros_like(base)
    w = np.zeros(SCRATCH, np.int64)
    moves = np.full(MAX_SEATS, -1, np.int64)
    chosen = np.full(MAX_SEATS, -1, np.int64)
    ctr = np.zeros(1, np.uint64)
    records = np.zeros((0, 4, MAX_SEATS), np.int16)
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    buffers = np.zeros((2, hidden_width(shape)), np.float64)
    for i in range(out.shape[0]):
        key = game_key(run, np.int64(first + i))
        ctr[0] = 0
        resample_row(base, cfg, seat, key, ctr, world)
        for p in range(MAX_SEATS):
            chosen[p] = -1
        for p in range(n):
            if p == seat or not acting(world, quiet, p):
                continue
            if codes[p] == LEARNED_CODE:
                chosen[p] = pick(
                    world, quiet, acts, pays, p, codes[p], masks[p], key, ctr, w, values, shape, obs, buffers
                )
            else:
                chosen[p] = choose(world, quiet, acts, pays, p, codes[p], masks[p], key, ctr, w)
        playout = game_key(key, np.int64(PLAYOUT_STREAM))
        for j in range(actions.shape[0]):
            if not live[j]:
                out[i, j] = np.nan
                continue
            s[:] = world
            for p in range(MAX_SEATS):
                moves[p] = chosen[p]
            moves[seat] = actions[j]
            apply_moves(s, quiet, acts, moves, w)
            start = s[ROUND]
            ctr[0] = 0
            if run_game(
                s, quiet, acts, pays, codes, masks, playout, ctr, w, moves, records, values, shape, obs, buffers
            ):
                out[i, j] = share(s, seat, n)
            else:
                out[i, j] = RUNAWAY
            cost[0] += s[ROUND] - start + 1


@numba.njit(cache=True)
def chance_pairs(
    before: Row,
    after: Row,
    cfg: Int64s,
    quiet: Int64s,
    acts: Int64s,
    pays: Int64s,
    codes: Int64s,
    masks: Int64s,
    seat: int,
    redraw_before: bool,
    redraw_after: bool,
    run: np.uint64,
    first: int,
    out: Floats,
    cost: Int64s,
    values: Floats32,
    shape: Int64s,
) -> None:  # pragma: no cover - compiled
    """``out[i]``: ``seat``'s win share after the real outcome (column 0) and after one drawn again
    (column 1), in draw ``first + i``; a position is redrawn from the seat's information set where
    ``redraw_*`` says so (not where the event revealed everything hidden from it)."""
    n = cfg[C_PLAYERS]
    real = np.zeros_like(after)
    again = np.zeros_like(before)
    w = np.zeros(SCRATCH, np.int64)
    moves = np.full(MAX_SEATS, -1, np.int64)
    ctr = np.zeros(1, np.uint64)
    records = np.zeros((0, 4, MAX_SEATS), np.int16)
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    buffers = np.zeros((2, hidden_width(shape)), np.float64)
    for i in range(out.shape[0]):
        key = game_key(run, np.int64(first + i))
        ctr[0] = 0
        if redraw_before:
            resample_row(before, cfg, seat, key, ctr, again)
        else:
            again[:] = before
        if redraw_after:
            resample_row(after, cfg, seat, key, ctr, real)
        else:
            real[:] = after
        ctr[0] = 0
        chance = game_key(key, np.int64(CHANCE_STREAM))
        apply_chance(again, quiet, sample_chance(again, quiet, chance, ctr), w)
        playout = game_key(key, np.int64(PLAYOUT_STREAM))
        for column in range(2):
            s = real if column == 0 else again
            start = s[ROUND]
            ctr[0] = 0
            if run_game(
                s, quiet, acts, pays, codes, masks, playout, ctr, w, moves, records, values, shape, obs, buffers
            ):
                out[i, column] = share(s, seat, n)
            else:
                out[i, column] = RUNAWAY
            cost[0] += s[ROUND] - start + 1


@numba.njit(cache=True)
def resample_rows(base: Row, cfg: Int64s, seat: int, run: np.uint64, first: int, out: Rows) -> None:  # pragma: no cover
    """``out[i]``: the world of draw ``first + i`` from ``seat``'s information set at ``base``."""
    ctr = np.zeros(1, np.uint64)
    for i in range(out.shape[0]):
        ctr[0] = 0
        resample_row(base, cfg, seat, game_key(run, np.int64(first + i)), ctr, out[i])
