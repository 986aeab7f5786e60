"""Catch A Dragon By The Tail, consolation variant: a bust draws a card from a consolation deck.

A plugin: ``gamebag --plugin gamebag.variants.consolation simulate catch-a-dragon-consolation``.
It changes one rule through the game's public hook ``bust_prizes``: a bust goes to a chance node,
the draw, whose outcomes are the deck's card values with their exact probabilities. The deck is
reshuffled before every draw, so each turn is independent of the others and the exact solvers,
which read the same hook, stay exact. The compiled engines do not play it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import ClassVar

from gamebag.core.registry import register_variant
from gamebag.games.catch_a_dragon.dice import Dice
from gamebag.games.catch_a_dragon.rules import CatchADragon

# The consolation deck: twelve cards, each worth the points printed on it.
DECK: tuple[int, ...] = (0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 5)
# Each value with the exact chance of drawing it from the full deck, lowest value first.
PRIZES: tuple[tuple[int, Fraction], ...] = tuple(
    (points, Fraction(count, len(DECK))) for points, count in sorted(Counter(DECK).items())
)

RULES = f"""\
# Catch A Dragon By The Tail: consolation

Every rule of Catch A Dragon By The Tail holds, except what a bust scores.

**The consolation deck.** Beside the dice lies a deck of {len(DECK)} consolation cards, each
printed with the points it is worth: three cards of 0, three of 1, two of 2, two of 3, one of 4
and one of 5.

**Consolation.** When a roll busts your turn, you lose the set you had collected as usual, but
you shuffle the consolation deck, draw one card and score the points printed on it; then return
the card to the deck. Your turn ends. Every bust draws from the full deck of {len(DECK)} cards,
whatever you held and whatever was drawn before: a bust scores 0 with chance 3 in 12, 1 with
chance 3 in 12, 2 or 3 with chance 2 in 12 each, 4 or 5 with chance 1 in 12 each (on average
11/6, a little under 2 points).

Designer's note: the author asked for "a consolation prize deck that you draw from when you
bust". A bust no longer always scores nothing, so pushing your luck costs a little less; the
prize does not grow with the set you lose, so a big set is still worth banking. Cards go back
into the deck so that no turn depends on what was drawn in another.
"""


class ConsolationDragon(CatchADragon):
    """Catch A Dragon where a bust scores a card drawn from the reshuffled consolation deck."""

    game_id: ClassVar[str] = "catch-a-dragon-consolation"
    title: ClassVar[str] = "Catch A Dragon By The Tail: consolation"
    summary: ClassVar[str] = "Catch A Dragon where a bust draws a consolation card worth 0 to 5 points."

    def bust_prizes(self, collected: Dice, rules: Hashable) -> Sequence[tuple[int, Fraction]]:
        return PRIZES


register_variant(ConsolationDragon, "catch-a-dragon", lambda: RULES)
