"""The lobby: the catalogue of games and the checking of a request to open a table.

Everything here is generic over the game registry: a game's options, player
counts and the agents that can play it come from the registry, never from a
list of game names. Nothing here builds an agent (for the exact agents that
means a solve): the catalogue is served at once, and a request's agents are
checked against the server's bounds (``bounds.py``) here and built in the bot
workers. Agents that play only some tables (two players, the rulebook's numbers,
the options a policy was trained with) are checked here first with their own cheap
checks, so the lobby offers only bots that can play the table and a request for
another is refused at once with the agent's reason.
"""

from __future__ import annotations

import math
import secrets
import unicodedata
from dataclasses import replace
from functools import lru_cache
from typing import Any

import gamebag
from gamebag.agents.registry import agents_for as registry_agents_for
from gamebag.agents.registry import available_agents, default_agent, refusal
from gamebag.core.errors import GamebagError
from gamebag.core.i18n import current_language, formatted, game_text
from gamebag.core.options import Option, options_to_json
from gamebag.core.presets import presets_json
from gamebag.core.protocol import Game
from gamebag.web.admission.bounds import (
    AGENT_PARAMETER_BOUNDS,
    OPTION_MAXIMA,
    LobbyError,
    check_agent_spec,
    check_options,
)
from gamebag.web.store.db import SeatConfig, TableConfig, now
from gamebag.web.tables.turnclock import TEXTS, parse_bank_settings
from gamebag.web.variants import option_label, option_summary
from gamebag.web.words.text import _

__all__ = ["LobbyError", "catalogue", "clean_name", "parse_table_request"]

MAX_NAME = 40
MIN_TURN_SECONDS = 3.0
MAX_TURN_SECONDS = 24 * 3600.0
# The agents preferred for a seat whose turn timer ran out (any game can fall back to random).
TIMEOUT_AGENTS = ("heuristic",)


# Unicode categories removed from names: controls, formatting (bidi overrides, zero-width
# joiners), separators other than the space, private use and unpaired surrogates.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def option_json(option: Option, game_id: str = "", game: Any = None) -> dict[str, Any]:
    """An option as the lobby form reads it: its name and values neutral, its words (``doc``,
    ``label``, ``summary``) in the reader's language (the description from ``game``'s catalogue)."""
    maximum = option.maximum
    server_maximum = OPTION_MAXIMA.get(game_id, {}).get(option.name)
    if server_maximum is not None:
        maximum = server_maximum if maximum is None else min(maximum, server_maximum)
    shown = option if maximum == option.maximum else _with_maximum(option, maximum)
    doc = game_text(game, option.doc) if option.doc else option.doc
    return {
        "name": option.name,
        "kind": option.kind,
        "default": list(option.default) if isinstance(option.default, tuple) else option.default,
        "doc": doc,
        "label": option_label(option.name),
        "summary": option_summary(doc),
        "choices": list(option.choices),
        # Each choice in the reader's words where the game's catalogue names it (the code otherwise).
        "choice_words": [game_text(game, str(choice)) for choice in option.choices],
        "minimum": option.minimum,
        "maximum": maximum,
        "nullable": option.nullable,
        "allowed": shown.allowed(),
    }


def _with_maximum(option: Option, maximum: int | None) -> Option:
    return Option(
        option.name,
        option.kind,
        option.default,
        option.doc,
        option.choices,
        option.minimum,
        maximum,
        option.nullable,
    )


@lru_cache(maxsize=64)
def playable_agents(game_id: str) -> tuple[str, ...]:
    """The agent names registered for ``game_id`` (some need a player count: the table request says so).

    Nothing is built here: building an exact agent means solving the game.
    """
    return tuple(available_agents(game_id))


def agent_refusal(spec: str, game: Game[Any, Any, Any]) -> str | None:
    """Why the agent of ``spec`` cannot play ``game`` as configured (None: it can, as far as a quick
    check tells): the agent registry asks the agent's own check (never a solve)."""
    return refusal(spec, game, local=False)


def agents_for(game: Game[Any, Any, Any]) -> list[str]:
    """The agents that can play ``game`` as configured (what a host may hand a seat to)."""
    return registry_agents_for(game)


def agents_for_request(data: Any) -> dict[str, Any]:
    """The agents that can play the table ``{"game", "players"?, "options"?}`` would open, the one the
    form preselects and the line saying it is a fallback (the lobby form asks as its player count
    and options change, so it offers only bots that can play them):
    ``{"agents": [...], "preferred": "heuristic", "notice": None}``."""
    if not isinstance(data, dict) or set(data) - {"game", "players", "options"}:
        raise LobbyError(_("the request must be a JSON object with 'game' and optional 'players' and 'options'"))
    game_id, options = data.get("game"), data.get("options") or {}
    if not isinstance(game_id, str) or game_id not in gamebag.game_ids():
        raise LobbyError(_("'game' must be one of: {games}", games=", ".join(gamebag.game_ids())))
    if not isinstance(options, dict):
        raise LobbyError(_("'options' must be an object of option names to values"))
    game = make_requested(game_id, data.get("players"), options)
    check_options(game_id, game.options)
    preferred = preferred_bot(game)
    return {"agents": agents_for(game), "preferred": preferred["agent"], "notice": preferred["notice"]}


def make_requested(game_id: str, players: Any, options: dict[str, Any]) -> Game[Any, Any, Any]:
    """The game a request names, or a ``LobbyError`` in players' words (never Python's own text,
    such as "make() got multiple values for argument 'players'")."""
    if game_id not in gamebag.game_ids():
        games = ", ".join(gamebag.game_ids())
        raise LobbyError(_("unknown game {game}; known games: {games}", game=repr(game_id), games=games))
    known = [option.name for option in gamebag.entry(game_id).game_class.option_specs]
    unknown = sorted(name for name in options if name not in known)
    if unknown:
        allowed = ", ".join(known) or _("none")
        names = ", ".join(map(repr, unknown))
        if "players" in unknown:
            raise LobbyError(
                _(
                    "{game}: unknown option(s) {names} (the player count is 'players', beside 'options'); "
                    "allowed: {allowed}",
                    game=game_id, names=names, allowed=allowed,
                )
            )
        raise LobbyError(_("{game}: unknown option(s) {names}; allowed: {allowed}", game=game_id, names=names,
                           allowed=allowed))
    try:
        return gamebag.make(game_id, players, **options)
    except GamebagError as error:
        raise LobbyError(str(error)) from None
    except (TypeError, ValueError):
        raise LobbyError(
            _("{game}: these players and options do not make a game; see GET /api/games for what each allows",
              game=game_id)
        ) from None


def check_agent_for(spec: Any, game: Game[Any, Any, Any], where: str) -> str:
    """The cleaned spec of an agent that can play ``game``, else ``LobbyError`` with its reason."""
    cleaned = check_agent_spec(spec, game.game_id, where)
    refusal = agent_refusal(cleaned, game)
    if refusal is not None:
        raise LobbyError(
            _("{where}: {agent} cannot play this table: {reason}", where=where, agent=cleaned, reason=refusal)
        )
    return cleaned


@lru_cache(maxsize=64)
def agents_by_players(game_id: str) -> dict[str, list[str]]:
    """For each player count, the agents that can play ``game_id`` with its default options."""
    cls = gamebag.entry(game_id).game_class
    offered: dict[str, list[str]] = {}
    for players in range(cls.min_players, cls.max_players + 1):
        game = gamebag.make(game_id, players)
        offered[str(players)] = agents_for(game)
    return offered


def preferred_by_players(game_id: str) -> dict[str, dict[str, str | None]]:
    """For each player count, the bot the form preselects with the default options (``preferred_bot``),
    its notice in the reader's language."""
    return _preferred_by_players(game_id, current_language())


@lru_cache(maxsize=64)
def _preferred_by_players(game_id: str, language: str) -> dict[str, dict[str, str | None]]:
    cls = gamebag.entry(game_id).game_class
    return {
        str(players): preferred_bot(gamebag.make(game_id, players))
        for players in range(cls.min_players, cls.max_players + 1)
    }


def agent_bounds() -> dict[str, dict[str, dict[str, Any]]]:
    """The server's bounds on agent parameters, for the lobby form and the docs."""
    return {
        name: {key: {"minimum": b.minimum, "maximum": b.maximum, "integer": b.integer} for key, b in params.items()}
        for name, params in AGENT_PARAMETER_BOUNDS.items()
    }


def game_title(game_id: str) -> str:
    """A game's title, or its id for a game this server no longer has (a stored table's)."""
    try:
        cls = gamebag.entry(game_id).game_class
        return game_text(cls, cls.title)
    except GamebagError:
        return game_id


def catalogue() -> list[dict[str, Any]]:
    """Every registered game, with what the lobby form needs to open a table of it."""
    games = []
    for game_id in gamebag.game_ids():
        cls = gamebag.entry(game_id).game_class
        games.append(
            {
                "id": game_id,
                "title": game_text(cls, cls.title),
                "summary": game_text(cls, cls.summary) if cls.summary else cls.summary,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "default_players": cls.default_players,
                "options": [option_json(o, game_id, cls) for o in cls.option_specs],
                "presets": _presets_in_words(cls),
                "agents": list(playable_agents(game_id)),
                "agents_by_players": agents_by_players(game_id),
                "preferred_by_players": preferred_by_players(game_id),
            }
        )
    return games


def rules_markdown(game_id: str) -> str:
    """The players' rules page of ``game_id`` in the reader's language (``_rules_markdown``)."""
    return _rules_markdown(game_id, current_language())


@lru_cache(maxsize=64)
def _rules_markdown(game_id: str, language: str) -> str:
    """The players' rules page of ``game_id``: the rules text its registration gives.

    Read through the registry, not from a ``rules.md`` beside the class, so that a plugin written as
    one file and a variant registered with its own text both have their page.
    """
    if game_id not in gamebag.game_ids():
        games = ", ".join(gamebag.game_ids())
        raise LobbyError(_("unknown game {game}; known: {games}", game=repr(game_id), games=games))
    return gamebag.entry(game_id).rules_text()


def rematch_config(previous: TableConfig) -> TableConfig:
    """A new table of the same game, options, seats (names and bots), timer and timeout agent.

    Every seat gets a fresh token, the table a fresh seed and host token: the rematch is a new game.
    """
    return replace(
        previous,
        id=secrets.token_urlsafe(9),
        seed=str(secrets.randbits(62)),
        created_at=now(),
        finished=False,
        seats=tuple(replace(seat, token=secrets.token_urlsafe(24)) for seat in previous.seats),
        host_token=secrets.token_urlsafe(24),
        closed=None,
        next_id=None,
        coach="",
    )


def default_timeout_agent(game: Game[Any, Any, Any]) -> str:
    """The agent that plays for a seat whose turn timer ran out: the heuristic, else random."""
    return default_agent(game, TIMEOUT_AGENTS).spec


def preferred_bot(game: Game[Any, Any, Any]) -> dict[str, str | None]:
    """The bot the lobby form preselects for ``game`` as configured, and the one line saying it is
    a fallback (``no heuristic agent for tiny-dash: bots play random``), else None."""
    chosen = default_agent(game, TIMEOUT_AGENTS)
    return {"agent": chosen.spec, "notice": chosen.notice}


def person_seat_name(index: int) -> str:
    """The name of a person's seat nobody named: also what a seat is called once its account is deleted."""
    return f"Player {index + 1}"


def clean_name(text: str) -> str:
    """``text`` without control, formatting (bidi) or private characters, its spaces collapsed."""
    kept = "".join(
        " " if c.isspace() else c
        for c in unicodedata.normalize("NFC", text)
        if c.isspace() or unicodedata.category(c) not in _UNSAFE_CATEGORIES
    )
    return " ".join(kept.split())


def _name(value: Any, where: str, default: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise LobbyError(_("{where}: a name must be a string", where=where))
    if len(value) > 4 * MAX_NAME:
        raise LobbyError(_("{where}: a name may have at most {most} characters, not {count}", where=where,
                           most=MAX_NAME, count=len(value)))
    cleaned = clean_name(value)
    if len(cleaned) > MAX_NAME:
        raise LobbyError(_("{where}: a name may have at most {most} characters, not {count}", where=where,
                           most=MAX_NAME, count=len(cleaned)))
    return cleaned or default


def _agent(spec: Any, game: Game[Any, Any, Any], where: str) -> str:
    return check_agent_for(spec, game, where)


def parse_table_request(data: Any, *, allow_seed: bool) -> TableConfig:
    """Check a request to open a table; return the configuration to store.

    ``data`` is ``{"game", "players"?, "options"?, "seats"?, "turn_seconds"?,
    "timeout_agent"?, "seed"?, "clock"?}``; each seat is ``{"name"?, "bot"?}`` where
    ``bot`` is an agent spec (absent or null: a person's seat); ``clock`` is a time bank
    (``turnclock.parse_bank_settings``), instead of the per-move timer ``turn_seconds``.
    """
    if not isinstance(data, dict):
        raise LobbyError(_("the request must be a JSON object with at least a 'game'"))
    allowed_keys = {"game", "players", "options", "seats", "turn_seconds", "timeout_agent", "seed", "clock"}
    unknown = sorted(set(data) - allowed_keys)
    if unknown:
        raise LobbyError(_("unknown field(s) {names}; allowed: {allowed}", names=", ".join(unknown),
                           allowed=", ".join(sorted(allowed_keys))))
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise LobbyError(_("'game' must be one of: {games}", games=", ".join(gamebag.game_ids())))
    players = data.get("players")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise LobbyError(_("'options' must be an object of option names to values"))
    game = make_requested(game_id, players, options)
    check_options(game_id, game.options)
    seats_data = data.get("seats")
    if seats_data is None:
        seats_data = [{} for __ in range(game.num_players)]
    if not isinstance(seats_data, list) or len(seats_data) != game.num_players:
        raise LobbyError(_("'seats' must list exactly {count} seats (one per player)", count=game.num_players))
    seats = []
    for index, seat_data in enumerate(seats_data):
        where = _("seat {seat}", seat=index)
        if not isinstance(seat_data, dict) or set(seat_data) - {"name", "bot"}:
            raise LobbyError(
                _("{where}: a seat is an object with an optional 'name' and an optional 'bot'", where=where)
            )
        bot = seat_data.get("bot")
        agent = None if bot is None else _agent(bot, game, where)
        default_name = f"Bot {index + 1} ({agent})" if agent else person_seat_name(index)
        name = _name(seat_data.get("name"), where, default_name)
        seats.append(SeatConfig(index, secrets.token_urlsafe(24), name, agent, claimed=agent is not None))
    turn_seconds = data.get("turn_seconds")
    if turn_seconds is not None:
        if (
            isinstance(turn_seconds, bool)
            or not isinstance(turn_seconds, int | float)
            or not math.isfinite(turn_seconds)
        ):
            raise LobbyError(_("'turn_seconds' must be a number of seconds or null (no timer)"))
        if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            raise LobbyError(
                _("'turn_seconds' must be from {least} to {most}, not {value}", least=formatted(MIN_TURN_SECONDS, "g"),
                  most=formatted(MAX_TURN_SECONDS, "g"), value=turn_seconds)
            )
        turn_seconds = float(turn_seconds)
    bank = ""
    if data.get("clock") is not None:
        if turn_seconds is not None:
            raise LobbyError(_(TEXTS["both"]))
        bank = parse_bank_settings(data["clock"]).dumps()
    timeout_agent = data.get("timeout_agent")
    timeout_agent = (
        default_timeout_agent(game) if timeout_agent is None else _agent(timeout_agent, game, "timeout_agent")
    )
    seed = data.get("seed")
    if seed is not None:
        if not allow_seed:
            raise LobbyError(_("this server chooses table seeds itself (a known seed would reveal the draws)"))
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise LobbyError(_("'seed' must be an integer or a string"))
        seed = str(seed)
    else:
        seed = str(secrets.randbits(62))
    return TableConfig(
        id=secrets.token_urlsafe(9),
        game=game_id,
        players=game.num_players,
        options=options_to_json(game.options),
        seed=seed,
        turn_seconds=turn_seconds,
        timeout_agent=timeout_agent,
        created_at=now(),
        finished=False,
        seats=tuple(seats),
        bank=bank,
    )


def _presets_in_words(cls: Any) -> list[dict[str, Any]]:
    """The game's presets for the catalogue, their label and summary in the reader's language (their
    name, a code, neutral)."""
    presets = presets_json(cls)
    for preset in presets:
        for key in ("label", "summary"):
            if preset.get(key):
                preset[key] = game_text(cls, preset[key])
    return presets
