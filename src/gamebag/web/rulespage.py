"""The players' "full rules" page: a game's rules as a player reads them, with a table's own numbers.

``GET /rules/{game_id}`` is a page (``templates/rules.html``, ``static/js/rules.js``);
``GET /api/games/{game_id}/players-rules?players=N&options={...}`` answers its text: the game's
players' rules (the ``players_text`` its registration gives: setup, a turn, scoring, the end; no
code, no command line, no action codes) with every ``{{option}}`` filled in from the table's
options (``{{option|words}}``: the words where the option is none), and the table's options in
players' words after it. Developer material stays in ``docs/`` and ``gamebag rules``.

The request is bounded (``MAX_OPTIONS_TEXT``) and checked as a table request is (``LobbyError``
in players' words); answers are cached per language, so the event loop only formats text once per
setup and language. The text is the reader's: the game's ``players_text()`` answers in the current
language, the options' labels and lines too.
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
from gamebag.core.i18n import current_language, game_text, join_list, number
from gamebag.core.options import Option, OptionValue
from gamebag.core.protocol import Game
from gamebag.web.admission.bounds import LobbyError
from gamebag.web.lobby import make_requested
from gamebag.web.variants import option_label, option_summary
from gamebag.web.words.pages import page
from gamebag.web.words.text import N_, _

__all__ = ["MAX_OPTIONS_TEXT", "PLACEHOLDER", "players_rules", "rules_router"]

MAX_OPTIONS_TEXT = 4000  # characters of the ``options`` JSON a request may send
PLACEHOLDER = re.compile(r"\{\{(\w+)(?:\|([^}]*))?\}\}")

# The page's words, in one place (translated where they are shown).
WORDS = {
    "no_text": N_("This game has no players' rules page yet; its options are below."),
    "options_heading": N_("## The options of this table"),
    "rulebook": N_("the rulebook's"),
    "yes": N_("yes"),
    "no": N_("no"),
    "none": N_("none"),
    "bad_options": N_("'options' must be a JSON object of option names to values, at most {limit} characters"),
    "bad_players": N_("'players' must be a whole number of players"),
    "no_game": N_("there is no game {game}; the games are: {games}"),
    # Translators: one line of the options list in Markdown: keep the ** around the label.
    "option_line": N_("- **{label}:** {value}. {summary}"),
    "default_value": N_("{value} ({rulebook})"),
}


def rules_router(static_dir: Path) -> APIRouter:
    """The rules page and its text, as routes for the app to include."""
    router = APIRouter()

    @router.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> HTMLResponse:
        return await page("rules.html")

    @router.get("/api/games/{game_id}/players-rules")
    async def players_rules_text(game_id: str, players: str | None = None, options: str | None = None) -> JSONResponse:
        """A game's rules as a player reads them, with the numbers of the setup asked for."""
        if game_id not in gamebag.game_ids():
            known = ", ".join(gamebag.game_ids())
            return JSONResponse({"error": _(WORDS["no_game"], game=repr(game_id), games=known)}, status_code=404)
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
        raise LobbyError(_(WORDS["bad_players"]))
    return int(text)


def _options_text(text: str | None) -> str:
    """The options as canonical JSON (the cache's key), or ``LobbyError``."""
    if text is None or text == "":
        return "{}"
    bad = LobbyError(_(WORDS["bad_options"], limit=MAX_OPTIONS_TEXT))
    if len(text) > MAX_OPTIONS_TEXT:
        raise bad
    try:
        given = json.loads(text)
    except ValueError:
        raise bad from None
    if not isinstance(given, dict):
        raise bad
    return json.dumps(given, sort_keys=True)


def players_rules(game_id: str, players: int | None, options_json: str) -> dict[str, Any]:
    """``{"game", "title", "players", "markdown"}``: the players' rules of the setup, its numbers filled
    in, in the reader's language."""
    return _players_rules(game_id, players, options_json, current_language())


@lru_cache(maxsize=256)
def _players_rules(game_id: str, players: int | None, options_json: str, language: str) -> dict[str, Any]:
    game = make_requested(game_id, players, json.loads(options_json))
    reader = gamebag.entry(game_id).players_text
    # Numbers that follow the player count are the table's own only when the count was given.
    numbers = game.table_numbers() if players is not None else {}
    text = fill_numbers(reader(), game, numbers) if reader is not None else _(WORDS["no_text"])
    sections = [text.strip(), options_section(game)] if game.option_specs else [text.strip()]
    return {
        "game": game_id,
        "title": game_text(game, type(game).title),
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
        return value_words(chosen, game)

    return PLACEHOLDER.sub(value, text)


def value_words(value: OptionValue, game: Any = None) -> str:
    """An option value as a player reads it: yes or no, a number, a list of names. A word the game
    has in its catalogue (a dragon's colour, a choice's name) is in the reader's language; a code
    the game never translates (a character's name) stays as it is."""
    if isinstance(value, bool):
        return _(WORDS["yes"]) if value else _(WORDS["no"])
    if value is None:
        return _(WORDS["none"])
    if isinstance(value, tuple):
        return join_list([game_text(game, str(item)) for item in value])
    if isinstance(value, int | float):
        return number(value)
    return game_text(game, str(value))


def options_section(game: Game[Any, Any, Any]) -> str:
    """Every option of the table in players' words: its label, its value (marked where it is the
    rulebook's), and the one line that explains it."""
    lines = [_(WORDS["options_heading"]), ""]
    for spec in game.option_specs:
        lines.append(_(WORDS["option_line"], label=option_label(spec.name),
                       value=_shown_value(spec, game.options[spec.name], game),
                       summary=option_summary(game_text(game, spec.doc) if spec.doc else spec.doc)))
    return "\n".join(lines)


def _shown_value(spec: Option, chosen: OptionValue, game: Any = None) -> str:
    words = value_words(chosen, game)
    return _(WORDS["default_value"], value=words, rulebook=_(WORDS["rulebook"])) if chosen == spec.default else words
