"""Hand-written heuristic agents, one module per game; ``heuristic`` picks the right one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamebag.agents.base import Agent
from gamebag.agents.registry import check_params, heuristic_for, register_agent
from gamebag.core.protocol import Game


def _make(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
    check_params("heuristic", params, ())
    return heuristic_for(game)


register_agent("heuristic", _make, "a sensible hand-written strategy for each game")
