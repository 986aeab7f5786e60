"""Importing this module registers ``gamebag/<game-id>-v0`` with Gymnasium for every game.

>>> import gymnasium
>>> import gamebag.interop.gymnasium
>>> env = gymnasium.make("gamebag/wriggle-roulette-v0", players=3, opponents="random")

Keyword arguments of ``gymnasium.make`` go to ``GamebagEnv`` (players, options,
seat, opponents, reward, illegal_action, illegal_reward, max_steps,
render_mode). ``gymnasium.make("gamebag.interop.gymnasium:gamebag/pig-v0")``
imports this module and makes the environment in one call.
"""

from __future__ import annotations

import gymnasium

import gamebag
from gamebag.interop.gymnasium_env import GamebagEnv, env_id

__all__ = ["GamebagEnv", "env_id", "register_envs"]


def register_envs() -> list[str]:
    """Register every game that is not registered yet; return all gamebag ids."""
    ids = []
    for game_id in gamebag.game_ids():
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point="gamebag.interop.gymnasium_env:GamebagEnv",
                kwargs={"game_id": game_id},
            )
        ids.append(name)
    return ids


register_envs()
