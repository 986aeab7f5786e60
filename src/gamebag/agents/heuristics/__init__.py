"""Hand-written heuristic agents, one module per game; ``heuristic`` picks the right one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamebag.agents.base import Agent
from gamebag.agents.registry import has_heuristic, heuristic_for, register_agent
from gamebag.core.protocol import Game
from gamebag.core.translation import N_


def _make(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
    return heuristic_for(game, params)


register_agent(
    "heuristic",
    _make,
    N_("a sensible hand-written strategy for each game; eigen-kweek: abstain=CARD (+CARD...) never uses those cards"),
    # Only the games with a heuristic of their own (or their base game's): a plugin game without one
    # is not offered it, and defaults that prefer it fall back (``registry.default_agent``).
    accepts=has_heuristic,
)
