"""Batched Eel family kernels: whole games for a list of policies, and step batches.

Game ``i`` of a run draws from the counter-based generator keyed by
``game_key(run, i)``: first each acting seat's policy draw in seat order, then the
tokens of the grab, so the same game comes out of ``play_games`` and of a step
batch driven by ``policy_actions``.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from gamebag.fast.eel.kernel import Config, new_game, resolve, sample_draws
from gamebag.fast.eel.layout import (
    BAG_EELS,
    BAG_SNAKES,
    C_EELS,
    C_GRAB_SCALE,
    C_MAX_GRAB,
    C_PLAYERS,
    C_SNAKES,
    C_TARGET,
    C_THRESHOLD,
    CENTRE,
    END_NORMAL,
    END_STEP_CAP,
    GRAB,
    IN_ROUND,
    MAX_GRABS_PER_GAME,
    MAX_SEATS,
    OVER,
    POLICY_HEURISTIC,
    RESERVES,
    ROUND,
    SCORES,
    START,
    WIDTH,
    WINNER,
)
from gamebag.fast.eel.policies import choose, new_table, outbreak_table
from gamebag.fast.rng import game_key

Int32s = npt.NDArray[np.int32]
Int64s = npt.NDArray[np.int64]
UInt64s = npt.NDArray[np.uint64]
Floats = npt.NDArray[np.float64]
Int8s = npt.NDArray[np.int8]
OBSERVATION_SIZE = 3 * MAX_SEATS + 7


@numba.njit(cache=True)
def play_games(
    cfg: Config,
    policies: Int64s,
    run: np.uint64,
    start: int,
    scores: Int32s,
    returns: Floats,
    length: Int32s,
    ended_by: Int8s,
) -> None:  # pragma: no cover - compiled
    """Play games ``start .. start + len(length) - 1`` to the end, writing one row each."""
    n = cfg[C_PLAYERS]
    s = np.zeros(WIDTH, np.int32)
    counts = np.zeros(MAX_SEATS, np.int64)
    eels = np.zeros(MAX_SEATS, np.int64)
    snakes = np.zeros(MAX_SEATS, np.int64)
    table = new_table(cfg)
    heuristic = False
    for p in range(n):
        heuristic |= policies[p] == POLICY_HEURISTIC
    for i in range(length.shape[0]):
        key = game_key(run, np.int64(start + i))
        counter = np.uint64(0)
        new_game(s, cfg)
        ended = END_NORMAL
        grabs = 0
        while s[OVER] == 0:
            if grabs >= MAX_GRABS_PER_GAME:
                ended = END_STEP_CAP
                break
            if heuristic:
                outbreak_table(s, cfg, table)
            for p in range(n):
                counts[p] = -1
                if s[IN_ROUND + p]:
                    counts[p], counter = choose(s, cfg, p, policies[p], key, counter, table)
            counter = sample_draws(s, cfg, counts, key, counter, eels, snakes)
            resolve(s, cfg, counts, eels, snakes)
            grabs += 1
        winners = 0
        for p in range(n):
            scores[i, p] = s[SCORES + p]
            winners += s[WINNER + p]
        for p in range(n):
            returns[i, p] = s[WINNER + p] / winners if winners else 0.0
        length[i] = s[ROUND]
        ended_by[i] = ended


@numba.njit(cache=True)
def reset_games(
    states: Int32s,
    cfg: Config,
    run: np.uint64,
    which: npt.NDArray[np.bool_],
    index: Int64s,
    keys: UInt64s,
    counters: UInt64s,
) -> None:  # pragma: no cover - compiled
    """Start afresh every env ``k`` with ``which[k]``, as game ``index[k]`` of the run."""
    for k in range(states.shape[0]):
        if which[k]:
            new_game(states[k], cfg)
            keys[k] = game_key(run, np.int64(index[k]))
            counters[k] = np.uint64(0)


@numba.njit(cache=True)
def step_games(
    states: Int32s, cfg: Config, actions: Int64s, keys: UInt64s, counters: UInt64s
) -> None:  # pragma: no cover - compiled
    """One grab in every running env: the acting seats' ``actions``, then the draws."""
    n = cfg[C_PLAYERS]
    counts = np.zeros(MAX_SEATS, np.int64)
    eels = np.zeros(MAX_SEATS, np.int64)
    snakes = np.zeros(MAX_SEATS, np.int64)
    for k in range(states.shape[0]):
        s = states[k]
        if s[OVER]:
            continue
        for p in range(n):
            counts[p] = actions[k, p] if s[IN_ROUND + p] else -1
        counters[k] = sample_draws(s, cfg, counts, keys[k], counters[k], eels, snakes)
        resolve(s, cfg, counts, eels, snakes)


@numba.njit(cache=True)
def policy_actions(
    states: Int32s, cfg: Config, policies: Int64s, keys: UInt64s, counters: UInt64s, out: Int64s
) -> None:  # pragma: no cover - compiled
    """What each acting seat's compiled policy chooses now (0 for seats not acting)."""
    n = cfg[C_PLAYERS]
    table = new_table(cfg)
    heuristic = False
    for p in range(n):
        heuristic |= policies[p] == POLICY_HEURISTIC
    for k in range(states.shape[0]):
        s = states[k]
        if heuristic and s[OVER] == 0:
            outbreak_table(s, cfg, table)
        for p in range(n):
            out[k, p] = 0
            if s[OVER] == 0 and s[IN_ROUND + p]:
                out[k, p], counters[k] = choose(s, cfg, p, policies[p], keys[k], counters[k], table)


@numba.njit(cache=True)
def observe(states: Int32s, cfg: Config, out: npt.NDArray[np.float32]) -> None:  # pragma: no cover - compiled
    """Every seat's ``observation_tensor`` (own seat first, padded to eight seats)."""
    n = cfg[C_PLAYERS]
    eels = float(cfg[C_EELS])
    snakes = float(cfg[C_SNAKES])
    target = float(cfg[C_TARGET])
    for k in range(states.shape[0]):
        s = states[k]
        for player in range(n):
            j = 0
            for offset in range(n):
                seat = (player + offset) % n
                out[k, player, j] = min(s[SCORES + seat] / target, 1.0)
                out[k, player, j + 1] = s[RESERVES + seat] / eels
                out[k, player, j + 2] = 1.0 if s[IN_ROUND + seat] else 0.0
                j += 3
            while j < 3 * MAX_SEATS:
                out[k, player, j] = 0.0
                j += 1
            out[k, player, j] = s[BAG_EELS] / eels
            out[k, player, j + 1] = s[BAG_SNAKES] / snakes
            out[k, player, j + 2] = s[CENTRE] / snakes
            out[k, player, j + 3] = cfg[C_THRESHOLD] / snakes
            out[k, player, j + 4] = ((s[START] - player) % n) / 8
            out[k, player, j + 5] = min(s[GRAB], 40) / 40
            out[k, player, j + 6] = cfg[C_MAX_GRAB] / cfg[C_GRAB_SCALE]


@numba.njit(cache=True)
def play_out(
    s: Int32s, cfg: Config, policies: Int64s, pending: Int64s, has_pending: bool, key: np.uint64
) -> bool:  # pragma: no cover - compiled
    """Play the position ``s`` (awaiting the draws of ``pending`` when ``has_pending``) to the end.

    Returns whether it ended (false: the grab cap was reached first).
    """
    n = cfg[C_PLAYERS]
    counts = np.zeros(MAX_SEATS, np.int64)
    eels = np.zeros(MAX_SEATS, np.int64)
    snakes = np.zeros(MAX_SEATS, np.int64)
    table = new_table(cfg)
    heuristic = False
    for p in range(n):
        heuristic |= policies[p] == POLICY_HEURISTIC
    counter = np.uint64(0)
    if has_pending:
        counter = sample_draws(s, cfg, pending, key, counter, eels, snakes)
        resolve(s, cfg, pending, eels, snakes)
    grabs = 0
    while s[OVER] == 0:
        if grabs >= MAX_GRABS_PER_GAME:
            return False
        if heuristic:
            outbreak_table(s, cfg, table)
        for p in range(n):
            counts[p] = -1
            if s[IN_ROUND + p]:
                counts[p], counter = choose(s, cfg, p, policies[p], key, counter, table)
        counter = sample_draws(s, cfg, counts, key, counter, eels, snakes)
        resolve(s, cfg, counts, eels, snakes)
        grabs += 1
    return True
