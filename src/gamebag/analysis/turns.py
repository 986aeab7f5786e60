"""Exact analysis of turn-model games: the two-player win solvers, and the expected points of a turn.

``TurnWinEvaluator`` reads ``optimal-win``'s solution (two-player Pig, two-player Catch A Dragon):
at any position the solver's turn values give the mover's winning chance at every node of the
turn, so a choice is worth the value of the node it leads to, a position the value of its node
(the other seat's chance is the rest, both games being zero-sum in win shares).
``TurnPoints`` reads ``optimal-score``'s exact expectimax: the expected points of the turn after
each choice, for games where no win solver applies (Catch A Dragon with three or more players).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from gamebag.agents.solvers.model import TurnPosition
from gamebag.agents.solvers.race import RaceWinSolution
from gamebag.agents.solvers.solutions import (
    WIN_PLAYERS,
    rules_at,
    score_solution,
    supports_win,
    turn_model,
    win_solution,
)
from gamebag.agents.solvers.turn_graph import FloatArray, TurnGraph
from gamebag.analysis.evaluators import Choices, Evaluator
from gamebag.analysis.figures import Estimate
from gamebag.analysis.translation import N_
from gamebag.core.protocol import Game

CACHED_TURNS = 64  # node-value arrays kept (a game meets one per turn)


def win_solvable(game: Game[Any, Any, Any]) -> bool:
    """Whether ``optimal-win`` solves this configuration (a turn model with a win solver, two players)."""
    return game.num_players == WIN_PLAYERS and supports_win(type(game))


class TurnWinEvaluator(Evaluator):
    """Winning chances from the exact two-player win solution."""

    method = method_text = N_("exact: optimal-win's solved winning chances")

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        super().__init__(game)
        self.model = turn_model(game)
        self.solution = win_solution(game)
        self.graph = self.solution.graph  # the first turn's graph (each turn's: ``_graph``)
        self._turns: dict[tuple[int, int, tuple[int, ...]], FloatArray] = {}

    def _position(self, state: Any, seat: int) -> TurnPosition:
        return self.model.turn_position(self.game.observation(state, seat))

    def _node_values(self, position: TurnPosition) -> FloatArray:
        """The mover's winning chance at every node of its current turn."""
        key = (position.round, position.seat, position.scores)
        values = self._turns.get(key)
        if values is None:
            mover, scores = position.seat, position.scores
            if isinstance(self.solution, RaceWinSolution):
                values = self.solution.turn_values(scores[mover], scores[1 - mover])
            else:
                values = self.solution.turn_values(position.round, mover, scores[0] - scores[1])
            if len(self._turns) >= CACHED_TURNS:
                self._turns.pop(next(iter(self._turns)))
            self._turns[key] = values
        return values

    def _graph(self, position: TurnPosition) -> TurnGraph:
        """The graph of the position's turn (its own where the turn rules vary by round or seat)."""
        if isinstance(self.solution, RaceWinSolution):
            return self.solution.graph
        return self.solution.graph_at(position.round, position.seat)

    def turn_node(self, state: Any, seat: int) -> tuple[TurnGraph, Any]:
        """The graph of the current turn and the node of ``state`` in it, from ``seat``'s view."""
        position = self._position(state, seat)
        return self._graph(position), position.node

    def choices(self, state: Any, seat: int, legal: Sequence[Any], event: int) -> Choices:
        position = self._position(state, seat)
        values = self._node_values(position)
        graph = self._graph(position)
        node = graph.index[position.node]
        children = dict(zip(graph.actions[node], graph.children[node], strict=True))
        return Choices.from_exact({action: float(values[children[action]]) for action in legal})

    def value(self, state: Any, seat: int, event: int) -> Estimate:
        if self.game.is_terminal(state):
            return Estimate.exact(self.game.returns(state)[seat])
        position = self._position(state, seat)
        mover_value = float(self._node_values(position)[self._graph(position).index[position.node]])
        return Estimate.exact(mover_value if position.seat == seat else 1.0 - mover_value)


class TurnPoints:
    """The exact expected points of the current turn after each choice (``optimal-score``'s expectimax)."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self.model = turn_model(game)

    def turn_node(self, state: Any, seat: int) -> tuple[TurnGraph, Any]:
        """The graph of the current turn (by that turn's rules) and the node of ``state`` in it."""
        position = self.model.turn_position(self.game.observation(state, seat))
        return score_solution(self.game, rules_at(self.game, position.round, position.seat)).graph, position.node

    def points(self, state: Any, seat: int, legal: Sequence[Any]) -> dict[Hashable, float]:
        """Each legal action's expected points for the turn (by that turn's rules), played optimally afterwards."""
        position = self.model.turn_position(self.game.observation(state, seat))
        solution = score_solution(self.game, rules_at(self.game, position.round, position.seat))
        graph = solution.graph
        node = graph.index[position.node]
        children = dict(zip(graph.actions[node], graph.children[node], strict=True))
        return {action: float(solution.node_values[children[action]]) for action in legal}
