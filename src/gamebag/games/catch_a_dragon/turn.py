"""Catch A Dragon's turn as a turn-level model for the exact solvers, one per set of turn rules.

A turn is a finite process: roll the uncollected dice (chance), collect (decision), stop or roll
(decision), until a bust, a stop or the last die ends it. ``DragonTurn`` lays that process out for
``gamebag.agents.solvers`` (the ``TurnModel`` protocol) for one key of the game's turn rules
(``CatchADragon.turn_rules``): every number it needs comes from the game's public hooks
(``stop_points``, ``bust_prizes``, ``duplicate_bust_rule``), the same calls the rules engine makes,
so a variant that overrides a hook is played and solved by the same rule.

Nodes: ``("roll", held)``, ``("collect", held, rolled)``, ``("decide", held)``, ``("prize", held)``
(a bust's prize draw, a chance node leading to the ends; only where ``bust_prizes`` has more than
one outcome) and ``("end", points)``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamebag.core.protocol import JsonDict
from gamebag.games.catch_a_dragon.dice import Dice, is_bust, legal_collections, merge, roll_outcomes
from gamebag.games.catch_a_dragon.encoding import ROLL, STOP

if TYPE_CHECKING:
    from gamebag.games.catch_a_dragon.rules import CatchADragon, DragonAction, DragonPosition


class DragonTurn:
    """The turn played by one key of turn rules, as the exact solvers read it."""

    def __init__(self, game: CatchADragon, rules: Hashable) -> None:
        self.game = game
        self.rules = rules
        self.duplicate_bust = game.duplicate_bust_rule(rules)

    def turn_root(self) -> Hashable:
        """A turn starts by rolling all the dice."""
        return ("roll", ())

    def turn_node_kind(self, node: Hashable) -> str:
        """``chance`` (a roll or a prize draw), ``decision`` (collect, or stop/roll) or ``end`` (scored)."""
        step = _step(node)
        if step == "roll" or step == "prize":
            return "chance"
        return "end" if step == "end" else "decision"

    def turn_chance(self, node: Hashable) -> Sequence[tuple[Hashable, Fraction]]:
        """The nodes a roll or a prize draw leads to, with exact probabilities (a bust ends the turn
        with its one prize, or goes to the prize draw where ``bust_prizes`` has several)."""
        collected = _held(node)
        prizes = self.game.bust_prizes(collected, self.rules)
        if _step(node) == "prize":
            return [(("end", points), probability) for points, probability in prizes]
        bust: Hashable = ("end", prizes[0][0]) if len(prizes) == 1 else ("prize", collected)
        result: list[tuple[Hashable, Fraction]] = []
        for roll, probability in roll_outcomes(self.game.dice - len(collected)):
            if is_bust(collected, roll, self.duplicate_bust):
                result.append((bust, probability))
            else:
                result.append((("collect", collected, roll), probability))
        return result

    def turn_choices(self, node: Hashable) -> Sequence[tuple[DragonAction, Hashable]]:
        """Each legal action at a decision node with the node it leads to."""
        game = self.game
        if _step(node) == "decide":
            collected = _held(node)
            return ((STOP, ("end", game.stop_points(collected, self.rules))), (ROLL, ("roll", collected)))
        assert isinstance(node, tuple)
        _, collected, roll = node
        choices: list[tuple[DragonAction, Hashable]] = []
        for collection in legal_collections(collected, roll, self.duplicate_bust):
            after = merge(collected, collection)
            if len(after) == game.dice:
                choices.append((collection, ("end", game.stop_points(after, self.rules))))
            else:
                choices.append((collection, ("decide", after)))
        return choices

    def turn_points(self, node: Hashable) -> int:
        """The points an ``end`` node scores."""
        assert isinstance(node, tuple) and node[0] == "end"
        points: int = node[1]
        return points

    def turn_node_to_json(self, node: Hashable) -> Any:
        """A readable encoding of a turn node for policy tables."""
        assert isinstance(node, tuple)
        step = node[0]
        if step == "end":
            return {"step": "end", "points": node[1]}
        names = self.game.names
        data: JsonDict = {"step": step, "held": names.colour_list(node[1])}
        if step == "collect":
            data["rolled"] = names.colour_list(node[2])
        return data

    def turn_position(self, observation: JsonDict) -> DragonPosition:
        """Where the seat to act stands (the game's own reading)."""
        return self.game.turn_position(observation)

    def action_to_json(self, action: Any) -> Any:
        """The game's record encoding of an action."""
        return self.game.action_to_json(action)


def _step(node: Hashable) -> str:
    assert isinstance(node, tuple) and node and isinstance(node[0], str)
    return node[0]


def _held(node: Hashable) -> Dice:
    assert isinstance(node, tuple) and len(node) >= 2
    held: Dice = node[1]
    return held
