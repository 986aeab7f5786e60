"""Random-playout speed of the Eigen Kweek rules engine, against an earlier commit.

Plays uniformly random 4-player games (``random_walk``: every legal choice equally
likely, chance sampled) for a fixed set of seeds and prints games per second of
CPU time (the process's own time, so other work on a shared machine counts less). With
``--against COMMIT`` it also measures the engine of that commit (its ``src/`` is
extracted with ``git archive`` into a temporary folder and run in a subprocess on
the same seeds) and prints the ratio now / then.

Run: ``.venv/bin/python bench/bench_eigen_kweek.py --against 39f9030`` (39f9030 is
the engine before the step table; about a minute on one core).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs inside whichever source tree is on the path; prints one JSON line.
MEASURE = """
import json, sys, time
import gamebag
from gamebag.core.rng import derive_rng
from gamebag.sim.play import random_walk
games, players, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
game = gamebag.make("eigen-kweek", players)
steps = 0
started = time.process_time()
for index in range(games):
    for _ in random_walk(game, derive_rng(seed, "bench", index)):
        steps += 1
elapsed = time.process_time() - started
print(json.dumps({"games": games, "steps": steps, "seconds": elapsed}))
"""


def measure(src: Path, games: int, players: int, seed: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(games), str(players), str(seed)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def extract(commit: str, into: Path) -> Path:
    archive = into / "src.tar"
    with archive.open("wb") as handle:
        subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"], check=True, stdout=handle)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def line(label: str, result: dict[str, float]) -> str:
    rate = result["games"] / result["seconds"]
    return (
        f"{label:<12} {int(result['games']):>6} games {int(result['steps']):>9} steps "
        f"{result['seconds']:>7.2f} s {rate:>8.2f} games/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="random games per measurement (1-10000)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--against", help="an earlier commit whose engine to measure on the same games")
    parser.add_argument(
        "--repeats", type=int, default=3, help="measurements of each engine, taken in turn; the fastest counts (1-10)"
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 10_000:
        parser.error(f"--games must be from 1 to 10000, not {args.games}")
    if not 1 <= args.repeats <= 10:
        parser.error(f"--repeats must be from 1 to 10, not {args.repeats}")
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT / "src"}
        if args.against:
            trees[args.against[:12]] = extract(args.against, Path(tmp))
        best: dict[str, dict[str, float]] = {}
        # Taken in turn, so a busy machine slows both engines alike; the fastest run counts.
        for _ in range(args.repeats):
            for label, src in trees.items():
                result = measure(src, args.games, args.players, args.seed)
                if label not in best or result["seconds"] < best[label]["seconds"]:
                    best[label] = result
    now = best["this tree"]
    print(line("this tree", now))
    if args.against:
        then = best[args.against[:12]]
        print(line(args.against[:12], then))
        if then["steps"] != now["steps"]:
            print("note: the two engines played different games (a rule changed between them)")
        ratio = (now["games"] / now["seconds"]) / (then["games"] / then["seconds"])
        print(f"ratio (this tree / {args.against[:12]}): {ratio:.2f}x games/s")


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s in all)")
