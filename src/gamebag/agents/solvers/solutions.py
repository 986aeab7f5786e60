"""Solved policies for a configured game, computed once per process and kept in memory.

The key is the game id, player count and every option value, so agents in a
long simulation (and a ``gamebag solve`` followed by a comparison) share one
solve. Win solutions hold a few megabytes at most (see ``docs/solvers.md``);
each cache keeps the ``MAX_CACHED`` most recently solved configurations, so a
long-running server that sees many option sets stays bounded in memory.
"""

from __future__ import annotations

from typing import Any

from gamebag.agents.solvers.model import RaceModel, RoundsModel, TurnModel
from gamebag.agents.solvers.race import RaceWinSolution, solve_race_win
from gamebag.agents.solvers.rounds import RoundsWinSolution, solve_rounds_win
from gamebag.agents.solvers.score import ScoreSolution, solve_expected_score
from gamebag.agents.solvers.turn_graph import TurnGraph, compile_turn
from gamebag.core.errors import GamebagError
from gamebag.core.protocol import Game

WinSolution = RoundsWinSolution | RaceWinSolution
OBJECTIVES = ("score", "win")
WIN_PLAYERS = 2


class SolveError(GamebagError, ValueError):
    """A solve that this game or configuration does not support."""


CacheKey = tuple[str, int, tuple[tuple[str, Any], ...]]
MAX_CACHED = 8  # configurations kept per cache (oldest solved first out)
_graphs: dict[CacheKey, TurnGraph] = {}
_score: dict[CacheKey, ScoreSolution] = {}
_win: dict[CacheKey, WinSolution] = {}


def _keep(cache: dict[CacheKey, Any], key: CacheKey, value: Any) -> None:
    """Store ``value``, dropping the oldest entries beyond ``MAX_CACHED`` (dicts keep insertion order)."""
    cache[key] = value
    while len(cache) > MAX_CACHED:
        del cache[next(iter(cache))]


def cache_key(game: Game[Any, Any, Any]) -> CacheKey:
    return (game.game_id, game.num_players, tuple(sorted(game.options.items())))


def supports_score(game_class: type[Any]) -> bool:
    """Whether the game's instances expose a turn model."""
    return issubclass(game_class, TurnModel)


def supports_win(game_class: type[Any]) -> bool:
    """Whether a win solver exists for the game's way of ending (rounds or race)."""
    return issubclass(game_class, RoundsModel) or issubclass(game_class, RaceModel)


def turn_model(game: Game[Any, Any, Any]) -> TurnModel:
    if not isinstance(game, TurnModel):
        raise SolveError(
            f"{game.game_id} exposes no turn model, so it cannot be solved exactly "
            "(a game supports the solvers by giving its class the TurnModel methods)"
        )
    return game


def turn_graph(game: Game[Any, Any, Any]) -> TurnGraph:
    key = cache_key(game)
    graph = _graphs.get(key)
    if graph is None:
        graph = compile_turn(turn_model(game))
        _keep(_graphs, key, graph)
    return graph


def score_solution(game: Game[Any, Any, Any]) -> ScoreSolution:
    """The exact expected-score policy (cached)."""
    key = cache_key(game)
    solution = _score.get(key)
    if solution is None:
        solution = solve_expected_score(turn_model(game), turn_graph(game))
        _keep(_score, key, solution)
    return solution


def win_solution(game: Game[Any, Any, Any]) -> WinSolution:
    """The two-player win policy (cached); ``SolveError`` if unsupported."""
    if game.num_players != WIN_PLAYERS:
        raise SolveError(
            f"the win objective is solved for {WIN_PLAYERS} players; {game.game_id} is configured "
            f"for {game.num_players}"
        )
    key = cache_key(game)
    cached = _win.get(key)
    if cached is not None:
        return cached
    solution: WinSolution
    if isinstance(game, RoundsModel):
        solution = solve_rounds_win(game, turn_graph(game))
    elif isinstance(game, RaceModel):
        solution = solve_race_win(game, turn_graph(game))
    else:
        raise SolveError(
            f"{game.game_id} has no win solver: it must expose round_structure() (round games) "
            "or race_goal() (race games)"
        )
    _keep(_win, key, solution)
    return solution


def clear() -> None:
    """Forget every cached solution (for measurements)."""
    _graphs.clear()
    _score.clear()
    _win.clear()
