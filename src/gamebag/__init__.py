"""gamebag: play, simulate, solve and study tabletop games.

>>> import gamebag
>>> game = gamebag.make("wriggle-roulette", players=4)
>>> state = game.initial_state()
"""

from __future__ import annotations

import importlib
from typing import Any

from gamebag.core.errors import (
    GamebagError,
    IllegalActionError,
    IllegalChanceOutcomeError,
    OptionError,
    PlayerCountError,
    RecordError,
    UnknownGameError,
)
from gamebag.core.protocol import Game
from gamebag.core.registry import GameEntry
from gamebag.core.traits import Information, Moves, NodeKind, Termination, Traits
from gamebag.fast.solved import provide_solutions
from gamebag.fast.weights import provide_learned

__version__ = "0.1.0"

__all__ = [
    "Game",
    "GamebagError",
    "IllegalActionError",
    "IllegalChanceOutcomeError",
    "Information",
    "Moves",
    "NodeKind",
    "OptionError",
    "PlayerCountError",
    "RecordError",
    "Termination",
    "Traits",
    "UnknownGameError",
    "entry",
    "game_ids",
    "make",
]


# Importing the games package registers every game it contains; ``gamebag.games``
# is that package, and the list of registered ids is ``game_ids()``.
importlib.import_module("gamebag.games")

# Then the games of installed plugins (``gamebag.games`` entry points) and of the files named in
# ``GAMEBAG_PLUGINS`` (set by ``gamebag --plugin``, inherited by worker processes); problems are
# kept for the command line to report (``gamebag.plugins``).
plugin_problems: list[str] = importlib.import_module("gamebag.plugins").load_installed()


def _exact_solution(game: Game[Any, Any, Any], objective: str) -> Any:
    """The exact solvers' policy of ``game`` for ``objective`` (solved once per process and cached)."""
    from gamebag.agents.solvers.solutions import score_solution, win_solution

    return score_solution(game) if objective == "score" else win_solution(game)


# The package wires its layers together here: the compiled engines (``gamebag.fast``) read
# solved policies without importing the solvers above them, so the exact solvers are handed
# to them (imported only when a compiled optimal policy first asks).
provide_solutions(_exact_solution)


def _shipped_learned(game: Game[Any, Any, Any]) -> Any:
    """The layers of the ``learned`` policy shipped for ``game`` (``LookupError`` saying why when none)."""
    from gamebag.agents.learned import shipped_layers

    return shipped_layers(game)


# Likewise the compiled engines play the shipped ``learned`` policies (``gamebag.fast.weights``)
# without importing the agents layer that ships them.
provide_learned(_shipped_learned)


def make(game_id: str, players: int | None = None, **options: Any) -> Game[Any, Any, Any]:
    """A configured game: ``make("wriggle-roulette", players=4, rotate_start=True)``."""
    return entry(game_id).game_class(players, **options)


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game, sorted."""
    from gamebag.core import registry

    return registry.game_ids()


def entry(game_id: str) -> GameEntry:
    """The registry entry (rules class, renderer, rules text) of ``game_id``."""
    from gamebag.core import registry

    return registry.entry(game_id)
