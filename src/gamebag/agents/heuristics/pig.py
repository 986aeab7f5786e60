"""The Pig heuristic: roll until the turn's total reaches 20, the classic hold-at-20 rule.

Holding at 20 maximises the expected points of a single turn far from the goal
(the optimal-score agent finds the same threshold); near the goal the game ends
by itself as soon as the total reaches it.
"""

from __future__ import annotations

from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import register_heuristic
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng
from gamebag.games.pig.strategy import HOLD_AT


class HoldAtTwenty(Agent):
    name = "heuristic"

    def act(self, view: SeatView, rng: Rng) -> Any:
        return "hold" if view.observation["turn_total"] >= HOLD_AT else "roll"


def _make(game: Game[Any, Any, Any]) -> Agent:
    return HoldAtTwenty()


register_heuristic("pig", _make)
