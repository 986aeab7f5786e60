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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from gamebag.games.eigen_kweek.components import CORNERS, EMPTY, SACK, TOTAL_TOKENS
from gamebag.games.eigen_kweek.nodes import Phase, Step


@dataclass(frozen=True, slots=True)
class Play:
    """A character card played this round (face up for everyone).

    ``target``: the seat DEN OLLANDER took from, the card JULITA blocked, or the
    target a KEUN, GRIET, PASTOOR or BERNARD named on playing (``keun:1:6``).
    ``took``: the card DEN OLLANDER took (known to the two players involved only;
    kept while its window is open so JULITA can undo the take, then forgotten).
    """

    seat: int
    card: str
    phase: Phase
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


class KweekState(NamedTuple):
    """A position of Eigen Kweek (see the module docstring for where things live).

    ``step`` names the node (``nodes.Step``; ``steps.py`` says what each does).
    A named tuple: immutable and hashable like a frozen dataclass, and built in
    one call, which matters because every transition builds one.
    """

    round_no: int
    phase: Phase
    step: Step
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
    """A mutable copy of a ``KweekState`` (same field names, lists for tuples).

    Copy on first use: a field is thawed into lists or sets only when the rules
    read or assign it, and ``freeze`` reuses the untouched fields of the original
    state as they are. Most transitions touch a few of the 34 fields, so this is
    what makes a transition cheap. Each field is a ``_Thawed`` descriptor of the
    class until the draft's own dict holds it (see there).
    """

    round_no: int
    phase: Phase
    step: Step
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

    __slots__ = ("__dict__", "_state")

    def __init__(self, state: KweekState) -> None:
        self._state = state

    def peek(self, name: str) -> Any:
        """A field's current value without thawing it (for cheap checks such as emptiness)."""
        if name in self.__dict__:
            return self.__dict__[name]
        return self._state[_SPEC[name][0]]

    def freeze(self) -> KweekState:
        values = list(self._state)
        for name, value in self.__dict__.items():  # only fields: ``_state`` lives in a slot
            index, freeze = _FREEZE[name]
            values[index] = value if freeze is None else freeze(value)
        return tuple.__new__(KweekState, values)

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


def _rows(value: Any) -> Any:
    return list(map(list, value))


def _frozen_rows(value: Any) -> Any:
    return tuple(map(tuple, value))


def _list_or_none(value: Any) -> Any:
    return None if value is None else list(value)


def _sorted_tuple(value: Any) -> Any:
    return tuple(sorted(value))


def _tuple_or_none(value: Any) -> Any:
    return None if value is None else tuple(value)


_NESTED = ("boards", "coins", "corners", "dealt", "notes")
_SETS = ("knowledge", "stack_known")
_SCALARS = (
    "round_no", "phase", "step", "pot", "refill_next", "refill_left", "window_step", "ria_card", "ria_seat",
    "chooser", "rob_target", "bernard_target", "trade", "winners", "ended_by",
)
_Convert = Callable[[Any], Any]
# field name -> (position in the state, thaw into a mutable value, freeze back); no conversion
# (None) for immutable values such as numbers, enums, None and frozen records.
_SPEC: dict[str, tuple[int, _Convert | None, _Convert | None]] = {}
for _index, _name in enumerate(KweekState._fields):
    _conversions: tuple[_Convert | None, _Convert | None]
    if _name in _NESTED:
        _conversions = (_rows, _frozen_rows)
    elif _name in _SETS:
        _conversions = (set, frozenset)
    elif _name in _SCALARS:
        _conversions = (None, None)
    elif _name == "stack":
        _conversions = (list, _sorted_tuple)
    elif _name == "bids":
        _conversions = (_list_or_none, _tuple_or_none)
    else:
        _conversions = (list, tuple)
    _SPEC[_name] = (_index, *_conversions)


class _Thawed:
    """A ``Draft`` field not read or assigned yet: the first read thaws it from the state.

    A non-data descriptor, so once the value sits in the draft's own ``__dict__`` (put
    there by this first read, or by an assignment) plain attribute access finds it
    first and this is never asked again. Cheaper than ``__getattr__``, which Python
    calls only after a failed lookup has raised ``AttributeError``.
    """

    __slots__ = ("index", "name", "thaw")

    def __init__(self, index: int, name: str, thaw: _Convert | None) -> None:
        self.index = index
        self.name = name
        self.thaw = thaw

    def __get__(self, draft: Draft | None, owner: type | None = None) -> Any:
        if draft is None:
            return self
        value = draft._state[self.index]
        if self.thaw is not None:
            value = self.thaw(value)
        draft.__dict__[self.name] = value
        return value


for _name, (_index, _thaw, _) in _SPEC.items():
    setattr(Draft, _name, _Thawed(_index, _name, _thaw))
# field name -> (position in the state, freeze back), for ``Draft.freeze``.
_FREEZE: dict[str, tuple[int, _Convert | None]] = {name: (index, freeze) for name, (index, _, freeze) in _SPEC.items()}


def with_fields(state: KweekState, **changes: Any) -> KweekState:
    """``state`` with some fields replaced (already in their frozen form)."""
    values = list(state)
    for name, value in changes.items():
        values[_SPEC[name][0]] = value
    return tuple.__new__(KweekState, values)


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
    "tokens_in_play",
    "with_fields",
]
