"""Windows and the transitions of every step, as numba functions over one position row.

These mirror ``gamebag.games.eigen_kweek.phases`` (windows, targets and the effects
resolved when a window closes) and ``steps`` (who acts, the transition of each step);
the round's phases are in ``phases``, the cards' own rules in ``cards``. The rules
engine's functions call each other in a cycle (a window that opens with no card held
closes at once, and closing a window opens the next phase's); here ``open_window``
leaves the internal step ``X_CLOSE`` and ``settle`` closes such windows, which is the
same because every call of ``open_window`` in the rules engine is the last thing its
caller does. ``apply_chance`` and ``apply_moves`` are the transitions of chance and
decision steps; ``tests/fast/test_kweek_equality.py`` replays rules-engine games
through them and compares every field after every step.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.cards import (
    active,
    aim,
    apply_fluppe,
    list_targets,
    move_coin,
    resolve_aimed,
    reveal_step,
    ria_drawn,
    ria_pass,
    target_of,
)
from gamebag.fast.eigen_kweek.layout import (
    A_CARD,
    A_COST,
    A_KIND,
    A_NUMBER,
    A_SEAT,
    BAG,
    BERNARD,
    BERNARD_TARGET,
    C_PLAYERS,
    CHOOSER,
    COINS,
    FLUPPE,
    GRIET,
    GROWTH,
    HELD,
    K_KEEP,
    K_RIA_DRAW,
    KEUN,
    NCARDS,
    NPLAYS,
    P_BLOCKED,
    P_CARD,
    P_PHASE,
    P_STEP,
    P_T1,
    P_T2,
    P_TKIND,
    P_TOOK,
    PASTOOR,
    PH_CULTIVATE,
    PH_DEAL,
    PH_GROWTH,
    PH_TRADE,
    PHASE,
    PLAY_WIDTH,
    PLAYS,
    QLEN,
    QUEUE,
    REC_READY,
    RIA,
    RIA_CARD,
    RIA_SEAT,
    ROB_TARGET,
    ST_BERNARD,
    ST_BID,
    ST_CHOOSE,
    ST_CORNER,
    ST_CULTIVATE,
    ST_DEAL,
    ST_GRIET,
    ST_KEEP,
    ST_KEUN,
    ST_LUCIEN_DRAW,
    ST_OVER,
    ST_REFILL,
    ST_RIA_CHOICE,
    ST_RIA_DIRECTION,
    ST_RIA_DRAW,
    ST_ROB,
    ST_ROB_DRAW,
    ST_WINDOW,
    STACK,
    STEP,
    VALUES,
    W_MOVES,
    W_T1,
    W_T2,
    WINDOW_STEP,
    X_CLOSE,
)
from gamebag.fast.eigen_kweek.phases import (
    anyone_holds,
    apply_bids,
    apply_choose,
    apply_cultivate,
    apply_lucien_draw,
    begin_growth,
    begin_trade,
    deal_card,
    dealt_count,
    end_round,
    next_corner,
    place_refill_coin,
    queue_pop,
    reveal_bids,
    take_corner,
)
from gamebag.fast.rng import draw_below, helper, inlined_helper

Row = npt.NDArray[np.int32]
Config = npt.NDArray[np.int64]
Ints = npt.NDArray[np.int64]
UInts = npt.NDArray[np.uint64]
_GROWTH = np.array(GROWTH, np.int64)
ALL_CARDS = (1 << NCARDS) - 1


# ---- windows ---------------------------------------------------------------------------------
@helper
def aimed_step(card: int) -> int:  # pragma: no cover - compiled
    if card == KEUN:
        return ST_KEUN
    if card == GRIET:
        return ST_GRIET
    if card == PASTOOR:
        return ST_ROB
    return ST_BERNARD


# Cards named on playing, and cards resolved when a window closes, as bit masks of cards.
AIMED = (1 << KEUN) | (1 << GRIET) | (1 << PASTOOR) | (1 << BERNARD)
RESOLVED_AT_CLOSE = (1 << RIA) | (1 << KEUN) | (1 << FLUPPE) | (1 << GRIET) | (1 << PASTOOR) | (1 << BERNARD)


@helper
def queue_by_card(s: Row, counts: int) -> None:  # pragma: no cover - compiled
    """Queue each card ``(counts >> 4 * card) & 15`` times, in card order (the rulebook's order).

    The windows list the plays of a card for each card in turn; counting them in one pass over
    the plays (at most 14, so four bits a card) and queueing here gives the same queue.
    """
    card = 0
    while counts:
        for _ in range(counts & 15):
            s[QUEUE + s[QLEN]] = card
            s[QLEN] += 1
        counts >>= 4
        card += 1


@inlined_helper
def apply_window(s: Row, cfg: Config, acts: Ints, moves: Ints, w: Ints) -> None:  # pragma: no cover - compiled
    if not reveal_step(s, cfg, acts, moves, s[WINDOW_STEP], w):
        close_window(s, cfg, w)
        return
    # Targets are named as the cards are revealed, in the rulebook's order of the cards.
    counts = 0
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        card = s[b + P_CARD]
        if (
            (AIMED >> card) & 1 and s[b + P_TKIND] == 0 and s[b + P_BLOCKED] == 0
            and s[b + P_STEP] == s[WINDOW_STEP] and s[b + P_PHASE] == s[PHASE]
        ):  # fmt: skip
            counts += 1 << (4 * card)
    queue_by_card(s, counts)
    name_targets(s, cfg, w)


@helper
def name_targets(s: Row, cfg: Config, w: Ints) -> None:  # pragma: no cover - compiled
    while s[QLEN] > 0:
        card = queue_pop(s)
        seat = active(s, card)
        if seat < 0:
            continue
        count = list_targets(s, cfg, card, seat, w)
        if count == 0:
            continue
        if count == 1:
            aim(s, seat, card, w[W_T1], w[W_T2])
            continue
        s[CHOOSER] = seat
        s[STEP] = aimed_step(card)
        return
    s[CHOOSER] = -1
    if anyone_holds(s, cfg):
        s[WINDOW_STEP] += 1
        s[STEP] = ST_WINDOW
        return
    close_window(s, cfg, w)


@inlined_helper
def close_window(s: Row, cfg: Config, w: Ints) -> None:  # pragma: no cover - compiled
    counts = 0
    phase = s[PHASE]
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        if s[b + P_PHASE] != phase:
            continue
        card = s[b + P_CARD]
        if (RESOLVED_AT_CLOSE >> card) & 1 and s[b + P_BLOCKED] == 0:
            counts += 1 << (4 * card)
        # DEN OLLANDER's take can no longer be undone: forget which card it was.
        s[b + P_TOOK] = -1
    queue_by_card(s, counts)
    s[WINDOW_STEP] = 0
    resolve_queue(s, cfg, w)


@inlined_helper
def resolve_queue(s: Row, cfg: Config, w: Ints) -> None:  # pragma: no cover - compiled
    while s[QLEN] > 0:
        card = queue_pop(s)
        seat = active(s, card)
        if seat < 0:
            continue
        if card == RIA:
            s[CHOOSER] = seat
            s[RIA_SEAT] = seat
            if s[STACK] != 0:
                s[STEP] = ST_RIA_CHOICE
            else:
                s[RIA_CARD] = -1
                s[STEP] = ST_RIA_DIRECTION
            return
        if card == FLUPPE:
            apply_fluppe(s, cfg, seat)
            continue
        index = target_of(s, card)
        if index < 0:
            continue
        b = PLAYS + index * PLAY_WIDTH
        if resolve_aimed(s, cfg, card, seat, s[b + P_T1], s[b + P_T2]):
            s[CHOOSER] = seat
            s[STEP] = ST_ROB_DRAW
            return
    s[CHOOSER] = -1
    after_window(s, cfg, w)


@inlined_helper
def after_window(s: Row, cfg: Config, w: Ints) -> None:  # pragma: no cover - compiled
    phase = s[PHASE]
    if phase == PH_DEAL:
        begin_growth(s, cfg)
    elif phase == PH_GROWTH:
        begin_trade(s)
    elif phase == PH_TRADE:
        reveal_bids(s, cfg, w)
    elif phase == PH_CULTIVATE:
        s[STEP] = ST_CULTIVATE
    elif anyone_holds(s, cfg):
        s[STEP] = ST_KEEP
    else:
        end_round(s, cfg, w, False)


# ---- the chance and decision steps ------------------------------------------------------
@helper
def settle(s: Row, cfg: Config, w: Ints) -> None:  # pragma: no cover - compiled
    """Close every window that opened with no card held (see the module docstring)."""
    while s[STEP] == X_CLOSE:
        s[STEP] = ST_WINDOW
        close_window(s, cfg, w)


@helper
def apply_chance(s: Row, cfg: Config, outcome: int, w: Ints) -> None:  # pragma: no cover - compiled
    """``outcome``: a card (deal, RIA's draw) or a coin value index 0-4 (refill, PASTOOR, LUCIEN)."""
    step = s[STEP]
    if step == ST_REFILL:
        place_refill_coin(s, cfg, outcome)
    elif step == ST_DEAL:
        deal_card(s, cfg, outcome)
    elif step == ST_RIA_DRAW:
        ria_drawn(s, cfg, outcome)
        s[STEP] = ST_RIA_DIRECTION
    elif step == ST_ROB_DRAW:
        move_coin(s, s[ROB_TARGET], s[CHOOSER], outcome + 1)
        s[ROB_TARGET] = -1
        resolve_queue(s, cfg, w)
    else:
        apply_lucien_draw(s, cfg, outcome)
    if s[STEP] == X_CLOSE:  # only a window that opened with no card held needs closing: no call otherwise
        settle(s, cfg, w)


@inlined_helper
def apply_moves(s: Row, cfg: Config, acts: Ints, moves: Ints, w: Ints) -> None:  # pragma: no cover - compiled
    """The transition of a decision step; ``moves[seat]`` an action index (-1: the seat does not act)."""
    step = s[STEP]
    n = cfg[C_PLAYERS]
    if step == ST_CHOOSE:
        for p in range(n):
            w[W_MOVES + p] = acts[moves[p], A_CARD] if moves[p] >= 0 else -1
        apply_choose(s, cfg, w)
    elif step == ST_WINDOW:
        apply_window(s, cfg, acts, moves, w)
    elif step == ST_BID:
        for p in range(n):
            w[W_MOVES + p] = acts[moves[p], A_NUMBER]
        apply_bids(s, cfg, w)
    elif step == ST_CULTIVATE:
        apply_cultivate(s, cfg, acts, moves)
    elif step == ST_KEEP:
        for p in range(n):
            w[W_MOVES + p] = 1 if moves[p] >= 0 and acts[moves[p], A_KIND] == K_KEEP else 0
        end_round(s, cfg, w, True)
    else:
        seat = s[CHOOSER]
        a = moves[seat]
        if step == ST_RIA_CHOICE:
            if acts[a, A_KIND] == K_RIA_DRAW:
                s[STEP] = ST_RIA_DRAW
            else:
                s[RIA_CARD] = -1
                s[STEP] = ST_RIA_DIRECTION
        elif step == ST_RIA_DIRECTION:
            ria_pass(s, cfg, acts[a, A_NUMBER], w)
            resolve_queue(s, cfg, w)
        elif step == ST_CORNER:
            take_corner(s, acts[a, A_NUMBER])
            next_corner(s, cfg)
        else:
            card = KEUN if step == ST_KEUN else GRIET if step == ST_GRIET else PASTOOR if step == ST_ROB else BERNARD
            t1 = acts[a, A_SEAT]
            t2 = acts[a, A_COST] if card == KEUN else acts[a, A_NUMBER] if card == PASTOOR else 0
            if card == GRIET:
                t1 = acts[a, A_COST]
            aim(s, seat, card, t1, t2)
            name_targets(s, cfg, w)
    if s[STEP] == X_CLOSE:  # only a window that opened with no card held needs closing: no call otherwise
        settle(s, cfg, w)


@helper
def is_chance(s: Row) -> bool:  # pragma: no cover - compiled
    step = s[STEP]
    return step in (ST_REFILL, ST_DEAL, ST_RIA_DRAW, ST_ROB_DRAW, ST_LUCIEN_DRAW)


@helper
def acting(s: Row, cfg: Config, seat: int) -> bool:  # pragma: no cover - compiled
    """Whether ``seat`` chooses at the current decision step."""
    step = s[STEP]
    if step == ST_CHOOSE:
        return dealt_count(s, seat) > 0
    if step in (ST_WINDOW, ST_KEEP):
        return bool(s[HELD + seat] >= 0)
    if step == ST_BID:
        return True
    if step == ST_CULTIVATE:
        return bool(seat != s[BERNARD_TARGET])
    if step == ST_OVER or is_chance(s):
        return False
    return bool(seat == s[CHOOSER])


@helper
def chance_source(s: Row, cfg: Config, v: int) -> int:  # pragma: no cover - compiled
    """How many coins of value index ``v`` the current coin draw can give."""
    if s[STEP] == ST_ROB_DRAW:
        return int(s[COINS + s[ROB_TARGET] * VALUES + v])
    return int(s[BAG + v])


# ---- drawing chance outcomes ------------------------------------------------------------------
@inlined_helper
def bit_count(x: int) -> int:  # pragma: no cover - compiled
    """How many bits of the 16-bit ``x`` are set (a stack of cards), without a loop."""
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return int((x + (x >> 8)) & 0x1F)


@inlined_helper
def sample_card(stack: int, key: np.uint64, ctr: UInts) -> int:  # pragma: no cover - compiled
    """A card uniform over the stack (bit mask): one draw over how many it holds, in card order."""
    pick = draw_below(key, ctr[0], np.int64(bit_count(stack)))
    ctr[0] += np.uint64(1)
    rest = stack
    for _ in range(pick):
        rest &= rest - 1  # drop the lowest cards before the pick
    if rest == 0:
        return -1
    return bit_count((rest & -rest) - 1)  # the lowest card left: how many bits lie below it


@helper
def sample_coin(s: Row, cfg: Config, key: np.uint64, ctr: UInts) -> int:  # pragma: no cover - compiled
    """A coin value index weighted by how many coins of it the current draw can give (one draw)."""
    total = 0
    for v in range(VALUES):
        total += chance_source(s, cfg, v)
    pick = draw_below(key, ctr[0], np.int64(total))
    ctr[0] += np.uint64(1)
    for v in range(VALUES):
        have = chance_source(s, cfg, v)
        if pick < have:
            return v
        pick -= have
    return -1


@helper
def sample_chance(s: Row, cfg: Config, key: np.uint64, ctr: UInts) -> int:  # pragma: no cover - compiled
    """A chance outcome: a card uniform over the stack, or a coin value index weighted by counts."""
    step = s[STEP]
    if step in (ST_DEAL, ST_RIA_DRAW):
        return sample_card(s[STACK], key, ctr)
    return sample_coin(s, cfg, key, ctr)


@inlined_helper
def play_chance(s: Row, cfg: Config, key: np.uint64, ctr: UInts, w: Ints) -> None:  # pragma: no cover - compiled
    """Chance steps drawn as ``sample_chance`` draws them, until a decision, the end or a round's record.

    The same draws and transitions as ``apply_chance(s, cfg, sample_chance(...), w)`` step by step:
    the deal and the refill (most of a round's chance steps) call their transitions directly and
    close an empty window (``settle``) only when one opened.
    """
    while s[REC_READY] == 0:
        step = s[STEP]
        if step == ST_DEAL:
            deal_card(s, cfg, sample_card(s[STACK], key, ctr))
        elif step == ST_REFILL:
            total = 0
            for v in range(VALUES):
                total += s[BAG + v]
            pick = draw_below(key, ctr[0], np.int64(total))
            ctr[0] += np.uint64(1)
            for v in range(VALUES):
                have = s[BAG + v]
                if pick < have:
                    place_refill_coin(s, cfg, v)
                    break
                pick -= have
        elif step == X_CLOSE:
            settle(s, cfg, w)
        elif step in (ST_RIA_DRAW, ST_ROB_DRAW, ST_LUCIEN_DRAW):
            apply_chance(s, cfg, sample_chance(s, cfg, key, ctr), w)
        else:
            return
