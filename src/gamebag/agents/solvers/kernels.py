"""Compiled (numba) passes over a turn graph: the inner loops of the win solvers.

``turn_graph.evaluate`` and ``turn_graph.decision_reach`` walk every node of a turn
for every column (one column per score difference or per score pair); in plain
Python each node costs a few NumPy calls, which made the win solves take seconds.
These kernels do the same arithmetic over the graph laid out as flat arrays
(``turn_graph.FlatGraph``), node by node in the same order, with the same tie rule, so
the solvers built on them find the same values and choices
(``tests/solvers/test_compiled_solvers.py`` compares them with the NumPy passes).
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

END, CHANCE, DECISION = 0, 1, 2

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]
Int8Array = npt.NDArray[np.int8]


@numba.njit(cache=True)
def evaluate_flat(
    kinds: Int8Array,
    start: IntArray,
    children: IntArray,
    probability: FloatArray,
    row: IntArray,
    decisions: int,
    end_values: FloatArray,
    fixed_choices: Int8Array,
    use_fixed: bool,
    tie_tolerance: float,
) -> tuple[FloatArray, Int8Array]:
    """Values of every node per column, and the choice at every decision (see ``turn_graph.evaluate``)."""
    nodes = kinds.shape[0]
    columns = end_values.shape[1]
    values = np.empty((nodes, columns), dtype=np.float64)
    choices = np.zeros((decisions, columns), dtype=np.int8)
    fixed_width = fixed_choices.shape[1]
    for node in range(nodes):
        kind = kinds[node]
        first = start[node]
        last = start[node + 1]
        if kind == END:
            for c in range(columns):
                values[node, c] = end_values[row[node], c]
        elif kind == CHANCE:
            for c in range(columns):
                total = 0.0
                for e in range(first, last):
                    total += probability[e] * values[children[e], c]
                values[node, c] = total
        else:
            slot = row[node]
            if last - first == 1:
                for c in range(columns):
                    values[node, c] = values[children[first], c]
                continue
            for c in range(columns):
                if use_fixed:
                    k = fixed_choices[slot, c if fixed_width > 1 else 0]
                    choices[slot, c] = k
                    values[node, c] = values[children[first + k], c]
                    continue
                best = values[children[first], c]
                for e in range(first + 1, last):
                    best = max(best, values[children[e], c])
                # The first choice within the tolerance of the best, as the NumPy pass picks it.
                k = 0
                while values[children[first + k], c] < best - tie_tolerance:
                    k += 1
                choices[slot, c] = k
                values[node, c] = best
    return values, choices


@numba.njit(cache=True)
def reach_flat(
    kinds: Int8Array,
    start: IntArray,
    children: IntArray,
    probability: FloatArray,
    row: IntArray,
    root: int,
    choices: Int8Array,
) -> FloatArray:
    """The probability of reaching each node per column, following ``choices`` (see ``decision_reach``)."""
    nodes = kinds.shape[0]
    columns = choices.shape[1]
    reach = np.zeros((nodes, columns), dtype=np.float64)
    for c in range(columns):
        reach[root, c] = 1.0
    for node in range(nodes - 1, -1, -1):
        kind = kinds[node]
        if kind == END:
            continue
        first = start[node]
        last = start[node + 1]
        for c in range(columns):
            mass = reach[node, c]
            if mass == 0.0:
                continue
            if kind == CHANCE:
                for e in range(first, last):
                    reach[children[e], c] += probability[e] * mass
            else:
                reach[children[first + choices[row[node], c]], c] += mass
    return reach


@numba.njit(cache=True)
def race_levels_flat(
    kinds: Int8Array,
    start: IntArray,
    children: IntArray,
    probability: FloatArray,
    row: IntArray,
    root: int,
    decisions: int,
    points: npt.NDArray[np.int64],
    goal: int,
    tolerance: float,
    max_iterations: int,
    tie_tolerance: float,
) -> tuple[FloatArray, Int8Array, int, int]:
    """The race win solve of ``race.solve_race_win``, every level in one compiled loop.

    Returns the win table, the choice table (score, opponent, decision slot), the
    sweeps made, and -1 or the first level that did not converge.
    """
    ends = points.shape[0]
    win = np.zeros((goal, goal), dtype=np.float64)
    table = np.zeros((goal, goal, decisions), dtype=np.int8)
    no_choices = np.zeros((1, 1), dtype=np.int8)
    sweeps = 0
    for level in range(2 * (goal - 1), -1, -1):
        low = max(0, level - goal + 1)
        high = min(level, goal - 1)
        width = high - low + 1
        # End values that do not depend on this level: reaching the goal, or the opponent's
        # turn at a higher level.
        fixed = np.empty((ends, width), dtype=np.float64)
        for e in range(ends):
            for c in range(width):
                mine = low + c
                after = mine + points[e]
                if after >= goal:
                    fixed[e, c] = 1.0
                else:
                    fixed[e, c] = 1.0 - win[level - mine, after]
        estimates = np.full(width, 0.5)
        values = np.empty(width, dtype=np.float64)
        residual_before = np.inf
        converged = False
        choices = np.zeros((decisions, width), dtype=np.int8)
        for _ in range(max_iterations):
            sweeps += 1
            end_values = fixed.copy()
            for e in range(ends):
                if points[e] == 0:
                    for c in range(width):
                        end_values[e, c] = 1.0 - estimates[width - 1 - c]
            node_values, choices = evaluate_flat(
                kinds, start, children, probability, row, decisions, end_values, no_choices, False, tie_tolerance
            )
            residual = 0.0
            for c in range(width):
                values[c] = node_values[root, c]
                residual = max(residual, abs(values[c] - estimates[c]))
            if residual < tolerance:
                converged = True
                break
            if residual < residual_before:
                # Newton step: the exact values of the greedy policy pair, x_i = a_i + c_i (1 - x_j).
                indicator = np.zeros((ends, width), dtype=np.float64)
                for e in range(ends):
                    if points[e] == 0:
                        for c in range(width):
                            indicator[e, c] = 1.0
                nothing_values, _ = evaluate_flat(
                    kinds, start, children, probability, row, decisions, indicator, choices, True, tie_tolerance
                )
                nothing = nothing_values[root]
                alpha = np.empty(width, dtype=np.float64)
                for c in range(width):
                    alpha[c] = values[c] - nothing[c] * (1.0 - estimates[width - 1 - c]) + nothing[c]
                for c in range(width):
                    paired = width - 1 - c
                    denominator = 1.0 - nothing[c] * nothing[paired]
                    result = values[c]
                    if denominator > 1e-15:
                        result = (alpha[c] - nothing[c] * alpha[paired]) / denominator
                    estimates[c] = min(1.0, max(0.0, result))
            else:
                for c in range(width):
                    estimates[c] = values[c]  # a plain value-iteration step
            residual_before = residual
        if not converged:
            return win, table, sweeps, level
        for c in range(width):
            mine = low + c
            win[mine, level - mine] = values[c]
            for d in range(decisions):
                table[mine, level - mine, d] = choices[d, c]
    return win, table, sweeps, -1
