"""Benchmark of the exact solvers: time and memory of each solve, plus Monte Carlo checks.

Run: ``.venv/bin/python bench/bench_solvers.py [--repeat 3] [--games 20000]``

For each solve it prints the best wall time of ``--repeat`` cold solves (caches
cleared, one core), the peak memory Python allocated during one extra solve
(``tracemalloc``, measured apart from the timing because tracing slows Python
down), and the size of the stored tables. With ``--games N`` it also plays N
games between the optimal agents and prints the estimate with its 99% interval
next to the exact value.
"""

from __future__ import annotations

import argparse
import math
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.agents.solvers import solutions
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game

Z99 = 2.5758


def measure(solve: Callable[[], Any], repeat: int) -> tuple[Any, float, float]:
    """(result, best seconds, peak traced MB) of a cold solve."""
    best = math.inf
    result = None
    for _ in range(repeat):
        solutions.clear()
        started = time.perf_counter()
        result = solve()
        best = min(best, time.perf_counter() - started)
    solutions.clear()
    tracemalloc.start()
    solve()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, best, peak / 1e6


def monte_carlo(game: Any, agents: list[str], games: int, label: str) -> tuple[float, float]:
    players = [make_agent(name, game) for name in agents]
    shares = [play_game(game, players, derive_rng(label, i), keep_record=False).returns[0] for i in range(games)]
    mean = sum(shares) / games
    spread = math.sqrt(sum((s - mean) ** 2 for s in shares) / (games - 1))
    return mean, Z99 * spread / math.sqrt(games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="cold solves per figure (best time is printed)")
    parser.add_argument("--games", type=int, default=0, help="Monte Carlo games per check (0: skip)")
    args = parser.parse_args()

    print(f"{'solve':<48} {'value':>22} {'seconds':>9} {'peak MB':>8} {'table MB':>9}")
    for options in ({}, {"duplicate_bust": "none-new"}, {"cyclic": False}):
        game = gamebag.make("catch-a-dragon", 2, **options)
        score, seconds, peak = measure(lambda g=game: solutions.score_solution(g), args.repeat)
        label = "catch-a-dragon score " + (",".join(f"{k}={v}" for k, v in options.items()) or "(defaults)")
        print(f"{label:<48} {score.value!s:>22} {seconds:>9.3f} {peak:>8.1f} {'-':>9}")
        print(f"{'':<48} {float(score.value):>22.6f}")

    dragon = gamebag.make("catch-a-dragon", 2)
    win, seconds, peak = measure(lambda: solutions.win_solution(dragon), args.repeat)
    print(
        f"{'catch-a-dragon win, 2 players':<48} {win.value:>22.6f} {seconds:>9.3f} {peak:>8.1f} "
        f"{win.table_bytes / 1e6:>9.2f}"
    )
    for goal in (100,):
        pig = gamebag.make("pig", goal=goal)
        race, seconds, peak = measure(lambda p=pig: solutions.win_solution(p), args.repeat)
        print(
            f"{f'pig win, goal {goal}':<48} {race.value:>22.6f} {seconds:>9.3f} {peak:>8.1f} "
            f"{race.table_bytes / 1e6:>9.2f}"
        )

    if args.games:
        print(f"\nMonte Carlo, {args.games} games each: estimate +- 99% half-width vs exact")
        checks = [
            (dragon, ["optimal-win", "optimal-win"], solutions.win_solution(dragon).value, "dragon win vs win"),
            (
                gamebag.make("pig"),
                ["optimal-win", "optimal-win"],
                solutions.win_solution(gamebag.make("pig")).value,
                "pig",
            ),
        ]
        for game, agents, exact, label in checks:
            started = time.perf_counter()
            mean, half = monte_carlo(game, agents, args.games, label)
            inside = "inside" if abs(mean - exact) <= half else "OUTSIDE"
            print(
                f"  {label:<22} {mean:.4f} +- {half:.4f}  exact {exact:.4f}  ({inside}; "
                f"{time.perf_counter() - started:.1f} s)"
            )


if __name__ == "__main__":
    main()
