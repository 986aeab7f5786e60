"""Adapters to the tools researchers already use; they need the ``rl`` extra.

* ``gamebag.interop.pettingzoo_env``: a PettingZoo AEC and Parallel environment per game;
* ``gamebag.interop.gymnasium_env``: a single-agent Gymnasium environment, one seat
  against gamebag agents; importing ``gamebag.interop.gymnasium`` registers the
  ``gamebag/<game-id>-v0`` ids;
* ``gamebag.interop.openspiel_game``: every game as an OpenSpiel Python game
  (registered as ``gamebag_<game_id>`` on import);
* ``gamebag.interop.vector_env``: batches of games over the compiled step kernels
  (a Gymnasium ``VectorEnv`` and a pgx-style multi-agent ``BatchEnv``);
  ``gamebag.interop.sb3_vec_env`` shows the vector env to Stable-Baselines3;
* ``gamebag.interop.common``: what they share (action indices, the running table);
* ``gamebag.interop.evaluate`` (from ``gamebag.interop.evaluation``): a fixed policy (a
  Stable-Baselines3 model or any ``policy(observation, mask)``) against named opponents,
  every seat in turn, on the compiled or the rules engine, counting exactly the first
  games of every environment.

Nothing is imported until asked for, so ``import gamebag`` never needs the extra; see
``docs/interop.md``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PolicyEvaluation", "evaluate"]


def __getattr__(name: str) -> Any:
    """``evaluate`` and ``PolicyEvaluation``, imported on first use."""
    if name in __all__:
        from gamebag.interop import evaluation

        return getattr(evaluation, name)
    raise AttributeError(f"module 'gamebag.interop' has no attribute {name!r}")
