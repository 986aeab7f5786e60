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
from gamebag.fast.learner import first_refused_choice
from gamebag.fast.rng import game_key, helper

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
    row = np.zeros(WIDTH, np.int32)
    scratch = np.zeros(3 * MAX_SEATS, np.int64)
    play_range(cfg, policies, run, start, scores, returns, length, ended_by, row, new_table(cfg), scratch)


@helper
def play_range(
    cfg: Config,
    policies: Int64s,
    run: np.uint64,
    start: int,
    scores: Int32s,
    returns: Floats,
    length: Int32s,
    ended_by: Int8s,
    s: Int32s,
    table: Floats,
    scratch: Int64s,
) -> None:  # pragma: no cover - compiled
    """``play_games`` in the arrays it allocated (the loop runs without reference counting)."""
    n = cfg[C_PLAYERS]
    counts = scratch[:MAX_SEATS]
    eels = scratch[MAX_SEATS : 2 * MAX_SEATS]
    snakes = scratch[2 * MAX_SEATS :]
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


@helper
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


@helper
def step_games(
    states: Int32s,
    cfg: Config,
    actions: Int64s,
    keys: UInt64s,
    counters: UInt64s,
    rewards: Floats,
    scratch: Int64s,
) -> int:  # pragma: no cover - compiled
    """One grab in every running env: the acting seats' ``actions``, then the draws.

    Every acting seat's action is checked first: an action outside ``0 .. max_grab``
    changes nothing and returns ``env * MAX_SEATS + seat`` of the first one; else -1.
    ``rewards`` gets the win shares of the games this grab finished (0 elsewhere);
    ``scratch`` holds ``3 * MAX_SEATS`` integers the kernel may overwrite.
    """
    n = cfg[C_PLAYERS]
    top = cfg[C_MAX_GRAB]
    for k in range(states.shape[0]):
        s = states[k]
        if s[OVER]:
            continue
        for p in range(n):
            if s[IN_ROUND + p] and (actions[k, p] < 0 or actions[k, p] > top):
                return k * MAX_SEATS + p
    counts = scratch[:MAX_SEATS]
    eels = scratch[MAX_SEATS : 2 * MAX_SEATS]
    snakes = scratch[2 * MAX_SEATS :]
    for k in range(states.shape[0]):
        s = states[k]
        for p in range(n):
            rewards[k, p] = 0.0
        if s[OVER]:
            continue
        for p in range(n):
            counts[p] = actions[k, p] if s[IN_ROUND + p] else -1
        counters[k] = sample_draws(s, cfg, counts, keys[k], counters[k], eels, snakes)
        resolve(s, cfg, counts, eels, snakes)
        if s[OVER]:
            winners = 0
            for p in range(n):
                winners += s[WINNER + p]
            if winners:
                for p in range(n):
                    rewards[k, p] = s[WINNER + p] / winners
    return -1


@helper
def policy_actions(
    states: Int32s, cfg: Config, policies: Int64s, keys: UInt64s, counters: UInt64s, out: Int64s, table: Floats
) -> None:  # pragma: no cover - compiled
    """What each acting seat's compiled policy chooses now (0 for seats not acting).

    ``table`` is scratch for the heuristic's outbreak chances (``new_table(cfg)``'s shape).
    """
    n = cfg[C_PLAYERS]
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


@helper
def acting_seats(states: Int32s, cfg: Config, out: npt.NDArray[np.bool_]) -> None:  # pragma: no cover - compiled
    """``out[k, p]``: whether seat ``p`` of env ``k`` chooses now (in the round of a running game)."""
    n = cfg[C_PLAYERS]
    for k in range(states.shape[0]):
        running = states[k, OVER] == 0
        for p in range(n):
            out[k, p] = running and states[k, IN_ROUND + p] != 0


@helper
def observe(states: Int32s, cfg: Config, out: npt.NDArray[np.float32]) -> None:  # pragma: no cover - compiled
    """Every seat's ``observation_tensor`` (own seat first, padded to eight seats)."""
    observe_seats(states, cfg, 0, cfg[C_PLAYERS], out)


@helper
def observe_seats(
    states: Int32s, cfg: Config, first: int, last: int, out: npt.NDArray[np.float32]
) -> None:  # pragma: no cover - compiled
    """The ``observation_tensor`` of seats ``first .. last - 1`` into ``out[:, 0 .. last - first]``.

    Each entry is the same float64 quotient as before, stored as float32; the per-seat
    quotients are computed once per game and copied into every seat's rotated view.
    """
    n = cfg[C_PLAYERS]
    eels = float(cfg[C_EELS])
    snakes = float(cfg[C_SNAKES])
    target = float(cfg[C_TARGET])
    threshold = cfg[C_THRESHOLD] / snakes
    grab_limit = cfg[C_MAX_GRAB] / cfg[C_GRAB_SCALE]
    for k in range(states.shape[0]):
        s = states[k]
        bag_eels = s[BAG_EELS] / eels
        bag_snakes = s[BAG_SNAKES] / snakes
        centre = s[CENTRE] / snakes
        grab = min(s[GRAB], 40) / 40
        for player in range(first, last):
            row = out[k, player - first]
            j = 0
            seat = player
            for _ in range(n):
                row[j] = min(s[SCORES + seat] / target, 1.0)
                row[j + 1] = s[RESERVES + seat] / eels
                row[j + 2] = 1.0 if s[IN_ROUND + seat] else 0.0
                j += 3
                seat = seat + 1 if seat + 1 < n else 0
            while j < 3 * MAX_SEATS:
                row[j] = 0.0
                j += 1
            row[j] = bag_eels
            row[j + 1] = bag_snakes
            row[j + 2] = centre
            row[j + 3] = threshold
            lag = s[START] - player
            row[j + 4] = (lag + n if lag < 0 else lag) / 8
            row[j + 5] = grab
            row[j + 6] = grab_limit


@numba.njit(cache=True)
def play_out(
    s: Int32s, cfg: Config, policies: Int64s, pending: Int64s, has_pending: bool, key: np.uint64
) -> bool:  # pragma: no cover - compiled
    """Play the position ``s`` (awaiting the draws of ``pending`` when ``has_pending``) to the end.

    Returns whether it ended (false: the grab cap was reached first).
    """
    return play_out_into(s, cfg, policies, pending, has_pending, key, new_table(cfg), np.zeros(3 * MAX_SEATS, np.int64))


@helper
def play_out_into(
    s: Int32s,
    cfg: Config,
    policies: Int64s,
    pending: Int64s,
    has_pending: bool,
    key: np.uint64,
    table: Floats,
    scratch: Int64s,
) -> bool:  # pragma: no cover - compiled
    """``play_out`` in arrays its caller owns (the loop runs without reference counting)."""
    n = cfg[C_PLAYERS]
    counts = scratch[:MAX_SEATS]
    eels = scratch[MAX_SEATS : 2 * MAX_SEATS]
    snakes = scratch[2 * MAX_SEATS :]
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


@helper
def learner_step(
    states: Int32s,
    cfg: Config,
    seat: int,
    codes: Int64s,
    chosen: Int64s,
    acting: npt.NDArray[np.bool_],
    masks: npt.NDArray[np.bool_],
    keys: UInt64s,
    counters: UInt64s,
    rewards: Floats,
    scratch: Int64s,
    table: Floats,
    joint: Int64s,
    run: np.uint64,
    index: Int64s,
    next_index: int,
    out_observations: npt.NDArray[np.float32],
    out_masks: npt.NDArray[np.bool_],
    out_acting: npt.NDArray[np.bool_],
    out_rewards: Floats,
    out_done: npt.NDArray[np.bool_],
) -> tuple[int, int]:  # pragma: no cover - compiled
    """A learner's step in one call: ``policy_actions``, ``step_games``, restarts and the learner's view.

    Returns ``(bad, next_index)``: ``bad`` is ``-1``; or the first env whose acting
    learner's ``chosen`` action is outside ``masks`` (then nothing changed); or, should
    ``step_games`` refuse an action, ``num_envs`` plus its code. Every seat takes its
    policy draw (the learner's is then replaced by ``chosen``), finished games restart
    in env order with the next game indices, and the view is what ``acting_seats`` and
    ``observe_seats`` give for ``seat`` (the Eel family's mask is all true: every grab in
    range is legal, and a seat not choosing has an ignored action).
    """
    top = masks.shape[1]
    refused = first_refused_choice(chosen, acting, masks)
    if refused >= 0:
        return refused, next_index
    policy_actions(states, cfg, codes, keys, counters, joint, table)
    for k in range(states.shape[0]):
        joint[k, seat] = chosen[k] if acting[k] else 0
    bad = step_games(states, cfg, joint, keys, counters, rewards, scratch)
    if bad >= 0:
        return states.shape[0] + bad, next_index
    restart = out_done
    for k in range(states.shape[0]):
        out_rewards[k] = rewards[k, seat]
        restart[k] = states[k, OVER] != 0
        if restart[k]:
            index[k] = next_index
            next_index += 1
            for p in range(rewards.shape[1]):
                rewards[k, p] = 0.0
    reset_games(states, cfg, run, restart, index, keys, counters)
    for k in range(states.shape[0]):
        out_acting[k] = states[k, OVER] == 0 and states[k, IN_ROUND + seat] != 0
        for a in range(top):
            out_masks[k, a] = True
    observe_seats(states, cfg, seat, seat + 1, out_observations)
    return -1, next_index
