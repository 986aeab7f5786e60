"""Eigen Kweek (``eigen-kweek``): sealed weed-token bids, plants, characters, potato sacks."""

from __future__ import annotations

from importlib import resources

from gamebag.core.i18n import localized_text
from gamebag.core.registry import register
from gamebag.games.eigen_kweek import translation as _translation  # noqa: F401 - declares the game's catalogue
from gamebag.games.eigen_kweek.game import EigenKweek
from gamebag.games.eigen_kweek.places import locate, place_words
from gamebag.games.eigen_kweek.render import action_words, decision_help, narrate, render_view
from gamebag.games.eigen_kweek.state import KweekState

__all__ = ["EigenKweek", "KweekState"]


def rules_text() -> str:
    """The players' guide (also ``docs/rules/eigen-kweek.md``)."""
    return resources.files(__name__).joinpath("rules.md").read_text(encoding="utf-8")


def players_text() -> str:
    """The rules as a player reads them (the web's rules page), in the reader's language
    (``players.nl.md`` for a Dutch reader, ``players.md`` for English and any missing translation)."""
    return localized_text(__name__, "players.md")


register(
    EigenKweek,
    render_view,
    rules_text,
    narrate=narrate,
    action_words=action_words,
    decision_help=decision_help,
    locate=locate,
    place_words=place_words,
    players_text=players_text,
)
