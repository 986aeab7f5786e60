"""Fair shares of the bot workers (issue 36, point 3): bot moves first, a share per address for the rest.

The worker processes are replaced by threads that sleep as long as the job would take (a solve
1 s, an analysis 0.3 s, a move or a known agent's build a few milliseconds): what is tested is
which job gets a worker when, which is the server's own scheduling code.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from gamebag.web.admission.guard import RateLimited
from gamebag.web.tables.analysis import MAX_UNFINISHED_PER_ADDRESS, AnalysesBusy, TableAnalyses
from gamebag.web.work.workers import (
    AnalysisJob,
    BuildJob,
    JobTimeout,
    MoveJob,
    WorkerPool,
    _Worker,
    check_solve_budget,
)

SOLVE_SECONDS = 1.0
ANALYSIS_SECONDS = 0.3
HONEST_KEY = ("pig", 2, "{}", "random")


def _solve_key(goal: int) -> tuple[str, int, str, str]:
    return ("pig", 2, json.dumps({"goal": goal}), "optimal-win")


class _NoProcess:
    def kill(self) -> None: ...

    def join(self, timeout: float | None = None) -> None: ...


@pytest.fixture
def sleeping_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers that take each job's usual time (threads that sleep) instead of processes."""

    def spawn(self: WorkerPool) -> _Worker:
        worker = _Worker(_NoProcess(), None, ready=True)  # type: ignore[arg-type]
        self._all.append(worker)
        return worker

    def call(worker: _Worker, job: Any, seconds: float, progress: Any = None) -> tuple[str, Any, float]:
        if isinstance(job, BuildJob):
            took = 0.005 if job.key == HONEST_KEY or job.key[3] == "heuristic" else SOLVE_SECONDS
            answer: Any = None
        elif isinstance(job, AnalysisJob):
            took, answer = ANALYSIS_SECONDS, {"seats": [], "decisions": []}
        else:
            took, answer = 0.005, "roll"
        if took > seconds:
            time.sleep(seconds)
            raise JobTimeout(f"took longer than {seconds:.3g} s")
        time.sleep(took)
        return "ok", answer, took

    monkeypatch.setattr(WorkerPool, "_spawn", spawn)
    monkeypatch.setattr(WorkerPool, "_call", staticmethod(call))


@pytest.mark.usefixtures("sleeping_workers")
def test_bot_moves_and_an_honest_table_go_first_while_one_address_floods_solves() -> None:
    """Before, the workers were one queue: two solves held both, a bot's move waited past its
    budget (a uniformly random fallback move) and an honest table waited behind every solve."""

    async def scenario() -> None:
        pool = WorkerPool(size=2)
        await pool.run(BuildJob(HONEST_KEY), 60, owner="honest")  # opened before: measured quick
        flood = [
            asyncio.create_task(pool.run(BuildJob(_solve_key(goal)), 60, owner="flooder")) for goal in range(20, 30)
        ]
        await asyncio.sleep(0.1)  # the flood holds what it may of the workers, the rest waits
        for step in range(5):  # a running table's bot: each move within its budget, by its own agent
            move = MoveJob(HONEST_KEY, None, 1, ("seed", "bot", 1, step))
            assert await pool.run(move, 0.5) == "roll"
        began = time.monotonic()
        await pool.run(BuildJob(HONEST_KEY), 60, owner="honest")  # an honest table opens
        assert time.monotonic() - began < 1.0
        assert pool.timeouts == 0
        for task in flood:
            task.cancel()
        await asyncio.gather(*flood, return_exceptions=True)

    asyncio.run(scenario())


@pytest.mark.usefixtures("sleeping_workers")
def test_a_bot_that_never_solves_is_built_at_once_while_long_jobs_hold_the_slow_lane() -> None:
    """Before, a heuristic bot for options not built before was a possible solve: it waited in the
    slow lane behind whatever held it (in the attack benchmark, an analysis of minutes: the honest
    table's opening ran out of time and was refused)."""

    async def scenario() -> None:
        pool = WorkerPool(size=2)
        flood = [
            asyncio.create_task(pool.run(BuildJob(_solve_key(goal)), 60, owner="flooder")) for goal in range(20, 24)
        ]
        await asyncio.sleep(0.1)
        began = time.monotonic()
        await pool.run(BuildJob(("pig", 2, json.dumps({"goal": 77}), "heuristic")), 60, owner="honest")
        assert time.monotonic() - began < 0.5
        for task in flood:
            task.cancel()
        await asyncio.gather(*flood, return_exceptions=True)

    asyncio.run(scenario())


@pytest.mark.usefixtures("sleeping_workers")
def test_a_new_solve_is_charged_to_its_opener() -> None:
    async def scenario() -> None:
        pool = WorkerPool(size=2)
        await pool.run(BuildJob(HONEST_KEY), 60, owner="honest")
        for goal in range(2):
            await pool.run(BuildJob(_solve_key(goal)), 60, owner="flooder")
        assert pool.shares.spent("flooder") == pytest.approx(2 * SOLVE_SECONDS)  # the measured cost
        assert pool.shares.spent("honest") < 0.1
        with pytest.raises(RateLimited, match="worker seconds") as refused:
            check_solve_budget(pool, BuildJob(_solve_key(99)), "flooder", budget_seconds=1.5)
        assert 0 < refused.value.retry_after <= 60
        check_solve_budget(pool, BuildJob(_solve_key(99)), "honest", budget_seconds=1.5)  # its own budget
        check_solve_budget(pool, BuildJob(HONEST_KEY), "flooder", budget_seconds=1.5)  # a quick build: no solve
        assert pool.lane_of(BuildJob(_solve_key(0))) == "slow"  # solved before, but measured slow: it still costs

    asyncio.run(scenario())


@pytest.mark.usefixtures("sleeping_workers")
def test_one_address_flooding_analyses_leaves_another_its_share() -> None:
    """Before, eight analyses of one client (one global queue of 8) kept everyone else's at 429."""

    async def scenario() -> None:
        analyses = TableAnalyses(WorkerPool(size=2))
        record = {"game": "pig", "players": 2, "options": {}, "events": [{"chance": 1}]}
        finished: list[str] = []
        refused = 0
        for table in range(8):
            try:
                analyses.status(f"flood{table}", record, ["a", "b"], owner="flooder")
            except AnalysesBusy:
                refused += 1
        assert refused == 8 - MAX_UNFINISHED_PER_ADDRESS
        assert analyses.status("honest", record, ["a", "b"], owner="honest")["status"] == "running"
        while len(finished) < MAX_UNFINISHED_PER_ADDRESS + 1:
            await asyncio.sleep(0.02)
            for table in [f"flood{t}" for t in range(MAX_UNFINISHED_PER_ADDRESS)] + ["honest"]:
                if table not in finished and analyses.status(table, record, ["a", "b"])["status"] == "done":
                    finished.append(table)
        # The flooder's first analysis had the worker; the honest one went next, not after the flood.
        assert finished.index("honest") <= 1, finished
        await analyses.stop()

    asyncio.run(scenario())
