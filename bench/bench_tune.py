"""Benchmark of ``gamebag tune``'s target search: 8-player Wriggle Roulette, 20 trials of 4,000
games each (plus the leaders re-measured and the pick confirmed at 16,000 games each), searching the
snake count, the outbreak threshold and the start rotation for the fairest design within 4.6
rounds a game.

    .venv/bin/python bench/bench_tune.py [--trials 20] [--games 4000] [--workers 1]

Prints the time, the games played, the time per trial and the ratio to the target (one minute).
"""

from __future__ import annotations

import argparse
import time

from gamebag.lab.tune import TuneSettings, parse_goals, parse_limits, parse_search, tune
from gamebag.lab.tune.search import LEADERS, REMEASURE_FACTOR

TARGET_SECONDS = 60.0
GAME = "wriggle-roulette"
PLAYERS = 8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--games", type=int, default=4000, help="games per trial")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    settings = TuneSettings(
        game=GAME,
        players=PLAYERS,
        dimensions=tuple(
            parse_search(GAME, PLAYERS, ["snakes=10..30", "outbreak_snakes=5..20", "rotate_start=false,true"])
        ),
        goals=tuple(parse_goals(["fair"])),
        limits=tuple(parse_limits(["mean_rounds<=4.6"])),
        trials=args.trials,
        games=args.games,
        seed=args.seed,
        workers=args.workers,
    )
    started = time.perf_counter()
    cpu_started = time.process_time()
    result = tune(settings)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    complete = [t for t in result.trials if t.state == "complete"]
    remeasured = min(LEADERS, len([t for t in complete if t.feasible])) + (1 if result.best else 0)
    games = len(complete) * args.games + remeasured * args.games * REMEASURE_FACTOR
    engines = sorted({t.measurement.engine for t in complete if t.measurement is not None})
    print(f"{GAME}, {PLAYERS} players: {len(result.trials)} trials ({len(complete)} played) of {args.games:,} games")
    print(f"engine(s): {', '.join(engines)}; workers: {args.workers}")
    print(f"games played: about {games:,} (trials, re-measured leaders and the confirmation)")
    print(
        f"wall time: {seconds:.1f} s ({seconds / max(1, len(result.trials)):.2f} s a trial); "
        f"CPU of this process {cpu:.1f} s"
    )
    if result.best is not None:
        print(
            "recommended:",
            " ".join(f"{k}={v}" for k, v in result.best.params.items()),
            "confirmed" if result.best.confirmed else "not confirmed",
        )
    print(f"target: under {TARGET_SECONDS:.0f} s; ratio time/target = {seconds / TARGET_SECONDS:.2f}")


if __name__ == "__main__":
    main()
