"""``gamebag train``: PPO with a league of opponents on the compiled vector environments.

The learner is sb3-contrib's MaskablePPO (extra ``sb3``) on ``GamebagVectorEnv``. Training
runs in phases; each phase puts the learner in the next seat and draws its opponents from
the league: the compiled ``heuristic``, the compiled ``random``, and frozen copies of the
learner itself from earlier phases (played in NumPy). The result is a ``NumpyPolicy``
(``gamebag.agents.learned``), which needs no learning framework to play, written with how
it was trained (game, options, seed, steps, league) in its ``meta``.

``evaluate`` plays a policy in every seat against compiled opponents on the vector
environment and reports its win share with a 95% interval.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamebag.agents.learned import NumpyPolicy
from gamebag.interop.vector_env import GamebagVectorEnv

LEAGUE = ("heuristic", "random", "self")
MAX_STEPS = 100_000_000
MAX_TRAIN_ENVS = 4096


@dataclass(frozen=True)
class Evaluation:
    """A policy's win share against one opponent, every seat taken in turn."""

    opponent: str
    games: int
    win_share: float
    low: float
    high: float
    fair_share: float


def policy_from_sb3(model: Any, meta: Mapping[str, Any]) -> NumpyPolicy:
    """The NumPy copy of a MaskablePPO ``MlpPolicy`` (its policy network and action head)."""
    import torch

    layers = []
    for module in [*model.policy.mlp_extractor.policy_net, model.policy.action_net]:
        if isinstance(module, torch.nn.Linear):
            weights = module.weight.detach().cpu().numpy().T.astype(np.float32)
            bias = module.bias.detach().cpu().numpy().astype(np.float32)
            layers.append((weights, bias))
        elif not isinstance(module, torch.nn.Tanh):
            raise ValueError(f"only tanh MLP policies can be exported, not one with {type(module).__name__}")
    return NumpyPolicy(tuple(layers), dict(meta))


def check_budget(steps: int, envs: int) -> None:
    """Refuse training budgets outside the bounds (they are user-controlled costs)."""
    if isinstance(steps, bool) or not isinstance(steps, int) or not 1_000 <= steps <= MAX_STEPS:
        raise ValueError(f"steps must be an integer from 1,000 to {MAX_STEPS:,}, not {steps!r}")
    if isinstance(envs, bool) or not isinstance(envs, int) or not 1 <= envs <= MAX_TRAIN_ENVS:
        raise ValueError(f"envs must be an integer from 1 to {MAX_TRAIN_ENVS}, not {envs!r}")


def train(
    game_id: str,
    players: int,
    *,
    steps: int,
    seed: int = 0,
    envs: int = 256,
    options: Mapping[str, Any] | None = None,
    phases: int = 12,
    progress: Callable[[str], None] | None = None,
) -> NumpyPolicy:
    """Train a policy for ``game_id`` with ``players`` seats; ``steps`` learner steps in all."""
    check_budget(steps, envs)
    from sb3_contrib import MaskablePPO

    from gamebag.interop.sb3_vec_env import SB3VecEnv

    phases = max(1, min(phases, steps // 1_000))
    started = time.perf_counter()
    meta: dict[str, Any] = {
        "game": game_id,
        "players": players,
        "options": dict(options or {}),
        "seed": seed,
        "steps": steps,
        "envs": envs,
        "league": list(LEAGUE),
        "learner": "sb3-contrib MaskablePPO, MlpPolicy 64x64 tanh",
    }
    league_rng = np.random.default_rng(seed)
    snapshots: list[NumpyPolicy] = []

    def vector(phase: int) -> SB3VecEnv:
        kind = LEAGUE[phase % len(LEAGUE)]
        if kind == "self" and not snapshots:
            kind = "heuristic"
        opponents: Any = kind if kind != "self" else snapshots[int(league_rng.integers(len(snapshots)))]
        env = GamebagVectorEnv(game_id, envs, players, options, seat=phase % players, opponents=opponents)
        return SB3VecEnv(env, seed=seed * 1_000_003 + phase)

    model = MaskablePPO(
        "MlpPolicy",
        vector(0),
        n_steps=64,
        batch_size=min(4096, 64 * envs),
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.997,
        ent_coef=0.01,
        seed=seed,
        device="cpu",
        verbose=0,
    )
    per_phase = max(1, steps // phases)
    for phase in range(phases):
        if phase:
            model.set_env(vector(phase))
        model.learn(per_phase, reset_num_timesteps=False)
        snapshots.append(policy_from_sb3(model, meta))
        if progress is not None:
            elapsed = time.perf_counter() - started
            progress(f"phase {phase + 1}/{phases}: {model.num_timesteps:,} steps, {elapsed:.0f} s")
    meta["seconds"] = round(time.perf_counter() - started, 1)
    return policy_from_sb3(model, meta)


def evaluate(
    game_id: str,
    players: int,
    policy: Callable[[Any, Any], Any],
    opponent: str,
    *,
    games: int,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    envs: int = 256,
) -> Evaluation:
    """The win share of ``policy`` against ``opponent`` in every seat (about ``games`` games in all)."""
    shares: list[float] = []
    per_seat = max(1, math.ceil(games / players))
    for seat in range(players):
        env = GamebagVectorEnv(game_id, min(envs, per_seat), players, options, seat=seat, opponents=opponent)
        observations, _ = env.reset(seed=seed * 1_000_003 + seat)
        seat_shares: list[float] = []
        while len(seat_shares) < per_seat:
            actions = policy(observations, env.action_masks())
            observations, rewards, terminated, _, _ = env.step(np.asarray(actions))
            seat_shares.extend(rewards[terminated].tolist())
        shares.extend(seat_shares[:per_seat])
    values = np.asarray(shares)
    mean = float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else 1.0
    return Evaluation(opponent, len(values), mean, max(0.0, mean - half), min(1.0, mean + half), 1.0 / players)


def evaluations(
    game_id: str,
    players: int,
    policy: Callable[[Any, Any], Any],
    opponents: Sequence[str],
    *,
    games: int,
    options: Mapping[str, Any] | None = None,
) -> list[Evaluation]:
    """``evaluate`` against each of ``opponents``."""
    return [evaluate(game_id, players, policy, name, games=games, options=options) for name in opponents]
