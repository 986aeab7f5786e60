"""Solved policies for a configured game, computed once per process and kept in memory.

The key is the game id, player count and every option value, so agents in a
long simulation (and a ``gamebag solve`` followed by a comparison) share one
solve. Win solutions hold a few megabytes at most (see ``docs/solvers.md``);
each cache keeps the ``MAX_CACHED`` most recently solved configurations, so a
long-running server that sees many option sets stays bounded in memory.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from gamebag.agents.solvers.model import RaceModel, RoundsModel, TurnModel, VaryingTurnModel
from gamebag.agents.solvers.race import RaceWinSolution, solve_race_win
from gamebag.agents.solvers.rounds import RoundsWinSolution, solve_rounds_win
from gamebag.agents.solvers.score import ScoreSolution, solve_expected_score
from gamebag.agents.solvers.turn_graph import TurnGraph, compile_turn
from gamebag.agents.solvers.turn_models import model_class_for, turn_model_of
from gamebag.core.errors import GamebagError
from gamebag.core.protocol import Game

WinSolution = RoundsWinSolution | RaceWinSolution
OBJECTIVES = ("score", "win")
WIN_PLAYERS = 2


class SolveError(GamebagError, ValueError):
    """A solve that this game or configuration does not support."""


CacheKey = tuple[str, int, tuple[tuple[str, Any], ...]]
RulesKey = tuple[CacheKey, Hashable]  # a configuration and one key of its turn rules
MAX_CACHED = 8  # configurations kept per cache (oldest solved first out)
MAX_CACHED_TURNS = 32  # turn graphs and score solutions kept (a configuration may have several turns)
_graphs: dict[RulesKey, TurnGraph] = {}
_score: dict[RulesKey, ScoreSolution] = {}
_win: dict[CacheKey, WinSolution] = {}


def _keep(cache: dict[Any, Any], key: Any, value: Any, most: int = MAX_CACHED) -> None:
    """Store ``value``, dropping the oldest entries beyond ``most`` (dicts keep insertion order)."""
    cache[key] = value
    while len(cache) > most:
        del cache[next(iter(cache))]


def cache_key(game: Game[Any, Any, Any]) -> CacheKey:
    return (game.game_id, game.num_players, tuple(sorted(game.options.items())))


def supports_score(game_class: type[Any]) -> bool:
    """Whether a turn model is registered for the game (``turn_models``)."""
    return model_class_for(game_class) is not None


def supports_win(game_class: type[Any]) -> bool:
    """Whether a win solver exists for the game's way of ending (rounds or race)."""
    model_class = model_class_for(game_class)
    return model_class is not None and (issubclass(model_class, RoundsModel) or issubclass(model_class, RaceModel))


def turn_model(game: Game[Any, Any, Any]) -> TurnModel:
    """The game's turn model; ``SolveError`` if none is registered."""
    model = turn_model_of(game)
    if model is None:
        raise SolveError(
            f"{game.game_id} exposes no turn model, so it cannot be solved exactly "
            "(a game supports the solvers by registering one: gamebag.agents.solvers.turn_models)"
        )
    return model


def varies(game: Game[Any, Any, Any]) -> bool:
    """Whether the game's turns can differ by round or seat (``VaryingTurnModel``)."""
    return isinstance(turn_model_of(game), VaryingTurnModel)


def rules_at(game: Game[Any, Any, Any], round_no: int, seat: int) -> Hashable:
    """The key of the turn rules of ``seat``'s turn in round ``round_no`` (None: a game with one turn)."""
    model = turn_model_of(game)
    return model.turn_rules(round_no, seat) if isinstance(model, VaryingTurnModel) else None


def turn_rules_keys(game: Game[Any, Any, Any]) -> list[Hashable]:
    """Every distinct key of the game's turn rules over its regular and tie-break rounds, in play order."""
    model = turn_model_of(game)
    if not isinstance(model, VaryingTurnModel):
        return [None]
    rounds, tiebreaks = model.round_structure() if isinstance(model, RoundsModel) else (1, 0)
    keys = (model.turn_rules(r, s) for r in range(1, rounds + tiebreaks + 1) for s in range(game.num_players))
    return list(dict.fromkeys(keys))


class _FirstTurn:
    """The default of ``rules`` below: the first turn's rules (a game's key may itself be None)."""

    def __repr__(self) -> str:
        return "FIRST_TURN"


FIRST_TURN: Hashable = _FirstTurn()


def turn_graph(game: Game[Any, Any, Any], rules: Hashable = FIRST_TURN) -> TurnGraph:
    """The compiled turn graph for one key of the turn rules (by default the first turn's), cached."""
    model = turn_model(game)
    if rules is FIRST_TURN:
        rules = model.turn_rules(1, 0) if isinstance(model, VaryingTurnModel) else None
    key = (cache_key(game), rules)
    graph = _graphs.get(key)
    if graph is None:
        graph = compile_turn(model.turn_model_for(rules) if isinstance(model, VaryingTurnModel) else model)
        _keep(_graphs, key, graph, MAX_CACHED_TURNS)
    return graph


def score_solution(game: Game[Any, Any, Any], rules: Hashable = FIRST_TURN) -> ScoreSolution:
    """The exact expected-score policy of one turn (the first turn's, or that of ``rules``), cached."""
    if rules is FIRST_TURN:
        rules = rules_at(game, 1, 0)
    key = (cache_key(game), rules)
    solution = _score.get(key)
    if solution is None:
        solution = solve_expected_score(turn_model(game), turn_graph(game, rules))
        _keep(_score, key, solution, MAX_CACHED_TURNS)
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
    model = turn_model(game)
    if isinstance(model, RoundsModel):
        solution = solve_rounds_win(model, turn_graph(game), graph_for=lambda rules: turn_graph(game, rules))
    elif isinstance(model, RaceModel):
        solution = solve_race_win(model, turn_graph(game))
    else:
        raise SolveError(
            f"{game.game_id} has no win solver: its turn model must expose round_structure() (round games) "
            "or race_goal() (race games)"
        )
    _keep(_win, key, solution)
    return solution


def clear() -> None:
    """Forget every cached solution (for measurements)."""
    _graphs.clear()
    _score.clear()
    _win.clear()
