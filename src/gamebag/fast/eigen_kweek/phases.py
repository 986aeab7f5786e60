"""The round of Eigen Kweek as numba functions over one position row (see ``layout``).

These mirror ``gamebag.games.eigen_kweek.phases`` function by function: setup, the
refill, the deal and the choice of a card, growth, bids and their reveal, corners,
cultivation and the end of a round. Windows and the effects resolved when they close
are in ``kernel`` (the cards' own rules in ``cards``); ``open_window`` here only opens
one and leaves closing an empty window to ``kernel.settle``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.cards import take_from_pot
from gamebag.fast.eigen_kweek.layout import (
    A_COST,
    A_KIND,
    A_PAY,
    BAG,
    BAG_SEEN,
    BERNARD_TARGET,
    BIDS,
    BOARDS,
    C_CAPACITY,
    C_COIN_COUNTS,
    C_MAX_ROUNDS,
    C_PLAYERS,
    C_STEFAAN_FIRST,
    C_TRACK_KNOWLEDGE,
    CHANTAL,
    CHOOSER,
    COINS,
    CORNER_COINS,
    CORNERS,
    DEALT,
    EMPTY,
    END_FOUR_SACKS,
    END_ROUND_CAP,
    ENDED_BY,
    GROWTH,
    HAS_BIDS,
    HAS_TRADE,
    HELD,
    IN_STACK,
    K_HARVEST,
    K_HARVEST_ALL,
    K_PASS,
    K_SOW,
    KEPT,
    KNOW,
    LUCIEN,
    MAX_SEATS,
    NCARDS,
    NPLAYS,
    P_BLOCKED,
    P_CARD,
    P_SEAT,
    PH_CULTIVATE,
    PH_DEAL,
    PH_GROWTH,
    PH_HAND_IN,
    PH_OVER,
    PH_SETUP,
    PH_TRADE,
    PHASE,
    PLACES,
    PLAY_WIDTH,
    PLAYS,
    POT,
    QLEN,
    QUEUE,
    REC_BLOCKED,
    REC_CHOSE,
    REC_KEPT,
    REC_PLAYED,
    REC_READY,
    REFILL_LEFT,
    REFILL_NEXT,
    RIA_CARD,
    RIA_SEAT,
    ROB_TARGET,
    ROUND,
    SACK,
    SACKS_TO_WIN,
    ST_BID,
    ST_CHOOSE,
    ST_CORNER,
    ST_DEAL,
    ST_LUCIEN_DRAW,
    ST_OVER,
    ST_REFILL,
    ST_WINDOW,
    STACK,
    STACK_KNOWN,
    START_TOKENS,
    STEFAAN,
    STEP,
    STEVEN,
    T_BIDS,
    T_CHOSEN,
    T_CHOSEN_LEN,
    T_COUNTS,
    T_HANDS,
    T_LUCIEN,
    T_ORDER,
    T_ORDER_LEN,
    TOKENS,
    TOTAL_TOKENS,
    VALUES,
    W_COUNTS,
    W_HANDS,
    W_MOVES,
    W_ORDER,
    WIDTH,
    WINDOW_STEP,
    WINNERS,
    X_CLOSE,
)
from gamebag.fast.rng import helper, inlined_helper

Row = npt.NDArray[np.int32]
Config = npt.NDArray[np.int64]
Ints = npt.NDArray[np.int64]
_GROWTH = np.array(GROWTH, np.int64)
ALL_CARDS = (1 << NCARDS) - 1


@helper
def new_game(s: Row, cfg: Config) -> None:  # pragma: no cover - compiled
    """The rules engine's ``initial_state``."""
    for i in range(WIDTH):
        s[i] = 0
    n = cfg[C_PLAYERS]
    s[ROUND] = 1
    s[PHASE] = PH_SETUP
    s[STEP] = ST_REFILL
    s[POT] = TOTAL_TOKENS - START_TOKENS * n
    for p in range(n):
        s[TOKENS + p] = START_TOKENS
        for c in range(4):
            s[BOARDS + p * 4 + c] = EMPTY
    for v in range(VALUES):
        s[BAG + v] = cfg[C_COIN_COUNTS + v]
    s[REFILL_LEFT] = CORNERS
    s[STACK] = ALL_CARDS
    for i in range(8):
        s[DEALT + i] = -1
    for p in range(4):
        s[HELD + p] = -1
        s[REC_CHOSE + p] = -1
        s[REC_KEPT + p] = -1
    s[RIA_CARD] = -1
    s[RIA_SEAT] = -1
    s[CHOOSER] = -1
    s[ROB_TARGET] = -1
    s[BERNARD_TARGET] = -1
    s[T_LUCIEN] = -1


# ---- small helpers -----------------------------------------------------------------------
@helper
def queue_pop(s: Row) -> int:  # pragma: no cover - compiled
    card = s[QUEUE]
    last = s[QLEN] - 1
    for i in range(last):
        s[QUEUE + i] = s[QUEUE + i + 1]
    s[QUEUE + last] = 0
    s[QLEN] = last
    return int(card)


@helper
def anyone_holds(s: Row, cfg: Config) -> bool:  # pragma: no cover - compiled
    for p in range(cfg[C_PLAYERS]):  # noqa: SIM110 - numba compiles loops, not generators
        if s[HELD + p] >= 0:
            return True
    return False


@helper
def sacks(s: Row, seat: int) -> int:  # pragma: no cover - compiled
    count = 0
    for c in range(4):
        if s[BOARDS + seat * 4 + c] == SACK:
            count += 1
    return count


@helper
def clear_trade(s: Row) -> None:  # pragma: no cover - compiled
    s[HAS_TRADE] = 0
    for i in range(4):
        s[T_BIDS + i] = 0
        s[T_HANDS + i] = 0
        s[T_COUNTS + i] = 0
        s[T_ORDER + i] = 0
        s[T_CHOSEN + i] = 0
    s[T_ORDER_LEN] = 0
    s[T_CHOSEN_LEN] = 0
    s[T_LUCIEN] = -1


@helper
def clear_plays(s: Row) -> None:  # pragma: no cover - compiled
    for i in range(s[NPLAYS] * PLAY_WIDTH):
        s[PLAYS + i] = 0
    s[NPLAYS] = 0


@helper
def record_round(s: Row, cfg: Config) -> None:  # pragma: no cover - compiled
    """Note the cards played and blocked this round for the whole-game kernel's records."""
    for p in range(4):
        s[REC_PLAYED + p] = 0
        s[REC_BLOCKED + p] = 0
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        seat = s[b + P_SEAT]
        s[REC_PLAYED + seat] |= 1 << s[b + P_CARD]
        if s[b + P_BLOCKED]:
            s[REC_BLOCKED + seat] |= 1 << s[b + P_CARD]
    s[REC_READY] = s[ROUND]


# ---- refill and the start of a round ----------------------------------------------------
@helper
def place_refill_coin(s: Row, cfg: Config, v: int) -> None:  # pragma: no cover - compiled
    s[BAG + v] -= 1
    s[CORNER_COINS + s[REFILL_NEXT] * VALUES + v] += 1
    for i in range(VALUES):
        s[BAG_SEEN + i] = 0  # a blind draw: nobody knows any more which coins are left in the bag
    s[REFILL_NEXT] += 1
    s[REFILL_LEFT] -= 1
    if s[REFILL_LEFT] > 0:
        return
    if s[PHASE] != PH_SETUP:
        s[ROUND] += 1
    begin_round(s, cfg)


@helper
def begin_round(s: Row, cfg: Config) -> None:  # pragma: no cover - compiled
    clear_plays(s)
    clear_trade(s)
    s[BERNARD_TARGET] = -1
    s[PHASE] = PH_DEAL
    if cfg[C_TRACK_KNOWLEDGE]:
        for i in range(MAX_SEATS * PLACES):
            s[STACK_KNOWN + i] = 0
    for p in range(4):
        s[REC_CHOSE + p] = -1
    continue_deal(s, cfg)


@helper
def dealt_count(s: Row, seat: int) -> int:  # pragma: no cover - compiled
    return int(s[DEALT + 2 * seat] >= 0) + int(s[DEALT + 2 * seat + 1] >= 0)


@helper
def next_deal_seat(s: Row, cfg: Config) -> int:  # pragma: no cover - compiled
    for p in range(cfg[C_PLAYERS]):
        if s[KEPT + p] == 0 and dealt_count(s, p) < 2:
            return p
    return -1


@helper
def continue_deal(s: Row, cfg: Config) -> None:  # pragma: no cover - compiled
    if s[STACK] != 0 and next_deal_seat(s, cfg) >= 0:
        s[STEP] = ST_DEAL
        return
    for p in range(cfg[C_PLAYERS]):
        if dealt_count(s, p) > 0:
            s[STEP] = ST_CHOOSE
            return
    open_window(s, cfg, PH_DEAL)


@inlined_helper
def deal_card(s: Row, cfg: Config, card: int) -> None:  # pragma: no cover - compiled
    seat = next_deal_seat(s, cfg)
    s[DEALT + 2 * seat + dealt_count(s, seat)] = card
    s[STACK] &= ~np.int32(1 << card)
    if s[STACK] != 0 and (dealt_count(s, seat) < 2 or next_deal_seat(s, cfg) >= 0):
        return
    continue_deal(s, cfg)


@helper
def apply_choose(s: Row, cfg: Config, w: Ints) -> None:  # pragma: no cover - compiled
    """``w[W_MOVES + seat]``: the card each dealt seat keeps (-1 for seats not choosing)."""
    for p in range(cfg[C_PLAYERS]):
        card = w[W_MOVES + p]
        if card < 0:
            continue
        s[HELD + p] = card
        s[REC_CHOSE + p] = card
        for i in range(2):
            other = s[DEALT + 2 * p + i]
            if other >= 0 and other != card:
                s[STACK] |= 1 << other
                if cfg[C_TRACK_KNOWLEDGE]:
                    s[STACK_KNOWN + p * PLACES + IN_STACK + 2] |= 1 << other
            s[DEALT + 2 * p + i] = -1
    open_window(s, cfg, PH_DEAL)


# ---- windows ----------------------------------------------------------------------------
@helper
def open_window(s: Row, cfg: Config, phase: int) -> None:  # pragma: no cover - compiled
    s[PHASE] = phase
    s[STEP] = ST_WINDOW
    s[WINDOW_STEP] = 1
    if not anyone_holds(s, cfg):
        s[STEP] = X_CLOSE  # ``settle`` closes it


# ---- growth and trade ------------------------------------------------------------------------
@helper
def begin_growth(s: Row, cfg: Config) -> None:  # pragma: no cover - compiled
    if s[ROUND] == 1:
        begin_trade(s)  # no plant cards lie in round 1: the growth phase is skipped
        return
    s[PHASE] = PH_GROWTH
    for p in range(cfg[C_PLAYERS]):
        for c in range(4):
            at = BOARDS + p * 4 + c
            slot = s[at]
            if slot < 0:
                continue
            wanted = min(_GROWTH[c], cfg[C_CAPACITY + c] - slot)
            s[at] = slot + take_from_pot(s, wanted)
    open_window(s, cfg, PH_GROWTH)


@helper
def begin_trade(s: Row) -> None:  # pragma: no cover - compiled
    s[PHASE] = PH_TRADE
    s[STEP] = ST_BID


@helper
def apply_bids(s: Row, cfg: Config, w: Ints) -> None:  # pragma: no cover - compiled
    """``w[W_MOVES + seat]``: each seat's bid."""
    for p in range(cfg[C_PLAYERS]):
        s[BIDS + p] = w[W_MOVES + p]
        s[TOKENS + p] -= w[W_MOVES + p]
    s[HAS_BIDS] = 1
    open_window(s, cfg, PH_TRADE)


@helper
def reveal_bids(s: Row, cfg: Config, w: Ints) -> None:  # pragma: no cover - compiled
    """Open the hands: CHANTAL, STEVEN, ties (STEFAAN), payment, LUCIEN, then corners."""
    n = cfg[C_PLAYERS]
    # ``active`` of each trade card, in one pass over the plays (the first unblocked play of each).
    chantal = steven = stefaan = lucien = -1
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        if s[b + P_BLOCKED] != 0:
            continue
        card = s[b + P_CARD]
        seat = s[b + P_SEAT]
        if card == CHANTAL and chantal < 0:
            chantal = seat
        elif card == STEVEN and steven < 0:
            steven = seat
        elif card == STEFAAN and stefaan < 0:
            stefaan = seat
        elif card == LUCIEN and lucien < 0:
            lucien = seat
    for p in range(n):
        w[W_HANDS + p] = s[BIDS + p]
    if chantal >= 0:
        got = 0
        for p in range(n):
            if p != chantal and w[W_HANDS + p] > 0:
                w[W_HANDS + p] -= 1
                got += 1
        s[TOKENS + chantal] += got
    for p in range(n):
        w[W_COUNTS + p] = w[W_HANDS + p] + (2 if p == steven and s[BIDS + p] > 0 else 0)
    takers = 0
    for p in range(n):
        count = w[W_COUNTS + p]
        if count <= 0:
            continue
        same = 0
        for q in range(n):
            if w[W_COUNTS + q] == count:
                same += 1
        if same == 1 or (p == stefaan):
            w[W_ORDER + takers] = p
            takers += 1
    stefaan_won = False
    if stefaan >= 0 and w[W_COUNTS + stefaan] > 0:
        same = 0
        for q in range(n):
            if w[W_COUNTS + q] == w[W_COUNTS + stefaan]:
                same += 1
        stefaan_won = same > 1  # alone at its count, STEFAAN is an ordinary taker (listed above)
    # Sort the takers by (highest count, lowest seat): insertion sort of at most four seats.
    for i in range(1, takers):
        j = i
        while j > 0:
            a = w[W_ORDER + j - 1]
            b = w[W_ORDER + j]
            if w[W_COUNTS + a] < w[W_COUNTS + b] or (w[W_COUNTS + a] == w[W_COUNTS + b] and a > b):
                w[W_ORDER + j - 1] = b
                w[W_ORDER + j] = a
                j -= 1
            else:
                break
    if stefaan_won and cfg[C_STEFAAN_FIRST]:
        at = 0
        for i in range(takers):
            if w[W_ORDER + i] == stefaan:
                at = i
        for i in range(at, 0, -1):
            w[W_ORDER + i] = w[W_ORDER + i - 1]
        w[W_ORDER] = stefaan
    for p in range(n):
        taker = False
        for i in range(takers):
            if w[W_ORDER + i] == p:
                taker = True
        if taker:
            s[POT] += w[W_HANDS + p]
        else:
            s[TOKENS + p] += w[W_HANDS + p]
    lucky = -1
    if lucien >= 0 and s[BIDS + lucien] > 0:
        lowest = -1
        others = False
        for p in range(n):
            if p != lucien and s[BIDS + p] > 0:
                if not others or w[W_COUNTS + p] < lowest:
                    lowest = w[W_COUNTS + p]
                others = True
        if others and w[W_COUNTS + lucien] < lowest:
            lucky = lucien
    s[HAS_TRADE] = 1
    for p in range(n):
        s[T_BIDS + p] = s[BIDS + p]
        s[T_HANDS + p] = w[W_HANDS + p]
        s[T_COUNTS + p] = w[W_COUNTS + p]
        s[BIDS + p] = 0
    s[HAS_BIDS] = 0
    for i in range(takers):
        s[T_ORDER + i] = w[W_ORDER + i]
    s[T_ORDER_LEN] = takers
    s[T_CHOSEN_LEN] = 0
    s[T_LUCIEN] = lucky
    if lucky >= 0:
        total = 0
        for v in range(VALUES):
            total += s[BAG + v]
        if total:
            s[CHOOSER] = lucky
            s[STEP] = ST_LUCIEN_DRAW
            return
    next_corner(s, cfg)


@helper
def apply_lucien_draw(s: Row, cfg: Config, v: int) -> None:  # pragma: no cover - compiled
    seat = s[CHOOSER]
    s[BAG + v] -= 1
    s[COINS + seat * VALUES + v] += 1
    for i in range(VALUES):
        s[BAG_SEEN + i] = 0
    s[CHOOSER] = -1
    next_corner(s, cfg)


@helper
def take_corner(s: Row, corner: int) -> None:  # pragma: no cover - compiled
    seat = s[CHOOSER]
    for v in range(VALUES):
        s[COINS + seat * VALUES + v] += s[CORNER_COINS + corner * VALUES + v]
        s[CORNER_COINS + corner * VALUES + v] = 0
    s[T_CHOSEN + s[T_CHOSEN_LEN]] = corner
    s[T_CHOSEN_LEN] += 1


@helper
def corner_free(s: Row, corner: int) -> bool:  # pragma: no cover - compiled
    for i in range(s[T_CHOSEN_LEN]):  # noqa: SIM110 - numba compiles loops, not generators
        if s[T_CHOSEN + i] == corner:
            return False
    return True


@helper
def next_corner(s: Row, cfg: Config) -> None:  # pragma: no cover - compiled
    while s[T_CHOSEN_LEN] < s[T_ORDER_LEN]:
        s[CHOOSER] = s[T_ORDER + s[T_CHOSEN_LEN]]
        if CORNERS - s[T_CHOSEN_LEN] == 1:
            for c in range(CORNERS):
                if corner_free(s, c):
                    take_corner(s, c)
                    break
            continue
        s[STEP] = ST_CORNER
        return
    s[CHOOSER] = -1
    open_window(s, cfg, PH_CULTIVATE)


# ---- cultivate, hand in, end of round -------------------------------------------------------
@helper
def apply_cultivate(s: Row, cfg: Config, acts: Ints, moves: Ints) -> None:  # pragma: no cover - compiled
    n = cfg[C_PLAYERS]
    for p in range(n):
        a = moves[p]
        if a < 0:
            continue
        kind = acts[a, A_KIND]
        if kind == K_PASS:
            continue
        if kind == K_HARVEST_ALL:
            total = 0
            for c in range(4):
                at = BOARDS + p * 4 + c
                if s[at] > 0:
                    total += s[at]
                    s[at] = 0
            s[TOKENS + p] += total
            continue
        at = BOARDS + p * 4 + acts[a, A_COST]
        if kind == K_HARVEST:
            s[TOKENS + p] += s[at]
            s[at] = 0
            continue
        for v in range(VALUES):
            paid = acts[a, A_PAY + v]
            s[COINS + p * VALUES + v] -= paid
            s[BAG + v] += paid
            s[BAG_SEEN + v] += paid
        if kind == K_SOW:
            s[at] = 0
        else:
            s[TOKENS + p] += s[at]
            s[at] = SACK
    winners = 0
    for p in range(n):
        if sacks(s, p) >= SACKS_TO_WIN:
            winners |= 1 << p
    if winners:
        record_round(s, cfg)
        s[WINNERS] = winners
        s[ENDED_BY] = END_FOUR_SACKS
        s[PHASE] = PH_OVER
        s[STEP] = ST_OVER
        return
    s[BERNARD_TARGET] = -1
    open_window(s, cfg, PH_HAND_IN)


@helper
def cap_key(s: Row, seat: int, part: int) -> int:  # pragma: no cover - compiled
    """Part ``part`` of the round cap's tie-break: sacks, plant cards laid, coin value, weed tokens."""
    if part == 0:
        return sacks(s, seat)
    total = 0
    for c in range(4):
        slot = s[BOARDS + seat * 4 + c]
        if part == 1 and slot != EMPTY:
            total += 1
        elif part == 3 and slot > 0:
            total += slot
    if part == 2:
        for v in range(VALUES):
            total += (v + 1) * s[COINS + seat * VALUES + v]
    if part == 3:
        total += s[TOKENS + seat]
    return total


@helper
def end_round(s: Row, cfg: Config, w: Ints, keeps: bool) -> None:  # pragma: no cover - compiled
    """``keeps``: whether ``w[W_MOVES + seat]`` says which holders keep their card (1)."""
    n = cfg[C_PLAYERS]
    record_round(s, cfg)
    held_mask = 0
    for p in range(n):
        s[REC_KEPT + p] = -1
        if s[HELD + p] >= 0 and keeps and w[W_MOVES + p] == 1:
            s[KEPT + p] = 1
            s[REC_KEPT + p] = s[HELD + p]
            held_mask |= 1 << s[HELD + p]
        else:
            s[KEPT + p] = 0
            s[HELD + p] = -1
    s[STACK] = ALL_CARDS & ~held_mask
    if cfg[C_TRACK_KNOWLEDGE]:
        for o in range(n):
            for p in range(n):
                card = s[HELD + p]
                s[KNOW + o * 4 + p] = s[KNOW + o * 4 + p] & (1 << card) if card >= 0 else 0
        for i in range(MAX_SEATS * PLACES):
            s[STACK_KNOWN + i] = 0
    clear_plays(s)
    if s[ROUND] >= cfg[C_MAX_ROUNDS]:
        best = -1
        for p in range(n):
            better = True
            if best >= 0:
                better = False
                for part in range(4):
                    mine = cap_key(s, p, part)
                    theirs = cap_key(s, best, part)
                    if mine != theirs:
                        better = mine > theirs
                        break
            if better:
                best = p
        winners = 0
        for p in range(n):
            same = True
            for part in range(4):
                if cap_key(s, p, part) != cap_key(s, best, part):
                    same = False
            if same:
                winners |= 1 << p
        s[WINNERS] = winners
        s[ENDED_BY] = END_ROUND_CAP
        s[PHASE] = PH_OVER
        s[STEP] = ST_OVER
        return
    s[PHASE] = PH_HAND_IN
    s[REFILL_NEXT] = 0
    total = 0
    for v in range(VALUES):
        total += s[BAG + v]
    s[REFILL_LEFT] = min(CORNERS, total)
    if s[REFILL_LEFT] == 0:
        s[ROUND] += 1
        begin_round(s, cfg)
        return
    s[STEP] = ST_REFILL
