"""Compile the analysis's own kernels ahead of their first use: ``python -m gamebag.analysis.warm``.

Eigen Kweek's analysis plays its decisions out in batches from redrawn information sets
(``fast/eigen_kweek/sampling.py``); numba compiles those kernels at their first call and keeps
them in its on-disk cache. ``make`` runs this once after installing the package (beside
``gamebag.fast.warm``), so the first analysis a player asks for does not wait for the compiler.
"""

from __future__ import annotations

import sys
import time

import gamebag
from gamebag.agents.registry import heuristic_for
from gamebag.analysis import AnalysisSettings, analyse_record
from gamebag.core.rng import Rng
from gamebag.fast.registry import compiler_problem
from gamebag.sim.play import play_game


def main() -> int:
    problem = compiler_problem()
    if problem is not None:
        print(f"gamebag.analysis.warm: nothing compiled: {problem}")
        return 0
    started = time.perf_counter()
    game = gamebag.make("eigen-kweek", 3, max_rounds=1)  # one round: every kernel is called, little is played
    result = play_game(game, [heuristic_for(game)] * game.num_players, Rng(0))
    if result.record is not None:
        analyse_record(result.record, AnalysisSettings(seats=(0,), seed=0))
    print(f"gamebag.analysis.warm: compiled the analysis's kernels in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
