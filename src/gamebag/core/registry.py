"""The game registry: game ids to rules classes and their text renderers.

Games register themselves when their package is imported (``gamebag.games``
imports every game package it contains), so no code anywhere switches on game
names.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamebag.core.errors import UnknownGameError
from gamebag.core.protocol import Game, JsonDict
from gamebag.core.translation import N_, _

ViewRenderer = Callable[[JsonDict], str]
# The lines telling one seat what happened between two of its views (``None``: the first view).
EventNarrator = Callable[[JsonDict | None, JsonDict], list[str]]
# One legal action (in its JSON form) in plain words, for the seat whose view is given.
ActionWords = Callable[[JsonDict, Any], str]
# What the decision the seat faces in this view means.
DecisionHelp = Callable[[JsonDict], str]
# Where a decision stands (round, grab or turn, phase), read off the deciding seat's view: a
# language-neutral object for records and JSON, and that object said in the players' words.
Locate = Callable[[JsonDict], JsonDict]
PlaceWords = Callable[[JsonDict], str]


def _no_events(before: JsonDict | None, after: JsonDict) -> list[str]:
    return []


def _json_words(view: JsonDict, action: Any) -> str:
    return json.dumps(action)


def _no_help(view: JsonDict) -> str:
    return ""


def _round_of(view: JsonDict) -> JsonDict:
    return {"round": view.get("round")}


def _round_words(place: JsonDict) -> str:
    return _(ROUND_TEXT, round=place.get("round"))


ROUND_TEXT = N_("round {round}")


@dataclass(frozen=True)
class GameEntry:
    """What the registry knows about one game: its rules class and how text front ends show it."""

    game_class: type[Game[Any, Any, Any]]
    render_view: ViewRenderer
    rules_text: Callable[[], str]
    narrate: EventNarrator = _no_events
    action_words: ActionWords = _json_words
    decision_help: DecisionHelp = _no_help
    locate: Locate = _round_of
    place_words: PlaceWords = _round_words
    # The rules as a player reads them (Markdown: setup, a turn, scoring, the end; no code), with
    # ``{{option}}`` or ``{{option|words when none}}`` where the table's own numbers go; None: none written.
    players_text: Callable[[], str] | None = None

    @property
    def game_id(self) -> str:
        return self.game_class.game_id


_REGISTRY: dict[str, GameEntry] = {}


def _same_definition(first: type[Game[Any, Any, Any]], second: type[Game[Any, Any, Any]]) -> bool:
    """Whether two classes are one definition: the same class, or the same name from the same source file."""
    if first is second:
        return True
    try:
        same_file = inspect.getsourcefile(first) == inspect.getsourcefile(second)
        return first.__qualname__ == second.__qualname__ and same_file
    except TypeError:  # a class with no source file (built in a session): only itself is itself
        return False


def register(
    game_class: type[Game[Any, Any, Any]],
    render_view: ViewRenderer,
    rules_text: Callable[[], str],
    *,
    narrate: EventNarrator = _no_events,
    action_words: ActionWords = _json_words,
    decision_help: DecisionHelp = _no_help,
    locate: Locate = _round_of,
    place_words: PlaceWords = _round_words,
    players_text: Callable[[], str] | None = None,
) -> None:
    """Add a game; registering the same class twice is harmless, and so is the same class defined
    again by its file imported a second time (a plugin loaded by path and by entry point)."""
    existing = _REGISTRY.get(game_class.game_id)
    if existing is not None and not _same_definition(existing.game_class, game_class):
        raise ValueError(f"game id {game_class.game_id!r} is already registered")
    _REGISTRY[game_class.game_id] = GameEntry(
        game_class, render_view, rules_text, narrate, action_words, decision_help, locate, place_words, players_text
    )


def register_variant(game_class: type[Game[Any, Any, Any]], base_id: str, rules_text: Callable[[], str]) -> None:
    """Register a variant of the game ``base_id``: its own rules text, the base game's renderers."""
    base = entry(base_id)
    register(
        game_class,
        base.render_view,
        rules_text,
        narrate=base.narrate,
        action_words=base.action_words,
        decision_help=base.decision_help,
        locate=base.locate,
        place_words=base.place_words,
    )


def entry(game_id: str) -> GameEntry:
    """The entry for ``game_id``, or ``UnknownGameError`` listing the known ids."""
    try:
        return _REGISTRY[game_id]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or _("none registered")
        raise UnknownGameError(
            _("unknown game {game}; known games: {known}", game=repr(game_id), known=known)
        ) from None


def game_ids() -> tuple[str, ...]:
    """Every registered game id, sorted."""
    return tuple(sorted(_REGISTRY))


def unregister(game_id: str) -> None:
    """Forget ``game_id`` (a plugin game that failed its conformance check)."""
    _REGISTRY.pop(game_id, None)


def lineage(game_class: type[Game[Any, Any, Any]]) -> tuple[str, ...]:
    """``game_class``'s own id, then the ids of the registered games it derives from (a variant's bases).

    A variant written as a subclass inherits what is registered for its base game (its heuristic,
    its exact solvers) unless it registers its own; compiled engines, keyed by the exact id, do not.
    """
    ids: list[str] = []
    for cls in game_class.__mro__:
        game_id = cls.__dict__.get("game_id")
        if isinstance(game_id, str) and game_id not in ids:
            ids.append(game_id)
    return tuple(ids)
