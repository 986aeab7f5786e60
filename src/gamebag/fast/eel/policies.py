"""The compiled Eel family policies: ``random`` and ``heuristic``.

``heuristic`` makes the same decisions as ``gamebag.agents.heuristics.eel_family``:
it computes the same floating-point numbers in the same order. The hypergeometric
outbreak chance is a ratio of exact integers in Python; here the integers are
exact in 64 bits and the ratio is rounded correctly (as Python's ``int / int`` is),
falling back to floating point only if a count ever overflows 64 bits (bags far
larger than the rulebook's). ``tests/fast`` compares decisions on many positions.
"""

from __future__ import annotations

import math

import numba
import numpy as np
import numpy.typing as npt

from gamebag.fast.eel.kernel import Config, Row
from gamebag.fast.eel.layout import (
    BAG_EELS,
    BAG_SNAKES,
    C_DICE,
    C_MAX_GRAB,
    C_OUTBREAK_SCORES_RESERVE,
    C_PLAYERS,
    C_TARGET,
    C_THRESHOLD,
    C_WRIGGLE,
    CENTRE,
    IN_ROUND,
    POLICY_HEURISTIC,
    RESERVES,
    SCORES,
)
from gamebag.fast.rng import draw_below, helper, inlined_helper
from gamebag.games.eel_family.strategy import ALIKE as ALIKE
from gamebag.games.eel_family.strategy import TYPICAL_OTHER_GRAB as TYPICAL_OTHER_GRAB

_U64_MAX = np.uint64(0xFFFFFFFFFFFFFFFF)
_TWO_53 = np.uint64(1 << 53)
Table = npt.NDArray[np.float64]


@helper
def _comb_u64(n: int, k: int) -> tuple[np.uint64, bool]:  # pragma: no cover - compiled
    """``math.comb(n, k)`` for ``0 <= k``, and whether it overflowed 64 bits."""
    if k > n:
        return np.uint64(0), False
    k = min(k, n - k)
    c = np.uint64(1)
    for i in range(k):
        factor = np.uint64(n - i)
        if c > _U64_MAX // factor:
            return np.uint64(0), True
        c = c * factor // np.uint64(i + 1)
    return c, False


@helper
def _comb_float(n: int, k: int) -> float:  # pragma: no cover - compiled
    if k > n:
        return 0.0
    return math.exp(math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0))


@helper
def ratio_correctly_rounded(a: np.uint64, b: np.uint64) -> float:  # pragma: no cover - compiled
    """``a / b`` for ``0 <= a <= b``, rounded to nearest-even as Python's ``int / int``."""
    if a == 0:
        return 0.0
    if a == b:
        return 1.0
    if b < _TWO_53:
        return float(a) / float(b)  # both exact, and IEEE division rounds correctly
    # Binary long division, one quotient bit at a time, never overflowing: r < b always.
    r = a
    leading = 0  # quotient bits before the first 1
    mantissa = np.uint64(0)
    bits = 0
    round_bit = 0
    while True:
        if r >= b - r:
            bit = 1
            r = r - (b - r)
        else:
            bit = 0
            r = r + r
        if bits == 0 and bit == 0:
            leading += 1
            continue
        if bits < 53:
            mantissa = (mantissa << np.uint64(1)) | np.uint64(bit)
            bits += 1
        else:
            round_bit = bit
            break
    sticky = r != 0
    if round_bit == 1 and (sticky or (mantissa & np.uint64(1)) == 1):
        mantissa += np.uint64(1)
        if mantissa == _TWO_53:
            mantissa = np.uint64(1 << 52)
            leading -= 1
    # The first quotient bit is worth 2**-(leading + 1); the mantissa holds 53 bits from there.
    return math.ldexp(float(mantissa), -(leading + 53))


@helper
def outbreak_probability(
    draws: int, bag_eels: int, bag_snakes: int, needed: int, dice: bool
) -> float:  # pragma: no cover - compiled
    """The heuristic's exact chance that ``draws`` tokens hold at least ``needed`` snakes."""
    if needed <= 0:
        return 1.0
    if dice:
        total = 0.0
        for s in range(needed, draws + 1):
            ways, _ = _comb_u64(draws, s)
            # math.pow is C's pow, as Python's float ** int is.
            total = total + float(ways) * math.pow(0.25, s) * math.pow(0.75, draws - s)
        return total
    tokens = bag_eels + bag_snakes
    draws = min(draws, tokens)
    if draws <= 0:
        return 0.0
    denominator, overflow = _comb_u64(tokens, draws)
    numerator = np.uint64(0)
    for s in range(needed, min(draws, bag_snakes) + 1):
        a, over_a = _comb_u64(bag_snakes, s)
        b, over_b = _comb_u64(bag_eels, draws - s)
        if over_a or over_b or (b != 0 and a > _U64_MAX // b):
            overflow = True
            break
        term = a * b
        if numerator > _U64_MAX - term:
            overflow = True
            break
        numerator += term
    if not overflow:
        return ratio_correctly_rounded(numerator, denominator)
    approx = 0.0
    for s in range(needed, min(draws, bag_snakes) + 1):
        approx += _comb_float(bag_snakes, s) * _comb_float(bag_eels, draws - s)
    return min(1.0, approx / _comb_float(tokens, draws))


@helper
def tie_risk(count: int, others: int, max_grab: int) -> float:  # pragma: no cover - compiled
    """The chance that no other player still in grabs more than ``count`` (the rules-side ``tie_risk``)."""
    at_most = ALIKE + (1.0 - ALIKE) * min(count, max_grab) / max_grab
    return math.pow(at_most, others)


@helper
def outbreak_table(s: Row, cfg: Config, table: Table) -> None:  # pragma: no cover - compiled
    """The outbreak chances the heuristic weighs for each count, shared by every seat in the round.

    ``table[0, c]``: others grab the typical count; ``table[1, c]``: others grab ``c`` alike
    (used under eel-harvest's ``outbreak_scores_reserve``).
    """
    n = cfg[C_PLAYERS]
    others = -1  # the deciding seat is in the round and is not one of its others
    for p in range(n):
        others += s[IN_ROUND + p]
    eels = int(s[BAG_EELS])
    snakes = int(s[BAG_SNAKES])
    dice = bool(cfg[C_DICE] != 0)
    needed = int(cfg[C_THRESHOLD] - s[CENTRE])
    alike = cfg[C_WRIGGLE] == 0 and cfg[C_OUTBREAK_SCORES_RESERVE] != 0 and others > 0
    for count in range(1, cfg[C_MAX_GRAB] + 1):
        table[0, count] = outbreak_probability(count + TYPICAL_OTHER_GRAB * others, eels, snakes, needed, dice)
        if alike:
            table[1, count] = outbreak_probability(count * (1 + others), eels, snakes, needed, dice)


@helper
def heuristic_decide(s: Row, cfg: Config, me: int, table: Table) -> int:  # pragma: no cover - compiled
    """The count the Eel heuristic grabs for seat ``me`` (in the round), given ``outbreak_table``."""
    n = cfg[C_PLAYERS]
    wriggle = cfg[C_WRIGGLE] != 0
    reserve = np.int64(s[RESERVES + me])
    score = np.int64(s[SCORES + me])
    others = 0
    rival_reserve = np.int64(-1)
    for p in range(n):
        if p != me and s[IN_ROUND + p]:
            others += 1
            rival_reserve = max(rival_reserve, np.int64(s[RESERVES + p]))
    if score + reserve >= cfg[C_TARGET] and (wriggle or others == 0):
        return 0
    eels = int(s[BAG_EELS])
    snakes = int(s[BAG_SNAKES])
    if cfg[C_DICE] != 0:
        eel_share = 0.75
    elif eels + snakes:
        eel_share = float(eels) / float(eels + snakes)
    else:
        eel_share = 0.0
    full = cfg[C_OUTBREAK_SCORES_RESERVE] != 0
    best_action = 0
    best_value = float(reserve)
    max_grab = int(cfg[C_MAX_GRAB])
    for count in range(1, max_grab + 1):
        gain = count * eel_share
        p_out = table[0, count]
        if wriggle:
            lose = bool(reserve + gain >= rival_reserve + TYPICAL_OTHER_GRAB * eel_share)
            at_outbreak = 0.0 if lose else reserve + gain
        elif full and others:
            # Others who grab alike draw as many tokens as this grab, which also makes outbreaks likelier.
            p_out = ALIKE * table[1, count] + (1.0 - ALIKE) * p_out
            at_outbreak = (1.0 - tie_risk(count, others, max_grab)) * (reserve + gain)
        else:
            lose = others == 0 or count >= TYPICAL_OTHER_GRAB
            at_outbreak = 0.0 if lose else gain
        # Eels kept past this grab are not yet points: discount them a little.
        value = (1 - p_out) * (reserve + gain) * 0.92 + p_out * at_outbreak
        if value > best_value:
            best_action = count
            best_value = value
    return best_action


@numba.njit(cache=True)
def new_table(cfg: Config) -> Table:  # pragma: no cover - compiled
    return np.zeros((2, cfg[C_MAX_GRAB] + 1), np.float64)


@numba.njit(cache=True)
def heuristic_choice(s: Row, cfg: Config, me: int) -> int:  # pragma: no cover - compiled
    """The count the Eel heuristic grabs for seat ``me`` (it must be in the round)."""
    table = new_table(cfg)
    outbreak_table(s, cfg, table)
    return heuristic_decide(s, cfg, me, table)


@inlined_helper
def choose(
    s: Row, cfg: Config, seat: int, policy: int, key: np.uint64, counter: np.uint64, table: Table
) -> tuple[int, np.uint64]:  # pragma: no cover - compiled
    """Seat ``seat``'s count under ``policy``; returns it and the advanced counter.

    ``table`` holds this grab's ``outbreak_table`` whenever a seat plays the heuristic.
    """
    if policy == POLICY_HEURISTIC:
        return heuristic_decide(s, cfg, seat, table), counter
    return int(draw_below(key, counter, np.int64(cfg[C_MAX_GRAB] + 1))), counter + np.uint64(1)
