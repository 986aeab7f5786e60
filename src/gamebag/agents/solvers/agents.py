"""The ``optimal-score`` and ``optimal-win`` agents, playing exactly solved policies.

Both read the seat's observation through the game's ``turn_position`` and look
the decision up in a cached solution, so after the first solve each move is a
dictionary or array lookup. They are offered for every registered game whose
class exposes the solver protocols (``model.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gamebag
from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import check_params, register_agent
from gamebag.agents.solvers.score import ScoreSolution
from gamebag.agents.solvers.solutions import (
    WIN_PLAYERS,
    SolveError,
    WinSolution,
    rules_at,
    score_solution,
    supports_score,
    supports_win,
    turn_model,
    turn_rules_keys,
    varies,
    win_solution,
)
from gamebag.core.errors import UnknownAgentError
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng
from gamebag.core.translation import N_, _


class OptimalScoreAgent(Agent):
    """Maximises the expected points of the current turn (ignores the scores).

    Where the turn rules change by round or seat, each turn is played by its own rules' solution.
    """

    name = "optimal-score"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self.model = turn_model(game)
        self.solution: ScoreSolution = score_solution(game)
        self.varies = varies(game) and len(turn_rules_keys(game)) > 1

    def act(self, view: SeatView, rng: Rng) -> Any:
        position = self.model.turn_position(view.observation)
        if self.varies:
            return score_solution(self.game, rules_at(self.game, position.round, position.seat)).action_at(
                position.node
            )
        return self.solution.action_at(position.node)


class OptimalWinAgent(Agent):
    """Maximises the chance of winning the whole game against an equally optimal opponent."""

    name = "optimal-win"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.model = turn_model(game)
        self.solution: WinSolution = win_solution(game)

    def act(self, view: SeatView, rng: Rng) -> Any:
        return self.solution.action_for(self.model.turn_position(view.observation))


def _supported(check: Callable[[type[Any]], bool]) -> tuple[str, ...]:
    return tuple(game_id for game_id in gamebag.game_ids() if check(gamebag.entry(game_id).game_class))


def _factory(name: str, build: Callable[[Game[Any, Any, Any]], Agent]) -> Any:
    def make(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
        check_params(name, params, ())
        try:
            return build(game)
        except SolveError as error:
            raise UnknownAgentError(f"agent {name!r}: {error}") from None

    return make


register_agent(
    "optimal-score",
    _factory("optimal-score", OptimalScoreAgent),
    N_("exactly maximises the expected points of each turn (exact expectimax)"),
    games=_supported(supports_score),
    accepts=supports_score,
)


def _win_refusal(game: Game[Any, Any, Any]) -> str | None:
    """The win objective is solved for two players only (checked before any solve)."""
    if game.num_players != WIN_PLAYERS:
        return _("it is solved for {solved} players, not {players}", solved=WIN_PLAYERS, players=game.num_players)
    return None


register_agent(
    "optimal-win",
    _factory("optimal-win", OptimalWinAgent),
    N_("exactly maximises the chance of winning the game, two players (dynamic programming)"),
    games=_supported(supports_win),
    accepts=supports_win,
    refuses=_win_refusal,
)
