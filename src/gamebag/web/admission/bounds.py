"""The bounds the web server puts on every cost a table request controls.

The command line trusts its user; a server does not. Each agent parameter and
game option a lobby request may set has a bound here, tighter than the
command line's where the command line's would let one request occupy the
server (a deep search, a long solve). ``check_agent_spec`` and
``check_options`` refuse a request beyond a bound with a ``LobbyError`` that
names the bound. The tables are data, documented in ``docs/web.md``.
``parse_json`` reads a request body or socket message, refusing any parse failure
(a body nested 20,000 deep too) with a ``BadJsonError`` that says what was wrong.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamebag.agents.registry import available_agents, parse_spec
from gamebag.core.errors import GamebagError
from gamebag.web.words.text import _

MAX_AGENT_SPEC = 200  # characters of an agent spec such as "ismcts:iterations=500,c=1.2"
MAX_JSON_DEPTH = 32  # levels of nested arrays and objects in a body or message (a table request needs 3)


class BadJsonError(ValueError):
    """A request body or socket message that is not JSON the server reads (the message says why)."""


def parse_json(text: str | bytes) -> Any:
    """``text`` as JSON; ``BadJsonError`` for any failure: not JSON, or nested past ``MAX_JSON_DEPTH``.

    The parser itself recurses, so a deeply nested text raises ``RecursionError``, not
    ``ValueError``; and a value nested just under the interpreter's limit would make later
    code recurse past it. Both are refused here, before anything reads the value.
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise BadJsonError(_("JSON nested deeper than {depth} levels", depth=MAX_JSON_DEPTH)) from None
    except ValueError as error:
        raise BadJsonError(_("not valid JSON ({error})", error=error)) from None
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                if depth >= MAX_JSON_DEPTH:
                    raise BadJsonError(_("JSON nested deeper than {depth} levels", depth=MAX_JSON_DEPTH))
                pending.append((child, depth + 1))
    return value


class LobbyError(GamebagError, ValueError):
    """A request to open a table that names something wrong (the message says what is allowed)."""


@dataclass(frozen=True)
class NumberBound:
    """The values a numeric parameter may take on this server."""

    minimum: float
    maximum: float
    integer: bool = False

    def describe(self) -> str:
        low, high = f"{self.minimum:g}", f"{self.maximum:g}"
        if self.integer:
            return _("an integer from {low} to {high}", low=low, high=high)
        return _("a number from {low} to {high}", low=low, high=high)


# agent name -> parameter -> bound. Parameters not listed take words (checked by the agent).
AGENT_PARAMETER_BOUNDS: Mapping[str, Mapping[str, NumberBound]] = {
    "ismcts": {
        "iterations": NumberBound(1, 5000, integer=True),
        "ms": NumberBound(1, 2000),
        "c": NumberBound(0, 10),
        "bias": NumberBound(0, 100),
    },
}

# game id -> option -> the largest value this server accepts (where the game's own maximum
# would cost too much: Pig's goal drives the size of the optimal-win solve).
OPTION_MAXIMA: Mapping[str, Mapping[str, int]] = {
    "pig": {"goal": 100},
    "eigen-kweek": {"max_rounds": 200},
    "catch-a-dragon": {"max_tiebreak_rounds": 20},
    "eel-harvest": {"lone_player_grabs": 100},  # the game sets no maximum
}


def check_agent_spec(spec: Any, game_id: str, where: str) -> str:
    """The cleaned spec, or ``LobbyError`` naming the bound it breaks.

    Only the bounds are checked here (cheaply, on the request path); building the
    agent, which may mean a solve, happens in the bot workers.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise LobbyError(_("{where}: a bot is named by an agent spec such as 'heuristic' or 'random'", where=where))
    cleaned = str(spec).strip()
    if len(cleaned) > MAX_AGENT_SPEC:
        raise LobbyError(
            _("{where}: an agent spec has at most {most} characters, not {count}", where=where, most=MAX_AGENT_SPEC,
              count=len(cleaned))
        )
    try:
        name, params = parse_spec(cleaned)
    except GamebagError as error:
        raise LobbyError(f"{where}: {error}") from None
    known = available_agents(game_id)
    if name not in known:
        raise LobbyError(
            _("{where}: unknown agent {name} for {game}; available: {agents}", where=where, name=repr(name),
              game=game_id, agents=", ".join(known))
        )
    for key, text in params.items():
        bound = AGENT_PARAMETER_BOUNDS.get(name, {}).get(key)
        if bound is None:
            continue
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if (
            not math.isfinite(value)
            or (bound.integer and not value.is_integer())
            or not bound.minimum <= value <= bound.maximum
        ):
            raise LobbyError(
                _("{where}: agent parameter {key}={value} is beyond this server's bound: {bound}", where=where, key=key,
                  value=repr(text), bound=bound.describe())
            )
    return cleaned


def check_options(game_id: str, options: Mapping[str, Any]) -> None:
    """Refuse option values beyond this server's maxima (the game checks the rest)."""
    for name, maximum in OPTION_MAXIMA.get(game_id, {}).items():
        value = options.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > maximum:
            raise LobbyError(
                _("option {name}: {value} is beyond this server's bound: at most {most}", name=repr(name), value=value,
                  most=maximum)
            )
