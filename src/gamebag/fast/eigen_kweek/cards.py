"""The fourteen character cards as numba functions over one position row (see ``layout``).

These mirror ``gamebag.games.eigen_kweek.characters`` function by function: the
window step's reveal (blocks, then takes), what players know about cards that move
face down (``knowledge`` and ``stack_known`` as bit masks), RIA's draw and pass, the
targets named on playing and the effects resolved when a window closes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.layout import (
    A_CARD,
    A_KIND,
    A_SEAT,
    BERNARD,
    BERNARD_TARGET,
    BOARDS,
    C_A_BERNARD,
    C_A_BLOCK,
    C_A_GRIET,
    C_A_KEUN,
    C_A_PASS,
    C_A_PLAY,
    C_A_ROB,
    C_A_TAKE,
    C_CAPACITY,
    C_FLUPPE_SACKS,
    C_OPEN_COINS,
    C_PLAYERS,
    C_TRACK_KNOWLEDGE,
    CARD_PHASE,
    COINS,
    GRIET,
    HELD,
    IN_STACK,
    JULITA,
    K_BLOCK,
    K_PASS,
    K_PLAY,
    K_TAKE,
    KEUN,
    KNOW,
    NPLAYS,
    OLLANDER,
    P_BLOCKED,
    P_CARD,
    P_PHASE,
    P_SEAT,
    P_STEP,
    P_T1,
    P_T2,
    P_TKIND,
    P_TOOK,
    PASTOOR,
    PHASE,
    PLACES,
    PLAY_WIDTH,
    PLAYS,
    POT,
    RIA_CARD,
    RIA_SEAT,
    ROB_TARGET,
    SACK,
    STACK,
    STACK_KNOWN,
    TOKENS,
    VALUES,
    W_BLOCKS,
    W_KNOW,
    W_PASSED,
    W_T1,
    W_T2,
    W_TACT,
    W_TAKES,
    WITH_RIA,
)
from gamebag.fast.rng import helper, inlined_helper

Row = npt.NDArray[np.int32]
Config = npt.NDArray[np.int64]
Ints = npt.NDArray[np.int64]
_CARD_PHASE = np.array(CARD_PHASE, np.int64)


# ---- plays -----------------------------------------------------------------------------------
@helper
def append_play(s: Row, seat: int, card: int, phase: int, step: int, tkind: int, t1: int) -> int:  # pragma: no cover
    i = s[NPLAYS]
    b = PLAYS + i * PLAY_WIDTH
    s[b + P_SEAT] = seat
    s[b + P_CARD] = card
    s[b + P_PHASE] = phase
    s[b + P_STEP] = step
    s[b + P_BLOCKED] = 0
    s[b + P_TKIND] = tkind
    s[b + P_T1] = t1
    s[b + P_T2] = 0
    s[b + P_TOOK] = -1
    s[NPLAYS] = i + 1
    return int(i)


@helper
def delete_play(s: Row, index: int) -> None:  # pragma: no cover - compiled
    last = s[NPLAYS] - 1
    for i in range(index, last):
        for f in range(PLAY_WIDTH):
            s[PLAYS + i * PLAY_WIDTH + f] = s[PLAYS + (i + 1) * PLAY_WIDTH + f]
    for f in range(PLAY_WIDTH):
        s[PLAYS + last * PLAY_WIDTH + f] = 0
    s[NPLAYS] = last


@helper
def active(s: Row, card: int) -> int:  # pragma: no cover - compiled
    """The seat whose unblocked play of ``card`` is on the table this round, or -1."""
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        if s[b + P_CARD] == card and s[b + P_BLOCKED] == 0:
            return int(s[b + P_SEAT])
    return -1


@helper
def target_of(s: Row, card: int) -> int:  # pragma: no cover - compiled
    """The play index of ``card``'s unblocked play with a named target, or -1."""
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        if s[b + P_CARD] == card and s[b + P_BLOCKED] == 0 and s[b + P_TKIND] == 3:
            return i
    return -1


@helper
def take_from_pot(s: Row, wanted: int) -> int:  # pragma: no cover - compiled
    got = max(0, min(wanted, s[POT]))
    s[POT] -= got
    return int(got)


# ---- knowledge -------------------------------------------------------------------------------
@helper
def card_revealed(s: Row, cfg: Config, seat: int, card: int) -> None:  # pragma: no cover - compiled
    """A card turned face up: private knowledge about it is no longer needed."""
    if not cfg[C_TRACK_KNOWLEDGE]:
        return
    n = cfg[C_PLAYERS]
    bit = np.int32(1 << card)
    for o in range(n):
        s[KNOW + o * 4 + seat] &= ~bit
        at = STACK_KNOWN + o * PLACES
        # Cards known to be with the seat that played: the played one is public now, the rest went
        # back to the stack (where the seat's other cards were before it chose).
        known = s[at + seat + 2]
        s[at + seat + 2] = 0
        s[at + IN_STACK + 2] |= known & ~bit


@helper
def clear_own(s: Row, cfg: Config) -> None:  # pragma: no cover - compiled
    """Nobody needs knowledge about the card it holds itself."""
    for o in range(cfg[C_PLAYERS]):
        s[KNOW + o * 4 + o] = 0


@helper
def move_card_knowledge(s: Row, cfg: Config, source: int, target: int, card: int) -> None:  # pragma: no cover
    """A face-down card moved openly from ``source`` to ``target``: who knew it still knows."""
    if not cfg[C_TRACK_KNOWLEDGE]:
        return
    n = cfg[C_PLAYERS]
    bit = np.int32(1 << card)
    for o in range(n):
        if s[KNOW + o * 4 + source] & bit:
            s[KNOW + o * 4 + source] &= ~bit
            s[KNOW + o * 4 + target] |= bit
    clear_own(s, cfg)
    for o in range(n):
        at = STACK_KNOWN + o * PLACES
        s[at + target + 2] |= s[at + source + 2]
        s[at + source + 2] = 0
        if o == target:  # what the target knew to be with itself: the moved card, or back in the stack
            s[at + IN_STACK + 2] |= s[at + target + 2] & ~bit
            s[at + target + 2] = 0


# ---- a window step's reveal ----------------------------------------------------------------
@helper
def block(s: Row, cfg: Config, seat: int, card: int) -> None:  # pragma: no cover - compiled
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        if s[b + P_CARD] == card and s[b + P_PHASE] == s[PHASE] and s[b + P_BLOCKED] == 0:
            s[b + P_BLOCKED] = 1
            if card == OLLANDER and s[b + P_TOOK] >= 0 and s[b + P_TKIND] == 1:
                undo_take(s, cfg, s[b + P_SEAT], s[b + P_T1], s[b + P_TOOK])
            return


@helper
def take(s: Row, cfg: Config, index: int) -> None:  # pragma: no cover - compiled
    b = PLAYS + index * PLAY_WIDTH
    taker = s[b + P_SEAT]
    victim = s[b + P_T1]
    card = s[HELD + victim]
    if card < 0:
        return  # the victim played its card in this step: nothing to take
    s[HELD + victim] = -1
    s[HELD + taker] = card
    s[b + P_TOOK] = card
    if cfg[C_TRACK_KNOWLEDGE]:
        move_card_knowledge(s, cfg, victim, taker, card)
        s[KNOW + victim * 4 + taker] |= 1 << card


@helper
def undo_take(s: Row, cfg: Config, taker: int, victim: int, card: int) -> None:  # pragma: no cover - compiled
    """JULITA blocked DEN OLLANDER: the taken card goes back to its owner, unplayed."""
    revealed = False
    if s[HELD + taker] == card:
        s[HELD + taker] = -1
    else:
        for i in range(s[NPLAYS]):
            b = PLAYS + i * PLAY_WIDTH
            if s[b + P_CARD] == card and s[b + P_SEAT] == taker and s[b + P_PHASE] == s[PHASE]:
                delete_play(s, i)
                revealed = True
                break
    s[HELD + victim] = card
    if not cfg[C_TRACK_KNOWLEDGE]:
        return
    if revealed:
        for o in range(cfg[C_PLAYERS]):
            if o != victim:
                s[KNOW + o * 4 + victim] |= 1 << card
    else:
        move_card_knowledge(s, cfg, taker, victim, card)
        s[KNOW + taker * 4 + victim] |= 1 << card
    clear_own(s, cfg)


# ---- RIA -------------------------------------------------------------------------------------
@helper
def ria_drawn(s: Row, cfg: Config, card: int) -> None:  # pragma: no cover - compiled
    s[STACK] &= ~np.int32(1 << card)
    s[RIA_CARD] = card
    if not cfg[C_TRACK_KNOWLEDGE]:
        return
    ria = s[RIA_SEAT]
    for o in range(cfg[C_PLAYERS]):
        at = STACK_KNOWN + o * PLACES
        in_stack = s[at + IN_STACK + 2]
        if o == ria:
            s[at + IN_STACK + 2] = in_stack & ~np.int32(1 << card)
        else:
            s[at + IN_STACK + 2] = 0
            s[at + WITH_RIA + 2] |= in_stack  # each may be the card just drawn


@helper
def ria_pass(s: Row, cfg: Config, direction: int, w: Ints) -> None:  # pragma: no cover - compiled
    """Everyone passes their unplayed card one seat; RIA's player passes the drawn card."""
    n = cfg[C_PLAYERS]
    ria = s[RIA_SEAT]
    for p in range(n):
        w[W_PASSED + p] = s[HELD + p]
    w[W_PASSED + ria] = s[RIA_CARD]
    for p in range(n):
        s[HELD + p] = w[W_PASSED + (p - direction) % n]
    receiver = (ria + direction) % n
    if not cfg[C_TRACK_KNOWLEDGE]:
        s[RIA_CARD] = -1
        s[RIA_SEAT] = -1
        return
    for o in range(n):
        for p in range(n):
            w[W_KNOW + o * 4 + (p + direction) % n] = s[KNOW + o * 4 + p]
    for o in range(n):
        for p in range(n):
            s[KNOW + o * 4 + p] = w[W_KNOW + o * 4 + p]
    for p in range(n):
        if w[W_PASSED + p] >= 0:
            s[KNOW + p * 4 + (p + direction) % n] |= 1 << w[W_PASSED + p]
    clear_own(s, cfg)
    for o in range(n):
        at = STACK_KNOWN + o * PLACES
        for place in range(PLACES):
            w[W_KNOW + place] = 0
        for place in range(n + 2):
            known = s[at + place]
            if known == 0:
                continue
            where = place - 2
            if where >= 0:
                where = (where + direction) % n
            elif where == WITH_RIA:
                where = receiver
            if o == where:  # cards that came to the observer: the one it holds now, the rest in the stack
                held = s[HELD + o]
                if held >= 0:
                    known &= ~np.int32(1 << held)
                where = IN_STACK
            w[W_KNOW + where + 2] |= known
        for place in range(PLACES):
            s[at + place] = w[W_KNOW + place]
    s[RIA_CARD] = -1
    s[RIA_SEAT] = -1


# ---- targets named on playing, effects when the window closes -------------------------------
@helper
def list_targets(s: Row, cfg: Config, card: int, seat: int, w: Ints) -> int:  # pragma: no cover - compiled
    """The targets ``seat``'s ``card`` may name, in the rules engine's order (into ``w`` at
    ``W_T1``, ``W_T2`` and their actions at ``W_TACT``); returns how many."""
    n = cfg[C_PLAYERS]
    count = 0
    if card == KEUN:
        for p in range(n):
            for c in range(4):
                if s[BOARDS + p * 4 + c] > 0:
                    w[W_T1 + count] = p
                    w[W_T2 + count] = c
                    w[W_TACT + count] = cfg[C_A_KEUN + p * 4 + c]
                    count += 1
    elif card == GRIET:
        for c in range(4):
            slot = s[BOARDS + seat * 4 + c]
            if 0 <= slot < cfg[C_CAPACITY + c]:
                w[W_T1 + count] = c
                w[W_T2 + count] = 0
                w[W_TACT + count] = cfg[C_A_GRIET + c]
                count += 1
    elif card == PASTOOR:
        for p in range(n):
            if p == seat:
                continue
            total = 0
            for v in range(VALUES):
                total += s[COINS + p * VALUES + v]
            if total == 0:
                continue
            if cfg[C_OPEN_COINS]:
                for v in range(VALUES):
                    if s[COINS + p * VALUES + v] > 0:
                        w[W_T1 + count] = p
                        w[W_T2 + count] = v + 1
                        w[W_TACT + count] = cfg[C_A_ROB + p * 6 + v + 1]
                        count += 1
            else:
                w[W_T1 + count] = p
                w[W_T2 + count] = 0
                w[W_TACT + count] = cfg[C_A_ROB + p * 6]
                count += 1
    elif card == BERNARD:
        for p in range(n):
            if p != seat:
                w[W_T1 + count] = p
                w[W_T2 + count] = 0
                w[W_TACT + count] = cfg[C_A_BERNARD + p]
                count += 1
    return count


@helper
def aim(s: Row, seat: int, card: int, t1: int, t2: int) -> None:  # pragma: no cover - compiled
    for i in range(s[NPLAYS]):
        b = PLAYS + i * PLAY_WIDTH
        if s[b + P_CARD] == card and s[b + P_SEAT] == seat and s[b + P_BLOCKED] == 0:
            s[b + P_TKIND] = 3
            s[b + P_T1] = t1
            s[b + P_T2] = t2
            return


@helper
def apply_fluppe(s: Row, cfg: Config, seat: int) -> None:  # pragma: no cover - compiled
    cards = 0
    for c in range(4):
        slot = s[BOARDS + seat * 4 + c]
        if slot >= 0 or (slot == SACK and cfg[C_FLUPPE_SACKS]):
            cards += 1
    s[TOKENS + seat] += take_from_pot(s, 2 * cards)


@helper
def move_coin(s: Row, source: int, target: int, value: int) -> None:  # pragma: no cover - compiled
    """A coin of ``value`` (1-5) from seat ``source`` to seat ``target`` (PASTOOR)."""
    s[COINS + source * VALUES + value - 1] -= 1
    s[COINS + target * VALUES + value - 1] += 1


@helper
def resolve_aimed(s: Row, cfg: Config, card: int, seat: int, t1: int, t2: int) -> bool:  # pragma: no cover
    """The effect of an aimed card; True when PASTOOR's coin must first be drawn blindly."""
    if card == KEUN:
        at = BOARDS + t1 * 4 + t2
        taken = s[at]
        s[at] = 0
        s[TOKENS + seat] += taken
    elif card == GRIET:
        at = BOARDS + seat * 4 + t1
        slot = s[at]
        s[at] = slot + take_from_pot(s, cfg[C_CAPACITY + t1] - slot)
    elif card == PASTOOR:
        if cfg[C_OPEN_COINS]:
            if s[COINS + t1 * VALUES + t2 - 1] > 0:
                move_coin(s, t1, seat, t2)
            return False
        total = 0
        for v in range(VALUES):
            total += s[COINS + t1 * VALUES + v]
        if total:
            s[ROB_TARGET] = t1
            return True
    elif card == BERNARD:
        s[BERNARD_TARGET] = t1
    return False


@helper
def window_menu(s: Row, cfg: Config, seat: int, out: Ints, at: int) -> int:  # pragma: no cover - compiled
    """What ``seat`` may do in the current window step (``window_actions``), into ``out[at:]``."""
    card = s[HELD + seat]
    if card < 0:
        return 0
    out[at] = cfg[C_A_PASS]
    count = 1
    phase = _CARD_PHASE[card]
    if phase >= 0:
        if phase == s[PHASE]:
            out[at + 1] = cfg[C_A_PLAY + card]
            count = 2
        return count
    n = cfg[C_PLAYERS]
    if card == OLLANDER:
        for p in range(n):
            if p != seat and s[HELD + p] >= 0:
                out[at + count] = cfg[C_A_TAKE + p]
                count += 1
        return count
    for i in range(s[NPLAYS]):  # JULITA
        b = PLAYS + i * PLAY_WIDTH
        if s[b + P_PHASE] == s[PHASE] and s[b + P_BLOCKED] == 0 and s[b + P_SEAT] != seat:
            out[at + count] = cfg[C_A_BLOCK + s[b + P_CARD]]
            count += 1
    return count


@inlined_helper
def reveal_step(s: Row, cfg: Config, acts: Ints, moves: Ints, step: int, w: Ints) -> bool:  # pragma: no cover
    """Reveal one window step (``apply_window_step``); return whether anybody played a card."""
    n = cfg[C_PLAYERS]
    anyone = False
    for p in range(n):
        if moves[p] >= 0 and acts[moves[p], A_KIND] != K_PASS:
            anyone = True
    if not anyone:
        return False
    for p in range(4):
        w[W_BLOCKS + p] = -1
        w[W_TAKES + p] = -1
    for p in range(n):
        if moves[p] < 0:
            continue
        kind = acts[moves[p], A_KIND]
        if kind == K_PASS:
            continue
        card = s[HELD + p]
        if card < 0:
            continue
        s[HELD + p] = -1
        if cfg[C_TRACK_KNOWLEDGE]:  # whole games without a learned seat keep no knowledge: no call
            card_revealed(s, cfg, p, card)
        if kind == K_PLAY:
            append_play(s, p, card, s[PHASE], step, 0, 0)
        elif kind == K_BLOCK:
            target = acts[moves[p], A_CARD]
            append_play(s, p, JULITA, s[PHASE], step, 2, target)
            w[W_BLOCKS + p] = target
        elif kind == K_TAKE:
            w[W_TAKES + p] = append_play(s, p, OLLANDER, s[PHASE], step, 1, acts[moves[p], A_SEAT])
    for p in range(n):
        if w[W_BLOCKS + p] >= 0:
            block(s, cfg, p, w[W_BLOCKS + p])
    for p in range(n):
        if w[W_TAKES + p] >= 0:
            take(s, cfg, w[W_TAKES + p])
    return True
