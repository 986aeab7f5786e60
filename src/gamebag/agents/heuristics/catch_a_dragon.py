"""The Catch A Dragon heuristic: one step of lookahead with the exact bust chance.

For each collection it may take, the agent values the resulting set as the
better of stopping (its points) and rolling once more (the chance of not busting
times its points plus a typical gain). It stops when rolling again is worth less
than the points in hand. It reads only its observation (faces, ring, bust rule).
"""

from __future__ import annotations

from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import register_heuristic
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng

SIDES = 6
# What one more successful roll typically adds to a set of different colours, or to one dragon.
DIFFERENT_GAIN = 2.0
ONE_DRAGON_GAIN = 1.5


def set_points(faces: tuple[int, ...], cyclic: bool) -> float:
    """The rulebook's scoring, from face numbers (ring order 1 to 6)."""
    if not faces:
        return 0.0
    if len(set(faces)) == 1:
        return float(len(faces) ** 2)
    held = set(faces)
    points = 0
    for face in held:
        before = face - 1 if face > 1 else (SIDES if cyclic else 0)
        if before in held:
            continue  # counted with the chain it belongs to
        length = 1
        following = face % SIDES + 1 if cyclic or face < SIDES else 0
        while following in held and following != face:
            length += 1
            following = following % SIDES + 1 if cyclic or following < SIDES else 0
        points += 2 * length if length >= 2 else 1
    return float(points)


def bust_chance(faces: tuple[int, ...], duplicate_bust: str, dice_in_all: int) -> float:
    """The exact chance that rolling the other dice (of ``dice_in_all``) busts this set."""
    dice = dice_in_all - len(faces)
    if len(faces) < 2 or dice == 0:
        return 0.0
    held = len(set(faces))
    if held == 1:
        return ((SIDES - 1) / SIDES) ** dice
    if duplicate_bust == "any":
        return 1.0 - ((SIDES - held) / SIDES) ** dice
    return (held / SIDES) ** dice


def roll_estimate(faces: tuple[int, ...], cyclic: bool, duplicate_bust: str, dice_in_all: int) -> float:
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

        def worth(collection: tuple[int, ...]) -> float:
            after = tuple(sorted(held + collection))
            return max(set_points(after, cyclic), roll_estimate(after, cyclic, rule, dice))

        return max(view.legal_actions, key=worth)


def _make(game: Game[Any, Any, Any]) -> Agent:
    return DragonHeuristic()


register_heuristic("catch-a-dragon", _make)
