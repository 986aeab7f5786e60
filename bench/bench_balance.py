"""Benchmark of the balance lab's target study: Wriggle Roulette, heuristic bots, 2-8 players x two
variants of ``rotate_start``, 20,000 games per cell (280,000 games), on the compiled engine where it
exists and the process pool.

    .venv/bin/python bench/bench_balance.py [--games 20000] [--workers 2]

Prints the time per cell kind, games per second and the ratio to the target (two minutes).
"""

from __future__ import annotations

import argparse
import time

from gamebag import lab

TARGET_SECONDS = 120.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000, help="games per cell")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    started = time.perf_counter()
    result = lab.balance(
        "wriggle-roulette",
        players="2-8",
        agents="heuristic",
        vary={"rotate_start": [False, True]},
        games=args.games,
        seed=args.seed,
        workers=args.workers,
    )
    seconds = time.perf_counter() - started
    games = sum(cell.games for cell in result.cells)
    engines = sorted({cell.engine for cell in result.cells})
    print(f"wriggle-roulette, heuristic, 2-8 players x rotate_start=false,true, {args.games:,} games per cell")
    print(f"engine(s): {', '.join(engines)}; workers: {args.workers}")
    print(f"{games:,} games in {seconds:.1f} s ({games / seconds:,.0f} games/s), study time {result.seconds:.1f} s")
    scale = 20_000 / args.games
    print(
        f"target: {TARGET_SECONDS:.0f} s for 20,000 games per cell; measured (scaled to 20,000): "
        f"{seconds * scale:.1f} s, ratio {seconds * scale / TARGET_SECONDS:.2f} of the target"
    )
    for cell in result.cells:
        shares = " ".join(f"{s:.3f}" for s in cell.win_share)
        print(f"  {cell.cell.label:36s} fairness p={cell.fairness_p:.2g}  shares {shares}")


if __name__ == "__main__":
    main()
