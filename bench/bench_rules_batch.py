"""Speed of the step batch over the rules engine (``gamebag.interop.rules_batch``), one core.

Eigen Kweek has no compiled kernel, so ``gamebag train`` steps it on the rules engine.
For each player count: a ``RulesBatch`` of ``--envs`` games where every acting seat picks
uniformly among its legal actions, every seat's observation built each step (as the PPO
learner asks for them); then the same with the rules-engine ``heuristic`` choosing for
every seat. Prints batch steps (one decision in each game) per second and microseconds per
game step. Run:
``.venv/bin/python bench/bench_rules_batch.py [--envs N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import gamebag
from gamebag.interop.rules_batch import RulesBatch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--envs", type=int, default=256, help="games per batch")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    args = parser.parse_args()
    print(f"{'game':<12} {'players':>7} {'choices':>9} {'envs':>5} {'steps/s':>9} {'us/step':>8}")
    for players in (2, 4):
        for chooser in ("random", "heuristic"):
            batch = RulesBatch(gamebag.make("eigen-kweek", players), args.envs)
            rng = np.random.default_rng(0)
            batch.reset(0)
            steps = 0
            started = time.perf_counter()
            while (elapsed := time.perf_counter() - started) < args.seconds:
                if chooser == "random":
                    masks = batch.legal_mask()
                    actions = np.asarray((rng.random(masks.shape) * masks).argmax(axis=-1), dtype=np.int64)
                else:
                    actions = batch.policy_actions([chooser] * players)
                batch.step(actions)
                batch.observations()
                steps += args.envs
                batch.reset_done()
            print(
                f"{'eigen-kweek':<12} {players:>7} {chooser:>9} {args.envs:>5} {steps / elapsed:>9,.0f} "
                f"{elapsed / steps * 1e6:>8.0f}"
            )


if __name__ == "__main__":
    main()
