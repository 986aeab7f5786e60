"""Replay rules-engine Eigen Kweek games through the compiled kernel: 1,000 per option set.

Every game is played on the rules engine by a mix of ``random``, ``heuristic`` and
``heuristic:abstain=CARD+CARD`` seats (``tests/fast/test_kweek_equality.mixed_agents``)
and applied step by step to a kernel row; after every step the full position, who acts,
every menu, conservation of the 116 weed tokens and 35 coins and every heuristic
decision (with its random draws) are compared, and with ``--observe`` every seat's
observation tensor at every decision too. Players cycle through 2, 3 and 4. It prints,
per option set, the games, steps and decisions compared, how many (seat, card) pairs
were held, and the time; it stops at the first difference with the position.

Run: ``.venv/bin/python bench/kweek_equality.py`` (``--games 1000``, the default; the rules
engine plays some 30-100 games a second, so the ten sets take a while on a busy machine;
``--sets 0,4`` runs some).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "tests" / "fast")]

from kweek_replay import replay  # noqa: E402
from test_kweek_equality import OPTION_SETS, mixed_agents  # noqa: E402

import gamebag  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per option set (default 1000)")
    parser.add_argument("--sets", default="", help="comma-separated option set numbers (default: all)")
    parser.add_argument("--observe", action="store_true", help="compare observation tensors too (slower)")
    args = parser.parse_args()
    if not 1 <= args.games <= 1_000_000:
        parser.error(f"--games must be 1 to 1000000, not {args.games}")
    chosen = [int(x) for x in args.sets.split(",") if x.strip()] or list(range(len(OPTION_SETS)))
    bad = [x for x in chosen if not 0 <= x < len(OPTION_SETS)]
    if bad:
        parser.error(f"--sets: option sets are numbered 0 to {len(OPTION_SETS) - 1}, not {bad}")
    total = 0
    for index in chosen:
        options = OPTION_SETS[index]
        began = time.process_time()
        counts = {"steps": 0, "decisions": 0, "heuristic": 0, "observations": 0}
        held: dict[int, set[tuple[int, str]]] = {2: set(), 3: set(), 4: set()}
        for number in range(args.games):
            players = 2 + number % 3
            game = gamebag.make("eigen-kweek", players, **options)
            agents = mixed_agents(players, "bench", index, number)
            done = replay(game, agents, f"bench-{index}", number, observe=args.observe, held=held[players])
            for key in counts:
                counts[key] += done[key]
        total += args.games
        coverage = ", ".join(f"{p}p {len(h)}/{14 * p}" for p, h in held.items())
        print(
            f"set {index} {options or 'defaults'}: {args.games} games equal; {counts['steps']:,} steps, "
            f"{counts['decisions']:,} decisions, {counts['heuristic']:,} heuristic decisions, "
            f"{counts['observations']:,} tensors; (seat, card) held: {coverage}; "
            f"{time.process_time() - began:.0f} CPU-s",
            flush=True,
        )
    print(f"all {total} replayed games equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
