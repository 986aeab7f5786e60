"""The lobby: the catalogue of games and the checking of a request to open a table.

Everything here is generic over the game registry: a game's options, player
counts and the agents that can play it come from the registry, never from a
list of game names.
"""

from __future__ import annotations

import math
import secrets
from functools import lru_cache
from typing import Any

import gamebag
from gamebag.agents.registry import available_agents, make_agent
from gamebag.core.errors import GamebagError
from gamebag.core.options import Option, options_to_json
from gamebag.core.protocol import Game
from gamebag.web.db import SeatConfig, TableConfig, now

MAX_NAME = 40
MIN_TURN_SECONDS = 3.0
MAX_TURN_SECONDS = 24 * 3600.0
TIMEOUT_AGENTS = ("heuristic", "random")


class LobbyError(GamebagError, ValueError):
    """A request to open a table that names something wrong (the message says what is allowed)."""


def option_json(option: Option) -> dict[str, Any]:
    return {
        "name": option.name,
        "kind": option.kind,
        "default": list(option.default) if isinstance(option.default, tuple) else option.default,
        "doc": option.doc,
        "choices": list(option.choices),
        "minimum": option.minimum,
        "maximum": option.maximum,
        "nullable": option.nullable,
        "allowed": option.allowed(),
    }


@lru_cache(maxsize=64)
def playable_agents(game_id: str) -> tuple[str, ...]:
    """The agent names that can really be built for ``game_id`` (default configuration)."""
    game = gamebag.make(game_id)
    names = []
    for name in available_agents(game_id):
        try:
            make_agent(name, game)
        except GamebagError:
            continue
        names.append(name)
    return tuple(names)


def catalogue() -> list[dict[str, Any]]:
    """Every registered game, with what the lobby form needs to open a table of it."""
    games = []
    for game_id in gamebag.game_ids():
        cls = gamebag.entry(game_id).game_class
        games.append(
            {
                "id": game_id,
                "title": cls.title,
                "summary": cls.summary,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "default_players": cls.default_players,
                "options": [option_json(o) for o in cls.option_specs],
                "agents": list(playable_agents(game_id)),
            }
        )
    return games


def default_timeout_agent(game: Game[Any, Any, Any]) -> str:
    """The agent that plays for a seat whose turn timer ran out: the heuristic, else random."""
    playable = playable_agents(game.game_id)
    return next((name for name in TIMEOUT_AGENTS if name in playable), "random")


def _name(value: Any, where: str, default: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise LobbyError(f"{where}: a name must be a string")
    cleaned = " ".join(value.split())
    if len(cleaned) > MAX_NAME:
        raise LobbyError(f"{where}: a name may have at most {MAX_NAME} characters, not {len(cleaned)}")
    return cleaned or default


def _agent(spec: Any, game: Game[Any, Any, Any], where: str) -> str:
    if not isinstance(spec, str) or not spec.strip():
        raise LobbyError(f"{where}: a bot is named by an agent spec such as 'heuristic' or 'random'")
    try:
        make_agent(spec, game)
    except GamebagError as error:
        raise LobbyError(f"{where}: {error}") from None
    return spec.strip()


def parse_table_request(data: Any, *, allow_seed: bool) -> TableConfig:
    """Check a request to open a table; return the configuration to store.

    ``data`` is ``{"game", "players"?, "options"?, "seats"?, "turn_seconds"?,
    "timeout_agent"?, "seed"?}``; each seat is ``{"name"?, "bot"?}`` where
    ``bot`` is an agent spec (absent or null: a person's seat).
    """
    if not isinstance(data, dict):
        raise LobbyError("the request must be a JSON object with at least a 'game'")
    allowed_keys = {"game", "players", "options", "seats", "turn_seconds", "timeout_agent", "seed"}
    unknown = sorted(set(data) - allowed_keys)
    if unknown:
        raise LobbyError(f"unknown field(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed_keys))}")
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise LobbyError(f"'game' must be one of: {', '.join(gamebag.game_ids())}")
    players = data.get("players")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise LobbyError("'options' must be an object of option names to values")
    try:
        game = gamebag.make(game_id, players, **options)
    except GamebagError as error:
        raise LobbyError(str(error)) from None
    seats_data = data.get("seats")
    if seats_data is None:
        seats_data = [{} for _ in range(game.num_players)]
    if not isinstance(seats_data, list) or len(seats_data) != game.num_players:
        raise LobbyError(f"'seats' must list exactly {game.num_players} seats (one per player)")
    seats = []
    for index, seat_data in enumerate(seats_data):
        where = f"seat {index}"
        if not isinstance(seat_data, dict) or set(seat_data) - {"name", "bot"}:
            raise LobbyError(f"{where}: a seat is an object with an optional 'name' and an optional 'bot'")
        bot = seat_data.get("bot")
        agent = None if bot is None else _agent(bot, game, where)
        default_name = f"Bot {index + 1} ({agent})" if agent else f"Player {index + 1}"
        name = _name(seat_data.get("name"), where, default_name)
        seats.append(SeatConfig(index, secrets.token_urlsafe(24), name, agent))
    turn_seconds = data.get("turn_seconds")
    if turn_seconds is not None:
        if (
            isinstance(turn_seconds, bool)
            or not isinstance(turn_seconds, int | float)
            or not math.isfinite(turn_seconds)
        ):
            raise LobbyError("'turn_seconds' must be a number of seconds or null (no timer)")
        if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            raise LobbyError(
                f"'turn_seconds' must be from {MIN_TURN_SECONDS:g} to {MAX_TURN_SECONDS:g}, not {turn_seconds}"
            )
        turn_seconds = float(turn_seconds)
    timeout_agent = data.get("timeout_agent")
    timeout_agent = (
        default_timeout_agent(game) if timeout_agent is None else _agent(timeout_agent, game, "timeout_agent")
    )
    seed = data.get("seed")
    if seed is not None:
        if not allow_seed:
            raise LobbyError("this server chooses table seeds itself (a known seed would reveal the draws)")
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise LobbyError("'seed' must be an integer or a string")
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
    )
