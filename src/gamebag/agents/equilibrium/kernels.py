"""Compiled (numba) regret matching for the grab's matrix games: the inner loop of the round solver.

``solver.solve_matrix_games`` solves every mixed 7 x 7 grab of a layer of a round; in NumPy each
step of regret matching costs a dozen array calls for the whole batch, and the batch runs as long
as its slowest game, so a round took most of a second. ``regret_matching`` does the very same
arithmetic game by game (regret matching+ with alternating updates and linearly weighted averages;
every ``check_every`` steps the exact equalising strategies on the supports the averages suggest,
kept where they are an equilibrium of the whole game, else the averages once no deviation gains
more than ``tolerance``). Its sums run in another order than NumPy's batched ones, so a game near
a check's threshold may stop a check earlier or later: nearly every game gets the same strategies,
and every one an equilibrium within the same tolerance (``tests/agents/test_equilibrium_kernels.py``
compares them with the NumPy loop). ``draw_q`` computes the grab matrices of ``solver._draw_q``
pair of draws by pair, without its large temporaries (equal to 1e-12).
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

EXACT_GAP = 1e-9  # an exact solution on supports must be an equilibrium to this (as in the NumPy loop)
NEGATIVE = -1e-12  # an equalising strategy may dip this far below zero (float noise) and still count
SINGULAR = 1e-12  # a support's system with a smaller determinant has no unique equalising strategy


@numba.njit(cache=True)
def _gap(q: FloatArray, x: FloatArray, y: FloatArray) -> float:
    """What seat 0 gains by its best row plus what seat 1 gains by its best column."""
    rows, columns = q.shape
    best_row = -np.inf
    for i in range(rows):
        value = 0.0
        for j in range(columns):
            value += q[i, j] * y[j]
        best_row = max(best_row, value)
    best_column = np.inf
    for j in range(columns):
        value = 0.0
        for i in range(rows):
            value += x[i] * q[i, j]
        best_column = min(best_column, value)
    return best_row - best_column


@numba.njit(cache=True)
def _equalise(sub: FloatArray) -> tuple[FloatArray, bool]:
    """A strategy on the columns of ``sub`` (k x k) making every row worth the same, if unique."""
    k = sub.shape[0]
    system = np.zeros((k + 1, k + 1))
    system[:k, :k] = sub
    system[:k, k] = -1.0
    system[k, :k] = 1.0
    target = np.zeros(k + 1)
    target[k] = 1.0
    if abs(np.linalg.det(system)) <= SINGULAR:
        return np.zeros(k), False
    return np.linalg.solve(system, target)[:k], True


@numba.njit(cache=True)
def _on_supports(
    q: FloatArray, guess_x: FloatArray, guess_y: FloatArray, threshold: float
) -> tuple[FloatArray, FloatArray, bool]:
    """The exact equalising strategies on the supports the guesses suggest, where they are an equilibrium."""
    rows, columns = q.shape
    chosen_rows = np.flatnonzero(guess_x > threshold)
    chosen_columns = np.flatnonzero(guess_y > threshold)
    k = len(chosen_rows)
    x = np.zeros(rows)
    y = np.zeros(columns)
    if k < 2 or len(chosen_columns) != k:
        return x, y, False
    sub = np.empty((k, k))
    for a in range(k):
        for b in range(k):
            sub[a, b] = q[chosen_rows[a], chosen_columns[b]]
    column_part, column_ok = _equalise(sub)
    row_part, row_ok = _equalise(np.ascontiguousarray(sub.T))
    if not (column_ok and row_ok):
        return x, y, False
    for a in range(k):
        y[chosen_columns[a]] = column_part[a]
        x[chosen_rows[a]] = row_part[a]
    if x.min() < NEGATIVE or y.min() < NEGATIVE:
        return x, y, False
    x = np.maximum(x, 0.0)
    y = np.maximum(y, 0.0)
    x /= x.sum()
    y /= y.sum()
    return x, y, _gap(q, x, y) <= EXACT_GAP


@numba.njit(cache=True)
def regret_matching(
    payoffs: FloatArray, iterations: int, tolerance: float, check_every: int, threshold: float
) -> tuple[FloatArray, FloatArray]:
    """Each game's strategies ``(rows, columns)``, as ``solver._regret_matching`` finds them."""
    count, rows, columns = payoffs.shape
    result_x = np.zeros((count, rows))
    result_y = np.zeros((count, columns))
    x, y = np.empty(rows), np.empty(columns)
    regret_x, regret_y = np.empty(rows), np.empty(columns)
    sum_x, sum_y = np.empty(rows), np.empty(columns)
    row_values, column_values = np.empty(rows), np.empty(columns)
    for n in range(count):
        q = payoffs[n]
        x[:] = 1.0 / rows
        y[:] = 1.0 / columns
        regret_x[:] = 0.0
        regret_y[:] = 0.0
        sum_x[:] = 0.0
        sum_y[:] = 0.0
        for step in range(1, iterations + 1):
            # Seat 0's regrets against seat 1's current strategy, then seat 1's against the new x.
            expected = 0.0
            for i in range(rows):
                value = 0.0
                for j in range(columns):
                    value += q[i, j] * y[j]
                row_values[i] = value
                expected += value * x[i]
            total = 0.0
            for i in range(rows):
                regret_x[i] = max(regret_x[i] + (row_values[i] - expected), 0.0)
                total += regret_x[i]
            for i in range(rows):
                x[i] = (regret_x[i] + 1e-12) / (total + rows * 1e-12)
            expected = 0.0
            for j in range(columns):
                value = 0.0
                for i in range(rows):
                    value += q[i, j] * x[i]
                column_values[j] = value
                expected += value * y[j]
            total = 0.0
            for j in range(columns):
                regret_y[j] = max(regret_y[j] + (expected - column_values[j]), 0.0)
                total += regret_y[j]
            for j in range(columns):
                y[j] = (regret_y[j] + 1e-12) / (total + columns * 1e-12)
            for i in range(rows):
                sum_x[i] += step * x[i]
            for j in range(columns):
                sum_y[j] += step * y[j]
            if step % check_every != 0 and step != iterations:
                continue
            average_x = sum_x / sum_x.sum()
            average_y = sum_y / sum_y.sum()
            exact_x, exact_y, exact = _on_supports(q, average_x, average_y, threshold)
            if exact:
                result_x[n], result_y[n] = exact_x, exact_y
                break
            if _gap(q, average_x, average_y) <= tolerance or step == iterations:
                result_x[n], result_y[n] = average_x, average_y
                break
    return result_x, result_y


@numba.njit(cache=True)
def draw_q(
    both: FloatArray,
    ends: FloatArray,
    joint: FloatArray,
    r0: IntArray,
    r1: IntArray,
    c: IntArray,
    numbers: IntArray,
    draw_count: IntArray,
    draw_snakes: IntArray,
    draw_eels: IntArray,
    group_starts: IntArray,
) -> FloatArray:
    """``Q[b, n, a0 - 1, a1 - 1]``: both seats draw at states ``(r0[n], r1[n], c[n])`` (``solver._draw_q``).

    ``numbers`` holds ``eels, threshold, dice, eel_harvest, outbreak_scores_reserve`` (flags 0/1).
    Each entry sums, draw pair by draw pair in the order of the NumPy pass, the value after the pair
    (the round's end at an outbreak, else the state it leads to) times the pair's chance.
    """
    eels, threshold, dice, eel_harvest, scores_reserve = numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]
    batch = both.shape[0]
    kinds = len(draw_count)
    groups = len(group_starts)
    result = np.zeros((batch, len(r0), groups, groups))
    group_of = np.empty(kinds, dtype=np.int64)
    for g in range(groups):
        end = group_starts[g + 1] if g + 1 < groups else kinds
        group_of[group_starts[g] : end] = g
    for n in range(len(r0)):
        left = 0 if dice else eels - r0[n] - r1[n]
        for i in range(kinds):
            new_r0 = min(r0[n] + draw_eels[i], eels)
            for j in range(kinds):
                chance = joint[left, c[n], i, j]
                if chance == 0.0:
                    continue
                new_r1 = min(r1[n] + draw_eels[j], eels)
                centre = c[n] + draw_snakes[i] + draw_snakes[j]
                outbreak = centre >= threshold
                if outbreak:
                    if eel_harvest:
                        gain0 = 0 if draw_count[i] >= draw_count[j] else draw_eels[i] + (r0[n] if scores_reserve else 0)
                        gain1 = 0 if draw_count[j] >= draw_count[i] else draw_eels[j] + (r1[n] if scores_reserve else 0)
                    else:
                        gain0 = 0 if new_r0 >= new_r1 else new_r0
                        gain1 = 0 if new_r1 >= new_r0 else new_r1
                    gain0, gain1 = min(gain0, eels), min(gain1, eels)
                for b in range(batch):
                    value = ends[b, gain0, gain1] if outbreak else both[b, new_r0, new_r1, centre]
                    result[b, n, group_of[i], group_of[j]] += value * chance
    return result
