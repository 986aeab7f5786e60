"""Eigen Kweek's analysis: batched compiled playouts judged to ±5 points against the fixed-count method.

Plays ``--games`` seeded games of ``--players``-player Eigen Kweek with the ``heuristic`` agent (game
``k`` seeded by ``derive_rng(seed, "analysis-kweek", players, k)``) and analyses each, in this one
process, twice: with the default settings (``batched``: each decision's value, best value and loss
judged to ±0.05 within the game's budget, or undecided) and with the fixed-count playouts of before
(``fixed``: the default budget per value, ``AnalysisSettings(batched=False)``). Per game and method it
prints this process's CPU seconds (``time.process_time``: the fair measure on a machine shared with
other work, whose wall clock it inflates) and wall seconds, the half-width of each decision's widest
figure (the largest of its value's, best value's and loss's 95% half-widths; median and max over the
decisions that have intervals), and the share of decisions judged (all three within ±0.05; undecided
ones have no interval). Before timing, a one-round game is analysed by both methods so that the
kernels are compiled (numba's cache) and loaded: the CPU seconds this took are printed apart.

Run: ``.venv/bin/python bench/analysis_kweek.py [--games N] [--players P] [--seed S] [--max-rounds R]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import gamebag
from gamebag.agents.registry import heuristic_for
from gamebag.analysis import AnalysisSettings, analyse_record
from gamebag.analysis.batched import JUDGED_HALF_WIDTH
from gamebag.core.records import Record
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game

CPU_TARGET_S = 20.0  # per whole game (issue 37)
INTERVALS = ("value_interval", "best_value_interval", "loss_interval")
METHODS = (("batched", AnalysisSettings()), ("fixed", AnalysisSettings(batched=False)))


def widest(decision: dict[str, Any]) -> float | None:
    """The largest 95% half-width of a decision's value, best value and loss (None: no interval)."""
    if "value_interval" not in decision:
        return None
    return max((high - low) / 2 for low, high in (decision[key] for key in INTERVALS))


def record_of(game: Any, players: int, seed: int, k: int) -> Record:
    result = play_game(game, [heuristic_for(game)] * players, derive_rng(seed, "analysis-kweek", players, k))
    assert result.record is not None
    return result.record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-rounds", type=int, default=None, help="a round cap (default: the game's own)")
    args = parser.parse_args()
    options = {} if args.max_rounds is None else {"max_rounds": args.max_rounds}
    game = gamebag.make("eigen-kweek", args.players, **options)
    started = time.process_time()
    warm = record_of(gamebag.make("eigen-kweek", args.players, max_rounds=1), args.players, args.seed, -1)
    for _, settings in METHODS:
        analyse_record(warm, settings)
    print(f"warm-up (compiling or loading the kernels): {time.process_time() - started:.1f} CPU-s")
    print(f"load average at start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
    print("| method | game | events | decisions | CPU s | wall s | median half-width | max half-width | judged |")
    print("|---|---|---|---|---|---|---|---|---|")
    totals: dict[str, dict[str, list[float]]] = {name: {"cpu": [], "half": [], "judged": []} for name, _ in METHODS}
    for k in range(args.games):
        record = record_of(game, args.players, args.seed, k)
        for name, settings in METHODS:
            wall, cpu = time.perf_counter(), time.process_time()
            decisions = analyse_record(record, settings).to_json()["decisions"]
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            halves = [h for h in map(widest, decisions) if h is not None]
            judged = [d["judged"] for d in decisions]
            totals[name]["cpu"].append(cpu)
            totals[name]["half"].extend(halves)
            totals[name]["judged"].extend(float(j) for j in judged)
            share = sum(judged) / max(1, len(judged))
            print(
                f"| {name} | {k} | {len(record.events)} | {len(decisions)} | {cpu:.2f} | {wall:.2f} "
                f"| {_median(halves)} | {_max(halves)} | {100 * share:.0f}% |",
                flush=True,
            )
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    for name, found in totals.items():
        cpu = found["cpu"]
        share = statistics.fmean(found["judged"]) if found["judged"] else 0.0
        print(
            f"{name}: {statistics.fmean(cpu):.2f} CPU-s per game (max {max(cpu):.2f}; target {CPU_TARGET_S:g}: "
            f"{'met' if max(cpu) <= CPU_TARGET_S else 'missed'}); half-width median {_median(found['half'])}, "
            f"max {_max(found['half'])}; {100 * share:.1f}% of decisions judged to +-{JUDGED_HALF_WIDTH}"
        )


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.3f}" if values else "-"


def _max(values: list[float]) -> str:
    return f"{max(values):.3f}" if values else "-"


if __name__ == "__main__":
    main()
