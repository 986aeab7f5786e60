"""The win objective for two-player race games (``RaceModel``), such as Pig.

``P[i, j]`` is the probability that the player about to start a turn with banked
score ``i`` wins against an opponent with ``j``. A turn that scores ``p > 0``
leads to the opponent's turn at ``(j, i + p)``, a higher *level* ``i + j``; a turn
that scores nothing leads to ``(j, i)``, the same level. So the levels are
solved from the highest down, and within a level only the pairs ``(i, j)`` and
``(j, i)`` depend on each other.

Within a level the solver iterates: evaluate every turn greedily (vectorised
over all ``i`` of the level) given the current estimates, then solve the linear
equations that this greedy policy pair implies exactly (a Newton step, which
usually lands on the fixed point in two or three rounds), until the greedy values
reproduce the estimates within ``TOLERANCE``. Plain value-iteration steps take
over if a Newton step ever fails to shrink the residual. The whole loop runs
compiled (``kernels.race_levels_flat``); ``compiled=False`` runs it in NumPy.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.agents.solvers.model import RaceModel, TurnPosition
from gamebag.agents.solvers.turn_graph import (
    DECISION,
    TIE_TOLERANCE,
    FloatArray,
    TurnGraph,
    compile_turn,
    compiled_kernels,
    evaluate,
    evaluate_reference,
)

TOLERANCE = 1e-13
MAX_ITERATIONS = 500


@dataclass
class RaceWinSolution:
    """Optimal play of a two-player race: win probabilities and choices for every score pair."""

    graph: TurnGraph
    goal: int
    win_probability: FloatArray  # (goal, goal): mover's chance at the start of a turn
    choices: npt.NDArray[np.int8]  # (goal, goal, decision nodes)
    value: float
    seconds: float
    sweeps: int  # greedy evaluations of a whole level, summed over levels

    def choice_at(self, score: int, opponent: int, node: Any) -> int:
        position = self.graph.index.get(node)
        if position is None or self.graph.kinds[position] != DECISION:
            raise KeyError(f"{node!r} is not a decision node of the turn")
        if not (0 <= score < self.goal and 0 <= opponent < self.goal):
            raise KeyError(f"scores ({score}, {opponent}) are outside the game (goal {self.goal})")
        return int(self.choices[score, opponent, self.graph.decision_slot[position]])

    def action_for(self, position: TurnPosition) -> Any:
        """The optimal action in a real game position."""
        score = position.scores[position.seat]
        opponent = position.scores[1 - position.seat]
        choice = self.choice_at(score, opponent, position.node)
        return self.graph.actions[self.graph.index[position.node]][choice]

    def turn_values(self, score: int, opponent: int) -> FloatArray:
        """The mover's chance to win at every node of the turn (``graph`` order), for a turn that starts
        at banked scores ``(score, opponent)``; the root's value is ``win_probability[score, opponent]``.

        A turn that ends with ``p`` points leads to the goal (a win) or to the opponent's turn at
        ``(opponent, score + p)``; decisions take the best choice, as the solved policy does.
        """
        if not (0 <= score < self.goal and 0 <= opponent < self.goal):
            raise KeyError(f"scores ({score}, {opponent}) are outside the game (goal {self.goal})")
        after = score + self.graph.end_points_array()
        reached = after >= self.goal
        end_values = np.where(
            reached, 1.0, 1.0 - self.win_probability[opponent, np.minimum(after, self.goal - 1)]
        )
        values: FloatArray = evaluate(self.graph, end_values[:, np.newaxis]).values[:, 0]
        return values

    @property
    def table_bytes(self) -> int:
        return int(self.win_probability.nbytes + self.choices.nbytes)

    @property
    def table_entries(self) -> int:
        return int(self.choices.size)


def solve_race_win(model: RaceModel, graph: TurnGraph | None = None, *, compiled: bool = True) -> RaceWinSolution:
    """Both players maximise their own chance to reach the goal first.

    ``compiled`` runs every level in one compiled loop (``kernels.race_levels_flat``);
    ``compiled=False`` runs the same steps level by level in NumPy (the reference).
    """
    started = time.perf_counter()
    graph = graph or compile_turn(model)
    goal = model.race_goal()
    points = graph.end_points_array()
    bust_rows = points == 0
    if not bust_rows.any():
        raise ValueError("a race turn model needs an end node scoring 0 (the turn that banks nothing)")
    kernels = compiled_kernels() if compiled else None
    if kernels is not None:
        flat = graph.flat()
        win, choices, sweeps, stuck = kernels.race_levels_flat(
            flat.kinds,
            flat.start,
            flat.children,
            flat.probability,
            flat.row,
            flat.root,
            flat.decisions,
            points,
            goal,
            TOLERANCE,
            MAX_ITERATIONS,
            TIE_TOLERANCE,
        )
        if stuck >= 0:
            raise RuntimeError(f"level {stuck} did not converge within {MAX_ITERATIONS} sweeps")
    else:
        win, choices, sweeps = _solve_levels_reference(graph, goal, points, bust_rows)
    return RaceWinSolution(
        graph=graph,
        goal=goal,
        win_probability=win,
        choices=choices,
        value=float(win[0, 0]),
        seconds=time.perf_counter() - started,
        sweeps=sweeps,
    )


def _solve_levels_reference(
    graph: TurnGraph, goal: int, points: npt.NDArray[np.int64], bust_rows: npt.NDArray[np.bool_]
) -> tuple[FloatArray, npt.NDArray[np.int8], int]:
    """The level-by-level NumPy solve (the specification of ``race_levels_flat``)."""
    win = np.zeros((goal, goal), dtype=np.float64)
    choices = np.zeros((goal, goal, len(graph.decision_nodes)), dtype=np.int8)
    sweeps = 0
    for level in range(2 * (goal - 1), -1, -1):
        low, high = max(0, level - goal + 1), min(level, goal - 1)
        mine = np.arange(low, high + 1)
        theirs = level - mine
        # End values that do not depend on this level: reaching the goal, or the opponent's
        # turn at a higher level.
        after = mine[np.newaxis, :] + points[:, np.newaxis]
        reached = after >= goal
        fixed = 1.0 - win[theirs[np.newaxis, :], np.minimum(after, goal - 1)]
        fixed = np.where(reached, 1.0, fixed)
        estimates = np.full(mine.size, 0.5)
        residual_before = np.inf
        for _ in range(MAX_ITERATIONS):
            sweeps += 1
            end_values = fixed.copy()
            end_values[bust_rows] = 1.0 - estimates[::-1]
            evaluation = evaluate_reference(graph, end_values)
            values = evaluation.values[graph.root]
            residual = float(np.max(np.abs(values - estimates)))
            if residual < TOLERANCE:
                break
            if residual < residual_before:
                estimates = _newton_step(graph, evaluation.choices, values, estimates, bust_rows)
            else:
                estimates = values  # a plain value-iteration step
            residual_before = residual
        else:
            raise RuntimeError(f"level {level} did not converge within {MAX_ITERATIONS} sweeps")
        win[mine, theirs] = values
        choices[mine, theirs] = evaluation.choices.T
    return win, choices, sweeps


def _newton_step(
    graph: TurnGraph,
    greedy: npt.NDArray[np.int8],
    values: FloatArray,
    estimates: FloatArray,
    bust_rows: npt.NDArray[np.bool_],
) -> FloatArray:
    """Exact values of the greedy policy pair: solve x_i = a_i + c_i (1 - x_j) pairwise.

    ``c_i`` is the chance that mover ``i``'s turn banks nothing under the greedy
    choices, and ``a_i`` the rest of its value; ``j`` is the paired column.
    """
    indicator = np.zeros((len(graph.end_nodes), values.size))
    indicator[bust_rows] = 1.0
    nothing = evaluate_reference(graph, indicator, greedy).values[graph.root]
    bust_value = 1.0 - estimates[::-1]
    alpha = values - nothing * bust_value + nothing  # a_i + c_i
    paired_alpha, paired_nothing = alpha[::-1], nothing[::-1]
    denominator = 1.0 - nothing * paired_nothing
    safe = denominator > 1e-15
    result = np.where(safe, (alpha - nothing * paired_alpha) / np.where(safe, denominator, 1.0), values)
    return np.clip(result, 0.0, 1.0)
