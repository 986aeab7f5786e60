"""The ``equilibrium`` agent: two-player Eel Harvest and Wriggle Roulette played from a solved round.

At each grab the agent reads its observation (scores, reserves, who is still in,
snakes in the centre), solves the current round exactly for those scores (once
per round; cached, the opening round for the agent's lifetime) with the shipped
continuation table ``W`` valuing the scores the round may end at, and then

* with both seats in: solves the grab's 7 x 7 matrix game and draws its count
  from its equilibrium mixed strategy with the caller's generator;
* alone in the round: takes the count of the exact optimal stopping rule.

Option sets without a table of their own (``lone_player_grabs``) reuse the
table of the same rules without that option: the round itself is still solved
under the options in play. The observation does not say how many grabs a lone
player has left under ``lone_player_grabs``; the agent assumes the full number.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.equilibrium.model import RULE_SETS, FloatArray, RoundRules, changed_numbers, rules_for
from gamebag.agents.equilibrium.solver import EQUILIBRIUM, RoundBatch, RoundSolver, solve_matrix_games
from gamebag.agents.equilibrium.tables import TABLES
from gamebag.agents.registry import check_params, register_agent
from gamebag.core.errors import UnknownAgentError
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng

CACHE_SIZE = 4
# Every game's first round starts at these scores: its solution (about half a megabyte) is kept
# for the agent's lifetime instead of being solved again at the start of each game.
OPENING_SCORES = (0, 0)


def continuation_for(rules: RoundRules) -> tuple[FloatArray, str]:
    """The shipped ``W`` table for ``rules`` (``[1, s0, s1]``) and the key of the table used."""
    for candidate in (rules, replace(rules, lone_grabs=None)):
        table = TABLES.get(candidate.key)
        if table is not None:
            return np.array(table, dtype=np.float64)[None, :, :], candidate.key
    raise UnknownAgentError(f"the equilibrium agent has no table for {rules.key}; tables: {', '.join(TABLES)}")


class EquilibriumAgent(Agent):
    """Plays the solved two-player round (see the module docstring)."""

    name = "equilibrium"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.rules = rules_for(game)
        changed = changed_numbers(self.rules)
        if changed:
            raise UnknownAgentError(
                "the equilibrium agent's tables are solved for the rulebook's numbers; it cannot play with "
                f"option(s) {', '.join(changed)} changed (use heuristic or ismcts; gamebag solve values any numbers)"
            )
        self.continuation, self.table_key = continuation_for(self.rules)
        self.solver = RoundSolver(self.rules)
        self._rounds: OrderedDict[tuple[int, int], RoundBatch] = OrderedDict()
        self._opening: RoundBatch | None = None
        self._lone: OrderedDict[tuple[int, int, int], tuple[FloatArray, FloatArray]] = OrderedDict()

    # ---- strategies --------------------------------------------------------------------------
    def round_solution(self, s0: int, s1: int) -> RoundBatch:
        """The solved round starting at scores ``(s0, s1)`` (cached)."""
        key = (s0, s1)
        if key == OPENING_SCORES:
            if self._opening is None:
                self._opening = self.solver.solve([key], self.continuation)
            return self._opening
        solution = self._rounds.get(key)
        if solution is None:
            solution = self.solver.solve([key], self.continuation)
            self._rounds[key] = solution
            while len(self._rounds) > CACHE_SIZE:
                self._rounds.popitem(last=False)
        return solution

    def grab_strategies(self, scores: tuple[int, int], r0: int, r1: int, centre: int) -> tuple[FloatArray, FloatArray]:
        """Both seats' equilibrium mixed strategies over counts 0..6 with both in the round."""
        solution = self.round_solution(*scores)
        q = self.solver.both_q(solution, np.array([r0]), np.array([r1]), np.array([centre]))
        rows, columns = solve_matrix_games(q[EQUILIBRIUM])
        return rows[0], columns[0]

    def lone_values(self, seat: int, scores: tuple[int, int], reserve: int, centre: int, level: int) -> FloatArray:
        """Seat 0's value of each count 0..6 for ``seat`` alone in the round."""
        key = (seat, *scores)
        cached = self._lone.get(key)
        if cached is None:
            cached = self.solver.solve_lone(seat, scores, self.continuation)
            self._lone[key] = cached
            while len(self._lone) > CACHE_SIZE:
                self._lone.popitem(last=False)
        lone, ends = cached
        q = self.solver.lone_q(seat, lone, ends, np.array([reserve]), np.array([centre]))
        values: FloatArray = q[EQUILIBRIUM, 0, 0, level]
        return values

    # ---- acting ------------------------------------------------------------------------------
    def act(self, view: SeatView, rng: Rng) -> Any:
        obs = view.observation
        me = int(obs["seat"])
        scores = (int(obs["scores"][0]), int(obs["scores"][1]))
        reserves = [int(r) for r in obs["reserves"]]
        centre = int(obs["centre_snakes"])
        legal = list(view.legal_actions)
        if all(obs["in_round"]):
            rows, columns = self.grab_strategies(scores, reserves[0], reserves[1], centre)
            strategy = rows if me == 0 else columns
            return self._draw(strategy, legal, rng)
        values = self.lone_values(me, scores, reserves[me], centre, self._lone_level())
        sign = 1.0 if me == 0 else -1.0
        best = int(np.argmax(sign * values))
        return best if best in legal else legal[0]

    def _lone_level(self) -> int:
        """Index of the grabs-left axis: the full ``lone_player_grabs`` (the view does not count them)."""
        limit = self.rules.lone_grabs
        return 0 if limit is None else max(0, limit - 1)

    @staticmethod
    def _draw(strategy: FloatArray, legal: list[Any], rng: Rng) -> Any:
        pick = rng.random()
        total = 0.0
        for count, probability in enumerate(strategy):
            total += float(probability)
            if pick < total and count in legal:
                return count
        return max(legal, key=lambda count: float(strategy[count]) if count < len(strategy) else -1.0)


def _make(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
    check_params("equilibrium", params, ())
    return EquilibriumAgent(game)


register_agent(
    "equilibrium",
    _make,
    "two-player Eel Harvest / Wriggle Roulette: the grab solved as an equilibrium of the round (exact round, "
    "solved continuation values)",
    games=RULE_SETS,
)
