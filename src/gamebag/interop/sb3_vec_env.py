"""A Stable-Baselines3 ``VecEnv`` over ``GamebagVectorEnv`` (needs the ``sb3`` extra).

``SB3VecEnv(GamebagVectorEnv("eel-harvest", 256, 3, opponents="heuristic"))`` is what
SB3 and sb3-contrib's MaskablePPO take: finished games restart by themselves (the last
observation in ``infos[i]["terminal_observation"]``), and ``env_method("action_masks")``
gives each game's mask, which is how MaskablePPO asks for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from stable_baselines3.common.vec_env import VecEnv

from gamebag.interop.vector_env import GamebagVectorEnv


class SB3VecEnv(VecEnv):
    """``GamebagVectorEnv`` as a Stable-Baselines3 vectorised environment."""

    def __init__(self, env: GamebagVectorEnv, seed: int = 0) -> None:
        self.env = env
        self._seed = seed
        self._actions: NDArray[np.int64] = np.zeros(env.num_envs, dtype=np.int64)
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self) -> NDArray[np.float32]:
        observations, _ = self.env.reset(seed=self._seed)
        return observations

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        self._seed = 0 if seed is None else int(seed)
        return [self._seed] * self.num_envs

    def step_async(self, actions: NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.bool_], list[dict[str, Any]]]:
        observations, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        final = info.get("final_obs")
        for row in np.flatnonzero(dones):
            infos[row]["terminal_observation"] = final[row] if final is not None else observations[row]
            infos[row]["TimeLimit.truncated"] = bool(truncated[row] and not terminated[row])
        return observations, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        """Nothing to release."""

    def action_masks(self) -> NDArray[np.bool_]:
        return self.env.action_masks()

    # ---- the per-environment attribute API, answered for the whole batch ---------------------
    def _rows(self, indices: int | Iterable[int] | None) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        value = getattr(self.env, attr_name)
        return [value for _ in self._rows(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: int | Iterable[int] | None = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: int | Iterable[int] | None = None, **method_kwargs: Any
    ) -> list[Any]:
        rows = self._rows(indices)
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[row] for row in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type[Any], indices: int | Iterable[int] | None = None) -> list[bool]:
        return [False for _ in self._rows(indices)]
