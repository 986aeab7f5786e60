"""Catch A Dragon By The Tail, consolation variant: a bust still scores half of what you held.

A plugin: ``gamebag --plugin gamebag.variants.consolation simulate catch-a-dragon-consolation``.
It changes one rule through the game's public hook (``bust_points``); everything else, the exact
solvers included, is the base game's.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from gamebag.core.registry import register_variant
from gamebag.games.catch_a_dragon.dice import Dice, set_points
from gamebag.games.catch_a_dragon.rules import CatchADragon

RULES = """\
# Catch A Dragon By The Tail: consolation

Every rule of Catch A Dragon By The Tail holds, except what a bust scores.

**Consolation.** When a roll busts your turn, you do not lose everything: you score half the
points of the set you had collected before that roll, rounded down. A set worth 9 points that
busts scores 4; a turn that busts on its first roll (nothing collected) scores 0.

Designer's note: the author asked for "a consolation prize deck that you draw from when you bust";
this is its simplest form, a prize fixed by what you held, so that pushing your luck with a big
set costs less.
"""


class ConsolationDragon(CatchADragon):
    """Catch A Dragon where a bust scores half the collected set's points, rounded down."""

    game_id: ClassVar[str] = "catch-a-dragon-consolation"
    title: ClassVar[str] = "Catch A Dragon By The Tail: consolation"
    summary: ClassVar[str] = "Catch A Dragon where a bust still scores half of what you had collected."

    def bust_points(self, collected: Dice, rules: Hashable) -> int:
        return set_points(collected, self.cyclic) // 2 if collected else 0


register_variant(ConsolationDragon, "catch-a-dragon", lambda: RULES)
