"""Speed of the vectorised environments over the compiled step kernels, one core.

For each game with a kernel: ``GamebagVectorEnv`` with ``--envs`` games (one learner seat
picking uniformly among its legal actions, the other seats the compiled ``random``
policy), after a warm-up step that compiles the kernels. Prints learner steps per second
(env-steps/s) and finished games per second. Run:
``.venv/bin/python bench/bench_vector.py [--envs N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamebag.interop.vector_env import GamebagVectorEnv

CONFIGS = [("wriggle-roulette", 4), ("eel-harvest", 3), ("catch-a-dragon", 2), ("pig", 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--envs", type=int, default=1024, help="games per batch")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration")
    args = parser.parse_args()
    print(f"{'game':<18} {'players':>7} {'envs':>6} {'env-steps/s':>12} {'games/s':>9}")
    for game_id, players in CONFIGS:
        vec = GamebagVectorEnv(game_id, args.envs, players, opponents="random")
        rng = np.random.default_rng(0)
        vec.reset(seed=0)
        vec.step(vec.action_masks().argmax(axis=1))  # compiles (or loads) the kernels
        vec.reset(seed=0)
        steps = games = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < args.seconds:
            masks = vec.action_masks()
            _, _, terminated, _, _ = vec.step((rng.random(masks.shape) * masks).argmax(axis=1))
            steps += args.envs
            games += int(terminated.sum())
        print(f"{game_id:<18} {players:>7} {args.envs:>6} {steps / elapsed:>12,.0f} {games / elapsed:>9,.0f}")


if __name__ == "__main__":
    main()
