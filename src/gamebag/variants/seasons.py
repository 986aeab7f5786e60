"""Catch A Dragon By The Tail, seasons variant: every round of the game has a rule of its own.

A plugin: ``gamebag --plugin gamebag.variants.seasons simulate catch-a-dragon-seasons``.
It changes the rules through the game's public hooks only: ``turn_rules`` names the round's
season, ``stop_points`` and ``bust_points`` score by it. The exact solvers read the same hooks and
solve each season's turn on its own graph; the compiled engines refuse the variant.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from gamebag.core.engines import EngineSupport, rules_only
from gamebag.core.protocol import JsonDict
from gamebag.core.registry import register_variant
from gamebag.games.catch_a_dragon.dice import Dice, set_points_by
from gamebag.games.catch_a_dragon.rules import CatchADragon, DragonState

HATCHING, TANGLED, SOFT_NEST, LAST_FLIGHT = "hatching", "tangled-tails", "soft-nest", "last-flight"
# The seasons before the last regular round, in turn; the last regular round is always Last flight.
CYCLE: tuple[str, ...] = (HATCHING, TANGLED, SOFT_NEST)
SEASONS: tuple[str, ...] = (*CYCLE, LAST_FLIGHT)
TANGLED_PER_DRAGON = 3  # a linked chain's points per dragon in Tangled tails (the rulebook: 2)
LAST_FLIGHT_FACTOR = 2

RULES = """\
# Catch A Dragon By The Tail: seasons

Every rule of Catch A Dragon By The Tail holds, except that each round is a season with one
rule of its own. Say the season aloud at the start of each round.

- **Round 1, Hatching.** The rulebook's rules.
- **Round 2, Tangled tails.** A linked chain of two or more dragons scores **3** per dragon
  instead of 2 (a lone dragon still scores 1; identical sets as usual): gold-blue-red scores 9.
- **Round 3, Soft nest.** A bust is softened: the turn scores **1 point per dragon** you had
  collected before the roll that busted (three dragons held: 3 points).
- **Round 4, Last flight.** Everything a turn scores counts **double** (four identical dragons:
  32). A bust still scores 0.
- **Tie-break rounds** are played by the rulebook's rules (Hatching).

With another number of rounds (option `rounds`), the last regular round is always Last flight
and the rounds before it go through Hatching, Tangled tails and Soft nest in turn.

Designer's note: the author asked for "special rules for the four rounds". Each season leans on
a different part of the game (chains, the risk of pushing, the final stakes), so the best way to
play a turn changes from round to round, and Last flight gives the trailing player a real chance
to catch up in the last round.
"""


def season(round_no: int, rounds: int) -> str:
    """The season of round ``round_no`` in a game of ``rounds`` regular rounds (tie-breaks: Hatching)."""
    if round_no > rounds:
        return HATCHING
    if round_no == rounds:
        return LAST_FLIGHT
    return CYCLE[(round_no - 1) % len(CYCLE)]


def season_stop_points(collected: Dice, cyclic: bool, name: Hashable) -> int:
    """What a set scores when its turn stops (or collects the last die) in season ``name``."""
    if name == TANGLED:
        return set_points_by(collected, cyclic, per_linked=TANGLED_PER_DRAGON)
    points = set_points_by(collected, cyclic)
    return LAST_FLIGHT_FACTOR * points if name == LAST_FLIGHT else points


def season_bust_points(collected: Dice, name: Hashable) -> int:
    """What a bust scores in season ``name``: one point per dragon held in Soft nest, else nothing."""
    return len(collected) if name == SOFT_NEST else 0


class SeasonsDragon(CatchADragon):
    """Catch A Dragon where each round is a season with a rule of its own (``RULES``)."""

    game_id: ClassVar[str] = "catch-a-dragon-seasons"
    title: ClassVar[str] = "Catch A Dragon By The Tail: seasons"
    summary: ClassVar[str] = "Catch A Dragon where each of the four rounds has a rule of its own."
    engine_support: ClassVar[EngineSupport | None] = rules_only(CatchADragon.option_specs)

    def turn_rules(self, round_no: int, seat: int) -> Hashable:
        return season(round_no, self.rounds)

    def stop_points(self, collected: Dice, rules: Hashable) -> int:
        return season_stop_points(collected, self.cyclic, rules)

    def bust_points(self, collected: Dice, rules: Hashable) -> int:
        return season_bust_points(collected, rules)

    def public_view(self, state: DragonState) -> JsonDict:
        view: dict[str, Any] = dict(super().public_view(state))
        view["season"] = season(state.round_no, self.rounds)
        return view


register_variant(SeasonsDragon, "catch-a-dragon", lambda: RULES)
