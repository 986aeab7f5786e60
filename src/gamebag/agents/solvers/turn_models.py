"""Which turn model the exact solvers read for a game: a registry by game class.

A game's rules say nothing about the solvers: its turn-level model (``model.TurnModel``) is a
class of its own, beside the solvers (``gamebag.agents.solvers.models``), registered here for
the game's class with ``register_turn_model``. A subclass of a registered game (a variant) is
read by its base's model unless it registers its own: the model reads the rules through the
game's public hooks, so a variant that overrides a hook is solved by the same rule.

A plugin game supports the solvers by registering its own model class, built from the game:
``register_turn_model(MyGame, MyTurns)`` where ``MyTurns(game)`` has the ``TurnModel`` methods.
"""

from __future__ import annotations

import importlib
from typing import Any
from weakref import WeakKeyDictionary

from gamebag.agents.solvers.model import TurnModel
from gamebag.core.protocol import Game

# gamebag's own games' models, imported (and so registered) on the first lookup, by name as the agent
# registry imports the agents: a model imports its game, and the solvers themselves import none.
OWN_MODELS = "gamebag.agents.solvers.models"
_MODEL_CLASSES: dict[type[Any], type[Any]] = {}
# One model per game object, built on first use (a model may keep caches of its own).
_MODELS: WeakKeyDictionary[Game[Any, Any, Any], TurnModel] = WeakKeyDictionary()


def register_turn_model(game_class: type[Game[Any, Any, Any]], model_class: type[Any]) -> None:
    """Read ``game_class`` (and its subclasses) through ``model_class(game)``, a ``TurnModel``."""
    if not issubclass(model_class, TurnModel):
        raise TypeError(f"{model_class.__name__} lacks methods of the TurnModel protocol")
    _MODEL_CLASSES[game_class] = model_class


def model_class_for(game_class: type[Any]) -> type[Any] | None:
    """The model class registered for ``game_class`` or its nearest registered base, else ``None``."""
    importlib.import_module(OWN_MODELS)
    for cls in game_class.__mro__:
        found = _MODEL_CLASSES.get(cls)
        if found is not None:
            return found
    return None


def turn_model_of(game: Game[Any, Any, Any]) -> TurnModel | None:
    """The turn model of this configured game (built once per game), or ``None`` if it has none."""
    model = _MODELS.get(game)
    if model is None:
        model_class = model_class_for(type(game))
        if model_class is None:
            return None
        built = model_class(game)
        if not isinstance(built, TurnModel):
            raise TypeError(f"{model_class.__name__}({game!r}) is not a TurnModel")
        model = _MODELS[game] = built
    return model
