"""A game's turn model compiled into arrays, and expectimax over it.

``compile_turn`` walks every node reachable from the turn's root once and lays
the graph out so that each node comes after all of its successors; evaluating
the nodes in that order is then a single pass. Two evaluators share the layout:

* ``exact_expectimax``: exact ``Fraction`` values for one utility of the points
  scored (the expected-score objective);
* ``evaluate``: float values for many utilities at once (one per column, e.g.
  one per score difference), maximising at decisions or following given choices;
  it runs compiled (``kernels.py``), ``evaluate_reference`` is the NumPy original.

Ties between choices go to the first choice in the game's own order; in float
evaluation, choices within ``TIE_TOLERANCE`` of the best count as tied, so tiny
rounding differences never change a policy.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.agents.solvers.model import TurnModel

END, CHANCE, DECISION = 0, 1, 2
KIND_CODES = {"end": END, "chance": CHANCE, "decision": DECISION}
TIE_TOLERANCE = 1e-12

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class FlatGraph:
    """A turn graph as arrays: node ``n``'s children are ``children[start[n]:start[n + 1]]``.

    ``probability`` holds the chance of each child edge (chance nodes only), ``row``
    the end-value row of an end node or the choice-table slot of a decision node.
    """

    kinds: npt.NDArray[np.int8]
    start: npt.NDArray[np.int32]
    children: npt.NDArray[np.int32]
    probability: FloatArray
    row: npt.NDArray[np.int32]
    root: int
    decisions: int


@dataclass
class TurnGraph:
    """A turn's nodes in evaluation order (every node after its successors)."""

    nodes: list[Hashable]
    index: dict[Hashable, int]
    kinds: list[int]
    children: list[list[int]]
    probabilities: list[list[Fraction]]  # chance nodes: exact probability of each child
    float_probabilities: list[FloatArray]
    actions: list[list[Any]]  # decision nodes: the game action leading to each child
    points: dict[int, int]  # end nodes: points scored
    root: int
    decision_nodes: list[int] = field(default_factory=list)
    decision_slot: dict[int, int] = field(default_factory=dict)  # node -> row in choice tables
    end_nodes: list[int] = field(default_factory=list)
    _flat: FlatGraph | None = field(default=None, repr=False, compare=False)

    @property
    def max_points(self) -> int:
        return max(self.points.values())

    @property
    def size(self) -> int:
        return len(self.nodes)

    def end_points_array(self) -> IntArray:
        return np.array([self.points[n] for n in self.end_nodes], dtype=np.int64)

    def flat(self) -> FlatGraph:
        """The graph as flat arrays for the compiled passes (built once)."""
        if self._flat is None:
            start = np.zeros(self.size + 1, dtype=np.int32)
            start[1:] = np.cumsum([len(kids) for kids in self.children])
            probability = np.zeros(int(start[-1]), dtype=np.float64)
            row = np.full(self.size, -1, dtype=np.int32)
            for node, kind in enumerate(self.kinds):
                if kind == CHANCE:
                    probability[start[node] : start[node + 1]] = self.float_probabilities[node]
            for k, node in enumerate(self.end_nodes):
                row[node] = k
            for slot, node in enumerate(self.decision_nodes):
                row[node] = slot
            self._flat = FlatGraph(
                kinds=np.array(self.kinds, dtype=np.int8),
                start=start,
                children=np.array([c for kids in self.children for c in kids], dtype=np.int32),
                probability=probability,
                row=row,
                root=self.root,
                decisions=len(self.decision_nodes),
            )
        return self._flat


def _expand(model: TurnModel, node: Hashable) -> tuple[int, list[tuple[Any, Hashable]]]:
    """A node's kind and edges: (probability, child) at chance, (action, child) at decisions."""
    kind = KIND_CODES.get(model.turn_node_kind(node))
    if kind is None:
        raise ValueError(f"turn node {node!r}: kind must be chance, decision or end")
    if kind == CHANCE:
        merged: dict[Hashable, Fraction] = {}
        for child, probability in model.turn_chance(node):
            merged[child] = merged.get(child, Fraction(0)) + Fraction(probability)
        total = sum(merged.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"turn node {node!r}: chance probabilities sum to {total}, not 1")
        return kind, [(probability, child) for child, probability in merged.items()]
    if kind == DECISION:
        edges: list[tuple[Any, Hashable]] = list(model.turn_choices(node))
        if not edges:
            raise ValueError(f"turn node {node!r}: a decision node needs at least one choice")
        return kind, edges
    return kind, []


def compile_turn(model: TurnModel) -> TurnGraph:
    """Enumerate every node reachable from ``model.turn_root()`` (post-order)."""
    root = model.turn_root()
    nodes: list[Hashable] = []
    index: dict[Hashable, int] = {}
    kinds: list[int] = []
    children: list[list[int]] = []
    probabilities: list[list[Fraction]] = []
    actions: list[list[Any]] = []
    points: dict[int, int] = {}
    # Iterative depth-first search: a node is laid out once all its successors are.
    expanded: dict[Hashable, tuple[int, list[tuple[Any, Hashable]]]] = {}
    stack: list[Hashable] = [root]
    while stack:
        node = stack[-1]
        if node in index:
            stack.pop()
            continue
        if node not in expanded:
            kind, edges = _expand(model, node)
            expanded[node] = (kind, edges)
            missing = []
            for _, child in edges:
                if child in expanded and child not in index:
                    raise ValueError(f"turn node {child!r} can lead back to itself: a turn must be acyclic")
                if child not in index:
                    missing.append(child)
            if missing:
                stack.extend(reversed(missing))
                continue
        kind, edges = expanded[node]
        stack.pop()
        position = len(nodes)
        index[node] = position
        nodes.append(node)
        kinds.append(kind)
        children.append([index[child] for _, child in edges])
        probabilities.append([Fraction(p) for p, _ in edges] if kind == CHANCE else [])
        actions.append([action for action, _ in edges] if kind == DECISION else [])
        if kind == END:
            points[position] = int(model.turn_points(node))
    graph = TurnGraph(
        nodes=nodes,
        index=index,
        kinds=kinds,
        children=children,
        probabilities=probabilities,
        float_probabilities=[np.array([float(p) for p in ps], dtype=np.float64) for ps in probabilities],
        actions=actions,
        points=points,
        root=index[root],
    )
    graph.decision_nodes = [n for n, k in enumerate(kinds) if k == DECISION]
    graph.decision_slot = {n: slot for slot, n in enumerate(graph.decision_nodes)}
    graph.end_nodes = [n for n, k in enumerate(kinds) if k == END]
    return graph


@dataclass
class ExactSolution:
    """Exact values of every node and the first best choice at each decision node."""

    values: list[Fraction]
    choice: dict[int, int]  # decision node -> index of the chosen child


def exact_expectimax(graph: TurnGraph, utility: Callable[[int], Fraction]) -> ExactSolution:
    """Maximise the expected ``utility(points)`` exactly."""
    values: list[Fraction] = [Fraction(0)] * graph.size
    choice: dict[int, int] = {}
    for node, kind in enumerate(graph.kinds):
        kids = graph.children[node]
        if kind == END:
            values[node] = Fraction(utility(graph.points[node]))
        elif kind == CHANCE:
            values[node] = sum(
                (p * values[c] for p, c in zip(graph.probabilities[node], kids, strict=True)), Fraction(0)
            )
        else:
            best = 0
            for k in range(1, len(kids)):
                if values[kids[k]] > values[kids[best]]:
                    best = k
            choice[node] = best
            values[node] = values[kids[best]]
    return ExactSolution(values, choice)


def points_distribution(graph: TurnGraph, choice: dict[int, int], start: int | None = None) -> dict[int, Fraction]:
    """The exact distribution of a turn's points from ``start`` (the root) when every decision follows ``choice``."""
    reach: list[Fraction] = [Fraction(0)] * graph.size
    reach[graph.root if start is None else start] = Fraction(1)
    result: dict[int, Fraction] = {}
    for node in range(graph.size - 1, -1, -1):
        mass = reach[node]
        if not mass:
            continue
        kind = graph.kinds[node]
        kids = graph.children[node]
        if kind == END:
            points = graph.points[node]
            result[points] = result.get(points, Fraction(0)) + mass
        elif kind == CHANCE:
            for p, c in zip(graph.probabilities[node], kids, strict=True):
                reach[c] += mass * p
        else:
            reach[kids[choice[node]]] += mass
    return dict(sorted(result.items()))


@dataclass
class Evaluation:
    """Float values of every node for each column, and the choice made at each decision."""

    values: FloatArray  # (nodes, columns)
    choices: npt.NDArray[np.int8]  # (decision nodes, columns): index of the child taken


def evaluate(
    graph: TurnGraph,
    end_values: FloatArray,
    fixed_choices: npt.NDArray[np.int8] | None = None,
) -> Evaluation:
    """Values of every node given the utility of each end node (rows of ``end_values``).

    ``end_values`` has one row per ``graph.end_nodes`` entry and one column per
    utility. Decisions maximise, unless ``fixed_choices`` (decision nodes x
    columns, or decision nodes x 1) says which child each decision takes. The
    compiled pass (``kernels.evaluate_flat``) does the work; ``evaluate_reference``
    is the same pass in NumPy, kept as its specification.
    """
    kernels = compiled_kernels()
    if kernels is None:
        return evaluate_reference(graph, end_values, fixed_choices)
    flat = graph.flat()
    fixed = _NO_CHOICES if fixed_choices is None else np.ascontiguousarray(fixed_choices, dtype=np.int8)
    values, choices = kernels.evaluate_flat(
        flat.kinds,
        flat.start,
        flat.children,
        flat.probability,
        flat.row,
        flat.decisions,
        np.ascontiguousarray(end_values, dtype=np.float64),
        fixed,
        fixed_choices is not None,
        TIE_TOLERANCE,
    )
    return Evaluation(values, choices)


def decision_reach(graph: TurnGraph, choices: npt.NDArray[np.int8]) -> FloatArray:
    """Probability of reaching each node from the root, per column, following ``choices`` (compiled)."""
    kernels = compiled_kernels()
    if kernels is None:
        return decision_reach_reference(graph, choices)
    flat = graph.flat()
    reach: FloatArray = kernels.reach_flat(
        flat.kinds,
        flat.start,
        flat.children,
        flat.probability,
        flat.row,
        flat.root,
        np.ascontiguousarray(choices, dtype=np.int8),
    )
    return reach


_NO_CHOICES = np.zeros((1, 1), dtype=np.int8)


@cache
def compiled_kernels() -> ModuleType | None:
    """The compiled passes, or ``None`` where numba does not work here (the NumPy passes then run)."""
    from gamebag.fast.registry import compiler_problem

    if compiler_problem() is not None:
        return None
    try:
        from gamebag.agents.solvers import kernels
    except Exception:  # any failure of the compiler means: use the NumPy passes
        return None
    return kernels


def evaluate_reference(
    graph: TurnGraph,
    end_values: FloatArray,
    fixed_choices: npt.NDArray[np.int8] | None = None,
) -> Evaluation:
    """Values of every node given the utility of each end node (rows of ``end_values``).

    ``end_values`` has one row per ``graph.end_nodes`` entry and one column per
    utility. Decisions maximise, unless ``fixed_choices`` (decision nodes x
    columns, or decision nodes x 1) says which child each decision takes.
    """
    columns = end_values.shape[1]
    values = np.empty((graph.size, columns), dtype=np.float64)
    values[graph.end_nodes] = end_values
    choices = np.zeros((len(graph.decision_nodes), columns), dtype=np.int8)
    kinds = graph.kinds
    for node in range(graph.size):
        kind = kinds[node]
        if kind == END:
            continue
        kids = graph.children[node]
        if kind == CHANCE:
            values[node] = graph.float_probabilities[node] @ values[kids]
            continue
        slot = graph.decision_slot[node]
        if len(kids) == 1:
            values[node] = values[kids[0]]
            continue
        options = values[kids]
        if fixed_choices is None:
            best_value = options.max(axis=0)
            chosen = np.argmax(options >= best_value - TIE_TOLERANCE, axis=0)
            choices[slot] = chosen
            values[node] = best_value
        else:
            chosen = np.broadcast_to(fixed_choices[slot], (columns,))
            choices[slot] = chosen
            values[node] = np.take_along_axis(options, chosen[np.newaxis, :].astype(np.int64), axis=0)[0]
    return Evaluation(values, choices)


def decision_reach_reference(graph: TurnGraph, choices: npt.NDArray[np.int8]) -> FloatArray:
    """Probability of reaching each node from the root, per column, following ``choices``."""
    columns = choices.shape[1]
    reach = np.zeros((graph.size, columns), dtype=np.float64)
    reach[graph.root] = 1.0
    for node in range(graph.size - 1, -1, -1):
        kind = graph.kinds[node]
        if kind == END:
            continue
        mass = reach[node]
        kids = graph.children[node]
        if kind == CHANCE:
            reach[kids] += graph.float_probabilities[node][:, np.newaxis] * mass
        else:
            chosen = choices[graph.decision_slot[node]]
            for k, child in enumerate(kids):
                reach[child] += np.where(chosen == k, mass, 0.0)
    return reach
