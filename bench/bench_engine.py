"""Random-playout speed of the plain engine, per game, on one core.

Prints games per second for every registered game at its default player count
(and four-player Wriggle Roulette, whose target is 1,000 games per second), plus
the ratio to that target. Run: ``.venv/bin/python bench/bench_engine.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gamebag
from gamebag.core.protocol import Game
from gamebag.core.rng import make_rng
from gamebag.sim.play import random_walk

TARGET_WRIGGLE_4P = 1000.0


def random_playouts(game: Game[Any, Any, Any], seconds: float, seed: int = 0) -> tuple[int, float]:
    """Play random games for about ``seconds``; return (games, elapsed)."""
    rng = make_rng(seed)
    games = 0
    started = time.perf_counter()
    while True:
        for _ in random_walk(game, rng):
            pass
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return games, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration")
    args = parser.parse_args()
    configs = [("wriggle-roulette", 4)] + [(g, gamebag.entry(g).game_class.default_players) for g in gamebag.game_ids()]
    seen = set()
    print(f"{'game':<20} {'players':>7} {'games':>8} {'games/s':>10}")
    for game_id, players in configs:
        if (game_id, players) in seen:
            continue
        seen.add((game_id, players))
        games, elapsed = random_playouts(gamebag.make(game_id, players), args.seconds)
        rate = games / elapsed
        line = f"{game_id:<20} {players:>7} {games:>8} {rate:>10,.0f}"
        if (game_id, players) == ("wriggle-roulette", 4):
            line += f"   ratio to the 1,000/s target: {rate / TARGET_WRIGGLE_4P:.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
