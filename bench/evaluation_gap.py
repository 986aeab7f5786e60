"""The shipped learned policy against ``heuristic`` on the rules and the compiled engine, measured alike.

For each configuration (two-player Eel Harvest, four-player Wriggle Roulette):

* ``gamebag.interop.evaluate`` on the rules engine (``--rules-games``, 1,024 games at
  once) and on the compiled engine (``--compiled-games``, 4,096 at once), every seat
  in turn, each env's first games counted, seed ``--seed``;
* with ``--gymnasium-games N``: N games per seat in the Gymnasium environment (rules
  engine, one game at a time, reset seeded ``100 + seat``), as an RL researcher would;
* with ``--by-length``: the compiled games' win share in each quarter of the games by length;
* with ``--finished-runs R``: the count that stops at the first ``--finished`` games
  to finish per seat on ``GamebagVectorEnv`` (``--finished-envs`` games at once), R runs
  seeded ``1000 r + seat``, averaged: that count favours short games.

Each figure is the policy's mean win share (ties shared) with a 95% interval.

Run: ``.venv/bin/python bench/evaluation_gap.py [--rules-games N] [--compiled-games N]
[--seed S] [--gymnasium-games N] [--finished-runs R --finished K --finished-envs E] [--by-length] [--only GAME]``.
"""

from __future__ import annotations

import argparse
import time
from importlib import resources

import numpy as np
from threadpoolctl import threadpool_limits

from gamebag.agents.learned import POLICY_PACKAGE, NumpyPolicy, load_policy, policy_name
from gamebag.interop.evaluation import evaluate
from gamebag.interop.gymnasium_env import GamebagEnv
from gamebag.interop.vector_env import GamebagVectorEnv

CONFIGURATIONS = (("eel-harvest", 2), ("wriggle-roulette", 4))


def interval(values: np.ndarray) -> str:
    half = 1.96 * float(values.std(ddof=1)) / np.sqrt(len(values))
    return f"{values.mean():.4f} ± {half:.4f}"


def gymnasium_shares(game: str, players: int, policy: NumpyPolicy, per_seat: int) -> np.ndarray:
    shares = []
    for seat in range(players):
        env = GamebagEnv(game, players, seat=seat, opponents="heuristic")
        observation, _ = env.reset(seed=100 + seat)
        for number in range(per_seat):
            if number:
                observation, _ = env.reset()
            total, over = 0.0, False
            while not over:
                action = int(policy.act(observation[None], env.action_masks()[None])[0])
                observation, reward, terminated, truncated, _ = env.step(action)
                total += reward
                over = terminated or truncated
            shares.append(total)
    return np.asarray(shares)


def first_finished(game: str, players: int, policy: NumpyPolicy, count: int, envs: int, runs: int) -> np.ndarray:
    """Each run's mean over the first ``count`` games to finish per seat (the biased count)."""
    means = []
    for run in range(runs):
        shares: list[float] = []
        for seat in range(players):
            env = GamebagVectorEnv(game, envs, players, seat=seat, opponents="heuristic")
            observations, _ = env.reset(seed=1000 * run + seat)
            got: list[float] = []
            while len(got) < count:
                observations, rewards, terminated, _, _ = env.step(policy(observations, env.action_masks()))
                got.extend(rewards[terminated].tolist())
            shares.extend(got[:count])
        means.append(float(np.mean(shares)))
    return np.asarray(means)


def by_length(outcomes: np.ndarray, lengths: np.ndarray) -> None:
    """The win share in each quarter of the games by length (steps)."""
    edges = np.quantile(lengths, [0.25, 0.5, 0.75])
    low = 0
    for high in [*edges.astype(int).tolist(), int(lengths.max())]:
        chosen = (lengths > low) & (lengths <= high)
        if chosen.any():
            print(f"  games of {low + 1} to {high} steps: {chosen.sum():,} games, {interval(outcomes[chosen])}")
        low = high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules-games", type=int, default=40_000)
    parser.add_argument("--compiled-games", type=int, default=400_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--gymnasium-games", type=int, default=0)
    parser.add_argument("--finished-runs", type=int, default=0)
    parser.add_argument("--finished", type=int, default=2000)
    parser.add_argument("--finished-envs", type=int, default=256)
    parser.add_argument("--by-length", action="store_true", help="the compiled win share by game length")
    parser.add_argument("--only", choices=[game for game, _ in CONFIGURATIONS])
    args = parser.parse_args()
    for game, players in CONFIGURATIONS:
        if args.only and game != args.only:
            continue
        policy = load_policy(resources.files(POLICY_PACKAGE).joinpath(policy_name(game, players)))
        for engine, games, envs in (("rules", args.rules_games, 1024), ("compiled", args.compiled_games, 4096)):
            if not games:
                continue
            started = time.perf_counter()
            result = evaluate(policy, game, players, "heuristic", games, args.seed, engine=engine, envs=envs)
            print(
                f"{result.summary()}; ± {interval(result.outcomes).split(' ± ')[1]}, "
                f"mean length {result.mean_length:.2f} ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
            if engine == "compiled" and args.by_length:
                by_length(result.outcomes, result.lengths)
        if args.gymnasium_games:
            started = time.perf_counter()
            shares = gymnasium_shares(game, players, policy, args.gymnasium_games)
            print(
                f"{game}: Gymnasium environment, {len(shares):,} games: {interval(shares)} "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
        if args.finished_runs:
            started = time.perf_counter()
            means = first_finished(game, players, policy, args.finished, args.finished_envs, args.finished_runs)
            print(
                f"{game}: first {args.finished:,} finished per seat of {args.finished_envs} envs, "
                f"{args.finished_runs} runs: {interval(means)} ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    with threadpool_limits(limits=1, user_api="blas"):
        main()
