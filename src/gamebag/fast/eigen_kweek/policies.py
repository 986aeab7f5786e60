"""Menus (legal actions) and the compiled ``random`` and ``heuristic`` policies of Eigen Kweek.

``menu`` lists a seat's legal actions as action indices in the rules engine's order
(``steps.py``: the order matters, because the heuristic breaks ties at random over
the tied actions in that order). ``heuristic_choice`` is
``agents.heuristics.eigen_kweek.EigenKweekHeuristic.act`` decision for decision: each
of its random tie-breaks (``_best``) and its bid jitter is one ``draw_below`` of the
game's generator, at the same point and over the same range as the Python agent's
``randrange`` calls, so ``tests/fast/test_kweek_equality.py`` hands the Python agent a
generator that answers from the same stream and asks for the very same actions.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.cards import list_targets, window_menu
from gamebag.fast.eigen_kweek.kernel import acting
from gamebag.fast.eigen_kweek.layout import (
    ALPHA_RANK,
    BERNARD,
    BIDS,
    BOARDS,
    C_A_BID,
    C_A_CHOOSE,
    C_A_CORNER,
    C_A_HAND_IN,
    C_A_HARVEST,
    C_A_HARVEST_ALL,
    C_A_KEEP,
    C_A_PASS,
    C_A_PLAY,
    C_A_RIA_DRAW,
    C_A_RIA_LEFT,
    C_A_RIA_RIGHT,
    C_A_RIA_SKIP,
    C_CAPACITY,
    C_PLAYERS,
    CARD_NAMES,
    CARD_PHASE,
    CHANTAL,
    CHOOSER,
    COINS,
    CORNERS,
    DEALT,
    FLUPPE,
    FRANK,
    GRIET,
    GROWTH,
    HAS_BIDS,
    HELD,
    JOS,
    JULITA,
    KEUN,
    LUCIEN,
    NPLAYS,
    OLLANDER,
    P_BLOCKED,
    P_CARD,
    P_SEAT,
    PASTOOR,
    PAY_FIRST,
    PAY_STEP,
    PHASE,
    PLAY_WIDTH,
    PLAYS,
    SACK,
    ST_BID,
    ST_CHOOSE,
    ST_CORNER,
    ST_CULTIVATE,
    ST_GRIET,
    ST_KEEP,
    ST_KEUN,
    ST_RIA_CHOICE,
    ST_RIA_DIRECTION,
    ST_ROB,
    ST_WINDOW,
    STEFAAN,
    STEP,
    STEVEN,
    T_CHOSEN,
    T_CHOSEN_LEN,
    TOKENS,
    VALUES,
    W_LEGAL,
    W_TACT,
)
from gamebag.fast.rng import draw_below, helper, inlined_helper
from gamebag.games.eigen_kweek.strategy import BLOCK_AT as BLOCK_AT
from gamebag.games.eigen_kweek.strategy import HARM
from gamebag.games.eigen_kweek.strategy import KEEP_WORTH as KEEP_WORTH

Row = npt.NDArray[np.int32]
Config = npt.NDArray[np.int64]
Ints = npt.NDArray[np.int64]
UInts = npt.NDArray[np.uint64]
_GROWTH = np.array(GROWTH, np.int64)
_ALPHA = np.array(ALPHA_RANK, np.int64)
_CARD_PHASE = np.array(CARD_PHASE, np.int64)
# How much a revealed opponent card hurts, for JULITA, by card index (the heuristic's HARM).
_HARM = np.array([HARM.get(name, 0.0) for name in CARD_NAMES])


# ---- menus -----------------------------------------------------------------------------------
@helper
def played_cards(s: Row, seat: int) -> int:  # pragma: no cover - compiled
    """The cards ``seat`` played this round and that were not blocked, as a bit mask (one pass)."""
    cards = 0
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        if s[b + P_SEAT] == seat and s[b + P_BLOCKED] == 0:
            cards |= 1 << s[b + P_CARD]
    return cards


# The high bit of each of the five bytes of a packed coin count (``A_PACKED``, ``packed_coins``).
PACK_HIGH = 0x8080808080


@helper
def packed_coins(s: Row, seat: int) -> int:  # pragma: no cover - compiled
    """``seat``'s coins 8 bits a value, as ``A_PACKED`` packs a payment."""
    b = COINS + seat * VALUES
    packed = np.int64(0)
    for v in range(VALUES):
        packed |= np.int64(s[b + v]) << (8 * v)
    return int(packed)


@helper
def fits(coins: int, payment: int) -> bool:  # pragma: no cover - compiled
    """Whether packed ``coins`` hold every value of the packed ``payment``: one subtraction, as
    every count is below 128 (35 coins in all), so a byte borrows, and loses its high bit,
    exactly where the payment asks more coins of that value than are held."""
    return ((coins | PACK_HIGH) - payment) & PACK_HIGH == PACK_HIGH


@inlined_helper
def add_payments(
    acts: Ints, pays: Ints, row: int, coins: int, wealth: int, w: Ints, at: int, count: int
) -> int:  # pragma: no cover - compiled
    if wealth < pays[row, 1]:
        return count
    for i in range(pays[row, 0]):
        # Written whether it fits or not, and kept only if it does: no branch to mispredict.
        w[at + count] = pays[row, PAY_FIRST + PAY_STEP * i]
        count += fits(coins, pays[row, PAY_FIRST + PAY_STEP * i + 1])
    return count


@helper
def aimed_card(step: int) -> int:  # pragma: no cover - compiled
    if step == ST_KEUN:
        return KEUN
    if step == ST_GRIET:
        return GRIET
    if step == ST_ROB:
        return PASTOOR
    return BERNARD


@helper
def menu(s: Row, cfg: Config, acts: Ints, pays: Ints, seat: int, w: Ints, at: int) -> int:  # pragma: no cover
    """``seat``'s legal actions into ``w[at:]`` in the rules engine's order; returns how many (0: not acting)."""
    if not acting(s, cfg, seat):
        return 0
    step = s[STEP]
    if step == ST_CHOOSE:
        a = s[DEALT + 2 * seat]
        b = s[DEALT + 2 * seat + 1]
        if b < 0 or (a >= 0 and _ALPHA[a] < _ALPHA[b]):
            first, second = a, b
        else:
            first, second = b, a
        count = 0
        for card in (first, second):
            if card >= 0:
                w[at + count] = cfg[C_A_CHOOSE + card]
                count += 1
        return count
    if step == ST_WINDOW:
        return window_menu(s, cfg, seat, w, at)
    if step == ST_BID:
        tokens = s[TOKENS + seat]
        if tokens == 0:
            w[at] = cfg[C_A_BID]
            return 1
        for k in range(tokens):
            w[at + k] = cfg[C_A_BID] + k + 1
        return int(tokens)
    if step == ST_CULTIVATE:
        played = played_cards(s, seat)
        frank = (played >> FRANK) & 1
        jos = (played >> JOS) & 1
        w[at] = cfg[C_A_PASS]
        count = 1
        loaded = False
        wealth = coin_value(s, seat)
        coins = packed_coins(s, seat)
        for c in range(4):
            slot = s[BOARDS + seat * 4 + c]
            if slot == -1:
                count = add_payments(acts, pays, c * 2 + frank, coins, wealth, w, at, count)
            elif slot != SACK:
                if slot > 0:
                    w[at + count] = cfg[C_A_HARVEST + c]
                    count += 1
                    loaded = True
                count = add_payments(acts, pays, 8 + c * 2 + frank, coins, wealth, w, at, count)
        if jos and loaded:
            w[at + count] = cfg[C_A_HARVEST_ALL]
            count += 1
        return count
    if step == ST_KEEP:
        w[at] = cfg[C_A_KEEP]
        w[at + 1] = cfg[C_A_HAND_IN]
        return 2
    if step == ST_RIA_CHOICE:
        w[at] = cfg[C_A_RIA_DRAW]
        w[at + 1] = cfg[C_A_RIA_SKIP]
        return 2
    if step == ST_RIA_DIRECTION:
        w[at] = cfg[C_A_RIA_LEFT]
        w[at + 1] = cfg[C_A_RIA_RIGHT]
        return 2
    if step == ST_CORNER:
        count = 0
        for c in range(CORNERS):
            free = True
            for i in range(s[T_CHOSEN_LEN]):
                if s[T_CHOSEN + i] == c:
                    free = False
            if free:
                w[at + count] = cfg[C_A_CORNER + c]
                count += 1
        return count
    count = list_targets(s, cfg, aimed_card(step), seat, w)
    for i in range(count):
        w[at + i] = w[W_TACT + i]
    return count


# ---- the random policy -------------------------------------------------------------------
@inlined_helper
def random_choice(
    s: Row, cfg: Config, acts: Ints, pays: Ints, seat: int, key: np.uint64, ctr: UInts, w: Ints
) -> int:  # pragma: no cover - compiled
    """One draw over ``seat``'s menu, uniform; the commonest menus are read off without listing them."""
    step = s[STEP]
    if step == ST_BID:  # bid:1 .. bid:TOKENS (bid:0 without tokens)
        tokens = int(s[TOKENS + seat])
        pick = draw_below(key, ctr[0], np.int64(max(tokens, 1)))
        ctr[0] += np.uint64(1)
        return int(cfg[C_A_BID] + (pick + 1 if tokens > 0 else 0))
    if step == ST_WINDOW:
        card = s[HELD + seat]
        if card < 0:
            return -1
        phase = _CARD_PHASE[card]
        if phase >= 0:  # the menu is pass, and play in the card's own phase
            pick = draw_below(key, ctr[0], np.int64(2 if phase == s[PHASE] else 1))
            ctr[0] += np.uint64(1)
            return int(cfg[C_A_PLAY + card] if pick == 1 else cfg[C_A_PASS])
    elif step == ST_CHOOSE:  # choose:CARD of the dealt cards, in card name order
        a = s[DEALT + 2 * seat]
        b = s[DEALT + 2 * seat + 1]
        count = int(a >= 0) + int(b >= 0)
        if count == 0:
            return -1
        pick = draw_below(key, ctr[0], np.int64(count))
        ctr[0] += np.uint64(1)
        if count == 1:
            return int(cfg[C_A_CHOOSE + max(a, b)])
        later = _ALPHA[a] > _ALPHA[b]  # whether a comes second
        return int(cfg[C_A_CHOOSE + (a if later == (pick == 1) else b)])
    elif step == ST_KEEP:  # keep, hand_in
        if s[HELD + seat] < 0:
            return -1
        pick = draw_below(key, ctr[0], np.int64(2))
        ctr[0] += np.uint64(1)
        return int(cfg[C_A_KEEP] if pick == 0 else cfg[C_A_HAND_IN])
    elif step == ST_CORNER:  # corner:C of the free corners, in corner order
        if seat != s[CHOOSER]:
            return -1
        free = (1 << CORNERS) - 1
        for i in range(s[T_CHOSEN_LEN]):
            free &= ~(1 << s[T_CHOSEN + i])
        count = 0
        rest = free
        while rest:
            rest &= rest - 1
            count += 1
        if count == 0:
            return -1
        pick = draw_below(key, ctr[0], np.int64(count))
        ctr[0] += np.uint64(1)
        for _ in range(pick):
            free &= free - 1
        c = 0
        while (free >> c) & 1 == 0:
            c += 1
        return int(cfg[C_A_CORNER + c])
    count = menu(s, cfg, acts, pays, seat, w, W_LEGAL)
    if count == 0:
        return -1
    pick = draw_below(key, ctr[0], np.int64(count))
    ctr[0] += np.uint64(1)
    return int(w[W_LEGAL + pick])


# ---- what the heuristic reads --------------------------------------------------------------
@helper
def strength(s: Row, seat: int) -> int:  # pragma: no cover - compiled
    """(sacks, plant cards laid, coins held) as one number that orders the same way."""
    sacks = 0
    laid = 0
    for c in range(4):
        slot = s[BOARDS + seat * 4 + c]
        if slot == SACK:
            sacks += 1
        if slot != -1:
            laid += 1
    coins = 0
    for v in range(VALUES):
        coins += s[COINS + seat * VALUES + v]
    return (sacks * 8 + laid) * 64 + coins


@helper
def coin_count(s: Row, seat: int) -> int:  # pragma: no cover - compiled
    total = 0
    for v in range(VALUES):
        total += s[COINS + seat * VALUES + v]
    return total


@helper
def coin_value(s: Row, seat: int) -> int:  # pragma: no cover - compiled
    total = 0
    for v in range(VALUES):
        total += (v + 1) * s[COINS + seat * VALUES + v]
    return total


@helper
def tokens_on(s: Row, seat: int, c: int) -> int:  # pragma: no cover - compiled
    return max(int(s[BOARDS + seat * 4 + c]), 0)


@helper
def others_have_coins(s: Row, cfg: Config, me: int) -> bool:  # pragma: no cover - compiled
    for p in range(cfg[C_PLAYERS]):  # noqa: SIM110 - numba compiles loops, not generators
        if p != me and coin_count(s, p) > 0:
            return True
    return False


@helper
def card_value(s: Row, cfg: Config, me: int, card: int) -> float:  # pragma: no cover - compiled
    """A rough worth of holding ``card`` this round, in weed tokens (the heuristic's ``card_value``)."""
    n = cfg[C_PLAYERS]
    if card == KEUN:
        best = 0
        for p in range(n):
            for c in range(4):
                slot = s[BOARDS + p * 4 + c]
                if slot >= 0:
                    best = max(best, slot + _GROWTH[c])
        return min(best, 8) * 0.8
    if card == FLUPPE:
        growing = 0
        for c in range(4):
            if s[BOARDS + me * 4 + c] >= 0:
                growing += 1
        return 2.0 * growing
    if card == GRIET:
        found = False
        best = 0
        for c in range(4):
            slot = s[BOARDS + me * 4 + c]
            if slot >= 0:
                room = cfg[C_CAPACITY + c] - slot - _GROWTH[c]
                best = room if not found else max(best, room)
                found = True
        return best * 0.9
    if card == PASTOOR:
        return 3.0 if others_have_coins(s, cfg, me) else 0.0
    if card == STEVEN:
        return 3.0
    if card == CHANTAL:
        return float(0.9 * (n - 1))
    if card == FRANK:
        return 3.5 if coin_value(s, me) >= 2 else 1.0
    if card == BERNARD:
        most = 0
        for p in range(n):
            if p != me:
                sacks = 0
                for c in range(4):
                    if s[BOARDS + p * 4 + c] == SACK:
                        sacks += 1
                most = max(most, sacks)
        return 1.5 + most
    if card == JOS:
        total = 0
        top = 0
        for c in range(4):
            slot = s[BOARDS + me * 4 + c]
            if slot >= 0:
                loaded = slot + _GROWTH[c]
                total += loaded
                top = max(top, loaded)
        return float(total - top)
    if card in (JULITA, OLLANDER):
        return 2.0
    if card in (LUCIEN, STEFAAN):
        return 1.5
    return 1.0  # RIA


@helper
def worth_playing(s: Row, cfg: Config, me: int, card: int) -> bool:  # pragma: no cover - compiled
    n = cfg[C_PLAYERS]
    if card == KEUN:
        for p in range(n):
            for c in range(4):
                if s[BOARDS + p * 4 + c] > 0:
                    return True
        return False
    if card == FLUPPE:
        for c in range(4):  # noqa: SIM110 - numba compiles loops, not generators
            if s[BOARDS + me * 4 + c] >= 0:
                return True
        return False
    if card == GRIET:
        for c in range(4):
            slot = s[BOARDS + me * 4 + c]
            if slot >= 0 and slot < cfg[C_CAPACITY + c]:
                return True
        return False
    if card == PASTOOR:
        return others_have_coins(s, cfg, me)
    if card == LUCIEN:
        return bool(s[HAS_BIDS] != 0 and s[BIDS + me] <= 2)
    if card == FRANK:
        return coin_value(s, me) >= 1
    if card == JOS:
        loaded = 0
        for c in range(4):
            if s[BOARDS + me * 4 + c] > 0:
                loaded += 1
        return loaded >= 2
    return True
