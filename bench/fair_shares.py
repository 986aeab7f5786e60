"""Fair shares of the bot workers, with real worker processes (issue 36, point 3).

One address opens tables whose options need a new solve (Catch a Dragon, six dice, 12 to 23
rounds: a few seconds of CPU each), twelve at once; meanwhile another table's bot makes ten
moves (each with the server's 5 s budget) and an honest table with options opened before is
prepared, at the same time as the moves. Prints the slowest move, how many moves timed out (a
fallback move at a real table) and how long the honest table's preparation took.

    PYTHONPATH=src python bench/fair_shares.py
"""

from __future__ import annotations

import asyncio
import inspect
import json
import random
import time
from typing import Any

from smoke import smoke_or

import gamebag
from gamebag.web.work.workers import BuildJob, JobTimeout, MoveJob, WorkerPool

MOVE_SECONDS = 5.0
# Rounds: each a new solve (a smoke run, bench/smoke.py, floods two small ones).
FLOOD = smoke_or(range(12, 24), range(1, 3))


def _share(owner: str) -> dict[str, Any]:
    """The ``owner`` keyword where the pool takes one (the code before fair shares did not)."""
    return {"owner": owner} if "owner" in inspect.signature(WorkerPool.run).parameters else {}


async def main() -> None:
    pool = WorkerPool(2)
    honest = ("pig", 2, "{}", "random")
    await pool.run(BuildJob(honest), 120, **_share("honest"))  # options opened before: measured
    game = gamebag.make("pig", 2)
    state = game.sample_and_apply_chance(game.initial_state(), random.Random(0))[1]  # seat 0 to choose
    # Both workers started (a running server's are): a fresh worker's start is not what is measured.
    warm = [MoveJob(honest, state, 0, (1, "warm", n)) for n in range(2)]
    await asyncio.gather(*(pool.run(job, 120) for job in warm))
    solves = [
        BuildJob(("catch-a-dragon", 2, json.dumps({"dice": 6, "rounds": rounds}), "optimal-win")) for rounds in FLOOD
    ]
    flood = [asyncio.create_task(pool.run(job, 120, **_share("flooder"))) for job in solves]
    await asyncio.sleep(1.0)
    began = time.monotonic()
    opening = asyncio.create_task(pool.run(BuildJob(honest), 60, **_share("honest")))
    opening.add_done_callback(lambda _: timings.append(time.monotonic() - began))
    timings: list[float] = []
    waits, late = [], 0
    for step in range(10):
        began = time.monotonic()
        try:
            await pool.run(MoveJob(honest, state, 0, (1, "bot", 0, step)), MOVE_SECONDS)
        except JobTimeout:
            late += 1
        waits.append(time.monotonic() - began)
    await opening
    opened = timings[0]
    print(
        f"moves: 10, slowest {max(waits):.2f} s, timed out (fallback moves) {late}; "
        f"honest table prepared in {opened:.2f} s; {sum(not task.done() for task in flood)} solves still ran or waited"
    )
    for task in flood:
        task.cancel()
    await asyncio.gather(*flood, return_exceptions=True)
    pool.close()


if __name__ == "__main__":
    asyncio.run(main())
