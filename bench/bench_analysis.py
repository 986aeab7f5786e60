"""How long ``gamebag analyse`` takes on whole games, exact and estimated (docs/analysis.md).

For each configuration, ``--games`` games are played by the ``heuristic`` agent (game ``k`` seeded by
``derive_rng(seed, "bench-analysis", game, players, k)``) and analysed one after the other in this
process with the default settings (wall-clock seconds, and in brackets this process's CPU seconds,
which a busy shared machine inflates less): the first analysis of a configuration is *cold* (it includes
solving: the win solver's tables, the first equilibrium rounds, compiling the playout kernels),
the others *warm* (what a second game of the same configuration costs). Prints a Markdown table
with the machine's load average, which the figures depend on (the machine is shared).

At the end it sets the figures measured in this run against the targets (docs/analysis.md, Speed):
an exact analysis of a whole game in under ``EXACT_TARGET_S`` seconds, an estimated one within
``ESTIMATE_TARGET_S`` (the documented budget, Eigen Kweek's long games included), each warm, as
wall-clock and as CPU seconds (the CPU figure is what an idle machine's wall clock would show; a
busy shared machine inflates the wall clock).

Run: ``.venv/bin/python bench/bench_analysis.py [--games N] [--seed S] [--only GAME:PLAYERS]
[--playouts P] [--seat S]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import gamebag
from gamebag.agents.registry import heuristic_for
from gamebag.analysis import AnalysisSettings, analyse_record
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game

EXACT_TARGET_S = 1.0
ESTIMATE_TARGET_S = 5.0

CONFIGURATIONS = (
    ("pig", 2),
    ("catch-a-dragon", 2),
    ("eel-harvest", 2),
    ("wriggle-roulette", 2),
    ("catch-a-dragon", 3),
    ("eel-harvest", 3),
    ("wriggle-roulette", 4),
    ("eigen-kweek", 3),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", default=[], help="GAME:PLAYERS (repeatable)")
    parser.add_argument("--playouts", type=int, default=None, help="default: the analysis's own")
    parser.add_argument("--seat", type=int, action="append", default=None, help="analyse only this seat")
    args = parser.parse_args()
    chosen = [(g, int(n)) for g, n in (item.split(":") for item in args.only)] if args.only else CONFIGURATIONS
    seats = tuple(args.seat) if args.seat else None
    settings = AnalysisSettings(seats=seats, playouts=args.playouts, seed=args.seed)
    print(f"load average at start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
    print("| game | players | method | events | decisions | cold s (CPU s) | warm s, mean (CPU s) |")
    print("|---|---|---|---|---|---|---|")
    worst: dict[bool, tuple[float, float, str]] = {}  # exact or not: the slowest warm (or cold) mean
    for game_id, players in chosen:
        game = gamebag.make(game_id, players)
        agents = [heuristic_for(game)] * players
        cold: tuple[float, float] | None = None
        warm: list[tuple[float, float]] = []
        events = decisions = 0
        method = ""
        for k in range(args.games):
            record = play_game(game, agents, derive_rng(args.seed, "bench-analysis", game_id, players, k)).record
            assert record is not None
            started, cpu = time.perf_counter(), time.process_time()
            analysis = analyse_record(record, settings)
            seconds = (time.perf_counter() - started, time.process_time() - cpu)
            if cold is None:
                cold = seconds
            else:
                warm.append(seconds)
            events += len(record.events)
            decisions += len(analysis.decisions)
            method = "exact" if analysis.exact else f"estimate ({analysis.playouts} playouts)"
        assert cold is not None
        typical = (statistics.fmean(w for w, _ in warm), statistics.fmean(c for _, c in warm)) if warm else cold
        exact = method == "exact"
        if typical[1] > worst.get(exact, (0.0, -1.0, ""))[1]:
            worst[exact] = (typical[0], typical[1], f"{game_id}:{players}" + ("" if warm else " (cold)"))
        mean_warm = "-"
        if warm:
            mean_warm = f"{statistics.fmean(w for w, _ in warm):.2f} ({statistics.fmean(c for _, c in warm):.2f})"
        print(
            f"| {game_id} | {players} | {method} | {events / args.games:.0f} | {decisions / args.games:.0f} "
            f"| {cold[0]:.2f} ({cold[1]:.2f}) | {mean_warm} |",
            flush=True,
        )
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    for exact, target in ((True, EXACT_TARGET_S), (False, ESTIMATE_TARGET_S)):
        if exact in worst:
            wall, cpu, name = worst[exact]
            print(
                f"target: {'exact' if exact else 'estimated'} analysis of a game under {target:g} s; slowest "
                f"{name}: {wall:.2f} s wall ({'met' if wall < target else 'missed'}), {cpu:.2f} CPU-s "
                f"({'met' if cpu < target else 'missed'})"
            )


if __name__ == "__main__":
    main()
