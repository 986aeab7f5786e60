"""The players' "full rules" page: a game's rules as a player reads them, with a table's own numbers.

``GET /rules/{game_id}`` is a page (``templates/rules.html``, ``static/js/rules.js``);
``GET /api/games/{game_id}/players-rules?players=N&options={...}`` answers its text: the game's
players' rules (the ``players_text`` its registration gives: setup, a turn, scoring, the end; no
code, no command line, no action codes) with every ``{{option}}`` filled in from the table's
options (``{{option|words}}``: the words where the option is none), and the table's options in
players' words after it. Developer material stays in ``docs/`` and ``gamebag rules``.

The request is bounded (``MAX_OPTIONS_TEXT``) and checked as a table request is (``LobbyError``
in players' words); answers are cached, so the event loop only formats text once per setup.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse

import gamebag
from gamebag.core.options import Option, OptionValue
from gamebag.core.protocol import Game
from gamebag.web.admission.bounds import LobbyError
from gamebag.web.lobby import make_requested
from gamebag.web.variants import option_label, option_summary
from gamebag.web.words.pages import page

__all__ = ["MAX_OPTIONS_TEXT", "PLACEHOLDER", "players_rules", "rules_router"]

MAX_OPTIONS_TEXT = 4000  # characters of the ``options`` JSON a request may send
PLACEHOLDER = re.compile(r"\{\{(\w+)(?:\|([^}]*))?\}\}")

# The page's words, in one place (translation catalogues come next).
WORDS = {
    "no_text": "This game has no players' rules page yet; its options are below.",
    "options_heading": "## The options of this table",
    "rulebook": "the rulebook's",
    "yes": "yes",
    "no": "no",
    "none": "none",
    "bad_options": "'options' must be a JSON object of option names to values, at most {limit} characters",
    "bad_players": "'players' must be a whole number of players",
}


def rules_router(static_dir: Path) -> APIRouter:
    """The rules page and its text, as routes for the app to include."""
    router = APIRouter()

    @router.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> HTMLResponse:
        return page("rules.html")

    @router.get("/api/games/{game_id}/players-rules")
    async def players_rules_text(game_id: str, players: str | None = None, options: str | None = None) -> JSONResponse:
        """A game's rules as a player reads them, with the numbers of the setup asked for."""
        if game_id not in gamebag.game_ids():
            known = ", ".join(gamebag.game_ids())
            return JSONResponse({"error": f"there is no game {game_id!r}; the games are: {known}"}, status_code=404)
        try:
            answer = players_rules(game_id, _players(players), _options_text(options))
        except LobbyError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse(answer)

    return router


def _players(text: str | None) -> int | None:
    if text is None or text == "":
        return None
    if not text.isdigit() or len(text) > 3:
        raise LobbyError(WORDS["bad_players"])
    return int(text)


def _options_text(text: str | None) -> str:
    """The options as canonical JSON (the cache's key), or ``LobbyError``."""
    if text is None or text == "":
        return "{}"
    bad = LobbyError(WORDS["bad_options"].format(limit=MAX_OPTIONS_TEXT))
    if len(text) > MAX_OPTIONS_TEXT:
        raise bad
    try:
        given = json.loads(text)
    except ValueError:
        raise bad from None
    if not isinstance(given, dict):
        raise bad
    return json.dumps(given, sort_keys=True)


@lru_cache(maxsize=256)
def players_rules(game_id: str, players: int | None, options_json: str) -> dict[str, Any]:
    """``{"game", "title", "players", "markdown"}``: the players' rules of the setup, its numbers filled in."""
    game = make_requested(game_id, players, json.loads(options_json))
    reader = gamebag.entry(game_id).players_text
    # Numbers that follow the player count are the table's own only when the count was given.
    numbers = game.table_numbers() if players is not None else {}
    text = fill_numbers(reader(), game, numbers) if reader is not None else WORDS["no_text"]
    sections = [text.strip(), options_section(game)] if game.option_specs else [text.strip()]
    return {
        "game": game_id,
        "title": type(game).title,
        "players": game.num_players,
        "markdown": "\n\n".join(sections) + "\n",
    }


def fill_numbers(text: str, game: Game[Any, Any, Any], numbers: dict[str, str] | None = None) -> str:
    """``text`` with every ``{{option}}`` replaced by the table's number (``numbers``: what
    ``Game.table_numbers`` says for its player count), else the game's value in words
    (``{{option|words}}``: ``words`` where the value is none). A name that is not an option is left
    as written (a test checks every players' text names only its game's options)."""

    def value(found: re.Match[str]) -> str:
        name, when_none = found.group(1), found.group(2)
        if name not in game.options:
            return found.group(0)
        if numbers and name in numbers:
            return numbers[name]
        chosen = game.options[name]
        if chosen is None and when_none is not None:
            return when_none
        return value_words(chosen)

    return PLACEHOLDER.sub(value, text)


def value_words(value: OptionValue) -> str:
    """An option value as a player reads it: yes or no, a number, a list of names."""
    if isinstance(value, bool):
        return WORDS["yes"] if value else WORDS["no"]
    if value is None:
        return WORDS["none"]
    if isinstance(value, tuple):
        return ", ".join(value)
    return str(value)


def options_section(game: Game[Any, Any, Any]) -> str:
    """Every option of the table in players' words: its label, its value (marked where it is the
    rulebook's), and the one line that explains it."""
    lines = [WORDS["options_heading"], ""]
    for spec in game.option_specs:
        lines.append(f"- **{option_label(spec.name)}:** {_shown_value(spec, game.options[spec.name])}. "
                     f"{option_summary(spec.doc)}")
    return "\n".join(lines)


def _shown_value(spec: Option, chosen: OptionValue) -> str:
    words = value_words(chosen)
    return f"{words} ({WORDS['rulebook']})" if chosen == spec.default else words
