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
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.registry import GameEntry

__version__ = "0.1.0"

__all__ = [
    "Game",
    "GamebagError",
    "IllegalActionError",
    "IllegalChanceOutcomeError",
    "NodeKind",
    "OptionError",
    "PlayerCountError",
    "RecordError",
    "UnknownGameError",
    "entry",
    "games",
    "make",
]


def _load_games() -> None:
    # Importing the games package registers every game it contains. The import
    # binds the subpackage to the name ``games`` on this module; the function of
    # that name, defined below, is rebound after it so ``gamebag.games()`` works.
    importlib.import_module("gamebag.games")


_load_games()


def make(game_id: str, players: int | None = None, **options: Any) -> Game[Any, Any, Any]:
    """A configured game: ``make("wriggle-roulette", players=4, rotate_start=True)``."""
    return entry(game_id).game_class(players, **options)


def games() -> tuple[str, ...]:
    """The ids of every registered game."""
    from gamebag.core import registry

    return registry.game_ids()


def entry(game_id: str) -> GameEntry:
    """The registry entry (rules class, renderer, rules text) of ``game_id``."""
    from gamebag.core import registry

    return registry.entry(game_id)
