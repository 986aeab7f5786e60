"""Benchmark of the exact solvers: time and memory of each solve, plus Monte Carlo checks.

Run: ``.venv/bin/python bench/bench_solvers.py [--repeat 3] [--games 20000]``

For each solve it prints the best CPU time (seconds of this process, which uses
one core; wall times on a shared machine wander) of ``--repeat`` cold solves
(caches cleared), the peak memory Python allocated during one extra solve
(``tracemalloc``, measured apart from the timing because tracing slows Python
down), and the size of the stored tables. The win solves run compiled (numba);
each is also timed with the NumPy reference passes (``compiled=False``, how
every solve ran before) and the ratio printed. ``gamebag solve``'s report is
timed with and without its comparison with optimal-score. With ``--games N``
it also plays N games between the optimal agents and prints the estimate with
its 99% interval next to the exact value.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.agents.solvers import solutions
from gamebag.agents.solvers.race import solve_race_win
from gamebag.agents.solvers.report import solve_report
from gamebag.agents.solvers.rounds import solve_rounds_win
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smoke import smoke_or

Z99 = 2.5758
# The solves measured; a smoke run (bench/smoke.py) solves small versions of the same games.
SCORE_OPTIONS: tuple[dict[str, Any], ...] = smoke_or(
    ({}, {"duplicate_bust": "none-new"}, {"cyclic": False}), ({"dice": 2}, {"dice": 2, "cyclic": False})
)
WIN_OPTIONS: tuple[dict[str, Any], ...] = smoke_or(({}, {"dice": 6, "rounds": 2}), ({"dice": 2, "rounds": 1},))
PIG_GOALS: tuple[int, ...] = smoke_or((100,), (12,))
DRAGON: dict[str, Any] = smoke_or({}, {"dice": 2, "rounds": 1})  # the game of the report and the checks


def measure(solve: Callable[[], Any], repeat: int) -> tuple[Any, float, float]:
    """(result, best CPU seconds, peak traced MB) of a cold solve."""
    best = math.inf
    result = None
    for _ in range(repeat):
        solutions.clear()
        started = time.process_time()
        result = solve()
        best = min(best, time.process_time() - started)
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
    for options in SCORE_OPTIONS:
        game = gamebag.make("catch-a-dragon", 2, **options)
        score, seconds, peak = measure(lambda g=game: solutions.score_solution(g), args.repeat)
        label = "catch-a-dragon score " + (",".join(f"{k}={v}" for k, v in options.items()) or "(defaults)")
        print(f"{label:<48} {score.value!s:>22} {seconds:>9.3f} {peak:>8.1f} {'-':>9}")
        print(f"{'':<48} {float(score.value):>22.6f}")

    dragon = gamebag.make("catch-a-dragon", 2, **DRAGON)
    reference_rows: list[tuple[str, float, float]] = []
    for options in WIN_OPTIONS:
        game = gamebag.make("catch-a-dragon", 2, **options)
        win, seconds, peak = measure(lambda g=game: solutions.win_solution(g), args.repeat)
        label = "catch-a-dragon win, 2 players " + ",".join(f"{k}={v}" for k, v in options.items())
        print(f"{label:<48} {win.value:>22.6f} {seconds:>9.3f} {peak:>8.1f} {win.table_bytes / 1e6:>9.2f}")
        _, before, _ = measure(lambda g=game: solve_rounds_win(solutions.turn_model(g), compiled=False), 1)
        reference_rows.append((label, seconds, before))
    for goal in PIG_GOALS:
        pig = gamebag.make("pig", goal=goal)
        race, seconds, peak = measure(lambda p=pig: solutions.win_solution(p), args.repeat)
        label = f"pig win, goal {goal}"
        print(f"{label:<48} {race.value:>22.6f} {seconds:>9.3f} {peak:>8.1f} {race.table_bytes / 1e6:>9.2f}")
        _, before, _ = measure(lambda p=pig: solve_race_win(solutions.turn_model(p), compiled=False), 1)
        reference_rows.append((label, seconds, before))

    print(f"\n{'win solve: compiled vs NumPy reference':<48} {'compiled s':>10} {'NumPy s':>9} {'ratio':>7}")
    for label, after, before in reference_rows:
        print(f"{label:<48} {after:>10.3f} {before:>9.3f} {before / after:>7.1f}")
    for compare in (False, True):
        _, seconds, _ = measure(lambda c=compare: solve_report(dragon, "win", compare=c), args.repeat)
        label = "gamebag solve catch-a-dragon --objective win " + ("(with comparison)" if compare else "--no-compare")
        print(f"{label:<64} {seconds:>9.3f}")

    if args.games:
        print(f"\nMonte Carlo, {args.games} games each: estimate +- 99% half-width vs exact")
        checks = [
            (dragon, ["optimal-win", "optimal-win"], solutions.win_solution(dragon).value, "dragon win vs win"),
            (
                gamebag.make("pig", goal=PIG_GOALS[0]),
                ["optimal-win", "optimal-win"],
                solutions.win_solution(gamebag.make("pig", goal=PIG_GOALS[0])).value,
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
