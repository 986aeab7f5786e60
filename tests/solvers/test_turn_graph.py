"""The turn-graph compiler and evaluators on small hand-computed turn models."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from gamebag.agents.solvers.model import RaceModel, RoundsModel, TurnModel
from gamebag.agents.solvers.score import solve_expected_score
from gamebag.agents.solvers.turn_graph import compile_turn, evaluate, exact_expectimax, points_distribution

HALF = Fraction(1, 2)


class CoinTurn:
    """Flip a coin: tails scores nothing; heads lets you bank 1 or flip again for 3 or nothing."""

    def turn_root(self) -> Hashable:
        return "flip"

    def turn_node_kind(self, node: Hashable) -> str:
        return {"flip": "chance", "again": "chance", "choose": "decision"}.get(str(node), "end")

    def turn_chance(self, node: Hashable) -> Sequence[tuple[Hashable, Fraction]]:
        if node == "flip":
            return [("choose", HALF), (("end", 0), HALF)]
        return [(("end", 3), HALF), (("end", 0), HALF)]

    def turn_choices(self, node: Hashable) -> Sequence[tuple[Any, Hashable]]:
        return [("bank", ("end", 1)), ("flip", "again")]

    def turn_points(self, node: Hashable) -> int:
        assert isinstance(node, tuple)
        return int(node[1])

    def turn_node_to_json(self, node: Hashable) -> Any:
        return str(node)

    def turn_position(self, observation: dict[str, Any]) -> Any:
        raise AssertionError("not used")

    def action_to_json(self, action: Any) -> Any:
        return action


class LoopTurn(CoinTurn):
    """A broken model whose 'again' flip can lead back to the choice."""

    def turn_chance(self, node: Hashable) -> Sequence[tuple[Hashable, Fraction]]:
        if node == "again":
            return [("choose", HALF), (("end", 0), HALF)]
        return super().turn_chance(node)


def test_the_protocols_are_structural() -> None:
    assert isinstance(CoinTurn(), TurnModel)
    assert not isinstance(CoinTurn(), RoundsModel)
    assert not isinstance(CoinTurn(), RaceModel)


def test_compiled_layout_puts_children_first() -> None:
    graph = compile_turn(CoinTurn())
    assert graph.nodes[graph.root] == "flip"
    for node, kids in enumerate(graph.children):
        assert all(kid < node for kid in kids)
    # The two ("end", 0) edges of the root... and of "again" are merged into one node.
    assert sorted(graph.points.values()) == [0, 1, 3]
    assert graph.max_points == 3


def test_exact_expected_score_of_the_coin_turn() -> None:
    solution = solve_expected_score(CoinTurn())
    # Heads then flip again: 1/2 * (1/2 * 3) = 3/4; banking would give 1/2.
    assert solution.value == Fraction(3, 4)
    assert solution.action_at("choose") == "flip"
    assert solution.distribution == {0: Fraction(3, 4), 3: Fraction(1, 4)}
    with pytest.raises(KeyError):
        solution.action_at("flip")


def test_a_different_utility_changes_the_choice() -> None:
    graph = compile_turn(CoinTurn())
    # Only scoring at least 1 counts: banking is then better.
    exact = exact_expectimax(graph, lambda points: Fraction(int(points >= 1)))
    assert exact.values[graph.root] == HALF
    assert points_distribution(graph, exact.choice) == {0: HALF, 1: HALF}


def test_vectorised_evaluation_matches_exact_per_column() -> None:
    graph = compile_turn(CoinTurn())
    points = graph.end_points_array()
    utilities = np.stack([points.astype(float), (points >= 1).astype(float), -points.astype(float)], axis=1)
    evaluation = evaluate(graph, utilities)
    assert evaluation.values[graph.root] == pytest.approx([0.75, 0.5, -0.5])
    fixed = evaluate(graph, utilities, np.ones((len(graph.decision_nodes), 1), dtype=np.int8))
    assert fixed.values[graph.root] == pytest.approx([0.75, 0.25, -0.75])


def test_a_turn_that_loops_is_refused() -> None:
    with pytest.raises(ValueError, match="acyclic"):
        compile_turn(LoopTurn())
