"""The expected-score objective: the policy that maximises one turn's expected points.

Exact expectimax over every reachable turn node, in ``Fraction`` arithmetic, so
the optimal expected score comes out as an exact fraction.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamebag.agents.solvers.model import TurnModel
from gamebag.agents.solvers.turn_graph import (
    DECISION,
    TurnGraph,
    compile_turn,
    exact_expectimax,
    points_distribution,
)


@dataclass
class ScoreSolution:
    """The optimal one-turn policy, its exact value and the node values behind it."""

    graph: TurnGraph
    value: Fraction
    node_values: list[Fraction]
    choice: dict[int, int]  # decision node -> chosen child
    distribution: dict[int, Fraction]  # points -> probability under the policy
    seconds: float

    def action_at(self, node: Hashable) -> Any:
        """The optimal action at a decision node of the turn."""
        position = self.graph.index.get(node)
        if position is None or self.graph.kinds[position] != DECISION:
            raise KeyError(f"{node!r} is not a decision node of this turn")
        return self.graph.actions[position][self.choice[position]]

    @property
    def decisions(self) -> int:
        return len(self.graph.decision_nodes)

    def bust_probability(self) -> Fraction:
        """The chance the optimal turn scores nothing."""
        return self.distribution.get(0, Fraction(0))


def solve_expected_score(model: TurnModel, graph: TurnGraph | None = None) -> ScoreSolution:
    """Exact expectimax of the turn's points."""
    started = time.perf_counter()
    graph = graph or compile_turn(model)
    exact = exact_expectimax(graph, Fraction)
    distribution = points_distribution(graph, exact.choice)
    return ScoreSolution(
        graph=graph,
        value=exact.values[graph.root],
        node_values=exact.values,
        choice=exact.choice,
        distribution=distribution,
        seconds=time.perf_counter() - started,
    )
