"""Exact analysis of two-player Eel Harvest and Wriggle Roulette from the solved equilibrium.

The ``equilibrium`` agent solves each round exactly for the scores it starts at (its shipped
continuation table values the scores a round may end at). For a grab with both seats in, the
seat's value of each count is its winning chance against the *equilibrium opponent*: the grab's
matrix of values averaged over the opponent's equilibrium mix (the opponent's real grab, hidden
when the seat chose, is never read). The best count is shown as the support of the seat's own
equilibrium mix; its value is the best count's. A seat alone in the round faces an exact stopping
problem. The chance event of a grab (the draws) is valued before as the joint grab's expected value
and after as the position it leads to; the grabs are revealed by the draw itself.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from gamebag.agents.equilibrium.agent import EquilibriumAgent, continuation_for
from gamebag.agents.equilibrium.model import changed_numbers, rules_for
from gamebag.agents.equilibrium.solver import EQUILIBRIUM, RoundBatch, solve_matrix_games
from gamebag.agents.equilibrium.value import supports_equilibrium
from gamebag.agents.solvers.turn_graph import FloatArray
from gamebag.analysis.evaluators import Choices, Evaluator
from gamebag.analysis.figures import Estimate
from gamebag.analysis.translation import N_
from gamebag.core.errors import UnknownAgentError
from gamebag.core.protocol import Game
from gamebag.games.eel_family.rules import EelState

# An action is in a mixed strategy's support from this probability (the solver's own noise is far below).
SUPPORT = 1e-6


def equilibrium_solvable(game: Game[Any, Any, Any]) -> bool:
    """A two-player Eel game with the rulebook's numbers and no lone-player grab limit (the shipped tables)."""
    if not supports_equilibrium(game):
        return False
    rules = rules_for(game)
    if changed_numbers(rules) or rules.lone_grabs is not None:
        return False
    try:
        continuation_for(rules)  # a shipped table for these rules
    except UnknownAgentError:
        return False
    return True


class EelEquilibriumEvaluator(Evaluator):
    """Winning chances under equilibrium play (two-player Eel family)."""

    method = method_text = N_(
        "exact: the two-player equilibrium's winning chances (the opponent plays the equilibrium)"
    )

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        super().__init__(game)
        self.agent = EquilibriumAgent(game)
        self._rounds: dict[tuple[int, int], RoundBatch] = {}

    def prepare(self, states: Sequence[Any]) -> None:
        """Solve every round the game played in one batch (about half the time of one by one)."""
        starts = sorted(
            {
                (state.scores[0], state.scores[1])
                for state in states
                if not state.over and state.pending is None and all(state.in_round)
            }
            - set(self._rounds)
        )
        if not starts:
            return
        batch = self.agent.solver.solve(starts, self.agent.continuation)
        for k, scores in enumerate(starts):
            self._rounds[scores] = RoundBatch(
                batch.rules,
                batch.scores[k : k + 1],
                1,
                batch.both[k : k + 1],
                (batch.lone[0][k : k + 1], batch.lone[1][k : k + 1]),
                (batch.ends[0][k : k + 1], batch.ends[1][k : k + 1], batch.ends[2][k : k + 1]),
            )

    def _round(self, s0: int, s1: int) -> RoundBatch:
        solution = self._rounds.get((s0, s1))
        return self.agent.round_solution(s0, s1) if solution is None else solution

    # ---- the solver's values, seat 0's winning chance ------------------------------------
    def _grab(self, state: EelState) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Both seats in: the grab's value matrix ``q[a0, a1]`` and the equilibrium mixes."""
        solution = self._round(state.scores[0], state.scores[1])
        q = self.agent.solver.both_q(
            solution, np.array([state.reserves[0]]), np.array([state.reserves[1]]), np.array([state.centre])
        )[EQUILIBRIUM, 0]
        rows, columns = solve_matrix_games(q[np.newaxis])
        return q, rows[0], columns[0]

    def _lone(self, state: EelState, seat: int) -> FloatArray:
        """``seat`` alone in the round: seat 0's value of each count."""
        scores = (state.scores[0], state.scores[1])
        return self.agent.lone_values(seat, scores, state.reserves[seat], state.centre, 0)

    def _seat0_value(self, state: EelState) -> float:
        if state.over:
            return float(self.game.returns(state)[0])
        in_round = [seat for seat in (0, 1) if state.in_round[seat]]
        if state.pending is not None:  # the draw of a known joint grab
            if len(in_round) == 2:
                q, _, _ = self._grab(state)
                return float(q[state.pending[0], state.pending[1]])
            return float(self._lone(state, in_round[0])[state.pending[in_round[0]]])
        if len(in_round) == 2:
            q, rows, columns = self._grab(state)
            return float(rows @ q @ columns)
        seat = in_round[0]
        values = self._lone(state, seat)[: len(self.game.legal_actions(state, seat))]
        return float(values.max() if seat == 0 else values.min())

    # ---- the evaluator -------------------------------------------------------------------
    def choices(self, state: Any, seat: int, legal: Sequence[Any], event: int) -> Choices:
        if all(state.in_round):
            q, rows, columns = self._grab(state)
            seat0 = q @ columns if seat == 0 else rows @ q
            mix = rows if seat == 0 else columns
        else:
            seat0 = self._lone(state, seat)
            mix = None
        own = seat0 if seat == 0 else 1.0 - seat0
        values: dict[Hashable, float] = {count: float(own[count]) for count in legal}
        support = None if mix is None else [count for count in legal if mix[count] > SUPPORT]
        return Choices.from_exact(values, support or None)

    def value(self, state: Any, seat: int, event: int) -> Estimate:
        seat0 = self._seat0_value(state)
        return Estimate.exact(seat0 if seat == 0 else 1.0 - seat0)

    def chance_change(self, before: Any, after: Any, seat: int, event: int) -> Estimate:
        """A draw that ends the round is valued after by the continuation table the round was solved with."""
        if not after.over and after.round_no != before.round_no:
            seat0 = float(self.agent.continuation[0, after.scores[0], after.scores[1]])
            after_value = seat0 if seat == 0 else 1.0 - seat0
            return Estimate.exact(after_value) - self.value(before, seat, event)
        return super().chance_change(before, after, seat, event)
