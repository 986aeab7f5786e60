"""Catch A Dragon By The Tail, riders variant: every seat plays with a dragon rider's power of its own.

A plugin: ``gamebag --plugin gamebag.variants.riders simulate catch-a-dragon-riders``.
It changes the rules through the game's public hooks only: ``turn_rules`` names the power of the
seat to move, ``stop_points``, ``bust_points`` and ``duplicate_bust_rule`` apply it. The exact
solvers read the same hooks and solve each power's turn on its own graph; the compiled engines
refuse the variant.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

from gamebag.core.engines import EngineSupport, rules_only
from gamebag.core.options import Option, typed_options
from gamebag.core.protocol import JsonDict
from gamebag.core.registry import register_variant
from gamebag.games.catch_a_dragon.dice import Dice, chains, set_kind, set_points_by
from gamebag.games.catch_a_dragon.rules import OPTIONS, CatchADragon, DragonState

HOARDER, WEAVER, NESTKEEPER, STEADY_CLAW, LONE_FLYER, DAREDEVIL = (
    "hoarder",
    "weaver",
    "nestkeeper",
    "steady-claw",
    "lone-flyer",
    "daredevil",
)
POWERS: tuple[str, ...] = (HOARDER, WEAVER, NESTKEEPER, STEADY_CLAW, LONE_FLYER, DAREDEVIL)
# The powers' numbers, chosen so that each power's best turn is worth about the same (7.0 to 7.5
# expected points, against the rulebook's 6.64; docs/designers.md, "The author's three variants").
HOARDER_BONUS = 2  # points an identical set of two or more adds for the Hoarder
WEAVER_BONUS = 1  # points each linked chain of two or more adds for the Weaver
NESTKEEPER_PER_DRAGON = 2  # points per dragon held that a Nestkeeper's bust scores
LONE_POINTS = 2  # a Lone flyer's lone dragon (the rulebook: 1)
DAREDEVIL_BONUS = 2  # points a Daredevil adds for collecting every die

DEAL = Option(
    "deal",
    "int",
    0,
    "Which powers the seats hold: seat k holds power number (k + deal) mod 6 of the list hoarder, "
    "weaver, nestkeeper, steady-claw, lone-flyer, daredevil (0: seat 0 the Hoarder, seat 1 the Weaver ...).",
    minimum=0,
    maximum=len(POWERS) - 1,
)
RIDERS_OPTIONS: tuple[Option, ...] = (*OPTIONS, DEAL)


@dataclass(frozen=True, slots=True)
class RidersOptions:
    """The riders' own option, typed (the base game's are ``CatchADragon.settings``)."""

    deal: int

RULES = """\
# Catch A Dragon By The Tail: riders

Every rule of Catch A Dragon By The Tail holds, and every player is a dragon rider with a power
of their own that bends one rule for them alone, on every one of their turns.

**Dealing the powers.** Lay the six power cards out in this order: Hoarder, Weaver, Nestkeeper,
Steady claw, Lone flyer, Daredevil. The youngest player (seat 0) takes card number `deal` (0 to
5, agreed or rolled before the game; option `deal`), the next player the card after it, and so
on, going back to the Hoarder after the Daredevil. With seven or eight players the first powers
are held twice. Every player sees every power.

- **Hoarder.** A set of two or more identical colours scores 2 points more: 2 → 6, 3 → 11,
  4 → 18.
- **Weaver.** Every linked chain of two or more dragons scores 1 point more: gold-blue-red with
  a lone gray scores 6 + 1 + 1 = 8.
- **Nestkeeper.** A bust is not empty-handed: it scores 2 points per dragon collected before the
  roll that busted.
- **Steady claw.** A set of different colours busts only when no rolled die shows a new colour;
  dice showing colours already held are simply not collected (the `none-new` reading).
- **Lone flyer.** A lone dragon (one without a linked neighbour in a set of different colours,
  or a set of one) scores 2 instead of 1.
- **Daredevil.** Collecting every die scores 2 points more than the set is worth.

Designer's note: the author asked for "unique player powers". Each power rewards a different
way of playing (one colour, linked chains, pushing on, wide sets), so two riders at the same
scores push their luck differently. The numbers are set so that no power is worth much more
than another: played for the most points, a turn is worth 6.9 to 7.5 points with any of them
(6.6 by the rulebook). Worth in points is not worth in winning, though: some pairings favour one
rider clearly (docs/designers.md has the exact odds of every deal for two players).
"""


def power_of(seat: int, deal: int) -> str:
    """The power that ``seat`` holds when the cards are dealt from number ``deal``."""
    return POWERS[(seat + deal) % len(POWERS)]


def power_stop_points(collected: Dice, cyclic: bool, dice: int, power: Hashable) -> int:
    """What a set scores for a rider of ``power`` when the turn stops or collects the last die."""
    if power == LONE_FLYER:
        return set_points_by(collected, cyclic, lone=LONE_POINTS)
    points = set_points_by(collected, cyclic)
    kind = set_kind(collected)
    if power == HOARDER and kind == "identical":
        return points + HOARDER_BONUS
    if power == WEAVER and kind == "different":
        return points + WEAVER_BONUS * sum(1 for chain in chains(collected, cyclic) if len(chain) >= 2)
    return points + DAREDEVIL_BONUS if power == DAREDEVIL and len(collected) == dice else points


class RidersDragon(CatchADragon):
    """Catch A Dragon where each seat holds a rider's power of its own (``RULES``)."""

    game_id: ClassVar[str] = "catch-a-dragon-riders"
    title: ClassVar[str] = "Catch A Dragon By The Tail: riders"
    summary: ClassVar[str] = "Catch A Dragon where every player has a dragon rider's power of their own."
    option_specs: ClassVar[tuple[Option, ...]] = RIDERS_OPTIONS
    engine_support: ClassVar[EngineSupport | None] = rules_only(RIDERS_OPTIONS)

    def _configure(self) -> None:
        super()._configure()
        self.deal = typed_options(RidersOptions, self.options).deal
        self.powers = tuple(power_of(seat, self.deal) for seat in range(self.num_players))

    def turn_rules(self, round_no: int, seat: int) -> Hashable:
        return self.powers[seat]

    def stop_points(self, collected: Dice, rules: Hashable) -> int:
        return power_stop_points(collected, self.cyclic, self.dice, rules)

    def bust_points(self, collected: Dice, rules: Hashable) -> int:
        return NESTKEEPER_PER_DRAGON * len(collected) if rules == NESTKEEPER else 0

    def duplicate_bust_rule(self, rules: Hashable) -> str:
        return "none-new" if rules == STEADY_CLAW else self.duplicate_bust

    def public_view(self, state: DragonState) -> JsonDict:
        view: dict[str, Any] = dict(super().public_view(state))
        view["powers"] = list(self.powers)
        return view


register_variant(RidersDragon, "catch-a-dragon", lambda: RULES)
