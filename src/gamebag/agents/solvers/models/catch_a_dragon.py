"""Catch A Dragon's turns as the exact solvers read them: the turn-level model of ``games/catch_a_dragon``.

``DragonTurns`` is the game's model (a ``RoundsModel`` whose turns may vary: ``VaryingTurnModel``),
registered for ``CatchADragon`` and so for its variants; ``DragonTurn`` is one turn.

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
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamebag.agents.solvers.turn_models import register_turn_model
from gamebag.core.protocol import JsonDict
from gamebag.games.catch_a_dragon.dice import Dice, is_bust, legal_collections, merge, roll_outcomes
from gamebag.games.catch_a_dragon.encoding import ROLL, STOP
from gamebag.games.catch_a_dragon.rules import CatchADragon, DragonAction


@dataclass(frozen=True, slots=True)
class DragonPosition:
    """Where a state stands for the turn-level solvers (see ``TurnPosition``)."""

    seat: int
    scores: tuple[int, ...]
    round: int
    node: Hashable


def turn_position(observation: JsonDict) -> DragonPosition:
    """Where the seat to act stands: round, totals and the turn node."""
    collected = tuple(observation["collected_faces"])
    phase = observation["phase"]
    node: Hashable
    if phase == "collect":
        node = ("collect", collected, tuple(observation["rolled_faces"]))
    elif phase == "decide":
        node = ("decide", collected)
    elif phase == "prize":
        node = ("prize", collected)
    else:
        node = ("roll", collected)
    seat = observation["turn_seat"]
    return DragonPosition(
        seat=-1 if seat is None else int(seat),
        scores=tuple(int(s) for s in observation["scores"]),
        round=int(observation["round"]),
        node=node,
    )


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
        """Where the seat to act stands."""
        return turn_position(observation)

    def action_to_json(self, action: Any) -> Any:
        """The game's record encoding of an action."""
        return self.game.action_to_json(action)


class DragonTurns:
    """The turn-level model of one configured Catch A Dragon (or variant of it).

    It is the model of its first turn (round 1, seat 0) itself; a game whose turn rules change by
    round or seat is read through ``turn_rules`` (the game's hook) and ``turn_model_for``.
    """

    def __init__(self, game: CatchADragon) -> None:
        self.game = game
        self._turns: dict[Hashable, DragonTurn] = {}  # one per key of turn rules met

    def turn_rules(self, round_no: int, seat: int) -> Hashable:
        return self.game.turn_rules(round_no, seat)

    def turn_model_for(self, rules: Hashable) -> DragonTurn:
        """The turn played by the turn rules ``rules`` (a key from ``turn_rules``)."""
        turn = self._turns.get(rules)
        if turn is None:
            turn = self._turns[rules] = DragonTurn(self.game, rules)
        return turn

    def _first(self) -> DragonTurn:
        return self.turn_model_for(self.game.turn_rules(1, 0))

    def turn_root(self) -> Hashable:
        """A turn starts by rolling all the dice."""
        return ("roll", ())

    def turn_node_kind(self, node: Hashable) -> str:
        return self._first().turn_node_kind(node)

    def turn_chance(self, node: Hashable) -> Sequence[tuple[Hashable, Fraction]]:
        return self._first().turn_chance(node)

    def turn_choices(self, node: Hashable) -> Sequence[tuple[DragonAction, Hashable]]:
        return self._first().turn_choices(node)

    def turn_points(self, node: Hashable) -> int:
        return self._first().turn_points(node)

    def turn_node_to_json(self, node: Hashable) -> Any:
        return self._first().turn_node_to_json(node)

    def turn_position(self, observation: JsonDict) -> DragonPosition:
        return turn_position(observation)

    def action_to_json(self, action: Any) -> Any:
        return self.game.action_to_json(action)

    def round_structure(self) -> tuple[int, int]:
        """(regular rounds, most tie-break rounds) for the fixed-rounds win solver."""
        return self.game.rounds, self.game.max_tiebreak_rounds


def _step(node: Hashable) -> str:
    assert isinstance(node, tuple) and node and isinstance(node[0], str)
    return node[0]


def _held(node: Hashable) -> Dice:
    assert isinstance(node, tuple) and len(node) >= 2
    held: Dice = node[1]
    return held


register_turn_model(CatchADragon, DragonTurns)
