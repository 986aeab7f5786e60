"""The win objective for two-player round games (``RoundsModel``): dynamic programming.

Between turns only three things matter for who wins: the round, whose turn it
is, and the difference ``d`` = total of seat 0 minus total of seat 1. Working
backwards from the end of the last tie-break round, each turn is an expectimax
over the turn graph whose end nodes are worth the win share of the position the
turn leads to; one vectorised pass handles every reachable ``d`` at once.

Values are seat 0's *win share*: 1 for a win, 1/2 for a shared win, 0 for a loss
(each seat maximises its own share, so the game is zero-sum). The levels hold
the start-of-turn values and the choice at every decision node for every ``d``.

A game whose turn rules change by round or seat (``VaryingTurnModel``: Catch A Dragon's
variants) has a turn graph per key of its turn rules; each level holds the graph of its turn,
and the reachable differences grow by that turn's own highest score.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.agents.solvers.model import RoundsModel, TurnPosition, VaryingTurnModel
from gamebag.agents.solvers.turn_graph import (
    DECISION,
    Evaluation,
    FloatArray,
    TurnGraph,
    compile_turn,
    decision_reach,
    evaluate,
    evaluate_reference,
)

Evaluator = Callable[[TurnGraph, FloatArray, "npt.NDArray[np.int8] | None"], Evaluation]
GraphAt = Callable[[int, int], TurnGraph]  # (round, seat) -> the graph of that turn
ChoiceTable = npt.NDArray[np.int8]
# A seat's fixed choices: one table for all its turns (one turn graph), or one per (round, seat).
FixedChoices = ChoiceTable | dict[tuple[int, int], ChoiceTable]
SHARE = (1.0, 0.5, 0.0)  # seat 0's value of a win, a shared win, a loss
OUTRIGHT_WIN = (1.0, 0.0, 0.0)
SHARED_WIN = (0.0, 1.0, 0.0)
MEANINGFUL_GAIN = 1e-9


@dataclass
class Level:
    """One turn of the schedule: the values and choices for every reachable difference."""

    round: int
    seat: int
    low: int  # smallest reachable difference (seat 0 minus seat 1) at the start of this turn
    high: int
    start_values: FloatArray  # seat 0's win share at the start of the turn, per difference
    choices: npt.NDArray[np.int8]  # (decision nodes of ``graph``, differences)
    graph: TurnGraph  # the turn played at this level

    def column(self, difference: int) -> int:
        if not self.low <= difference <= self.high:
            raise KeyError(f"difference {difference} is not reachable in round {self.round}, seat {self.seat}")
        return difference - self.low


@dataclass
class RoundsWinSolution:
    """Optimal play for both seats of a two-player round game (``graph``: the first turn's graph;
    each level holds its own turn's graph, the same one unless the turn rules vary)."""

    graph: TurnGraph
    rounds: int
    tiebreak_rounds: int
    levels: dict[tuple[int, int], Level]
    value: float
    seconds: float
    breakdown: dict[str, float] = field(default_factory=dict)

    def level(self, round_no: int, seat: int) -> Level:
        try:
            return self.levels[(round_no, seat)]
        except KeyError:
            raise KeyError(f"round {round_no}, seat {seat} is not part of the schedule") from None

    def graph_at(self, round_no: int, seat: int) -> TurnGraph:
        """The turn graph of ``seat``'s turn in round ``round_no``."""
        return self.level(round_no, seat).graph

    def choice_at(self, round_no: int, seat: int, difference: int, node: Hashable) -> int:
        level = self.level(round_no, seat)
        graph = level.graph
        position = graph.index.get(node)
        if position is None or graph.kinds[position] != DECISION:
            raise KeyError(f"{node!r} is not a decision node of the turn")
        return int(level.choices[graph.decision_slot[position], level.column(difference)])

    def action_for(self, position: TurnPosition) -> Any:
        """The optimal action in a real game position."""
        difference = position.scores[0] - position.scores[1]
        choice = self.choice_at(position.round, position.seat, difference, position.node)
        graph = self.graph_at(position.round, position.seat)
        return graph.actions[graph.index[position.node]][choice]

    def turn_values(self, round_no: int, seat: int, difference: int) -> FloatArray:
        """The mover's win share at every node of the turn (``graph`` order) when ``seat`` starts its
        turn of round ``round_no`` at ``difference`` (seat 0's total minus seat 1's).

        The root's value is the level's start value (for the mover); decisions take the best choice,
        as the solved policy does.
        """
        level = self.level(round_no, seat)
        column = level.column(difference)
        turn = (round_no, seat, level.low, level.high)
        end_values = _end_values(level.graph, self.levels, self.rounds, self.tiebreak_rounds, SHARE, turn)
        values: FloatArray = evaluate(level.graph, np.ascontiguousarray(end_values[:, column : column + 1])).values
        return values[:, 0]

    @property
    def table_bytes(self) -> int:
        return sum(lv.start_values.nbytes + lv.choices.nbytes for lv in self.levels.values())

    @property
    def table_entries(self) -> int:
        return sum(lv.choices.size for lv in self.levels.values())


def schedule(
    rounds: int, tiebreak_rounds: int, max_points: int | Callable[[int, int], int]
) -> list[tuple[int, int, int, int]]:
    """(round, seat, low, high) for every turn, in play order.

    ``max_points``: the most one turn scores, or a function of (round, seat) giving it per turn.
    """
    most = max_points if callable(max_points) else (lambda _round, _seat: max_points)
    turns = []
    low = high = 0
    for round_no in range(1, rounds + tiebreak_rounds + 1):
        if round_no > rounds:
            low = high = 0  # tie-break rounds start level
        turns.append((round_no, 0, low, high))
        high += most(round_no, 0)
        turns.append((round_no, 1, low, high))
        low -= most(round_no, 1)
    return turns


def turn_graphs(
    model: RoundsModel, graph: TurnGraph | None = None, graph_for: Callable[[Hashable], TurnGraph] | None = None
) -> GraphAt:
    """The turn graph of every (round, seat): one graph, or one per key of a varying model's turn rules.

    ``graph``, when given, is the graph of the first turn's rules (compiled from ``model`` itself);
    ``graph_for`` compiles (or looks up) the graph of a key of the turn rules.
    """
    if not isinstance(model, VaryingTurnModel):
        only = graph or compile_turn(model)
        return lambda _round, _seat: only
    first = model.turn_rules(1, 0)
    graphs: dict[Hashable, TurnGraph] = {} if graph is None else {first: graph}
    varying = model

    def graph_at(round_no: int, seat: int) -> TurnGraph:
        rules = varying.turn_rules(round_no, seat)
        found = graphs.get(rules)
        if found is None:
            built = graph_for(rules) if graph_for is not None else compile_turn(varying.turn_model_for(rules))
            found = graphs[rules] = built
        return found

    return graph_at


def _backward(
    graph_at: GraphAt,
    rounds: int,
    tiebreak_rounds: int,
    outcome_values: tuple[float, float, float],
    fixed: dict[int, npt.NDArray[np.int8] | None] | None = None,
    fixed_for_level: dict[tuple[int, int], npt.NDArray[np.int8]] | None = None,
    evaluator: Evaluator = evaluate,
) -> dict[tuple[int, int], Level]:
    """Backward induction over the schedule.

    ``fixed`` maps a seat to the choices it always makes (a decisions x 1 array)
    or None to let it optimise; ``fixed_for_level`` gives a seat's choices level
    by level (to evaluate a solved win policy). Seat 0 maximises its value, seat
    1 minimises it, unless fixed.
    """
    levels: dict[tuple[int, int], Level] = {}
    turns = schedule(rounds, tiebreak_rounds, lambda round_no, seat: graph_at(round_no, seat).max_points)
    for round_no, seat, low, high in reversed(turns):
        graph = graph_at(round_no, seat)
        mover_values = _end_values(graph, levels, rounds, tiebreak_rounds, outcome_values, (round_no, seat, low, high))
        choices = None
        if fixed_for_level is not None and (round_no, seat) in fixed_for_level:
            choices = fixed_for_level[(round_no, seat)]
        elif fixed is not None:
            choices = fixed.get(seat)
        evaluation = evaluator(graph, mover_values, choices)
        root = evaluation.values[graph.root]
        levels[(round_no, seat)] = Level(
            round=round_no,
            seat=seat,
            low=low,
            high=high,
            start_values=root if seat == 0 else 1.0 - root,
            choices=evaluation.choices,
            graph=graph,
        )
    return levels


def solve_rounds_win(
    model: RoundsModel,
    graph: TurnGraph | None = None,
    *,
    compiled: bool = True,
    graph_for: Callable[[Hashable], TurnGraph] | None = None,
) -> RoundsWinSolution:
    """Both seats maximise their own win share; returns seat 0's share under optimal play.

    ``compiled=False`` evaluates the turns with the NumPy reference pass instead of
    the compiled one (for checking them against each other). A model whose turn rules vary
    (``VaryingTurnModel``) gets a graph per key (``turn_graphs``).
    """
    started = time.perf_counter()
    graph_at = turn_graphs(model, graph, graph_for)
    rounds, tiebreak_rounds = model.round_structure()
    for round_no in range(1, rounds + tiebreak_rounds + 1):
        for seat in (0, 1):
            lowest = int(graph_at(round_no, seat).end_points_array().min())
            if lowest < 0:
                raise ValueError(
                    f"round {round_no}, seat {seat}: a turn scores {lowest}; the rounds win solver needs "
                    "turns that score 0 or more"
                )
    evaluator: Evaluator = evaluate if compiled else evaluate_reference
    levels = _backward(graph_at, rounds, tiebreak_rounds, SHARE, evaluator=evaluator)
    value = float(levels[(1, 0)].start_values[0])
    solution = RoundsWinSolution(
        graph=graph_at(1, 0),
        rounds=rounds,
        tiebreak_rounds=tiebreak_rounds,
        levels=levels,
        value=value,
        seconds=0.0,
    )
    solution.breakdown = outcome_breakdown(solution, None, None, evaluator)
    solution.seconds = time.perf_counter() - started  # the solve and its outcome breakdown
    return solution


def _policy_tables(
    solution: RoundsWinSolution, seat: int, score_choices: FixedChoices | None
) -> tuple[dict[int, npt.NDArray[np.int8] | None], dict[tuple[int, int], npt.NDArray[np.int8]]]:
    """Fixed choices for ``seat``: the score policy if given, else its solved win policy."""
    if isinstance(score_choices, dict):
        return {}, {key: table for key, table in score_choices.items() if key[1] == seat}
    if score_choices is not None:
        return {seat: score_choices}, {}
    return {}, {key: lv.choices for key, lv in solution.levels.items() if key[1] == seat}


def outcome_breakdown(
    solution: RoundsWinSolution,
    seat0_score_choices: FixedChoices | None,
    seat1_score_choices: FixedChoices | None,
    evaluator: Evaluator = evaluate,
) -> dict[str, float]:
    """Exact outcome probabilities when each seat plays its win policy or a given score policy.

    A score policy is one choice table for every turn of the seat, or (turn rules that vary) a
    table per (round, seat), as ``score_policy_tables`` builds.
    """
    fixed: dict[int, npt.NDArray[np.int8] | None] = {}
    per_level: dict[tuple[int, int], npt.NDArray[np.int8]] = {}
    for seat, score_choices in ((0, seat0_score_choices), (1, seat1_score_choices)):
        seat_fixed, seat_levels = _policy_tables(solution, seat, score_choices)
        fixed.update(seat_fixed)
        per_level.update(seat_levels)
    result = {}
    for name, outcome_values in (("share", SHARE), ("first_wins", OUTRIGHT_WIN), ("shared", SHARED_WIN)):
        levels = _backward(
            solution.graph_at, solution.rounds, solution.tiebreak_rounds, outcome_values, fixed, per_level, evaluator
        )
        result[name] = float(levels[(1, 0)].start_values[0])
    result["second_wins"] = max(0.0, 1.0 - result["first_wins"] - result["shared"])
    return result


def score_policy_choices(graph: TurnGraph, choice: dict[int, int]) -> npt.NDArray[np.int8]:
    """A one-turn policy as a (decision nodes x 1) choice table for ``_backward``."""
    table = np.zeros((len(graph.decision_nodes), 1), dtype=np.int8)
    for slot, node in enumerate(graph.decision_nodes):
        table[slot, 0] = choice[node]
    return table


def score_policy_tables(
    solution: RoundsWinSolution, score_choice_at: Callable[[int, int], dict[int, int]]
) -> dict[tuple[int, int], ChoiceTable]:
    """A score policy's choice table for every turn of the schedule (``score_choice_at(round, seat)``:
    the policy's choice at each decision node of that turn's graph)."""
    return {
        key: score_policy_choices(level.graph, score_choice_at(*key)) for key, level in solution.levels.items()
    }


@dataclass
class Difference:
    """A decision where optimal-win and optimal-score choose differently."""

    round: int
    seat: int
    difference: int  # seat 0's total minus seat 1's at the start of the turn
    node: Hashable
    win_action: Any
    score_action: Any
    gain: float  # win share the mover gains here by choosing as optimal-win does
    reach: float  # probability of reaching this decision under optimal-win play by both seats

    @property
    def weight(self) -> float:
        return self.gain * self.reach


def level_reach(solution: RoundsWinSolution) -> dict[tuple[int, int], FloatArray]:
    """Probability of each difference at the start of each turn under optimal play."""
    order = [(r, s, lv.low, lv.high) for (r, s), lv in sorted(solution.levels.items())]
    reach: dict[tuple[int, int], FloatArray] = {}
    first = solution.levels[(1, 0)]
    start = np.zeros(first.high - first.low + 1)
    start[-first.low] = 1.0
    reach[(1, 0)] = start
    for index, (round_no, seat, low, high) in enumerate(order[:-1]):
        level = solution.levels[(round_no, seat)]
        graph = level.graph
        points, ends = graph.end_points_array(), graph.end_nodes
        mass = reach[(round_no, seat)]
        node_reach = decision_reach(graph, level.choices)
        end_mass = node_reach[ends] * mass[np.newaxis, :]  # (end nodes, differences)
        next_round, next_seat, next_low, next_high = order[index + 1]
        following = np.zeros(next_high - next_low + 1)
        sign = 1 if seat == 0 else -1
        columns = np.arange(low, high + 1)
        for row, scored in enumerate(points):
            after = columns + sign * scored
            if next_seat == 0 and next_round > solution.rounds:
                # A tie-break round follows only from a tie; other results end the game.
                keep = after == 0
                np.add.at(following, after[keep] - next_low, end_mass[row][keep])
            else:
                np.add.at(following, after - next_low, end_mass[row])
        reach[(next_round, next_seat)] = following
    return reach


def differences(
    solution: RoundsWinSolution, score_choice: dict[int, int] | Callable[[int, int], dict[int, int]]
) -> tuple[list[Difference], int]:
    """Every reachable decision where the two policies differ by more than rounding.

    ``score_choice``: the score policy's choice at each decision node, or (turn rules that vary)
    a function of (round, seat) giving it for that turn's graph.
    Returns the differences and the number of reachable decision situations.
    """
    reach = level_reach(solution)
    found: list[Difference] = []
    situations = 0
    layouts: dict[int, tuple[npt.NDArray[np.int64], ...]] = {}  # per turn graph (few distinct ones)
    for (round_no, seat), level in sorted(solution.levels.items()):
        mass = reach[(round_no, seat)]
        if not mass.any():
            continue
        graph = level.graph
        choice = score_choice(round_no, seat) if callable(score_choice) else score_choice
        flat = graph.flat()
        layout = layouts.get(id(graph))
        if layout is None:
            layout = layouts[id(graph)] = _decision_layout(graph)
        decisions, first_edge, counts, edges, offsets = layout
        scored_child = flat.children[first_edge + np.array([choice[n] for n in graph.decision_nodes])]
        several = counts >= 2
        turn = (round_no, seat, level.low, level.high)
        end_values = _end_values(graph, solution.levels, solution.rounds, solution.tiebreak_rounds, SHARE, turn)
        values = evaluate(graph, end_values).values
        node_reach = decision_reach(graph, level.choices)[decisions] * mass[np.newaxis, :]
        reachable = node_reach > 0
        situations += int(reachable.sum())
        best = np.maximum.reduceat(values[flat.children[edges]], offsets, axis=0)
        gain = best - values[scored_child]
        meaningful = reachable & several[:, np.newaxis] & (gain > MEANINGFUL_GAIN)
        for slot, column in zip(*np.nonzero(meaningful), strict=True):
            node = graph.decision_nodes[slot]
            found.append(
                Difference(
                    round=round_no,
                    seat=seat,
                    difference=int(level.low + column),
                    node=graph.nodes[node],
                    win_action=graph.actions[node][int(level.choices[slot, column])],
                    score_action=graph.actions[node][choice[node]],
                    gain=float(gain[slot, column]),
                    reach=float(node_reach[slot, column]),
                )
            )
    found.sort(key=lambda d: -d.weight)
    return found, situations


def _decision_layout(graph: TurnGraph) -> tuple[npt.NDArray[np.int64], ...]:
    """Every decision node's children side by side, so a level's comparison is a few array operations:
    (decision nodes, their first edge, their edge counts, every edge, each node's offset among the edges)."""
    flat = graph.flat()
    decisions = np.array(graph.decision_nodes, dtype=np.int64)
    first_edge = flat.start[decisions].astype(np.int64)
    counts = (flat.start[decisions + 1] - first_edge).astype(np.int64)
    edges = np.concatenate([np.arange(f, f + n) for f, n in zip(first_edge, counts, strict=True)])
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return decisions, first_edge, counts, edges, offsets


def _end_values(
    graph: TurnGraph,
    levels: dict[tuple[int, int], Level],
    rounds: int,
    tiebreak_rounds: int,
    outcome_values: tuple[float, float, float],
    turn: tuple[int, int, int, int],
) -> FloatArray:
    """The mover's value of each end node of this turn (rows) for each starting difference.

    Reads the start values of the turn that follows, or the game's result after
    the last turn of a round that may end the game.
    """
    round_no, seat, low, high = turn
    win, tie, loss = outcome_values
    points = graph.end_points_array()
    span = graph.max_points
    if seat == 1:
        # The values at the end of this round, over differences [low - span, high].
        next_low = low - span
        diffs = np.arange(next_low, high + 1)
        if round_no < rounds:
            following = levels[(round_no + 1, 0)]
            next_values = following.start_values[diffs - following.low]
        else:
            tied = levels[(round_no + 1, 0)].start_values[0] if round_no < rounds + tiebreak_rounds else tie
            next_values = np.where(diffs > 0, win, np.where(diffs < 0, loss, tied))
    else:
        following = levels[(round_no, 1)]
        next_low, next_values = following.low, following.start_values
    sign = 1 if seat == 0 else -1
    columns = np.arange(low, high + 1)
    end_values: FloatArray = next_values[columns[np.newaxis, :] + sign * points[:, np.newaxis] - next_low]
    return end_values if seat == 0 else 1.0 - end_values
