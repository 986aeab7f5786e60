"""The compiled Eigen Kweek heuristic, with ``abstain`` (see ``policies`` for the contract).

Each handler is the Python heuristic's handler of the same name
(``agents/heuristics/eigen_kweek.py``): ``_best``'s random tie-break is ``tie_break``
over the tied actions in menu order, ``_cheapest`` is the lowest ``A_CHEAP`` rank
(the engine ranks every payment action by the Python key), and the bid's jitter is
one draw over three values, so both make the same draws and the same choices.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.layout import (
    A_CARD,
    A_CHEAP,
    A_COST,
    A_KIND,
    A_NUMBER,
    A_SEAT,
    BERNARD_TARGET,
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
    C_A_RIA_LEFT,
    C_A_RIA_RIGHT,
    C_CAPACITY,
    C_PLAYERS,
    CARD_PHASE,
    CHOOSER,
    CORNER_COINS,
    CORNERS,
    DEALT,
    FRANK,
    HELD,
    JOS,
    JULITA,
    K_BLOCK,
    K_CHOOSE,
    K_KEEP,
    K_PLAY,
    K_TAKE,
    OLLANDER,
    PAY_FIRST,
    PAY_ROWS,
    PAY_STEP,
    PHASE,
    POLICY_HEURISTIC,
    RIA_CARD,
    SACK,
    ST_BERNARD,
    ST_BID,
    ST_CHOOSE,
    ST_CORNER,
    ST_CULTIVATE,
    ST_GRIET,
    ST_KEEP,
    ST_KEUN,
    ST_RIA_DIRECTION,
    ST_ROB,
    ST_WINDOW,
    STEP,
    T_CHOSEN,
    T_CHOSEN_LEN,
    TOKENS,
    VALUES,
    W_BEST,
    W_FILTER,
    W_LEGAL,
    WINDOW_STEP,
)
from gamebag.fast.eigen_kweek.policies import (
    _ALPHA,
    BLOCK_AT,
    KEEP_WORTH,
    card_value,
    coin_count,
    coin_value,
    fits,
    menu,
    packed_coins,
    played_cards,
    random_choice,
    strength,
    tokens_on,
    worth_playing,
)
from gamebag.fast.eigen_kweek.policies import _HARM as HARM
from gamebag.fast.rng import draw_below, helper, inlined_helper

_CARD_PHASE = np.array(CARD_PHASE, np.int64)
Row = npt.NDArray[np.int32]
Config = npt.NDArray[np.int64]
Ints = npt.NDArray[np.int64]
UInts = npt.NDArray[np.uint64]


@helper
def abstains(s: Row, acts: Ints, seat: int, a: int, abstain: int) -> bool:  # pragma: no cover - compiled
    kind = acts[a, A_KIND]
    if kind in (K_CHOOSE, K_PLAY):
        return bool((abstain >> acts[a, A_CARD]) & 1 == 1)
    if kind == K_BLOCK:
        return (abstain >> JULITA) & 1 == 1
    if kind == K_TAKE:
        return (abstain >> OLLANDER) & 1 == 1
    if kind == K_KEEP:
        card = s[HELD + seat]
        return bool(card >= 0 and (abstain >> card) & 1 == 1)
    return False


@helper
def tie_break(w: Ints, count: int, key: np.uint64, ctr: UInts) -> int:  # pragma: no cover - compiled
    """``_best``'s ``best[rng.randrange(len(best))]`` over the ties listed at ``W_BEST``."""
    pick = draw_below(key, ctr[0], np.int64(count))
    ctr[0] += np.uint64(1)
    return int(w[W_BEST + pick])


@helper
def action_key(s: Row, cfg: Config, acts: Ints, me: int, step: int, a: int) -> float:  # pragma: no cover - compiled
    """The key ``_best`` ranks action ``a`` by at ``step`` (tuples as numbers that order alike): the
    steps ``decide`` ranks menus at (the deal's choice and the corners have handlers of their own)."""
    if step == ST_WINDOW:
        if acts[a, A_KIND] == K_BLOCK:
            return float(HARM[acts[a, A_CARD]])
        return float(strength(s, acts[a, A_SEAT]))  # take:SEAT
    if step == ST_KEUN:
        seat = acts[a, A_SEAT]
        return float(tokens_on(s, seat, acts[a, A_COST]) * 2 + (1 if seat != me else 0))
    if step == ST_GRIET:
        c = acts[a, A_COST]
        return float(cfg[C_CAPACITY + c] - tokens_on(s, me, c))
    if step == ST_ROB:
        return float(acts[a, A_NUMBER] * 64 + coin_count(s, acts[a, A_SEAT]))
    return float(strength(s, acts[a, A_SEAT]))  # ST_BERNARD


@helper
def best_of(
    s: Row, cfg: Config, acts: Ints, me: int, step: int, w: Ints, count: int, kind: int, key: np.uint64, ctr: UInts
) -> int:  # pragma: no cover - compiled
    """``_best`` over the filtered menu's actions of ``kind`` (-1: every action)."""
    # One pass: the ties of the best key so far, in menu order (each key computed once).
    top = -np.inf
    ties = 0
    for i in range(count):
        a = w[W_FILTER + i]
        if kind < 0 or acts[a, A_KIND] == kind:
            value = action_key(s, cfg, acts, me, step, a)
            if value > top:
                top = value
                ties = 0
            if value == top:
                w[W_BEST + ties] = a
                ties += 1
    return tie_break(w, ties, key, ctr)


@helper
def has_kind(acts: Ints, w: Ints, count: int, kind: int) -> bool:  # pragma: no cover - compiled
    for i in range(count):  # noqa: SIM110 - numba compiles loops, not generators
        if acts[w[W_FILTER + i], A_KIND] == kind:
            return True
    return False


@helper
def round_half_even(x: float) -> int:  # pragma: no cover - compiled
    """Python's ``round`` of a float to an integer (halves go to the even neighbour)."""
    f = np.floor(x)
    d = x - f
    r = int(f)
    if d > 0.5 or (d == 0.5 and r % 2 == 1):
        r += 1
    return r


@helper
def cheapest_payment(acts: Ints, pays: Ints, row: int, coins: int, wealth: int) -> int:  # pragma: no cover
    """``_cheapest`` over the payments of ``pays`` row ``row`` that packed ``coins`` can pay (-1: none)."""
    if wealth < pays[row, 1]:
        return -1
    for i in range(pays[PAY_ROWS + row, 0]):  # the same payments, cheapest first
        at = PAY_FIRST + PAY_STEP * i
        if fits(coins, pays[PAY_ROWS + row, at + 1]):
            return int(pays[PAY_ROWS + row, at])
    return -1


@helper
def cultivate(s: Row, cfg: Config, acts: Ints, pays: Ints, me: int) -> int:  # pragma: no cover - compiled
    """``_cultivate`` read off the board and the payment table, without listing the menu.

    The menu (``policies.menu``) is pass, per plant card its sows or its harvest and ploughs, then
    harvest_all; the handler wants only the cheapest payment of a kind and card, which is the
    cheapest affordable one of that card's payment row, so no list is built.
    """
    played = played_cards(s, me)
    frank = (played >> FRANK) & 1
    wealth = coin_value(s, me)
    coins = packed_coins(s, me)
    my_sacks = 0
    loaded = False
    sow = -1  # the cheapest sow of the dearest plant card that has one
    plough = -1  # the cheapest plough of any card
    fullest_plough = -1  # the cheapest plough of the fullest card (ties: the dearest card)
    most = -1
    full = -1  # the fullest harvest at capacity
    most_full = -1
    harvest = -1  # the fullest harvest
    most_any = -1
    for c in range(4):
        slot = s[BOARDS + me * 4 + c]
        if slot == SACK:
            my_sacks += 1
            continue
        if slot == -1:
            a = cheapest_payment(acts, pays, c * 2 + frank, coins, wealth)
            if a >= 0:
                sow = a
            continue
        if slot > 0:
            loaded = True
            h = cfg[C_A_HARVEST + c]
            if slot >= cfg[C_CAPACITY + c] and slot > most_full:
                full = h
                most_full = slot
            if slot > most_any:
                harvest = h
                most_any = slot
        a = cheapest_payment(acts, pays, 8 + c * 2 + frank, coins, wealth)
        if a >= 0:
            if plough < 0 or acts[a, A_CHEAP] < acts[plough, A_CHEAP]:
                plough = a
            if slot >= most:
                most = slot
                fullest_plough = a
    if plough >= 0 and my_sacks == 3:
        return int(plough)
    if sow >= 0:
        return int(sow)
    if plough >= 0:
        return int(fullest_plough)
    if loaded and (played >> JOS) & 1:
        return int(cfg[C_A_HARVEST_ALL])
    if full >= 0:
        return int(full)
    if harvest >= 0 and s[TOKENS + me] < 3:
        return int(harvest)
    return int(cfg[C_A_PASS])


@helper
def bid(s: Row, cfg: Config, seat: int, key: np.uint64, ctr: UInts) -> int:  # pragma: no cover - compiled
    """``_bid``: a share of the collection that grows with the richest corner, with jitter.

    Without the menu (bid:1 .. bid:TOKENS, or bid:0): one choice alone is taken without a draw.
    """
    tokens = int(s[TOKENS + seat])
    if tokens <= 1:
        return int(cfg[C_A_BID] + tokens)
    richest = 0
    for c in range(CORNERS):
        total = 0
        for v in range(VALUES):
            total += s[CORNER_COINS + c * VALUES + v]
        richest = max(richest, total)
    share = min(0.8, 0.15 + 0.1 * richest)
    size = round_half_even(tokens * share) + int(draw_below(key, ctr[0], np.int64(3))) - 1
    ctr[0] += np.uint64(1)
    size = max(1, min(tokens, size))
    return int(cfg[C_A_BID] + size)


@helper
def lowest_bit(mask: int) -> int:  # pragma: no cover - compiled
    for i in range(64):
        if (mask >> i) & 1:
            return i
    return -1


@helper
def choose_card(
    s: Row, cfg: Config, first_choose: int, seat: int, abstain: int, key: np.uint64, ctr: UInts
) -> int:  # pragma: no cover - compiled
    """``_choose`` over the dealt cards without listing the menu (``choose:CARD`` in card name order)."""
    a = s[DEALT + 2 * seat]
    b = s[DEALT + 2 * seat + 1]
    if b < 0 or (a >= 0 and _ALPHA[a] < _ALPHA[b]):
        first, second = a, b
    else:
        first, second = b, a
    if first < 0:
        return -1  # nothing dealt: the seat does not choose
    if second >= 0:
        skip_first = (abstain >> first) & 1 == 1
        skip_second = (abstain >> second) & 1 == 1
        if skip_first != skip_second:  # abstaining leaves one card
            if skip_first:
                first = second
            second = -1
    if second < 0:
        return int(cfg[C_A_CHOOSE + first])  # a menu of one: no draw
    high = card_value(s, cfg, seat, first)
    low = card_value(s, cfg, seat, second)
    ties = 2 if high == low else 1
    pick = draw_below(key, ctr[0], np.int64(ties))
    ctr[0] += np.uint64(1)
    if high >= low and pick == 0:
        return int(cfg[C_A_CHOOSE + first])
    return int(cfg[C_A_CHOOSE + second])


@helper
def corner(s: Row, cfg: Config, seat: int, key: np.uint64, ctr: UInts) -> int:  # pragma: no cover - compiled
    """``_corner``: the richest free corner (ties at random, in corner order), without listing the menu."""
    if seat != s[CHOOSER]:
        return -1
    free = 0
    top = -1
    ties = 0
    chosen = 0
    for i in range(s[T_CHOSEN_LEN]):
        chosen |= 1 << s[T_CHOSEN + i]
    for c in range(CORNERS):
        if (chosen >> c) & 1:
            continue
        free += 1
        total = 0
        for v in range(VALUES):
            total += s[CORNER_COINS + c * VALUES + v]
        if total > top:
            top = total
            ties = 0
        if total == top:
            ties |= 1 << c
    if free == 1:
        return int(cfg[C_A_CORNER + lowest_bit(ties)])
    count = 0
    rest = ties
    while rest:
        rest &= rest - 1
        count += 1
    pick = draw_below(key, ctr[0], np.int64(count))
    ctr[0] += np.uint64(1)
    for _ in range(pick):
        ties &= ties - 1
    return int(cfg[C_A_CORNER + lowest_bit(ties)])


@inlined_helper
def heuristic_choice(
    s: Row, cfg: Config, acts: Ints, pays: Ints, seat: int, abstain: int, key: np.uint64, ctr: UInts, w: Ints
) -> int:  # pragma: no cover - compiled
    """``EigenKweekHeuristic(abstain).act`` for ``seat`` (-1 when it does not act).

    Inlined into its caller: most decisions are a window step holding a card of one phase,
    decided here; the rest are ``decide``'s.
    """
    step = s[STEP]
    if step == ST_WINDOW:
        card = s[HELD + seat]
        if card < 0:
            return -1
        phase = _CARD_PHASE[card]
        if phase >= 0:  # the menu is pass, and play in the card's own phase
            if phase != s[PHASE] or (abstain >> card) & 1 == 1:
                return int(cfg[C_A_PASS])
            if s[WINDOW_STEP] == 1 and worth_playing(s, cfg, seat, card):
                return int(cfg[C_A_PLAY + card])
            return int(cfg[C_A_PASS])
    # The steps whose handlers list no menu are called from here, not through ``decide``: one call
    # less for most of the other decisions (every call passes each array as seven words).
    if step == ST_BID:
        return bid(s, cfg, seat, key, ctr)
    if step == ST_CULTIVATE:  # no cultivate action is abstained from, and the handler lists nothing
        return cultivate(s, cfg, acts, pays, seat) if seat != s[BERNARD_TARGET] else -1
    if step == ST_CHOOSE:
        return choose_card(s, cfg, cfg[C_A_CHOOSE], seat, abstain, key, ctr)
    if step == ST_CORNER:
        return corner(s, cfg, seat, key, ctr)
    return decide(s, cfg, acts, pays, seat, abstain, key, ctr, w)


@helper
def decide(
    s: Row, cfg: Config, acts: Ints, pays: Ints, seat: int, abstain: int, key: np.uint64, ctr: UInts, w: Ints
) -> int:  # pragma: no cover - compiled
    """``heuristic_choice`` at the steps whose handlers read a menu: windows (JULITA, DEN OLLANDER),
    the named targets, RIA's choice and direction, and keep or hand in."""
    if abstain == 0:
        m = menu(s, cfg, acts, pays, seat, w, W_FILTER)
        if m == 0:
            return -1
    else:
        count = menu(s, cfg, acts, pays, seat, w, W_LEGAL)
        if count == 0:
            return -1
        m = 0
        for i in range(count):
            a = w[W_LEGAL + i]
            if not abstains(s, acts, seat, a, abstain):
                w[W_FILTER + m] = a
                m += 1
        if m == 0:
            for i in range(count):
                w[W_FILTER + i] = w[W_LEGAL + i]
            m = count
    if m == 1:
        return int(w[W_FILTER])
    step = s[STEP]
    if step in (ST_KEUN, ST_GRIET, ST_ROB, ST_BERNARD):
        return best_of(s, cfg, acts, seat, step, w, m, -1, key, ctr)
    if step == ST_WINDOW:
        if has_kind(acts, w, m, K_BLOCK):
            best = best_of(s, cfg, acts, seat, step, w, m, K_BLOCK, key, ctr)
            return best if HARM[acts[best, A_CARD]] >= BLOCK_AT else cfg[C_A_PASS]
        first = s[WINDOW_STEP] == 1
        if first and has_kind(acts, w, m, K_TAKE):
            return best_of(s, cfg, acts, seat, step, w, m, K_TAKE, key, ctr)
        for i in range(m):
            a = w[W_FILTER + i]
            if acts[a, A_KIND] == K_PLAY:
                if first and worth_playing(s, cfg, seat, acts[a, A_CARD]):
                    return int(a)
                break
        return int(cfg[C_A_PASS])
    if step == ST_RIA_DIRECTION:
        n = cfg[C_PLAYERS]
        drawn = s[RIA_CARD]
        good = drawn >= 0 and card_value(s, cfg, seat, drawn) >= 2.5
        weaker_left = strength(s, (seat + 1) % n) <= strength(s, (seat - 1) % n)
        return int(cfg[C_A_RIA_LEFT] if weaker_left == good else cfg[C_A_RIA_RIGHT])
    if step == ST_KEEP:
        card = s[HELD + seat]
        keep = card >= 0 and card_value(s, cfg, seat, card) >= KEEP_WORTH
        return int(cfg[C_A_KEEP] if keep else cfg[C_A_HAND_IN])
    return int(w[W_FILTER])  # RIA's choice: the first action, ria:draw


@inlined_helper
def choose(
    s: Row,
    cfg: Config,
    acts: Ints,
    pays: Ints,
    seat: int,
    code: int,
    abstain: int,
    key: np.uint64,
    ctr: UInts,
    w: Ints,
) -> int:  # pragma: no cover - compiled
    """The action of ``seat``'s compiled policy ``code`` (-1 when the seat does not act)."""
    if code == POLICY_HEURISTIC:
        return heuristic_choice(s, cfg, acts, pays, seat, abstain, key, ctr, w)
    return random_choice(s, cfg, acts, pays, seat, key, ctr, w)
