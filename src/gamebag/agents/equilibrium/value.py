"""The value of a whole two-player Eel game under equilibrium play, for any options.

With the rulebook's numbers the shipped tables hold it (built with exploitability
checks, ``build.py``); any other configuration is solved on the spot: every round
start ``(s0, s1)`` below the target, one anti-diagonal at a time (``build_continuation``
with the equilibrium track only). ``gamebag solve eel-harvest -o target=10`` prints it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from gamebag.agents.equilibrium.build import build_continuation
from gamebag.agents.equilibrium.model import RoundRules, rules_for
from gamebag.agents.equilibrium.tables import EXPLOITABILITY, TABLES
from gamebag.core.errors import UnknownAgentError
from gamebag.core.options import options_to_json
from gamebag.core.protocol import Game

# Solving on the spot costs about target squared round solves; larger targets are refused.
MAX_SOLVED_TARGET = 40


def supports_equilibrium(game: Game[Any, Any, Any]) -> bool:
    """Whether ``game`` (id, players, options) is a two-player Eel game the round solver models."""
    try:
        rules_for(game)
    except UnknownAgentError:
        return False
    return True


def equilibrium_report(
    game: Game[Any, Any, Any], progress: Callable[[int, float], None] | None = None
) -> dict[str, Any]:
    """Seat 0's chance to win under equilibrium play, where it came from, and how long it took."""
    try:
        rules = rules_for(game)
    except UnknownAgentError as error:
        raise UnknownAgentError(f"cannot solve {game.game_id} with {game.num_players} players: {error}") from None
    started = time.perf_counter()
    report: dict[str, Any] = {
        "game": game.game_id,
        "title": game.title,
        "objective": "equilibrium",
        "players": game.num_players,
        "options": options_to_json(game.options),
        "rules_key": rules.key,
    }
    shipped = TABLES.get(rules.key)
    if shipped is not None:
        report.update(value=float(shipped[0][0]), source="shipped table", **_shipped_figures(rules))
    else:
        if rules.target > MAX_SOLVED_TARGET:
            raise UnknownAgentError(
                f"target {rules.target}: solving on the spot is bounded to targets up to {MAX_SOLVED_TARGET}"
            )
        result = build_continuation(rules, progress=progress, tracks=1)
        assert result is not None  # without a time limit the build always completes
        report.update(value=result.game_value, source="solved now (equilibrium track)")
    report["seconds"] = round(time.perf_counter() - started, 2)
    return report


def _shipped_figures(rules: RoundRules) -> dict[str, Any]:
    figures = EXPLOITABILITY.get(rules.key)
    return {"exploitability": figures.get("exploitability")} if figures else {}
