"""Seconds from asking for a finished table's analysis to its answer, per game, as the web server runs it.

For each configuration a game is played by the ``heuristic`` agent (game ``k`` seeded by
``derive_rng(seed, "analysis-time", game, players, k)``) and its analysis asked of the server's own
machinery (``web.tables.analysis.TableAnalyses`` on a ``WorkerPool``): the answer is polled every
``--poll`` seconds (the analysis page polls every 0.25 s for its first seconds, ``static/js/analysis.js``)
until it is done. Three figures per configuration, each the wall clock from the first request to
the finished answer:

* ``fresh worker``: a new pool, so a worker process is started (importing numpy and the agents)
  and loads or solves what the game needs (the solved tables, the compiled playout kernels);
* ``warmed at the end``: a new pool whose worker got ready for the configuration when the game
  ended (the server sends ``WarmJob`` then, ``web/tables/automation.py``; the bench waits for it, as
  a player reading the end screen for a few seconds does), then the analysis is asked for;
* ``warm worker``: a second game of the same configuration on the same pool, whose worker is
  already running and has done one;
* ``start``: what starting a worker alone costs (a trivial job on a new pool), to read the first
  figure by.

The machine is shared: the load average is printed with the figures. Run:
``.venv/bin/python bench/analysis_time.py [--only GAME:PLAYERS] [--seed S] [--poll SECONDS]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from typing import Any

import gamebag
from gamebag.agents.registry import heuristic_for
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game
from gamebag.web.tables.analysis import TableAnalyses, analysis_key
from gamebag.web.work.workers import BuildJob, WarmJob, WorkerPool

TARGET_S = 3.0  # issue 37: a bag game's or Catch A Dragon's analysis on screen within 3 s
CONFIGURATIONS = (
    ("eel-harvest", 2),
    ("eel-harvest", 3),
    ("wriggle-roulette", 2),
    ("wriggle-roulette", 4),
    ("catch-a-dragon", 2),
    ("catch-a-dragon", 3),
    ("pig", 2),
    ("eigen-kweek", 3),
)
TARGETED = ("eel-harvest", "wriggle-roulette", "catch-a-dragon")


def record_of(game_id: str, players: int, seed: int, k: int) -> dict[str, Any]:
    game = gamebag.make(game_id, players)
    played = play_game(game, [heuristic_for(game)] * players, derive_rng(seed, "analysis-time", game_id, players, k))
    assert played.record is not None
    return played.record.to_json()


async def time_to_answer(analyses: TableAnalyses, table_id: str, record: dict[str, Any], poll: float) -> float:
    """Seconds from the first request to the finished answer, polling as the page does."""
    names = [f"player {seat + 1}" for seat in range(int(record["players"]))]
    started = time.perf_counter()
    while True:
        answer = analyses.status(table_id, record, names)
        if answer["status"] != "running":
            if answer["status"] != "done":
                raise SystemExit(f"{table_id}: the analysis failed: {answer.get('error')}")
            return time.perf_counter() - started
        await asyncio.sleep(poll)


async def worker_start() -> float:
    pool = WorkerPool(1)
    started = time.perf_counter()
    await pool.run(BuildJob(("pig", 2, "{}", "random")), 120.0)
    seconds = time.perf_counter() - started
    pool.close()
    return seconds


async def measure(game_id: str, players: int, seed: int, poll: float) -> tuple[float, float, float, float]:
    """Seconds to the answer on a fresh worker, the warm-up's own seconds, the answer after the
    warm-up (another new pool), and on a warm worker."""
    first, second = record_of(game_id, players, seed, 0), record_of(game_id, players, seed, 1)
    pool = WorkerPool(1)
    analyses = TableAnalyses(pool)
    try:
        fresh = await time_to_answer(analyses, "fresh", first, poll)
        warm = await time_to_answer(analyses, "warm", second, poll)
    finally:
        await analyses.stop()
        pool.close()
    pool = WorkerPool(1)
    analyses = TableAnalyses(pool)
    try:
        started = time.perf_counter()
        await pool.run(WarmJob(analysis_key(game_id, players, first.get("options", {}))), 600.0)
        warming = time.perf_counter() - started
        warmed = await time_to_answer(analyses, "warmed", first, poll)
    finally:
        await analyses.stop()
        pool.close()
    return fresh, warming, warmed, warm


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="GAME:PLAYERS (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--poll", type=float, default=0.25, help="seconds between the page's requests")
    args = parser.parse_args()
    chosen = [(g, int(n)) for g, n in (item.split(":") for item in args.only)] if args.only else CONFIGURATIONS
    print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    print(f"start of a worker alone: {await worker_start():.2f} s")
    print("| game | players | fresh worker s | warm-up at the end s | warmed at the end s | warm worker s |")
    print("|---|---|---|---|---|---|")
    missed = []
    for game_id, players in chosen:
        fresh, warming, warmed, warm = await measure(game_id, players, args.seed, args.poll)
        print(f"| {game_id} | {players} | {fresh:.2f} | {warming:.2f} | {warmed:.2f} | {warm:.2f} |", flush=True)
        if game_id in TARGETED and max(warmed, warm) > TARGET_S:
            missed.append(f"{game_id}:{players}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    verdict = "met" if not missed else f"missed by {', '.join(missed)}"
    print(f"target: bag games and Catch A Dragon within {TARGET_S:g} s, warmed at the end or warm: {verdict}")


if __name__ == "__main__":
    asyncio.run(main())
