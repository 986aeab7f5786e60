"""The ``equilibrium`` agent: two-player Eel Harvest and Wriggle Roulette played from a solved round.

At each grab the agent reads its observation (scores, reserves, who is still in,
snakes in the centre), solves the current round exactly for those scores (once
per round; cached, see below) with the shipped continuation table ``W`` valuing
the scores the round may end at, and then

* with both seats in: solves the grab's 7 x 7 matrix game and draws its count
  from its equilibrium mixed strategy with the caller's generator;
* alone in the round: takes the count of the exact optimal stopping rule.

Option sets without a table of their own (``lone_player_grabs``) reuse the
table of the same rules without that option: the round itself is still solved
under the options in play. The observation does not say how many grabs a lone
player has left under ``lone_player_grabs``; the agent assumes the full number.

Solving a round is nearly all of an equilibrium game's time, so solved
rounds live in one cache per process, shared by every agent of the same rules (both seats of
a game, every game of a tournament batch, every table of the server): a round met again,
such as the opening round of each game, is not solved again. The cache holds at most
``CACHE_BYTES`` of solutions, dropping the least recently used. A solution depends only on the
rules, the shipped table and the scores, never on a seat's private view, so sharing it shares
nothing one seat may not know.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.equilibrium.model import RULE_SETS, FloatArray, RoundRules, changed_numbers, rules_for
from gamebag.agents.equilibrium.solver import EQUILIBRIUM, RoundBatch, RoundSolver, solve_matrix_games
from gamebag.agents.equilibrium.tables import TABLES
from gamebag.agents.registry import check_params, register_agent
from gamebag.core.errors import GamebagError, UnknownAgentError
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng
from gamebag.core.translation import N_, _

# Solved rounds kept per process (a two-player round is about half a megabyte: some 120 rounds).
CACHE_BYTES = 64 * 2**20
# Every game's first round starts at these scores.
OPENING_SCORES = (0, 0)
# New rounds an equilibrium seat solves per game, for the time estimate before a long run
# (bench/bench_equilibrium.py: about 1.5 a game against the heuristic in Wriggle Roulette and Eel Harvest).
ROUNDS_PER_GAME = 2.0

_T = TypeVar("_T")


class SolutionCache:
    """Solved rounds by (rules, table, scores), least recently used dropped past ``limit`` bytes; thread-safe."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.bytes = 0
        self.hits = 0
        self.solves = 0
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, solve: Callable[[], _T], size: Callable[[_T], int]) -> _T:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                value: _T = entry[0]
                return value
        solved = solve()  # outside the lock: another thread may solve another round meanwhile
        nbytes = size(solved)
        with self._lock:
            self.solves += 1
            if key not in self._entries:
                self._entries[key] = (solved, nbytes)
                self.bytes += nbytes
            while self.bytes > self.limit and len(self._entries) > 1:
                _key, (_value, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped
        return solved

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = self.hits = self.solves = 0

    def __len__(self) -> int:
        return len(self._entries)


SOLUTIONS = SolutionCache(CACHE_BYTES)


def _round_bytes(batch: RoundBatch) -> int:
    return int(batch.both.nbytes + sum(a.nbytes for a in batch.lone) + sum(a.nbytes for a in batch.ends))


def _lone_bytes(pair: tuple[FloatArray, FloatArray]) -> int:
    return int(pair[0].nbytes + pair[1].nbytes)


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

    # ---- strategies --------------------------------------------------------------------------
    def round_solution(self, s0: int, s1: int) -> RoundBatch:
        """The solved round starting at scores ``(s0, s1)`` (from the process's cache when solved before)."""
        key = ("round", self.rules, self.table_key, s0, s1)
        return SOLUTIONS.get(key, lambda: self.solver.solve([(s0, s1)], self.continuation), _round_bytes)

    def grab_strategies(self, scores: tuple[int, int], r0: int, r1: int, centre: int) -> tuple[FloatArray, FloatArray]:
        """Both seats' equilibrium mixed strategies over counts 0..6 with both in the round."""
        solution = self.round_solution(*scores)
        q = self.solver.both_q(solution, np.array([r0]), np.array([r1]), np.array([centre]))
        rows, columns = solve_matrix_games(q[EQUILIBRIUM])
        return rows[0], columns[0]

    def lone_values(self, seat: int, scores: tuple[int, int], reserve: int, centre: int, level: int) -> FloatArray:
        """Seat 0's value of each count 0..6 for ``seat`` alone in the round."""
        key = ("lone", self.rules, self.table_key, seat, *scores)
        lone, ends = SOLUTIONS.get(
            key, lambda: self.solver.solve_lone(seat, scores, self.continuation), _lone_bytes
        )
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


def seconds_per_round(game: Game[Any, Any, Any]) -> float:
    """This machine's time to solve one round of ``game`` (the opening round, timed once per process;
    its solution goes to the cache, where the games will look for it)."""
    agent = EquilibriumAgent(game)
    opening = ("round", agent.rules, agent.table_key, *OPENING_SCORES)

    def measure() -> float:
        started = time.perf_counter()
        solution = agent.solver.solve([OPENING_SCORES], agent.continuation)
        seconds = time.perf_counter() - started
        SOLUTIONS.get(opening, lambda: solution, _round_bytes)
        return seconds

    return SOLUTIONS.get((*opening, "seconds"), measure, lambda _game: 0)


def _make(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
    check_params("equilibrium", params, ())
    return EquilibriumAgent(game)


def _refusal(game: Game[Any, Any, Any]) -> str | None:
    """Why the equilibrium agent cannot play ``game`` (two-player Eel games with the rulebook's numbers
    only), read from the round model's own checks: no table is solved here."""
    try:
        changed = changed_numbers(rules_for(game))
    except GamebagError as error:
        return str(error)
    if not changed:
        return None
    return _("its tables are solved for the rulebook's numbers, not changed {options}", options=", ".join(changed))


register_agent(
    "equilibrium",
    _make,
    N_("two-player Eel Harvest / Wriggle Roulette: the grab solved as an equilibrium of the round (exact round, "
       "solved continuation values)"),
    games=RULE_SETS,
    refuses=_refusal,
)
