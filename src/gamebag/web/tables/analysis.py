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
after each of its decisions, for the chart), ``headline`` (the first line: who played most
accurately, who had the most luck), ``worst`` (the costliest judged decisions, said in words),
``evaluations`` (each decision in words, by the record's event index, for the replay), ``how``
(the "How is this computed?" fold's sentences), ``luck_unit`` and ``accuracy_unit`` (what the
figures mean, one line each) and ``steps`` (the record's event index of each step of the replay
page, whose steps end at each ``moves`` event). The words are ``gamebag.analysis.words``'s, in the
``analysis`` catalogue.

One analysis serves readers of every language: the worker's figures are kept language-neutral (with
the record and the table's names), and the words are made per reader, in the request's language,
the first time a reader of that language asks (off the event loop, ``words``) and then kept beside
the figures. The decisions' places and actions are said again from the record in that language
(``words.in_reader_words``): the worker process spoke English.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from gamebag.analysis.translation import N_, _
from gamebag.analysis.words import (
    NEGLIGIBLE,
    accuracy_unit,
    decision_sentence,
    headline,
    how_computed,
    in_reader_words,
    is_undecided,
    luck_unit,
)
from gamebag.core.i18n import current_language
from gamebag.core.protocol import JsonDict
from gamebag.web.admission.guard import client_address
from gamebag.web.work.workers import AgentKey, AnalysisJob, JobFailed, JobTimeout, WorkerPool

ANALYSIS_SECONDS = 300.0  # the time budget of one table's analysis (Eigen Kweek: seconds, more on a busy server)
KEPT_TABLES = 64  # analyses kept, least recently asked for first out
WORST_SHOWN = 5
MAX_UNFINISHED = 64  # analyses running or waiting at once, of all addresses; more are refused (429)
MAX_UNFINISHED_PER_ADDRESS = 4  # of one client address: its flood never takes the others' places
QUEUE_SECONDS = 600.0  # an analysis waiting longer than this for a worker fails (ask again)
RETRY_SECONDS = 10


def analysis_key(game: str, players: int, options: dict[str, Any]) -> AgentKey:
    """The worker pool's key of a configuration's analyses: the job goes to a worker that holds it
    (warmed when a table's game ended, ``tables.automation``, or that analysed one before)."""
    return (game, players, json.dumps(options, sort_keys=True), "analysis")


FAILED_WORDS = N_("the analysis finished but could not be put in words; please report this game")
# What an entry keeps that is not part of the answer (the words per language are merged in per reader).
PRIVATE = ("since", "owner", "record", "names", "words", "failed_words")
log = logging.getLogger("gamebag.web")


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

    def status(
        self, table_id: str, record: JsonDict, names: list[str], owner: str = "", with_words: bool = True
    ) -> JsonDict:
        """The analysis of the finished game ``record`` as it stands, starting it (for the client
        address ``owner``, whose share it waits in) if it is not; a finished one with its words in the
        current language (``with_words``: made here, on the caller's thread, where none are kept yet)."""
        entry = self._entries.get(table_id)
        if entry is None:
            if self.unfinished_of(owner) >= MAX_UNFINISHED_PER_ADDRESS:
                raise AnalysesBusy(
                    _(
                        "{count} analyses you asked for are already running or waiting; ask again soon",
                        count=MAX_UNFINISHED_PER_ADDRESS,
                    )
                )
            if self.unfinished >= MAX_UNFINISHED:
                raise AnalysesBusy(
                    _("{count} analyses are already running or waiting; ask again soon", count=MAX_UNFINISHED)
                )
            entry = {"status": "running", "done": 0, "total": len(record["events"]), "since": time.monotonic()}
            entry.update(owner=owner, record=record, names=list(names), words={})
            self._entries[table_id] = entry
            finished = [key for key, kept in self._entries.items() if kept["status"] != "running"]
            while len(self._entries) > KEPT_TABLES and finished:
                del self._entries[finished.pop(0)]  # only finished ones: a running job stays counted
            task = asyncio.get_running_loop().create_task(self._run(entry, record, names, owner))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            self.started += 1
        self._entries.move_to_end(table_id)
        answer = {key: value for key, value in entry.items() if key not in PRIVATE}
        answer.setdefault("seconds", round(time.monotonic() - entry["since"], 1))
        if entry.get("failed_words"):
            answer["error"] = _(FAILED_WORDS)
        if with_words and entry["status"] == "done":
            answer.update(self.words(entry))
        return answer

    async def answer(self, table_id: str, record: JsonDict, names: list[str], owner: str = "") -> JsonDict:
        """``status``, with the words made off the event loop where this reader's language has none yet."""
        answer = self.status(table_id, record, names, owner, with_words=False)
        entry = self._entries.get(table_id)
        if answer["status"] == "done" and entry is not None:
            answer.update(await asyncio.to_thread(self.words, entry))  # the thread speaks the reader's language
        return answer

    @staticmethod
    def words(entry: JsonDict) -> JsonDict:
        """A finished entry's words in the current language: made once per language, then kept."""
        language = current_language()
        kept: dict[str, JsonDict] = entry["words"]
        shown = kept.get(language)
        if shown is None:
            shown = kept[language] = presentation(entry["analysis"], entry["record"], entry["names"])
        return shown

    @property
    def unfinished(self) -> int:
        """Analyses running or waiting for a worker."""
        return sum(1 for entry in self._entries.values() if entry["status"] == "running")

    def unfinished_of(self, owner: str) -> int:
        """Analyses the client address ``owner`` started that are running or waiting."""
        return sum(1 for entry in self._entries.values() if entry["status"] == "running" and entry["owner"] == owner)

    async def _run(self, entry: JsonDict, record: JsonDict, names: list[str], owner: str) -> None:
        key = analysis_key(str(record["game"]), int(record["players"]), record.get("options", {}))

        def progress(done: int, total: int) -> None:
            entry["done"], entry["total"] = done, total

        try:
            job = AnalysisJob(key, record, None)
            result = await self.pool.run(job, self.seconds, progress, owner=owner, queue_seconds=QUEUE_SECONDS)
        except (JobTimeout, JobFailed) as error:
            entry.update(status="failed", error=str(error), seconds=round(time.monotonic() - entry["since"], 1))
            return
        try:
            # A long game's hundreds of sentences: off the event loop (it must answer within 20 ms), in
            # the language of the reader who started it (the task and the thread copy its context).
            shown = await asyncio.to_thread(presentation, result, record, names)
        except (KeyError, TypeError, ValueError, IndexError):  # never left "running" for ever: said, and logged
            log.exception("the analysis of a %s game could not be put in words", record.get("game"))
            entry.update(status="failed", error=FAILED_WORDS, failed_words=True)
            entry.update(seconds=round(time.monotonic() - entry["since"], 1))
            return
        entry["words"][current_language()] = shown
        entry.update(analysis=result, seconds=round(time.monotonic() - entry["since"], 1), status="done")

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()


def presentation(analysis: JsonDict, record: JsonDict, names: list[str]) -> JsonDict:
    """What the pages draw from an analysis: the curves, the first line, the worst decisions and each
    replay step's decisions in words (``analysis.words``, in the current language), the fold's lines,
    the replay's steps."""
    events = record["events"]
    analysis = in_reader_words(analysis, record)
    curves: dict[str, list[list[float]]] = {str(seat["seat"]): [] for seat in analysis["seats"]}
    # A decision the budget could not judge to +-5 points (``undecided``) has no figure to draw or tell.
    judged = [d for d in analysis["decisions"] if "undecided" not in d]
    for decision in judged:
        curves[str(decision["seat"])].append([decision["event"], decision["value"]])
    for seat in analysis["seats"]:
        curves[str(seat["seat"])].append([len(events), seat["result"]])
    costly = sorted(
        (d for d in judged if d["loss"] >= NEGLIGIBLE and not is_undecided(d)), key=lambda d: -d["loss"]
    )[:WORST_SHOWN]
    worst = [{**d, "words": in_words(d, names)} for d in costly]
    evaluations: dict[str, list[str]] = {}
    for decision in analysis["decisions"]:
        evaluations.setdefault(str(decision["event"]), []).append(in_words(decision, names))
    steps = [index for index, event in enumerate(events) if "moves" in event] + [len(events)]
    return {
        "curves": curves,
        "worst": worst,
        "steps": steps,
        "headline": headline(analysis, names),
        "how": how_computed(analysis),
        "luck_unit": luck_unit(),
        "accuracy_unit": accuracy_unit(),
        "evaluations": evaluations,
    }


def in_words(decision: JsonDict, names: list[str]) -> str:
    """A decision said in words: where, what was played, what was better and what it cost."""
    return decision_sentence(decision, names)


def register(
    app: FastAPI, table_of: Callable[[Request, str], Awaitable[Any]], pool_of: Callable[[Request], WorkerPool]
) -> None:
    """Add ``GET /api/tables/{table_id}/analysis`` to ``app``."""

    @app.get("/api/tables/{table_id}/analysis", response_model=None)
    async def analysis(request: Request, table_id: str) -> JSONResponse | JsonDict:
        """The finished game's analysis (docs/analysis.md): started by the first request, then polled."""
        table = await table_of(request, table_id)
        if not table.is_over:
            return JSONResponse({"error": _("a game can be analysed once it is over")}, status_code=409)
        analyses: TableAnalyses | None = getattr(request.app.state, "analyses", None)
        if analyses is None:
            analyses = request.app.state.analyses = TableAnalyses(pool_of(request))
        names = [str(seat.name) for seat in table.seats]
        try:
            return await analyses.answer(table.id, table.record_json(), names, client_address(request.scope))
        except AnalysesBusy as error:
            return JSONResponse({"error": str(error)}, status_code=429, headers={"Retry-After": str(RETRY_SECONDS)})
