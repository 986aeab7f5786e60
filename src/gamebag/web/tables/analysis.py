"""The analysis of a finished table (``gamebag.analysis``), run in the bot worker pool and kept per table.

``GET /api/tables/{id}/analysis`` answers 409 while the game goes on (so spectators, like everyone,
see an analysis only after the game ends: it reads the record, public by then). The first request
after the end starts the job in the bounded worker pool, never on the event loop, with a time
budget (``ANALYSIS_SECONDS``, counted from its start) and the analysis's own bounded playouts, in
the pool's slow lane (``fairshare.py``: the bots keep a worker; each client address waits in its
own share, charged the worker seconds its analyses took); every request answers the
job's state at once: ``running`` with its progress (events done of the total), ``done`` with the
analysis, or ``failed`` with why. Results stay in a bounded cache (``KEPT_TABLES`` tables); at most
``MAX_UNFINISHED_PER_ADDRESS`` analyses one address started run or wait at once, and
``MAX_UNFINISHED`` of all; a request that would start another gets 429.

To the analysis's JSON the answer adds what the pages draw: ``curves`` (each seat's winning chance
after each of its decisions, for the chart), ``worst`` (the costliest decisions, said in words) and
``steps`` (the record's event index of each step of the replay page, whose steps end at each
``moves`` event).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from gamebag.core.protocol import JsonDict
from gamebag.web.admission.guard import client_address
from gamebag.web.work.workers import AnalysisJob, JobFailed, JobTimeout, WorkerPool

ANALYSIS_SECONDS = 300.0  # the time budget of one table's analysis (Eigen Kweek: seconds, more on a busy server)
KEPT_TABLES = 64  # analyses kept, least recently asked for first out
WORST_SHOWN = 5
MAX_UNFINISHED = 64  # analyses running or waiting at once, of all addresses; more are refused (429)
MAX_UNFINISHED_PER_ADDRESS = 4  # of one client address: its flood never takes the others' places
QUEUE_SECONDS = 600.0  # an analysis waiting longer than this for a worker fails (ask again)
RETRY_SECONDS = 10


class AnalysesBusy(Exception):
    """Too many analyses are running or waiting."""


class TableAnalyses:
    """Each finished table's analysis: started on first request, then kept."""

    def __init__(self, pool: WorkerPool, seconds: float = ANALYSIS_SECONDS) -> None:
        self.pool = pool
        self.seconds = seconds
        self.started = 0  # jobs started so far (the rest were answered from the cache)
        self._entries: OrderedDict[str, JsonDict] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()

    def status(self, table_id: str, record: JsonDict, names: list[str], owner: str = "") -> JsonDict:
        """The analysis of the finished game ``record`` as it stands, starting it (for the client
        address ``owner``, whose share it waits in) if it is not."""
        entry = self._entries.get(table_id)
        if entry is None:
            if self.unfinished_of(owner) >= MAX_UNFINISHED_PER_ADDRESS:
                raise AnalysesBusy(
                    f"{MAX_UNFINISHED_PER_ADDRESS} analyses you asked for are already running or waiting; "
                    "ask again soon"
                )
            if self.unfinished >= MAX_UNFINISHED:
                raise AnalysesBusy(f"{MAX_UNFINISHED} analyses are already running or waiting; ask again soon")
            entry = {"status": "running", "done": 0, "total": len(record["events"]), "since": time.monotonic()}
            entry["owner"] = owner
            self._entries[table_id] = entry
            finished = [key for key, kept in self._entries.items() if kept["status"] != "running"]
            while len(self._entries) > KEPT_TABLES and finished:
                del self._entries[finished.pop(0)]  # only finished ones: a running job stays counted
            task = asyncio.get_running_loop().create_task(self._run(entry, record, names, owner))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            self.started += 1
        self._entries.move_to_end(table_id)
        answer = {key: value for key, value in entry.items() if key not in ("since", "owner")}
        answer.setdefault("seconds", round(time.monotonic() - entry["since"], 1))
        return answer

    @property
    def unfinished(self) -> int:
        """Analyses running or waiting for a worker."""
        return sum(1 for entry in self._entries.values() if entry["status"] == "running")

    def unfinished_of(self, owner: str) -> int:
        """Analyses the client address ``owner`` started that are running or waiting."""
        return sum(1 for entry in self._entries.values() if entry["status"] == "running" and entry["owner"] == owner)

    async def _run(self, entry: JsonDict, record: JsonDict, names: list[str], owner: str) -> None:
        options = json.dumps(record.get("options", {}), sort_keys=True)
        key = (str(record["game"]), int(record["players"]), options, "analysis")

        def progress(done: int, total: int) -> None:
            entry["done"], entry["total"] = done, total

        try:
            job = AnalysisJob(key, record, None)
            result = await self.pool.run(job, self.seconds, progress, owner=owner, queue_seconds=QUEUE_SECONDS)
        except (JobTimeout, JobFailed) as error:
            entry.update(status="failed", error=str(error), seconds=round(time.monotonic() - entry["since"], 1))
            return
        entry.update(presentation(result, record, names))
        entry.update(analysis=result, seconds=round(time.monotonic() - entry["since"], 1), status="done")

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()


def presentation(analysis: JsonDict, record: JsonDict, names: list[str]) -> JsonDict:
    """What the pages draw from an analysis: the curves, the worst decisions in words, the replay's steps."""
    events = record["events"]
    curves: dict[str, list[list[float]]] = {str(seat["seat"]): [] for seat in analysis["seats"]}
    # A decision the budget could not judge to +-5 points (``undecided``) has no figure to draw or tell.
    judged = [d for d in analysis["decisions"] if "undecided" not in d]
    for decision in judged:
        curves[str(decision["seat"])].append([decision["event"], decision["value"]])
    for seat in analysis["seats"]:
        curves[str(seat["seat"])].append([len(events), seat["result"]])
    costly = sorted((d for d in judged if d["loss"] > 0), key=lambda d: -d["loss"])[:WORST_SHOWN]
    worst = [{**d, "words": in_words(d, names)} for d in costly]
    steps = [index for index, event in enumerate(events) if "moves" in event] + [len(events)]
    return {"curves": curves, "worst": worst, "steps": steps}


def in_words(decision: JsonDict, names: list[str]) -> str:
    """A decision said in words: what was played, what was better, and what it cost."""
    who = names[decision["seat"]] if decision["seat"] < len(names) else f"seat {decision['seat']}"
    best = " or ".join(_action(b) for b in decision["best"])
    lost = 100 * decision["loss"]
    text = (
        f"{who} chose {_action(decision['action'])}; {best} was better: it kept a {_percent(decision['best_value'])} "
        f"winning chance against {_percent(decision['value'])} (−{lost:.1f} points"
    )
    if "loss_interval" in decision:
        low, high = decision["loss_interval"]
        text += f", between {100 * low:.1f} and {100 * high:.1f} with 95% confidence"
    text += ")"
    if "points" in decision and decision["points"]["loss"] > 0:
        text += f", and {decision['points']['loss']:.2f} expected points of the turn"
    label = decision.get("label")
    return f"{text}{': ' + _article(label) + ' ' + label if label else ''}."


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _percent(value: float) -> str:
    return f"{max(0.0, 100 * value):.0f}%"  # never "-0%" from a rounding below zero


def _action(action: Any) -> str:
    if isinstance(action, list):
        return "+".join(_action(a) for a in action)
    return str(action)


def register(
    app: FastAPI, table_of: Callable[[Request, str], Awaitable[Any]], pool_of: Callable[[Request], WorkerPool]
) -> None:
    """Add ``GET /api/tables/{table_id}/analysis`` to ``app``."""

    @app.get("/api/tables/{table_id}/analysis", response_model=None)
    async def analysis(request: Request, table_id: str) -> JSONResponse | JsonDict:
        """The finished game's analysis (docs/analysis.md): started by the first request, then polled."""
        table = await table_of(request, table_id)
        if not table.is_over:
            return JSONResponse({"error": "a game can be analysed once it is over"}, status_code=409)
        analyses: TableAnalyses | None = getattr(request.app.state, "analyses", None)
        if analyses is None:
            analyses = request.app.state.analyses = TableAnalyses(pool_of(request))
        names = [str(seat.name) for seat in table.seats]
        try:
            return analyses.status(table.id, table.record_json(), names, client_address(request.scope))
        except AnalysesBusy as error:
            return JSONResponse({"error": str(error)}, status_code=429, headers={"Retry-After": str(RETRY_SECONDS)})
