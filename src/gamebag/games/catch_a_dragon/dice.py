"""The dragon dice of Catch A Dragon By The Tail: faces, chains, scoring, busts and rolls.

Everything here works on face numbers 1 to 6; colour names only matter for
display and records (``faces`` option). A *set* is the sorted tuple of faces a
player has collected this turn, a *roll* the sorted tuple of faces just rolled.
The functions are pure and cached where the solver calls them often.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial

from gamebag.core.protocol import nearest_float

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DICE = 4
DEFAULT_COLOURS: tuple[str, ...] = ("green", "gold", "blue", "red", "purple", "gray")
# Colour names the ``faces`` option may use (six distinct ones, in face order 1 to 6).
PALETTE: tuple[str, ...] = (
    "green",
    "gold",
    "blue",
    "red",
    "purple",
    "gray",
    "white",
    "black",
    "orange",
    "yellow",
    "pink",
    "brown",
    "silver",
    "teal",
)
DUPLICATE_BUST_RULES: tuple[str, ...] = ("any", "none-new")

Dice = tuple[int, ...]


def set_kind(collected: Dice) -> str:
    """``"empty"``, ``"one"`` (still both kinds), ``"identical"`` or ``"different"``."""
    if not collected:
        return "empty"
    if len(collected) == 1:
        return "one"
    return "identical" if len(set(collected)) == 1 else "different"


def linked(a: int, b: int, cyclic: bool) -> bool:
    """Whether faces ``a`` and ``b`` are neighbours on the ring (claw holds tail)."""
    gap = abs(a - b)
    return gap == 1 or (cyclic and gap == len(FACES) - 1)


@cache
def chains(collected: Dice, cyclic: bool) -> tuple[Dice, ...]:
    """The maximal linked chains of a set of different colours, each in ring order."""
    members = set(collected)
    if len(members) != len(collected):
        raise ValueError(f"chains are defined for sets of different colours, not {collected}")
    found: list[Dice] = []
    for face in sorted(members):
        previous = face - 1 if face > 1 else (len(FACES) if cyclic else 0)
        if previous in members:
            continue  # not the first dragon of its chain
        chain = [face]
        while True:
            following = chain[-1] + 1 if chain[-1] < len(FACES) else (1 if cyclic else 0)
            if following not in members or following == face:
                break
            chain.append(following)
        found.append(tuple(chain))
    if sum(len(c) for c in found) != len(members):
        # Only a full ring has no first dragon; six dragons cannot be collected with four dice.
        found = [tuple(sorted(members))]
    return tuple(found)


def chain_points(length: int) -> int:
    """A chain of two or more scores twice its length; a lone dragon scores one."""
    return 2 * length if length >= 2 else 1


@cache
def set_points(collected: Dice, cyclic: bool) -> int:
    """The fame a set scores when the player stops (0 for an empty set)."""
    if not collected:
        return 0
    if len(collected) == 1:
        return 1
    if len(set(collected)) == 1:
        return len(collected) ** 2
    return sum(chain_points(len(c)) for c in chains(collected, cyclic))


def set_points_by(collected: Dice, cyclic: bool, *, per_linked: int = 2, lone: int = 1, per_identical: int = 0) -> int:
    """``set_points`` with other numbers, for variants (``gamebag.variants``): a chain of two or more
    scores ``per_linked`` per dragon, a lone dragon (or a set of one) ``lone``, and an identical set
    its square plus ``per_identical`` per dragon. The defaults are the rulebook's."""
    if not collected:
        return 0
    if len(collected) == 1:
        return lone
    if len(set(collected)) == 1:
        return len(collected) ** 2 + per_identical * len(collected)
    return sum(per_linked * len(c) if len(c) >= 2 else lone for c in chains(collected, cyclic))


@cache
def roll_outcomes(dice: int) -> tuple[tuple[Dice, Fraction], ...]:
    """Every sorted roll of ``dice`` dice with its exact (multinomial) probability."""
    total = len(FACES) ** dice
    outcomes = []
    for roll in combinations_with_replacement(FACES, dice):
        ways = factorial(dice)
        for count in Counter(roll).values():
            ways //= factorial(count)
        outcomes.append((roll, Fraction(ways, total)))
    return tuple(outcomes)


@cache
def roll_probabilities(dice: int) -> tuple[tuple[Dice, float], ...]:
    """``roll_outcomes`` with each probability as the float nearest it."""
    return tuple((roll, nearest_float(probability)) for roll, probability in roll_outcomes(dice))


def identical_can_go_on(collected: Dice, roll: Dice) -> bool:
    """A set of one colour goes on when a rolled die matches it."""
    return collected[0] in roll


def different_can_go_on(collected: Dice, roll: Dice, duplicate_bust: str) -> bool:
    """A set of different colours goes on unless the roll busts it under ``duplicate_bust``.

    ``any`` (the rulebook's words): any rolled die showing a colour already held
    busts. ``none-new``: only a roll without a single new colour busts.
    """
    held = set(collected)
    if duplicate_bust == "any":
        return not any(face in held for face in roll)
    return any(face not in held for face in roll)


@cache
def is_bust(collected: Dice, roll: Dice, duplicate_bust: str) -> bool:
    """Whether ``roll`` ends the turn with nothing for a player holding ``collected``."""
    kind = set_kind(collected)
    if kind == "empty":
        return False
    if kind == "identical":
        return not identical_can_go_on(collected, roll)
    if kind == "different":
        return not different_can_go_on(collected, roll, duplicate_bust)
    # One dragon: still both kinds, so a bust only if neither kind can go on.
    return not identical_can_go_on(collected, roll) and not different_can_go_on(collected, roll, duplicate_bust)


@cache
def legal_collections(collected: Dice, roll: Dice, duplicate_bust: str) -> tuple[Dice, ...]:
    """The collections (sorted face tuples) a player may take from ``roll``; () after a bust.

    With one dragon held, each kind offers its collections only if that kind can
    go on after this roll (so under ``any`` a rolled match of the held colour
    leaves only the identical collections).
    """
    counts = Counter(roll)
    kind = set_kind(collected)
    options: set[Dice] = set()
    if kind == "empty":
        for face, count in counts.items():
            options.update((face,) * k for k in range(1, count + 1))
        distinct = sorted(counts)
        for size in range(2, len(distinct) + 1):
            options.update(combinations(distinct, size))
        return _ordered(options)
    if is_bust(collected, roll, duplicate_bust):
        return ()
    held = collected[0]
    if kind in ("identical", "one") and identical_can_go_on(collected, roll):
        options.update((held,) * k for k in range(1, counts[held] + 1))
    if kind in ("different", "one") and different_can_go_on(collected, roll, duplicate_bust):
        new = sorted(face for face in counts if face not in set(collected))
        for size in range(1, len(new) + 1):
            options.update(combinations(new, size))
    return _ordered(options)


def merge(collected: Dice, collection: Dice) -> Dice:
    """The set after collecting ``collection``."""
    return tuple(sorted(collected + collection))


@cache
def all_collections(dice: int = DICE) -> tuple[Dice, ...]:
    """Every collection that is legal in some position with ``dice`` dice: one colour, or different colours."""
    options: set[Dice] = set()
    for size in range(1, dice + 1):
        options.update((face,) * size for face in FACES)
        options.update(combinations(FACES, size))
    return _ordered(options)


def bust_probability(collected: Dice, duplicate_bust: str, dice: int = DICE) -> Fraction:
    """The exact chance that rolling the remaining dice (of ``dice`` in all) busts ``collected``."""
    return sum(
        (p for roll, p in roll_outcomes(dice - len(collected)) if is_bust(collected, roll, duplicate_bust)),
        Fraction(0),
    )


def _ordered(options: set[Dice]) -> tuple[Dice, ...]:
    # Fewer dice first, then by face numbers: a fixed order for legal_actions and all_actions.
    return tuple(sorted(options, key=lambda c: (len(c), c)))
