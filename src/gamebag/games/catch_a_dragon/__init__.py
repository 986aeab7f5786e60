"""Catch A Dragon By The Tail (``catch-a-dragon``): a push-your-luck dice game for 1 to 8."""

from __future__ import annotations

from importlib import resources

from gamebag.core.i18n import localized_text
from gamebag.core.registry import register
from gamebag.games.catch_a_dragon import translation as _translation  # noqa: F401 - declares the game's catalogue
from gamebag.games.catch_a_dragon.places import locate, place_words
from gamebag.games.catch_a_dragon.render import action_words, decision_help, narrate, render_view
from gamebag.games.catch_a_dragon.rules import CatchADragon, DragonState

__all__ = ["CatchADragon", "DragonState"]


def rules_text() -> str:
    """The players' guide, with our readings of the rulebook's gaps."""
    return resources.files(__name__).joinpath("rules.md").read_text(encoding="utf-8")


def players_text() -> str:
    """The rules as a player reads them (the web's rules page), in the reader's language."""
    return localized_text(__name__, "players.md")


register(
    CatchADragon,
    render_view,
    rules_text,
    narrate=narrate,
    action_words=action_words,
    decision_help=decision_help,
    locate=locate,
    place_words=place_words,
    players_text=players_text,
)
