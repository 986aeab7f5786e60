"""The fourteen character cards: when they may be played and what they do.

The digital procedure (``rules.md``, "Playing characters"):

* Each of the four phases that have character cards opens a *window*. A window
  is a series of steps; in each step every player who holds an unplayed card
  decides secretly, at the same time, to pass or to play it (everyone with a
  card takes part, so taking part gives nothing away). Played cards are then
  revealed together. The window closes after a step in which nobody plays.
* A card of the window's phase is played with ``play:CARD``. DEN OLLANDER
  (``take:SEAT``) takes the unplayed card of an opponent as the step is
  revealed; the taker may play that card in a later step of the same window or
  in a later window. JULITA (``block:CARD``) blocks a card an opponent played in
  an earlier step of the same window: that card does nothing, and blocking DEN
  OLLANDER gives the taken card back (unplayed) to its owner.
* KEUN, GRIET, PASTOOR and BERNARD name their target as they are revealed
  ("when you play this character card, you may take..."), so the next step's
  JULITA can answer a known target.
* When the window closes, the unblocked cards take effect in the rulebook's
  order of the cards (RIA; KEUN, FLUPPE, GRIET, PASTOOR; BERNARD). RIA's player
  then chooses whether to draw, and the direction. STEVEN, CHANTAL, LUCIEN and
  STEFAAN act when the bids are revealed; FRANK and JOS during cultivation.

This module holds the card-level rules; ``phases.py`` drives the round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gamebag.core.words import counted
from gamebag.games.eigen_kweek.actions import Move
from gamebag.games.eigen_kweek.components import (
    CARD_PHASE,
    JULITA,
    OLLANDER,
    PLANT_COSTS,
    Config,
)
from gamebag.games.eigen_kweek.nodes import Step
from gamebag.games.eigen_kweek.state import Draft, KweekState, Play, growing, sacks

# Where a tracked card may be besides the stack (``KweekState.stack_known``): a seat, or these.
IN_STACK = -1
WITH_RIA = -2  # the card RIA's player drew and has not passed yet

# Cards whose effect needs work when their window closes (the others are read where they act).
RESOLVED_AT_CLOSE = ("RIA", "KEUN", "FLUPPE", "GRIET", "PASTOOR", "BERNARD")


def window_actions(state: KweekState, seat: int) -> tuple[str, ...]:
    """What ``seat`` may do in the current window step (always at least ``pass``)."""
    card = state.held[seat]
    if card is None:
        return ()
    phase = CARD_PHASE[card]
    if phase is not None:
        return _PLAY_MENUS[card] if phase == state.phase else _PASS_ONLY
    if card == OLLANDER:
        return ("pass", *(f"take:{other}" for other, held in enumerate(state.held) if other != seat and held))
    return (
        "pass",
        *(
            f"block:{play.card}"
            for play in state.plays
            if play.phase == state.phase and not play.blocked and play.seat != seat
        ),
    )


_PASS_ONLY = ("pass",)
_PLAY_MENUS = {card: ("pass", f"play:{card}") for card in CARD_PHASE}


def apply_window_step(d: Draft, moves: dict[int, Move]) -> bool:
    """Reveal one window step; return whether anybody played a card in it.

    Order within the reveal: the cards are turned up, then JULITA's blocks take
    effect (they target cards of earlier steps), then DEN OLLANDER's take.
    """
    for move in moves.values():
        if move.kind != "pass":
            break
    else:
        return False  # everybody passed
    step = d.window_step
    blocks: list[tuple[int, str]] = []
    takes: list[int] = []
    for seat in sorted(moves):
        move = moves[seat]
        if move.kind == "pass":
            continue
        card = d.held[seat]
        if card is None:  # guarded by the legality check; kept for type safety
            continue
        d.held[seat] = None
        _card_revealed(d, seat, card)
        if move.kind == "play":
            d.plays.append(Play(seat=seat, card=card, phase=d.phase, step=step))
            d.say(f"seat {seat} plays {card}")
        elif move.kind == "block" and move.card is not None:
            d.plays.append(Play(seat=seat, card=JULITA, phase=d.phase, step=step, target=move.card))
            blocks.append((seat, move.card))
        elif move.kind == "take" and move.seat is not None:
            d.plays.append(Play(seat=seat, card=OLLANDER, phase=d.phase, step=step, target=move.seat))
            takes.append(len(d.plays) - 1)
    for seat, card in blocks:
        _block(d, seat, card)
    for index in takes:
        _take(d, index)
    return True


def _card_revealed(d: Draft, seat: int, card: str) -> None:
    """A card turned face up is public: private knowledge about it is no longer needed."""
    if not d.peek("knowledge") and not d.peek("stack_known"):
        return
    d.knowledge = {k for k in d.knowledge if not (k[1] == seat and k[2] == card)}
    updated: set[tuple[int, str, int]] = set()
    for observer, known, where in d.stack_known:
        if where == seat:
            if known != card:
                updated.add((observer, known, -1))  # seat's card was not it: it is in the stack
        else:
            updated.add((observer, known, where))
    d.stack_known = updated


def _block(d: Draft, seat: int, card: str) -> None:
    for index, play in enumerate(d.plays):
        if play.card == card and play.phase == d.phase and not play.blocked:
            d.plays[index] = Play(
                seat=play.seat,
                card=play.card,
                phase=play.phase,
                step=play.step,
                blocked=True,
                target=play.target,
                took=play.took,
            )
            d.say(f"seat {seat} plays JULITA and blocks {card} of seat {play.seat}")
            if play.card == OLLANDER and play.took is not None and isinstance(play.target, int):
                _undo_take(d, play.seat, play.target, play.took)
            return


def _take(d: Draft, index: int) -> None:
    play = d.plays[index]
    taker = play.seat
    victim = play.target
    if not isinstance(victim, int) or d.held[victim] is None:
        d.say(f"seat {taker} plays DEN OLLANDER on seat {victim}, who has no unplayed card left")
        return
    card = d.held[victim]
    assert card is not None
    d.held[victim] = None
    d.held[taker] = card
    d.plays[index] = Play(
        seat=taker,
        card=OLLANDER,
        phase=play.phase,
        step=play.step,
        blocked=False,
        target=victim,
        took=card,
    )
    d.say(f"seat {taker} plays DEN OLLANDER and takes the unplayed card of seat {victim}")
    d.note(taker, f"DEN OLLANDER: you took {card} from seat {victim}")
    d.note(victim, f"seat {taker} took your {card} with DEN OLLANDER")
    _move_card_knowledge(d, victim, taker, card)
    d.knowledge.add((victim, taker, card))


def _undo_take(d: Draft, taker: int, victim: int, card: str) -> None:
    """JULITA blocked DEN OLLANDER: the taken card goes back to its owner, unplayed."""
    revealed = False
    if d.held[taker] == card:
        d.held[taker] = None
    else:
        for index, play in enumerate(d.plays):
            if play.card == card and play.seat == taker and play.phase == d.phase:
                del d.plays[index]
                revealed = True
                d.say(f"the play of {card} by seat {taker} is undone")
                break
    d.held[victim] = card
    d.note(victim, f"your {card} came back to you")
    if revealed:
        # Everyone saw the card when it was played, so everyone knows where it went back.
        d.knowledge.update((observer, victim, card) for observer in range(len(d.held)) if observer != victim)
    else:
        _move_card_knowledge(d, taker, victim, card)
        d.knowledge.add((taker, victim, card))
    d.knowledge = {k for k in d.knowledge if k[0] != k[1]}


def _move_card_knowledge(d: Draft, source: int, target: int, card: str) -> None:
    """A face-down card moved openly from ``source`` to ``target``: who knew it still knows."""
    moved = set()
    for observer, seat, known in d.knowledge:
        if seat == source and known == card:
            moved.add((observer, target, known))
        else:
            moved.add((observer, seat, known))
    d.knowledge = {k for k in moved if k[0] != k[1]}
    updated: set[tuple[int, str, int]] = set()
    for observer, known, where in d.stack_known:
        where = target if where == source else where
        if observer == where == target:
            # The receiver sees the card: either it is the one it looked for, or that one is in the stack.
            if known != card:
                updated.add((observer, known, -1))
        else:
            updated.add((observer, known, where))
    d.stack_known = updated


def ria_drawn(d: Draft, card: str) -> None:
    """RIA's player draws ``card`` from the stack and looks at it."""
    d.stack.remove(card)
    d.ria_card = card
    ria = d.ria_seat
    updated: set[tuple[int, str, int]] = set()
    for observer, known, where in d.stack_known:
        if where != IN_STACK:
            updated.add((observer, known, where))
        elif observer == ria:
            if known != card:
                updated.add((observer, known, where))
        else:
            updated.add((observer, known, WITH_RIA))  # it may be the card just drawn
    d.stack_known = updated


def ria_pass(d: Draft, direction: int) -> None:
    """Everyone passes their unplayed card one seat; RIA's player passes the drawn card."""
    n = len(d.held)
    ria = d.ria_seat
    assert ria is not None
    passed: list[str | None] = list(d.held)
    passed[ria] = d.ria_card
    d.held = [passed[(seat - direction) % n] for seat in range(n)]
    receiver = (ria + direction) % n
    d.knowledge = {(o, (s + direction) % n, c) for o, s, c in d.knowledge}
    for seat in range(n):
        card = passed[seat]
        if card is not None:
            d.knowledge.add((seat, (seat + direction) % n, card))
            d.note((seat + direction) % n, f"RIA: you received {card} from seat {seat}")
    d.knowledge = {k for k in d.knowledge if k[0] != k[1]}
    updated: set[tuple[int, str, int]] = set()
    for observer, known, where in d.stack_known:
        if where >= 0:
            updated.add((observer, known, (where + direction) % n))
        elif where == WITH_RIA:
            updated.add((observer, known, receiver))  # the drawn card, now passed on, may be it
        else:
            updated.add((observer, known, where))
    # A player who now holds the card it was tracking sees whether it is that card.
    d.stack_known = {
        (observer, known, -1 if observer == where else where)
        for observer, known, where in updated
        if not (observer == where and d.held[observer] == known)
    }
    side = "left" if direction == 1 else "right"
    d.say(f"RIA: every card passes to the {side}; seat {ria} passes the drawn card to seat {receiver}")
    d.ria_card = None
    d.ria_seat = None


# ---- targets, named when the card is played, and their effects when the window closes -----
@dataclass(frozen=True)
class Aimed:
    """A card whose player names a target as it is revealed ("when you play this card, you may...").

    ``step`` asks for the target; ``targets`` lists the choices (action strings such as
    ``keun:1:6``); ``words`` says a target in the rulebook's words; ``resolve`` carries it out
    when the window closes and returns True when a coin must first be drawn (PASTOOR).
    """

    step: Step
    targets: Callable[[Config, KweekState | Draft, int], list[str]]
    words: Callable[[list[str]], str]
    resolve: Callable[[Config, Draft, int, list[str]], bool]


def keun_targets(config: Config, state: KweekState | Draft, seat: int) -> list[str]:
    return [
        f"keun:{seat}:{cost}"
        for seat, board in enumerate(state.boards)
        for cost, slot in zip(PLANT_COSTS, board, strict=True)
        if slot > 0
    ]


def griet_targets(config: Config, state: KweekState | Draft, seat: int) -> list[str]:
    board = state.boards[seat]
    return [
        f"griet:{cost}"
        for cost, slot in zip(PLANT_COSTS, board, strict=True)
        if 0 <= slot < config.capacity[cost]
    ]


def rob_targets(config: Config, state: KweekState | Draft, seat: int) -> list[str]:
    targets: list[str] = []
    for other, coins in enumerate(state.coins):
        if other == seat or sum(coins) == 0:
            continue
        if config.open_coins:
            targets.extend(f"rob:{other}:{v}" for v, n in zip(config.values, coins, strict=True) if n > 0)
        else:
            targets.append(f"rob:{other}")
    return targets


def bernard_targets(config: Config, state: KweekState | Draft, seat: int) -> list[str]:
    return [f"bernard:{other}" for other in range(len(state.held)) if other != seat]


def apply_keun(d: Draft, seat: int, target: int, cost: int) -> None:
    index = PLANT_COSTS.index(cost)
    taken = d.boards[target][index]
    d.boards[target][index] = 0
    d.tokens[seat] += taken
    d.say(f"KEUN: seat {seat} takes {counted(taken, 'weed token')} from the {cost} card of seat {target}")


def apply_fluppe(config: Config, d: Draft, seat: int) -> None:
    board = d.boards[seat]
    # "two weed tokens for each plant card on your player board": a ploughed-over card is still
    # a plant card on the board, turned over (option ``fluppe_counts_sacks``, default true).
    cards = growing(board) + (sacks(board) if config.fluppe_counts_sacks else 0)
    got = d.take_from_pot(2 * cards)
    d.tokens[seat] += got
    short = " (the pot ran short)" if got < 2 * cards else ""
    d.say(f"FLUPPE: seat {seat} receives {counted(got, 'weed token')} for {counted(cards, 'plant card')}{short}")


def apply_griet(config: Config, d: Draft, seat: int, cost: int) -> None:
    index = PLANT_COSTS.index(cost)
    slot = d.boards[seat][index]
    got = d.take_from_pot(config.capacity[cost] - slot)
    d.boards[seat][index] = slot + got
    d.say(f"GRIET: seat {seat} fills the {cost} card with {counted(got, 'weed token')}")


def apply_rob(config: Config, d: Draft, seat: int, victim: int, value: int) -> None:
    index = config.values.index(value)
    d.coins[victim][index] -= 1
    d.coins[seat][index] += 1
    d.say(f"PASTOOR: seat {seat} takes a coin from seat {victim}")
    d.note(seat, f"PASTOOR: you took a coin worth {value} from seat {victim}")
    d.note(victim, f"PASTOOR: seat {seat} took your coin worth {value}")



def _keun(config: Config, d: Draft, seat: int, parts: list[str]) -> bool:
    apply_keun(d, seat, int(parts[1]), int(parts[2]))
    return False


def _griet(config: Config, d: Draft, seat: int, parts: list[str]) -> bool:
    apply_griet(config, d, seat, int(parts[1]))
    return False


def _pastoor(config: Config, d: Draft, seat: int, parts: list[str]) -> bool:
    victim = int(parts[1])
    if len(parts) == 3:  # open coins: the value was chosen
        value = int(parts[2])
        if d.coins[victim][config.values.index(value)] > 0:
            apply_rob(config, d, seat, victim, value)
        return False
    if sum(d.coins[victim]):
        d.rob_target = victim
        return True  # face down: the coin is a blind draw
    return False


def _bernard(config: Config, d: Draft, seat: int, parts: list[str]) -> bool:
    d.bernard_target = int(parts[1])
    d.say(f"BERNARD: seat {seat} blocks seat {d.bernard_target} for the entire cultivate phase")
    return False


# KEUN, GRIET, PASTOOR and BERNARD: each card's targets, words and effect in one row.
AIMED: dict[str, Aimed] = {
    "KEUN": Aimed(
        Step.KEUN, keun_targets, lambda p: f"all weed tokens from the {p[2]} plant card of seat {p[1]}", _keun
    ),
    "GRIET": Aimed(Step.GRIET, griet_targets, lambda p: f"completely fill its own {p[1]} plant card", _griet),
    "PASTOOR": Aimed(
        Step.ROB,
        rob_targets,
        lambda p: f"one coin{f' worth {p[2]}' if len(p) == 3 else ''} from seat {p[1]}",
        _pastoor,
    ),
    "BERNARD": Aimed(Step.BERNARD, bernard_targets, lambda p: f"block seat {p[1]} for the cultivate phase", _bernard),
}
AIMED_BY_STEP: dict[Step, str] = {aimed.step: card for card, aimed in AIMED.items()}


def describe_target(card: str, action: str) -> str:
    """A named target in the rulebook's words."""
    return AIMED[card].words(action.split(":"))
