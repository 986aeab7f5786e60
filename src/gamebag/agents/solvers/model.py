"""What a game exposes so the exact solvers can read it: turn-level models as Protocols.

The solvers never import ``gamebag.games``. A game supports them through a turn model of its
own, a class with the methods below built from the configured game, kept beside the solvers
(``gamebag.agents.solvers.models``) and registered for the game's class
(``turn_models.register_turn_model``); the game's rules hold no solver code.

A *turn* is a finite, acyclic decision process of the player to move: from
``turn_root()`` it alternates chance nodes (``turn_chance``: the nodes reached,
with exact probabilities) and decision nodes (``turn_choices``: each legal game
action with the node it leads to) until an ``end`` node, whose ``turn_points``
the mover adds to their total. Nodes are hashable values the game chooses; the
same node must always have the same successors. ``turn_position`` says where a
real game stands (seat to move, totals, round, node) from that seat's observation.

Two ways of turning turns into a game are supported:

* ``RoundsModel``: every seat takes one turn per round, in seat order from seat
  0; after the regular rounds the highest total wins; a tie for the highest total
  means another round for every seat, at most ``max tie-break rounds`` of them,
  then the tied leaders share the win (Catch A Dragon By The Tail).
* ``RaceModel``: seats alternate turns from seat 0 and the first whose total
  reaches the goal wins at once (Pig). A turn may end at any points at or above
  the goal: the solver counts them as a win for any mover.

A game whose turn changes with the round or the seat (a rule for each round, a
power for each seat) is a ``VaryingTurnModel`` as well: ``turn_rules(round, seat)``
names the rules of each turn by a key, ``turn_model_for(key)`` is that turn as a
``TurnModel``; the solvers compile one graph per key. The model's own ``turn_*``
methods are then the first turn's (round 1, seat 0).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from gamebag.core.protocol import JsonDict


@runtime_checkable
class TurnPosition(Protocol):
    """Where a game stands, for a turn-level solver."""

    @property
    def seat(self) -> int:
        """The seat whose turn it is (-1 once the game is over)."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's banked total."""

    @property
    def round(self) -> int:
        """The 1-based round; rounds after the regular ones are tie-break rounds."""

    @property
    def node(self) -> Hashable:
        """The turn node of the seat to move."""


@runtime_checkable
class TurnModel(Protocol):
    """A game whose turns are finite decision processes scoring points for the mover."""

    def turn_root(self) -> Hashable:
        """The node a turn starts at."""

    def turn_node_kind(self, node: Hashable) -> str:
        """``"chance"``, ``"decision"`` or ``"end"``."""

    def turn_chance(self, node: Hashable) -> Sequence[tuple[Hashable, Fraction]]:
        """The nodes a chance node leads to with their exact probabilities (summing to 1)."""

    def turn_choices(self, node: Hashable) -> Sequence[tuple[Any, Hashable]]:
        """Each legal game action at a decision node, with the node it leads to."""

    def turn_points(self, node: Hashable) -> int:
        """The points an end node adds to the mover's total."""

    def turn_node_to_json(self, node: Hashable) -> Any:
        """A JSON-ready description of a node (for policy tables)."""

    def turn_position(self, observation: JsonDict) -> TurnPosition:
        """Where the game described by ``observation`` stands."""

    def action_to_json(self, action: Any) -> Any:
        """The record encoding of an action (the game's own)."""


@runtime_checkable
class VaryingTurnModel(TurnModel, Protocol):
    """A turn model whose turns differ by round or seat."""

    def turn_rules(self, round_no: int, seat: int) -> Hashable:
        """The key of the rules ``seat``'s turn in round ``round_no`` is played by (equal keys, equal turns)."""

    def turn_model_for(self, rules: Hashable) -> TurnModel:
        """The turn played by the rules ``rules`` (a key from ``turn_rules``)."""


@runtime_checkable
class RoundsModel(TurnModel, Protocol):
    """Turns grouped into rounds; the highest total after the last round wins."""

    def round_structure(self) -> tuple[int, int]:
        """(regular rounds, most tie-break rounds before a shared win)."""


@runtime_checkable
class RaceModel(TurnModel, Protocol):
    """Alternating turns; the first total to reach the goal wins at once."""

    def race_goal(self) -> int:
        """The total that wins."""
