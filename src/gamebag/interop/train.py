"""``gamebag train``: PPO against a league of opponents on the compiled step batches.

The learner (``gamebag.interop.ppo``, JAX with optax: extra ``jax``) plays every
game of a batch with a lineup drawn from the league: itself in every seat, or itself
in one seat against a compiled policy (``heuristic``, ``random``, ``optimal-win``
where the game has one) or a frozen copy of itself from earlier in the run
(``past``). The result is a ``NumpyPolicy`` (``gamebag.agents.learned``), which needs
no learning framework to play, written with how it was trained (game, options, seed,
steps, league) in its ``meta``.

``evaluate`` plays a policy in every seat against compiled opponents
(``gamebag.interop.evaluate``, every environment's first games counted) and reports its
win share with a 95% interval.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gamebag.agents.learned import NumpyPolicy, observation_layout
from gamebag.interop.common import configured_game
from gamebag.interop.evaluation import evaluate as evaluate_policy
from gamebag.interop.ppo import DEFAULT_LEAGUE, MAX_IMITATION, PPOConfig, PPOLearner
from gamebag.interop.vector_env import step_batch

MAX_STEPS = 100_000_000
MAX_TRAIN_ENVS = 4096
MAX_HIDDEN = 1024
MAX_WARMUP = 10_000


@dataclass(frozen=True)
class Evaluation:
    """A policy's win share against one opponent, every seat taken in turn."""

    opponent: str
    games: int
    win_share: float
    low: float
    high: float
    fair_share: float


def check_budget(steps: int, envs: int) -> None:
    """Refuse training budgets outside the bounds (they are user-controlled costs)."""
    if isinstance(steps, bool) or not isinstance(steps, int) or not 1_000 <= steps <= MAX_STEPS:
        raise ValueError(f"steps must be an integer from 1,000 to {MAX_STEPS:,}, not {steps!r}")
    if isinstance(envs, bool) or not isinstance(envs, int) or not 1 <= envs <= MAX_TRAIN_ENVS:
        raise ValueError(f"envs must be an integer from 1 to {MAX_TRAIN_ENVS}, not {envs!r}")


def parse_league(members: Sequence[str]) -> dict[str, float]:
    """``["self", "heuristic=2"]`` -> weights by member (a member without ``=weight`` weighs 1)."""
    league: dict[str, float] = {}
    for member in members:
        name, _, weight = member.partition("=")
        try:
            value = float(weight) if weight else 1.0
        except ValueError:
            raise ValueError(f"league member {member!r}: the weight after '=' must be a number") from None
        if not name or not 0.0 < value <= 1_000.0:
            raise ValueError(f"league member {member!r}: give NAME or NAME=WEIGHT with a weight from 0 to 1,000")
        league[name] = value
    return league


def parse_imitate(member: str) -> tuple[str, float]:
    """``"optimal-win=2"`` -> (teacher, weight); a teacher without ``=weight`` weighs 1."""
    ((name, weight),) = parse_league([member]).items()
    if weight > MAX_IMITATION:
        raise ValueError(f"imitate {member!r}: the weight must be from 0 to {MAX_IMITATION:g}")
    return name, weight


def train(
    game_id: str,
    players: int,
    *,
    steps: int,
    seed: int = 0,
    envs: int = 256,
    options: Mapping[str, Any] | None = None,
    league: Mapping[str, float] | None = None,
    hidden: Sequence[int] = (64, 64),
    progress: Callable[[str], None] | None = None,
    init: NumpyPolicy | None = None,
    learning_rate: float | None = None,
    value_warmup: int = 0,
    imitate: tuple[str, float] | None = None,
) -> NumpyPolicy:
    """Train a policy for ``game_id`` with ``players`` seats for ``steps`` game steps (over the whole batch).

    ``init`` starts the policy network from a trained policy (a warm start; the value
    network starts fresh and trains alone for the first ``value_warmup`` updates).
    ``imitate`` (a compiled policy and a weight) adds the cross-entropy to that policy's
    choice at each of the learner's decisions to the loss (``PPOConfig.teacher``).
    """
    check_budget(steps, envs)
    if not 1 <= len(hidden) <= 4 or not all(isinstance(n, int) and 1 <= n <= MAX_HIDDEN for n in hidden):
        raise ValueError(f"hidden layers: one to four sizes from 1 to {MAX_HIDDEN}, not {list(hidden)}")
    if learning_rate is not None and not 1e-6 <= learning_rate <= 0.1:
        raise ValueError(f"learning rate must be from 1e-6 to 0.1, not {learning_rate!r}")
    if isinstance(value_warmup, bool) or not isinstance(value_warmup, int) or not 0 <= value_warmup <= MAX_WARMUP:
        raise ValueError(f"value warm-up must be an integer from 0 to {MAX_WARMUP:,} updates, not {value_warmup!r}")
    config = PPOConfig(hidden=tuple(hidden), value_warmup=value_warmup)
    if learning_rate is not None:
        config = replace(config, learning_rate=learning_rate)
    if league is not None:
        config = replace(config, league=dict(league))
    if imitate is not None:
        config = replace(config, teacher=imitate[0], imitation=imitate[1])
    started = time.perf_counter()
    learner = PPOLearner(game_id, players, envs=envs, seed=seed, options=options, config=config, init=init)
    missing = sorted(set(DEFAULT_LEAGUE) - set(learner.league))
    if league is None and missing and progress is not None:
        progress(f"no {' or '.join(missing)} agent for {game_id}: its share of the league plays random")
    learner.train(steps, progress=progress)
    meta: dict[str, Any] = {
        "game": game_id,
        "players": learner.players,
        "options": dict(options or {}),
        "seed": seed,
        "steps": learner.steps,
        "envs": envs,
        "league": dict(learner.league),
        "learning_rate": config.learning_rate,
        "learner": f"PPO (JAX, optax), policy MLP {'x'.join(map(str, config.hidden))} tanh",
        "seconds": round(time.perf_counter() - started, 1),
        # What the policy reads: the agent refuses it for any other observation layout.
        "observation": observation_layout(configured_game(game_id, players, options)),
    }
    if imitate is not None:
        meta["imitate"] = {"teacher": imitate[0], "weight": imitate[1]}
    if init is not None:
        # Where the warm start came from: its own record, so the chain of runs can be replayed.
        meta["init"] = dict(init.meta)
        meta["value_warmup"] = value_warmup
    return learner.policy(meta)


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
    """The win share of the batched ``policy`` against ``opponent`` in every seat, over ``games`` games.

    ``gamebag.interop.evaluate.evaluate`` plays them (compiled where the game has an
    engine, else on the rules engine), counting exactly the first games of every
    environment; the interval is its 95% Wilson interval.
    """
    result = evaluate_policy(policy, game_id, players, opponent, games, seed, options=options, envs=envs, batched=True)
    return Evaluation(opponent, result.games, result.win_share, result.low, result.high, result.fair_share)


def evaluations(
    game_id: str,
    players: int,
    policy: Callable[[Any, Any], Any],
    opponents: Sequence[str],
    *,
    games: int,
    options: Mapping[str, Any] | None = None,
) -> list[Evaluation]:
    """``evaluate`` against each of ``opponents`` (default: every compiled policy of the game)."""
    if not opponents:
        _, compiled = step_batch(game_id, players, options, 1, rules_engine=True)
        opponents = compiled
    return [evaluate(game_id, players, policy, name, games=games, options=options) for name in opponents]
