"""The Catch A Dragon heuristic: one step of lookahead with the exact bust chance.

For each collection it may take, the agent values the resulting set as the
better of stopping (its points) and rolling once more (the chance of not busting
times its points plus a typical gain). It stops when rolling again is worth less
than the points in hand. It reads only its observation (faces, ring, bust rule) and scores sets and
bust chances with the game's own functions (``gamebag.games.catch_a_dragon.dice``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import register_heuristic
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng
from gamebag.games.catch_a_dragon.dice import Dice, bust_probability, set_points
from gamebag.games.catch_a_dragon.strategy import DIFFERENT_GAIN, ONE_DRAGON_GAIN


@cache
def bust_chance(faces: Dice, duplicate_bust: str, dice_in_all: int) -> float:
    """The exact chance that rolling the other dice (of ``dice_in_all``) busts this set (the game's own count)."""
    return float(bust_probability(faces, duplicate_bust, dice_in_all))


def roll_estimate(faces: Dice, cyclic: bool, duplicate_bust: str, dice_in_all: int) -> float:
    """What rolling once more is worth: the chance of not busting times the points plus a typical gain."""
    points = set_points(faces, cyclic)
    if len(faces) == dice_in_all:
        return points
    if len(faces) == 1:
        gain = ONE_DRAGON_GAIN
    elif len(set(faces)) == 1:
        gain = float((len(faces) + 1) ** 2 - len(faces) ** 2)
    else:
        gain = DIFFERENT_GAIN
    return (1.0 - bust_chance(faces, duplicate_bust, dice_in_all)) * (points + gain)


class DragonHeuristic(Agent):
    name = "heuristic"

    def act(self, view: SeatView, rng: Rng) -> Any:
        obs = view.observation
        cyclic, rule = bool(obs["cyclic"]), str(obs["duplicate_bust"])
        held = tuple(obs["collected_faces"])
        dice = int(obs["dice"])
        if obs["phase"] == "decide":
            return "roll" if roll_estimate(held, cyclic, rule, dice) > set_points(held, cyclic) else "stop"

        def worth(collection: Dice) -> float:
            after = tuple(sorted(held + collection))
            return max(float(set_points(after, cyclic)), roll_estimate(after, cyclic, rule, dice))

        return max(view.legal_actions, key=worth)


def _make(game: Game[Any, Any, Any]) -> Agent:
    return DragonHeuristic()


register_heuristic("catch-a-dragon", _make)
