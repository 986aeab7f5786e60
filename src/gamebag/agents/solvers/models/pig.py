"""Pig's turn as the exact solvers read it (a ``RaceModel``): the turn-level model of ``games/pig``.

A turn node is ``("roll", total)``, ``("decide", total)`` or ``("end", points)``. Totals at or
above the goal end the turn whatever the banked score, so the graph is the same for every banked
score; the race solver counts ends that reach the goal as wins. Every number comes from the
configured game (its goal and its die), so the model and the rules cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamebag.agents.solvers.turn_models import register_turn_model
from gamebag.core.protocol import JsonDict
from gamebag.games.pig.rules import HOLD, ROLL, Pig

STEPS = ("roll", "decide", "end")


@dataclass(frozen=True, slots=True)
class PigPosition:
    """Where a state stands for the turn-level solvers (see ``TurnPosition``)."""

    seat: int
    scores: tuple[int, ...]
    round: int
    node: Hashable


class PigTurns:
    """The turn-level model of one configured game of Pig."""

    def __init__(self, game: Pig) -> None:
        self.game = game
        self._face_chance = Fraction(1, game.sides)

    def turn_root(self) -> Hashable:
        """A turn starts with a roll and a running total of 0."""
        return ("roll", 0)

    def turn_node_kind(self, node: Hashable) -> str:
        return {"roll": "chance", "decide": "decision", "end": "end"}[_step(node)]

    def turn_chance(self, node: Hashable) -> Sequence[tuple[Hashable, Fraction]]:
        """A 1 ends the turn with nothing; any other face adds to the total, ending it at the goal."""
        total = _amount(node)
        chance = self._face_chance
        result: list[tuple[Hashable, Fraction]] = [(("end", 0), chance)]
        for face in self.game.faces[1:]:
            after = total + face
            result.append((("end", after) if after >= self.game.goal else ("decide", after), chance))
        return result

    def turn_choices(self, node: Hashable) -> Sequence[tuple[str, Hashable]]:
        total = _amount(node)
        return ((HOLD, ("end", total)), (ROLL, ("roll", total)))

    def turn_points(self, node: Hashable) -> int:
        return _amount(node)

    def turn_node_to_json(self, node: Hashable) -> Any:
        return {"step": _step(node), "total" if _step(node) != "end" else "points": _amount(node)}

    def turn_position(self, observation: JsonDict) -> PigPosition:
        phase = observation["phase"]
        seat = observation["turn_seat"]
        step = "decide" if phase == "decide" else "roll"
        return PigPosition(
            seat=-1 if seat is None else int(seat),
            scores=tuple(int(s) for s in observation["scores"]),
            round=int(observation["round"]),
            node=(step, int(observation["turn_total"])),
        )

    def race_goal(self) -> int:
        return self.game.goal

    def action_to_json(self, action: Any) -> Any:
        return self.game.action_to_json(action)


def _step(node: Hashable) -> str:
    if not (isinstance(node, tuple) and len(node) == 2 and node[0] in STEPS):
        raise ValueError(f"{node!r} is not a Pig turn node")
    step: str = node[0]
    return step


def _amount(node: Hashable) -> int:
    _step(node)
    assert isinstance(node, tuple)  # for the type checker: _step refused anything else
    amount: int = node[1]
    return amount


register_turn_model(Pig, PigTurns)
