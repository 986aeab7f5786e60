"""An independent reference of Catch A Dragon By The Tail: set scores, busts, collections, replay.

Written from catch-a-dragon-by-the-tail.txt and rulings.md only, without the project's engine, to
cross-check it by differential testing. Faces are numbers 1 to 6 (default colours: 1 green,
2 gold, 3 blue, 4 red, 5 purple, 6 gray); the ring links each face to the next, and 6 to 1 when
``cyclic``.

Readings (from the rulings, restated so the tests can be checked against them):

* A set of all different colours splits into maximal chains of ring neighbours; a chain of
  L >= 2 scores 2L, a lone dragon 1. n identical dragons score n squared; one dragon scores 1.
* Busts: identical set: no rolled die shows its colour. Different set, ``duplicate_bust="any"``:
  some rolled die shows a colour already held; ``"none-new"``: no rolled die shows a new colour.
  One dragon held: bust only if neither kind can go on. A kind that cannot go on is closed for
  that roll, so with one dragon held under ``"any"`` and a rolled die of its colour, only the
  identical dice may be collected. The first roll of a turn never busts.
* After a roll that does not bust the player collects one or more of the rolled dice so that the
  set stays all identical or all different (never two dice of one colour into a different set).
* Four rounds, one turn each, seat 0 first; a tie for the top total plays another whole round,
  at most ``max_tiebreak_rounds`` times, then the tied leaders share the win.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

DEFAULT_FACES = ("green", "gold", "blue", "red", "purple", "gray")
DICE = 4
ROUNDS = 4


class ReferenceRuleError(ValueError):
    """A record event that breaks a rule, by the reference's reading."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"event {index}: {message}")
        self.index = index


def linked(a: int, b: int, cyclic: bool) -> bool:
    """Whether faces ``a`` and ``b`` are neighbours on the ring."""
    if abs(a - b) == 1:
        return True
    return cyclic and {a, b} == {1, 6}


def chains(faces: Iterable[int], cyclic: bool) -> list[list[int]]:
    """The maximal chains of a set of different faces (connected runs on the ring)."""
    remaining = set(faces)
    found: list[list[int]] = []
    while remaining:
        start = min(remaining)
        component = {start}
        frontier = [start]
        while frontier:
            face = frontier.pop()
            for other in list(remaining - component):
                if linked(face, other, cyclic):
                    component.add(other)
                    frontier.append(other)
        remaining -= component
        found.append(sorted(component))
    return found


def set_score(faces: Sequence[int], cyclic: bool = True) -> int:
    """The points of a stopped set (empty: 0). Raises for a set that is neither kind."""
    if not faces:
        return 0
    if len(faces) == 1:
        return 1
    if len(set(faces)) == 1:
        return len(faces) ** 2
    if len(set(faces)) != len(faces):
        raise ValueError(f"{sorted(faces)} is neither all identical nor all different")
    return sum(2 * len(chain) if len(chain) >= 2 else 1 for chain in chains(faces, cyclic))


def busts(held: Sequence[int], roll: Sequence[int], duplicate_bust: str = "any") -> bool:
    """Whether ``roll`` ends the turn with 0, straight from the rulings' wording."""
    if not held:
        return False
    held_colours = set(held)
    matches = any(face in held_colours for face in roll)
    new = any(face not in held_colours for face in roll)
    identical_can_go_on = len(held_colours) == 1 and matches
    if duplicate_bust == "any":
        different_can_go_on = len(held) == len(held_colours) and not matches
    else:
        different_can_go_on = len(held) == len(held_colours) and new
    if len(held) == 1:
        return not (identical_can_go_on or different_can_go_on)
    if len(held_colours) == 1:
        return not identical_can_go_on
    return not different_can_go_on


def legal_collections(held: Sequence[int], roll: Sequence[int], duplicate_bust: str = "any") -> set[tuple[int, ...]]:
    """Every collection (sorted tuple of faces, taken from ``roll``) allowed after ``roll``."""
    held_colours = set(held)
    rolled = Counter(roll)
    found: set[tuple[int, ...]] = set()
    identical_open = not held or len(held_colours) == 1
    different_open = len(held_colours) == len(held)
    if held and different_open and duplicate_bust == "any" and any(f in held_colours for f in roll):
        different_open = False  # a duplicate of a held colour closes the different kind
    if identical_open:
        colours = list(rolled) if not held else [c for c in rolled if c in held_colours]
        for colour in colours:
            for k in range(1, rolled[colour] + 1):
                found.add((colour,) * k)
    if different_open:
        new_colours = sorted(c for c in rolled if c not in held_colours)
        for size in range(1, len(new_colours) + 1):
            for combo in combinations(new_colours, size):
                found.add(combo)
    if len(held) >= 2 and len(held_colours) == 1:
        found = {c for c in found if set(c) <= held_colours}
    return found


@dataclass
class DragonRules:
    """Player count and options."""

    players: int
    faces: tuple[str, ...] = DEFAULT_FACES
    cyclic: bool = True
    duplicate_bust: str = "any"
    max_tiebreak_rounds: int = 10

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> DragonRules:
        options = dict(record.get("options", {}))
        faces = options.get("faces", DEFAULT_FACES)
        if isinstance(faces, str):
            faces = tuple(part.strip() for part in faces.split(","))
        return cls(
            players=int(record["players"]),
            faces=tuple(faces),
            cyclic=bool(options.get("cyclic", True)),
            duplicate_bust=str(options.get("duplicate_bust", "any")),
            max_tiebreak_rounds=int(options.get("max_tiebreak_rounds", 10)),
        )

    def face(self, value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError(f"not a face: {value!r}")
        if isinstance(value, int) and 1 <= value <= 6:
            return value
        if isinstance(value, str) and value in self.faces:
            return self.faces.index(value) + 1
        raise ValueError(f"not a face: {value!r}")


@dataclass
class DragonPosition:
    """The reference's position; ``awaiting`` is "roll", "collect", "decide" or "over"."""

    rules: DragonRules
    round: int = 1
    seat: int = 0
    held: list[int] = field(default_factory=list)
    rolled: list[int] = field(default_factory=list)
    awaiting: str = "roll"
    scores: list[int] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    turn_points: list[tuple[int, int]] = field(default_factory=list)  # (seat, points) per turn

    def __post_init__(self) -> None:
        self.scores = [0] * self.rules.players

    @property
    def over(self) -> bool:
        return self.awaiting == "over"

    def apply_roll(self, index: int, data: Any) -> None:
        if self.awaiting != "roll":
            raise ReferenceRuleError(index, f"a roll is not expected (awaiting {self.awaiting})")
        try:
            roll = sorted(self.rules.face(v) for v in data)
        except (TypeError, ValueError) as error:
            raise ReferenceRuleError(index, str(error)) from None
        if len(roll) != DICE - len(self.held):
            raise ReferenceRuleError(index, f"{DICE - len(self.held)} dice are rolled, not {len(roll)}")
        if busts(self.held, roll, self.rules.duplicate_bust):
            self._end_turn(0)
            return
        self.rolled = roll
        self.awaiting = "collect"

    def apply_move(self, index: int, moves: Any) -> None:
        if not isinstance(moves, dict) or list(moves) != [str(self.seat)]:
            raise ReferenceRuleError(index, f"only seat {self.seat} moves now")
        move = moves[str(self.seat)]
        if self.awaiting == "collect":
            try:
                taken = tuple(sorted(self.rules.face(v) for v in move))
            except (TypeError, ValueError) as error:
                raise ReferenceRuleError(index, str(error)) from None
            if taken not in legal_collections(self.held, self.rolled, self.rules.duplicate_bust):
                raise ReferenceRuleError(index, f"cannot collect {taken} holding {self.held} after {self.rolled}")
            self.held = sorted(self.held + list(taken))
            self.rolled = []
            if len(self.held) == DICE:
                self._end_turn(set_score(self.held, self.rules.cyclic))
            else:
                self.awaiting = "decide"
        elif self.awaiting == "decide":
            if move == "stop":
                self._end_turn(set_score(self.held, self.rules.cyclic))
            elif move == "roll":
                self.awaiting = "roll"
            else:
                raise ReferenceRuleError(index, f"'stop' or 'roll', not {move!r}")
        else:
            raise ReferenceRuleError(index, f"a move is not expected (awaiting {self.awaiting})")

    def _end_turn(self, points: int) -> None:
        self.scores[self.seat] += points
        self.turn_points.append((self.seat, points))
        self.held = []
        self.rolled = []
        self.awaiting = "roll"
        self.seat += 1
        if self.seat < self.rules.players:
            return
        self.seat = 0
        top = max(self.scores)
        leaders = tuple(s for s in range(self.rules.players) if self.scores[s] == top)
        tiebreaks_played = self.round - ROUNDS
        if self.round >= ROUNDS and (len(leaders) == 1 or tiebreaks_played >= self.rules.max_tiebreak_rounds):
            self.winners = leaders
            self.awaiting = "over"
            return
        self.round += 1


def replay_dragon(record: dict[str, Any], *, snapshots: list[dict[str, Any]] | None = None) -> DragonPosition:
    """Replay a record; raise ``ReferenceRuleError`` at the first event that breaks a rule."""
    position = DragonPosition(DragonRules.from_record(record))
    for index, event in enumerate(record["events"]):
        if position.over:
            raise ReferenceRuleError(index, "the game is over")
        if "chance" in event:
            position.apply_roll(index, event["chance"])
        elif "moves" in event:
            position.apply_move(index, event["moves"])
        else:
            raise ReferenceRuleError(index, "an event is a moves or a chance object")
        if snapshots is not None:
            snapshots.append(
                {
                    "round": position.round,
                    "scores": list(position.scores),
                    "seat": None if position.over else position.seat,
                    "held": list(position.held),
                    "over": position.over,
                    "winners": position.winners,
                }
            )
    return position
