"""Information-set resampling of an Eigen Kweek position, compiled: ``views.resample`` over a kernel row.

``resample_row(s, cfg, player, key, ctr, out)`` writes into ``out`` a position ``player`` cannot
tell apart from ``s``, drawn from the distribution ``games/eigen_kweek/views.resample`` defines:

* cards: the hidden places (each other player's unplayed card it does not know, their dealt
  cards, RIA's drawn card held by another) and the stack pool their cards; every card whose place
  the player tracks (``stack_known``, taken in the rules engine's sorted order: by card name, then
  place) goes to a free stack position or its one possible hidden place, uniformly among them; the
  rest are dealt over the free positions in a uniformly random order (of the cards as a set: the
  draw depends on what the player knows only, as the rules engine's does). Other observers' knowledge is
  rewritten to the new cards, their tracked cards forgotten, and DEN OLLANDER's hidden take follows
  the card it took;
* coins: the values of every coin the player cannot see (other collections unless coins are open,
  the corners, the bag less the coins seen paid into it) are shuffled over the same places, each
  keeping its count;
* weed tokens: the other players' total is split among them one token at a time, uniformly; a
  sealed hand is then uniform on 1 .. the share (0 for no share).

Private notes are text, which a row does not hold. Draws come from the counter-based generator
(``key``, ``ctr``) as every kernel's do, so the same key gives the same world.
``tests/fast/test_kweek_resample.py`` proves it against the rules engine: every world, turned back
into a rules state, is valid and gives the player the observation it had, and the distribution of
a few hidden features matches the rules engine's sampler.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.layout import (
    BAG,
    BAG_SEEN,
    BIDS,
    C_OPEN_COINS,
    C_PLAYERS,
    CARD_NAMES,
    COINS,
    CORNER_COINS,
    CORNERS,
    DEALT,
    HAS_BIDS,
    HELD,
    KNOW,
    MAX_SEATS,
    NCARDS,
    NPLAYS,
    P_BLOCKED,
    P_SEAT,
    P_T1,
    P_TKIND,
    P_TOOK,
    PLACES,
    PLAY_WIDTH,
    PLAYS,
    RIA_CARD,
    RIA_SEAT,
    STACK,
    STACK_KNOWN,
    TOKENS,
    VALUES,
    WITH_RIA,
)
from gamebag.fast.rng import draw_below, helper

Row = npt.NDArray[np.int32]
Config = npt.NDArray[np.int64]
UInts = npt.NDArray[np.uint64]

# Cards in the order of their names: the rules engine sorts its tracked cards by (card name, place).
BY_NAME = tuple(sorted(range(NCARDS), key=lambda card: CARD_NAMES[card]))
PLACE_HELD = 0
PLACE_DEALT = 1
PLACE_RIA = 2
# Hidden places at most: per other seat its card and two dealt cards, and RIA's card.
MAX_PLACES = 3 * (MAX_SEATS - 1) + 1
# Coins at most in one configuration (35 by the rulebook; options may add some).
MAX_COINS = 256
# Where an unseen coin may lie: other collections, the corners, the bag.
COIN_PLACES = MAX_SEATS + CORNERS + 1


@helper
def _draw(key: np.uint64, ctr: UInts, n: int) -> int:  # pragma: no cover - compiled
    pick = draw_below(key, ctr[0], np.int64(n))
    ctr[0] += np.uint64(1)
    return int(pick)


@numba.njit(cache=True)  # allocates its small work arrays
def resample_cards(s: Row, cfg: Config, player: int, key: np.uint64, ctr: UInts) -> None:  # pragma: no cover
    """The cards of ``views._resample_cards``, in place."""
    n = cfg[C_PLAYERS]
    kind = np.zeros(MAX_PLACES, np.int64)
    seat_of = np.zeros(MAX_PLACES, np.int64)
    index_of = np.zeros(MAX_PLACES, np.int64)
    pool = np.zeros(NCARDS, np.int64)  # the cards of the hidden places, then the stack's
    places = 0
    for seat in range(n):
        if seat == player:
            continue
        if s[HELD + seat] >= 0 and s[KNOW + player * 4 + seat] == 0:
            kind[places], seat_of[places], index_of[places] = PLACE_HELD, seat, 0
            pool[places] = s[HELD + seat]
            places += 1
        for i in range(2):
            if s[DEALT + 2 * seat + i] >= 0:
                kind[places], seat_of[places], index_of[places] = PLACE_DEALT, seat, i
                pool[places] = s[DEALT + 2 * seat + i]
                places += 1
    if s[RIA_CARD] >= 0 and s[RIA_SEAT] != player:
        kind[places] = PLACE_RIA
        pool[places] = s[RIA_CARD]
        places += 1
    if places == 0:
        return  # nothing hidden in a place: the rules engine leaves the cards as they are
    total = places
    for card in range(NCARDS):
        if (s[STACK] >> card) & 1:
            pool[total] = card
            total += 1
    in_pool = 0
    for i in range(total):
        in_pool |= 1 << pool[i]
    assignment = np.full(NCARDS, -1, np.int64)  # position -> card
    for card in BY_NAME:
        for where in range(WITH_RIA, MAX_SEATS):
            if not (s[STACK_KNOWN + player * PLACES + where + 2] >> card) & 1 or not (in_pool >> card) & 1:
                continue
            allowed = 0
            for i in range(total):
                if assignment[i] < 0 and _may_hold(i, places, kind, seat_of, where):
                    allowed += 1
            if allowed == 0:
                continue
            chosen = _draw(key, ctr, allowed)
            for i in range(total):
                if assignment[i] < 0 and _may_hold(i, places, kind, seat_of, where):
                    if chosen == 0:
                        assignment[i] = card
                        break
                    chosen -= 1
            in_pool &= ~(1 << card)
    rest = np.zeros(NCARDS, np.int64)
    left = 0
    for card in range(NCARDS):
        if (in_pool >> card) & 1:
            rest[left] = card
            left += 1
    for i in range(left - 1, 0, -1):  # a uniformly random order of the cards left
        j = _draw(key, ctr, i + 1)
        rest[i], rest[j] = rest[j], rest[i]
    at = 0
    for i in range(total):
        if assignment[i] < 0:
            assignment[i] = rest[at]
            at += 1
    old_held = np.zeros(MAX_SEATS, np.int64)
    for seat in range(MAX_SEATS):
        old_held[seat] = s[HELD + seat]
    stack = 0
    for i in range(total):
        card = assignment[i]
        if i >= places:
            stack |= 1 << card
        elif kind[i] == PLACE_HELD:
            s[HELD + seat_of[i]] = card
        elif kind[i] == PLACE_DEALT:
            s[DEALT + 2 * seat_of[i] + index_of[i]] = card
        else:
            s[RIA_CARD] = card
    s[STACK] = stack
    for observer in range(MAX_SEATS):  # what other players knew stays true of the new cards
        if observer == player:
            continue
        for seat in range(MAX_SEATS):
            if s[KNOW + observer * 4 + seat] != 0:
                s[KNOW + observer * 4 + seat] = 1 << s[HELD + seat] if s[HELD + seat] >= 0 else 0
        for where in range(PLACES):
            s[STACK_KNOWN + observer * PLACES + where] = 0
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        took = s[b + P_TOOK]
        seat = s[b + P_SEAT]
        if took < 0 or s[b + P_BLOCKED] != 0 or seat == player or (s[b + P_TKIND] == 1 and s[b + P_T1] == player):
            continue
        if old_held[seat] == took and s[HELD + seat] >= 0:
            s[b + P_TOOK] = s[HELD + seat]


@helper
def _may_hold(
    position: int, places: int, kind: npt.NDArray[np.int64], seat_of: npt.NDArray[np.int64], where: int
) -> bool:  # pragma: no cover
    """Whether a tracked card said to be at ``where`` (or in the stack) may go to ``position``."""
    if position >= places:
        return True  # a stack position
    if kind[position] == PLACE_HELD and seat_of[position] == where:
        return True
    return where == WITH_RIA and kind[position] == PLACE_RIA


@numba.njit(cache=True)  # allocates its small work arrays
def resample_coins(s: Row, cfg: Config, player: int, key: np.uint64, ctr: UInts) -> None:  # pragma: no cover
    """The coin values of ``views._resample_coins``, in place."""
    n = cfg[C_PLAYERS]
    starts = np.zeros(COIN_PLACES, np.int64)  # each place's first entry in the row
    count = 0
    if cfg[C_OPEN_COINS] == 0:
        for seat in range(n):
            if seat != player:
                starts[count] = COINS + seat * VALUES
                count += 1
    for corner in range(CORNERS):
        starts[count] = CORNER_COINS + corner * VALUES
        count += 1
    starts[count] = BAG  # the bag less what everyone saw paid into it
    count += 1
    bag = count - 1
    sizes = np.zeros(COIN_PLACES, np.int64)
    unseen = np.zeros(VALUES, np.int64)
    for place in range(count):
        for v in range(VALUES):
            have = s[starts[place] + v] - (s[BAG_SEEN + v] if place == bag else 0)
            sizes[place] += have
            unseen[v] += have
    # The pool in value order before the shuffle: the same for every position the player cannot tell
    # apart, so one key draws one world from all of them (the analysis of a seat cannot depend on
    # where the unseen coins really are).
    pool = np.zeros(MAX_COINS, np.int64)
    total = 0
    for v in range(VALUES):
        for _ in range(unseen[v]):
            pool[total] = v
            total += 1
    for i in range(total - 1, 0, -1):
        j = _draw(key, ctr, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    at = 0
    for place in range(count):
        for v in range(VALUES):
            s[starts[place] + v] = s[BAG_SEEN + v] if place == bag else 0
        for _ in range(sizes[place]):
            s[starts[place] + pool[at]] += 1
            at += 1


@numba.njit(cache=True)  # allocates its small work arrays
def resample_tokens(s: Row, cfg: Config, player: int, key: np.uint64, ctr: UInts) -> None:  # pragma: no cover
    """The weed tokens of ``views._resample_tokens``, in place."""
    n = cfg[C_PLAYERS]
    sealed = s[HAS_BIDS] != 0
    others = n - 1
    total = 0
    for seat in range(n):
        if seat != player:
            total += s[TOKENS + seat] + (s[BIDS + seat] if sealed else 0)
    shares = np.zeros(MAX_SEATS, np.int64)
    for _ in range(total):
        shares[_draw(key, ctr, others)] += 1
    k = 0
    for seat in range(n):
        if seat == player:
            continue
        share = shares[k]
        k += 1
        if sealed:
            bid = 1 + _draw(key, ctr, share) if share > 0 else 0
            s[BIDS + seat] = bid
            s[TOKENS + seat] = share - bid
        else:
            s[TOKENS + seat] = share


@numba.njit(cache=True)  # allocates its small work arrays
def resample_row(s: Row, cfg: Config, player: int, key: np.uint64, ctr: UInts, out: Row) -> None:  # pragma: no cover
    """``out``: a world drawn from ``player``'s information set at ``s`` (cards, then coins, then tokens)."""
    out[:] = s
    resample_cards(out, cfg, player, key, ctr)
    resample_coins(out, cfg, player, key, ctr)
    resample_tokens(out, cfg, player, key, ctr)
