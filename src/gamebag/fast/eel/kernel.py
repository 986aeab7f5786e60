"""The Eel family rules as numba functions over one position row (see ``layout``).

These mirror ``gamebag.games.eel_family.rules`` step for step: ``draw_sizes`` is
``_draw_sizes``, ``sample_draws`` is ``sample_chance`` (with the kernel's own
counter-based generator) and ``resolve`` is ``_resolve``. The tests in
``tests/fast`` replay rules-engine games through ``resolve`` and compare every field.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.eel.layout import (
    BAG_EELS,
    BAG_SNAKES,
    C_DICE,
    C_EELS,
    C_LONE_LIMIT,
    C_OUTBREAK_SCORES_RESERVE,
    C_PLAYERS,
    C_ROTATE_START,
    C_SNAKES,
    C_TARGET,
    C_THRESHOLD,
    C_WRIGGLE,
    CENTRE,
    EXIT_GRAB,
    GRAB,
    HAS_LAST,
    IN_ROUND,
    LAST_COUNT,
    LAST_EELS,
    LAST_EXITED,
    LAST_LOSER,
    LAST_OUTBREAK,
    LAST_ROUND_OVER,
    LAST_SCORED,
    LAST_SNAKES,
    LONE_LEFT,
    OVER,
    RESERVES,
    ROUND,
    SCORES,
    START,
    STILL_IN,
    WIDTH,
    WINNER,
)
from gamebag.fast.rng import draw_below, helper, inlined_helper

Row = npt.NDArray[np.int32]
Config = npt.NDArray[np.int64]
Counts = npt.NDArray[np.int64]


@helper
def new_game(s: Row, cfg: Config) -> None:  # pragma: no cover - compiled
    """The rules engine's ``initial_state``."""
    for i in range(WIDTH):
        s[i] = 0
    n = cfg[C_PLAYERS]
    for p in range(n):
        s[IN_ROUND + p] = 1
    s[BAG_EELS] = cfg[C_EELS]
    s[BAG_SNAKES] = cfg[C_SNAKES]
    s[ROUND] = 1
    s[LONE_LEFT] = -1


@helper
def draw_sizes(s: Row, cfg: Config, counts: Counts, sizes: Counts) -> None:  # pragma: no cover - compiled
    """How many tokens each seat draws (``counts``: -1 for seats not in the round)."""
    n = cfg[C_PLAYERS]
    if cfg[C_DICE]:
        for p in range(n):
            sizes[p] = max(counts[p], 0)
        return
    left = np.int64(s[BAG_EELS]) + s[BAG_SNAKES]
    for p in range(n):
        if counts[p] == 0:
            left += s[RESERVES + p]
    seat = s[START]
    for _ in range(n):
        take = min(max(counts[seat], 0), left)
        sizes[seat] = take
        left -= take
        seat = seat + 1 if seat + 1 < n else 0  # seat order from the start player, without a division


@inlined_helper
def sample_draws(
    s: Row, cfg: Config, counts: Counts, key: np.uint64, counter: np.uint64, eels_out: Counts, snakes_out: Counts
) -> np.uint64:  # pragma: no cover - compiled
    """Draw every seat's hand (eels and snakes per seat); returns the advanced counter."""
    n = cfg[C_PLAYERS]
    for p in range(n):
        eels_out[p] = 0
        snakes_out[p] = 0
    if cfg[C_DICE]:
        for p in range(n):
            take = max(counts[p], 0)
            got = 0
            for _ in range(take):
                got += int(draw_below(key, counter, np.int64(4)) == 0)
                counter += np.uint64(1)
            snakes_out[p] = got
            eels_out[p] = take - got
        return counter
    eels = np.int64(s[BAG_EELS])
    snakes = np.int64(s[BAG_SNAKES])
    for p in range(n):
        if counts[p] == 0:
            eels += s[RESERVES + p]
    seat = s[START]
    for _ in range(n):
        left = eels + snakes
        take = min(max(counts[seat], 0), left)
        got = 0
        for _ in range(take):
            # Branch-free: whether a token is a snake is a coin the processor cannot predict.
            # ``left`` falls by one whatever was drawn, so each draw's scaling does not wait
            # for the previous draw's outcome; only the snake count carries from token to token.
            snake = int(draw_below(key, counter, left) < snakes)
            snakes -= snake
            left -= 1
            got += snake
            counter += np.uint64(1)
        eels = left - snakes
        snakes_out[seat] = got
        eels_out[seat] = take - got
        seat = seat + 1 if seat + 1 < n else 0
    return counter


@inlined_helper
def resolve(s: Row, cfg: Config, counts: Counts, drawn_eels: Counts, drawn_snakes: Counts) -> None:  # pragma: no cover
    """Exits, reveal, outbreak, lone-player exit, end of round and of game: ``_resolve``."""
    n = cfg[C_PLAYERS]
    dice = cfg[C_DICE] != 0
    wriggle = cfg[C_WRIGGLE] != 0
    grab_no = s[GRAB] + 1
    for p in range(n):  # seats from n on are never written, so they stay 0
        s[LAST_COUNT + p] = counts[p]
        s[LAST_EELS + p] = 0
        s[LAST_SNAKES + p] = 0
        s[LAST_SCORED + p] = 0
        s[LAST_EXITED + p] = 0
        s[LAST_LOSER + p] = 0
    # Exits first: score the reserve, eels back into the bag.
    for p in range(n):
        if counts[p] == 0:
            reserve = s[RESERVES + p]
            s[SCORES + p] += reserve
            s[LAST_SCORED + p] += reserve
            if not dice:
                s[BAG_EELS] += reserve
            s[RESERVES + p] = 0
            s[IN_ROUND + p] = 0
            s[EXIT_GRAB + p] = 2 * grab_no
            s[LAST_EXITED + p] = 1
    # The reveal: eels to reserves, snakes to the centre.
    for p in range(n):
        e = drawn_eels[p]
        k = drawn_snakes[p]
        if e + k > 0:
            s[LAST_EELS + p] = e
            s[LAST_SNAKES + p] = k
            s[RESERVES + p] += e
            s[CENTRE] += k
            if not dice:
                s[BAG_EELS] -= e
                s[BAG_SNAKES] -= k
    still_in = 0
    for p in range(n):
        still_in += s[IN_ROUND + p]
    outbreak = s[CENTRE] >= cfg[C_THRESHOLD] and still_in > 0
    round_over = False
    if outbreak:
        most = -1
        for p in range(n):
            if s[IN_ROUND + p]:
                held = s[RESERVES + p] if wriggle else drawn_eels[p] + drawn_snakes[p]
                most = max(most, held)
        full = wriggle or cfg[C_OUTBREAK_SCORES_RESERVE] != 0
        for p in range(n):
            if s[IN_ROUND + p]:
                held = s[RESERVES + p] if wriggle else drawn_eels[p] + drawn_snakes[p]
                if held == most:
                    s[LAST_LOSER + p] = 1
                    gain = 0
                elif full:
                    gain = s[RESERVES + p]
                else:
                    gain = drawn_eels[p]
                s[SCORES + p] += gain
                s[LAST_SCORED + p] += gain
                s[EXIT_GRAB + p] = STILL_IN
        round_over = True
    elif still_in == 0:
        round_over = True
    elif cfg[C_LONE_LIMIT] >= 0 and still_in == 1:
        s[LONE_LEFT] = cfg[C_LONE_LIMIT] if s[LONE_LEFT] < 0 else s[LONE_LEFT] - 1
        if s[LONE_LEFT] <= 0:
            for p in range(n):
                if s[IN_ROUND + p]:
                    reserve = s[RESERVES + p]
                    s[SCORES + p] += reserve
                    s[LAST_SCORED + p] += reserve
                    if not dice:
                        s[BAG_EELS] += reserve
                    s[RESERVES + p] = 0
                    s[IN_ROUND + p] = 0
                    # Still in at this grab's reveal, so later than this grab's voluntary exits.
                    s[EXIT_GRAB + p] = 2 * grab_no + 1
                    s[LAST_EXITED + p] = 1
            round_over = True
    s[HAS_LAST] = 1
    s[LAST_OUTBREAK] = 1 if outbreak else 0
    s[LAST_ROUND_OVER] = 1 if round_over else 0
    # The end of the game: wriggle-roulette after any grab, eel-harvest at a round's end.
    best = -1
    for p in range(n):
        best = max(best, s[SCORES + p])
    over = best >= cfg[C_TARGET] and (wriggle or round_over)
    if over:
        latest = 0
        if not wriggle:
            for p in range(n):
                if s[SCORES + p] == best:
                    latest = max(latest, s[EXIT_GRAB + p])
        for p in range(n):
            if s[SCORES + p] == best and (wriggle or s[EXIT_GRAB + p] == latest):
                s[WINNER + p] = 1
        s[OVER] = 1
    if round_over:
        # At a round's end every token goes back into the bag.
        for p in range(n):
            s[RESERVES + p] = 0
        s[BAG_EELS] = cfg[C_EELS]
        s[BAG_SNAKES] = cfg[C_SNAKES]
        s[CENTRE] = 0
        if not over:
            for p in range(n):
                s[IN_ROUND + p] = 1
                s[EXIT_GRAB + p] = 0
            s[ROUND] += 1
            if cfg[C_ROTATE_START]:
                s[START] = (s[START] + 1) % n
            s[GRAB] = 0
            s[LONE_LEFT] = -1
            return
        for p in range(n):
            s[IN_ROUND + p] = 0
    s[GRAB] = grab_no
