"""The ``random`` agent: a uniformly random legal action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import check_params, register_agent
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng, draw_index
from gamebag.core.translation import N_


class RandomAgent(Agent):
    name = "random"

    def act(self, view: SeatView, rng: Rng) -> Any:
        legal = view.legal_actions
        return legal[draw_index(rng, len(legal))]


def _make(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
    check_params("random", params, ())
    return RandomAgent()


register_agent("random", _make, N_("uniformly random legal actions"))
