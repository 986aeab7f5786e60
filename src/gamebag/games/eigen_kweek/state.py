"""Eigen Kweek positions: the frozen ``KweekState`` and the mutable ``Draft`` rules edit.

A transition thaws a state into a ``Draft`` (plain lists), changes it, and
freezes it again, so states stay immutable and hashable while the rules code
reads naturally. Every weed token and every coin is always in exactly one place:

* weed tokens: the pot, a player's collection, a sealed bid (a closed hand), or
  a growing plant card (116 in all);
* coins: a player's collection, a corner of the trading table, or the coin bag
  (35 in all), kept as counts per coin value.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from gamebag.games.eigen_kweek.components import CORNERS, EMPTY, SACK, TOTAL_TOKENS


@dataclass(frozen=True, slots=True)
class Play:
    """A character card played this round (face up for everyone).

    ``target``: the seat DEN OLLANDER took from, or the card JULITA blocked.
    ``took``: the card DEN OLLANDER took (known to the two players involved only;
    kept while its window is open so JULITA can undo the take, then forgotten).
    """

    seat: int
    card: str
    phase: str
    step: int
    blocked: bool = False
    target: int | str | None = None
    took: str | None = None


@dataclass(frozen=True, slots=True)
class Trade:
    """What the reveal of the bids showed, and the corners chosen so far (public)."""

    bids: tuple[int, ...]  # tokens each player put in their hand
    hands: tuple[int, ...]  # tokens left in each hand after CHANTAL
    counts: tuple[int, ...]  # what each bid counted (hand, plus 2 for STEVEN)
    order: tuple[int, ...]  # seats that choose a corner, in choosing order
    chosen: tuple[int, ...]  # corners (0-3) chosen so far, in order
    lucien: int | None  # the seat LUCIEN paid a coin from the bag, if any


@dataclass(frozen=True, slots=True)
class KweekState:
    """A position of Eigen Kweek (see the module docstring for where things live).

    ``step`` names the node: chance steps ``refill``, ``deal``, ``ria_draw``,
    ``rob_draw``, ``lucien_draw``; decision steps ``choose``, ``window``,
    ``ria_direction``, ``keun``, ``griet``, ``rob``, ``bernard``, ``bid``,
    ``corner``, ``cultivate``, ``keep``; and ``over``.
    """

    round_no: int
    phase: str  # setup, deal, growth, trade, cultivate, hand_in, over
    step: str
    pot: int
    tokens: tuple[int, ...]  # each collection
    bids: tuple[int, ...] | None  # sealed hands during the trade window
    boards: tuple[tuple[int, ...], ...]  # per seat, per plant cost: tokens, EMPTY or SACK
    coins: tuple[tuple[int, ...], ...]  # per seat, counts per coin value
    corners: tuple[tuple[int, ...], ...]  # the four corners, counts per coin value
    bag: tuple[int, ...]
    bag_seen: tuple[int, ...]  # coins everyone saw paid into the bag since its last draw
    refill_next: int  # the corner the next refilled coin goes to
    refill_left: int
    stack: tuple[str, ...]  # character cards in the face-down stack (sorted)
    dealt: tuple[tuple[str, ...], ...]  # cards dealt this round, before choosing
    held: tuple[str | None, ...]  # each player's unplayed character card
    kept: tuple[bool, ...]  # whose card was kept from the previous round
    plays: tuple[Play, ...]
    window_step: int
    queue: tuple[str, ...]  # played cards of the closed window still to take effect
    ria_card: str | None  # the card RIA drew, until it is passed
    ria_seat: int | None
    chooser: int | None  # the seat choosing a target for a card's effect
    rob_target: int | None  # PASTOOR's victim, while the coin is drawn
    bernard_target: int | None
    trade: Trade | None
    knowledge: frozenset[tuple[int, int, str]]  # (observer, seat, card): seat holds card unplayed
    stack_known: frozenset[tuple[int, str, int]]  # (observer, card, seat): card in stack or seat's
    notes: tuple[tuple[str, ...], ...]  # private notes per seat, this round
    log: tuple[str, ...]  # public events this round
    last_log: tuple[str, ...]  # public events of the previous round
    winners: tuple[int, ...]
    ended_by: str | None  # "four_sacks" or "round_cap" once over


class Draft:
    """A mutable copy of a ``KweekState`` (same field names, lists for tuples)."""

    round_no: int
    phase: str
    step: str
    pot: int
    tokens: list[int]
    bids: list[int] | None
    boards: list[list[int]]
    coins: list[list[int]]
    corners: list[list[int]]
    bag: list[int]
    bag_seen: list[int]
    refill_next: int
    refill_left: int
    stack: list[str]
    dealt: list[list[str]]
    held: list[str | None]
    kept: list[bool]
    plays: list[Play]
    window_step: int
    queue: list[str]
    ria_card: str | None
    ria_seat: int | None
    chooser: int | None
    rob_target: int | None
    bernard_target: int | None
    trade: Trade | None
    knowledge: set[tuple[int, int, str]]
    stack_known: set[tuple[int, str, int]]
    notes: list[list[str]]
    log: list[str]
    last_log: list[str]
    winners: tuple[int, ...]
    ended_by: str | None

    def __init__(self, state: KweekState) -> None:
        for name in _FIELD_NAMES:
            value: Any = getattr(state, name)
            if name in _NESTED:
                value = [list(row) for row in value]
            elif name in ("knowledge", "stack_known"):
                value = set(value)
            elif isinstance(value, tuple) and name not in ("winners",):
                value = list(value)
            setattr(self, name, value)

    def freeze(self) -> KweekState:
        values: dict[str, Any] = {}
        for name in _FIELD_NAMES:
            value = getattr(self, name)
            if name in _NESTED:
                value = tuple(tuple(row) for row in value)
            elif name in ("knowledge", "stack_known"):
                value = frozenset(value)
            elif name == "stack":
                value = tuple(sorted(value))
            elif isinstance(value, list):
                value = tuple(value)
            values[name] = value
        return KweekState(**values)

    # ---- small helpers the rules use everywhere ------------------------------------------
    def note(self, seat: int, text: str) -> None:
        self.notes[seat].append(text)

    def say(self, text: str) -> None:
        self.log.append(text)

    def active(self, card: str) -> int | None:
        """The seat whose unblocked play of ``card`` is on the table this round, if any."""
        for play in self.plays:
            if play.card == card and not play.blocked:
                return play.seat
        return None

    def take_from_pot(self, wanted: int) -> int:
        """Take up to ``wanted`` tokens from the pot (it may run dry); return how many."""
        got = max(0, min(wanted, self.pot))
        self.pot -= got
        return got


_FIELD_NAMES = tuple(f.name for f in fields(KweekState))
_NESTED = ("boards", "coins", "corners", "dealt", "notes")


def thaw(state: KweekState) -> Draft:
    return Draft(state)


def tokens_in_play(state: KweekState) -> int:
    """Every weed token counted once (116 when conservation holds)."""
    on_cards = sum(slot for board in state.boards for slot in board if slot > 0)
    sealed = sum(state.bids) if state.bids is not None else 0
    return state.pot + sum(state.tokens) + sealed + on_cards


def coins_in_play(state: KweekState) -> tuple[int, ...]:
    """Coins of each value, summed over collections, corners and the bag."""
    columns = [*state.coins, *state.corners, state.bag]
    return tuple(sum(col) for col in zip(*columns, strict=True))


def sacks(board: tuple[int, ...] | list[int]) -> int:
    return sum(1 for slot in board if slot == SACK)


def growing(board: tuple[int, ...] | list[int]) -> int:
    return sum(1 for slot in board if slot not in (EMPTY, SACK))


__all__ = [
    "CORNERS",
    "TOTAL_TOKENS",
    "Draft",
    "KweekState",
    "Play",
    "Trade",
    "coins_in_play",
    "growing",
    "sacks",
    "thaw",
    "tokens_in_play",
]
