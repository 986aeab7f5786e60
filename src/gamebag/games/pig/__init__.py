"""Pig (``pig``): the two-player roll-or-hold dice game, the win solver's reference."""

from __future__ import annotations

from importlib import resources

from gamebag.core.i18n import localized_text
from gamebag.core.registry import register
from gamebag.games.pig import translation as _translation  # noqa: F401 - declares the game's catalogue
from gamebag.games.pig.places import locate, place_words
from gamebag.games.pig.render import action_words, decision_help, narrate, render_view
from gamebag.games.pig.rules import Pig, PigState

__all__ = ["Pig", "PigState"]


def rules_text() -> str:
    """The players' guide."""
    return resources.files(__name__).joinpath("rules.md").read_text(encoding="utf-8")


def players_text() -> str:
    """The rules as a player reads them (the web's rules page), in the reader's language."""
    return localized_text(__name__, "players.md")


register(
    Pig,
    render_view,
    rules_text,
    narrate=narrate,
    action_words=action_words,
    decision_help=decision_help,
    locate=locate,
    place_words=place_words,
    players_text=players_text,
)
