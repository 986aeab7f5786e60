"""Catch A Dragon By The Tail with its author's three variants as one option, for ``gamebag tune``.

A plugin: ``gamebag --plugin gamebag.variants.dragon_variants tune catch-a-dragon-variants
--search variant=base,consolation,seasons,riders --goal max:interaction ...`` asks which variant
best meets a goal. ``variant`` picks the rules; the game forwards every public hook to that
variant's own class (``consolation``, ``seasons``, ``riders``), so each value plays exactly the
rules of the variant it names, solved by the exact solvers and refused by the compiled engines.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from gamebag.core.engines import EngineSupport, rules_only
from gamebag.core.errors import OptionError
from gamebag.core.options import Option
from gamebag.core.protocol import JsonDict
from gamebag.core.registry import register_variant
from gamebag.games.catch_a_dragon.dice import Dice
from gamebag.games.catch_a_dragon.rules import OPTIONS, CatchADragon, DragonState
from gamebag.variants.consolation import ConsolationDragon
from gamebag.variants.riders import DEAL, RidersDragon
from gamebag.variants.seasons import SeasonsDragon

VARIANTS: dict[str, type[CatchADragon]] = {
    "base": CatchADragon,
    "consolation": ConsolationDragon,
    "seasons": SeasonsDragon,
    "riders": RidersDragon,
}
VARIANT = Option(
    "variant",
    "choice",
    "base",
    "Which rules: 'base' (the rulebook), 'consolation' (a bust draws a consolation card), 'seasons' "
    "(a rule per round) or 'riders' (a power per seat, dealt by 'deal').",
    choices=tuple(VARIANTS),
)
VARIANTS_OPTIONS: tuple[Option, ...] = (*OPTIONS, VARIANT, DEAL)
BASE_OPTIONS = frozenset(spec.name for spec in OPTIONS)

RULES = """\
# Catch A Dragon By The Tail: the author's variants

One game with the option `variant` choosing its rules, so that a design search can compare them:
`base` (the rulebook), `consolation` (a bust draws a card from a consolation deck), `seasons`
(every round has a rule of its own) or `riders` (every player has a power of their own, dealt by
`deal`).
Each is written up in full under its own name: `gamebag --plugin gamebag.variants.seasons rules
catch-a-dragon-seasons` and so on.
"""


class DragonVariants(CatchADragon):
    """Catch A Dragon played by the rules of the variant the option ``variant`` names."""

    game_id: ClassVar[str] = "catch-a-dragon-variants"
    title: ClassVar[str] = "Catch A Dragon By The Tail: the author's variants"
    summary: ClassVar[str] = "Catch A Dragon with option 'variant': base, consolation, seasons or riders."
    option_specs: ClassVar[tuple[Option, ...]] = VARIANTS_OPTIONS
    engine_support: ClassVar[EngineSupport | None] = rules_only(VARIANTS_OPTIONS)

    def _configure(self) -> None:
        super()._configure()
        name = str(self.options["variant"])
        chosen = VARIANTS[name]
        options = {key: value for key, value in self.options.items() if key in BASE_OPTIONS}
        if chosen is RidersDragon:
            options["deal"] = self.options["deal"]
        elif self.options["deal"] != DEAL.default:
            # Two names for one design would let a search measure it twice and keep the luckier figure.
            raise OptionError(
                f"option 'deal' deals the riders' powers: it is for variant=riders, not variant={name} "
                f"(leave it at {DEAL.default})"
            )
        # The variant's own game, configured alike: its hooks decide every rule it changes.
        self.rules_of: CatchADragon = chosen(self.num_players, **options)

    def turn_rules(self, round_no: int, seat: int) -> Hashable:
        return self.rules_of.turn_rules(round_no, seat)

    def stop_points(self, collected: Dice, rules: Hashable) -> int:
        return self.rules_of.stop_points(collected, rules)

    def bust_points(self, collected: Dice, rules: Hashable) -> int:
        return self.rules_of.bust_points(collected, rules)

    def bust_prizes(self, collected: Dice, rules: Hashable) -> Sequence[tuple[int, Fraction]]:
        return self.rules_of.bust_prizes(collected, rules)

    def duplicate_bust_rule(self, rules: Hashable) -> str:
        return self.rules_of.duplicate_bust_rule(rules)

    def public_view(self, state: DragonState) -> JsonDict:
        view: dict[str, Any] = dict(self.rules_of.public_view(state))
        view["game"] = self.game_id
        view["options"] = dict(super().public_view(state))["options"]
        return view


register_variant(DragonVariants, "catch-a-dragon", lambda: RULES)
