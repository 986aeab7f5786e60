"""The Eel Harvest family: ``eel-harvest`` and ``wriggle-roulette`` share one engine."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from gamebag.core.i18n import localized_text
from gamebag.core.registry import register
from gamebag.games.eel_family import translation as _translation  # noqa: F401 - declares the game's catalogue
from gamebag.games.eel_family.places import locate, place_words
from gamebag.games.eel_family.render import action_words, decision_help, narrate, render_view
from gamebag.games.eel_family.rules import EelFamilyGame, EelHarvest, EelState, WriggleRoulette

__all__ = ["EelFamilyGame", "EelHarvest", "EelState", "WriggleRoulette"]


def rules_text() -> str:
    """The players' guide to both rule sets."""
    return resources.files(__name__).joinpath("rules.md").read_text(encoding="utf-8")


def players_text_of(game_id: str) -> Callable[[], str]:
    """The reader of one rule set's rules as a player reads them (``players-<game id>.md``)."""

    def players_text() -> str:
        # In the reader's language: ``players-<game id>.<language>.md`` where there is one.
        return localized_text(__name__, f"players-{game_id}.md")

    return players_text


for _rules in (EelHarvest, WriggleRoulette):
    register(
        _rules,
        render_view,
        rules_text,
        narrate=narrate,
        action_words=action_words,
        decision_help=decision_help,
        locate=locate,
        place_words=place_words,
        players_text=players_text_of(_rules.game_id),
    )
