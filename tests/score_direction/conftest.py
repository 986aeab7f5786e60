"""The ``countdown`` fixture: the lowest-score-wins test game and its agents, registered for one test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gamebag.agents import registry as agents
from gamebag.core import registry

from .countdown import GAME_ID, BestTake, Countdown, Taker, render_view, rules_text

TAKER = "countdown-taker"


@pytest.fixture
def countdown() -> Iterator[str]:
    """Register Countdown, its heuristic and ``countdown-taker``; forget them afterwards, so tests that
    walk every registered game or agent never meet them."""
    registry.register(Countdown, render_view, rules_text)
    agents.register_heuristic(GAME_ID, lambda game: BestTake())

    def make_taker(game: Any, params: Any) -> Taker:
        agents.check_params(TAKER, params, ())
        return Taker()

    agents.register_agent(TAKER, make_taker, "always takes 3 points (Countdown only)", games=(GAME_ID,))
    try:
        yield GAME_ID
    finally:
        registry.unregister(GAME_ID)
        agents._AGENTS.pop(TAKER, None)  # no public way to forget an agent: tests only
        agents._HEURISTICS.pop(GAME_ID, None)
