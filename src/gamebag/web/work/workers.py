"""Bot work off the event loop: a bounded pool of worker processes with a time limit per job.

Every agent the server runs (a bot's move, a timed-out seat's default move,
building an agent, which for the exact agents means a solve) runs in one of at
most ``size`` worker processes, never in the server's event loop. Each job has
a deadline; a worker that overruns it is killed (SIGKILL) and replaced, and the
caller gets ``JobTimeout`` (a bot then plays its fallback move). Jobs wait for a
free worker in two lanes (``fairshare.py``): moves first, with one worker kept for
them; solves, analyses and coach advice by a share per client address, charged the
worker seconds each took. A move's waiting counts against its deadline too, so a
flood of costly bots slows bots down but never stops the server answering.

Workers keep the agents they built (and, through them, solved tables) in a
least-recently-used cache of ``AGENT_CACHE`` entries; jobs for an agent go to a
worker that already holds it when one is free.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.context import SpawnContext
from typing import Any

from gamebag.core.i18n import formatted
from gamebag.web.admission.guard import RateLimited
from gamebag.web.words.text import N_, _
from gamebag.web.work.fairshare import MOVE_LANE, SLOW_LANE, FairShares

log = logging.getLogger("gamebag.web")

AGENT_CACHE = 16  # agents (with their solved tables) kept by each worker
STARTUP_SECONDS = 60.0  # a fresh worker imports numpy and the agents; a loaded machine is slow
# A job that ran past its time, in the words of who was doing it (by the job's kind).
_TOOK_LONGER = {
    "AnalysisJob": N_("the analysis took longer than {seconds} s"),
    "CoachJob": N_("the coach took longer than {seconds} s"),
    "bot": N_("the bot took longer than {seconds} s"),
}
MEASURED_BUILDS = 4096  # agents whose build time is remembered (the oldest forgotten first)
QUICK_BUILD_SECONDS = 0.5  # an agent whose last build took at most this is built in the move lane
# Agents whose build solves and trains nothing, for any game and options: built in the move lane
# even for options not built before (a table with a heuristic bot never waits behind an analysis).
# Any other agent's build for new options is a possible solve: the slow lane, measured.
BUILDS_WITHOUT_SOLVE = frozenset({"random", "heuristic", "ismcts"})

AgentKey = tuple[str, int, str, str]  # game id, players, options as JSON, agent spec
Progress = Callable[[int, int], None]


class JobTimeout(Exception):
    """A job ran past its deadline (its worker was replaced)."""


class WorkersBusy(JobTimeout):
    """No worker came free for the job within its time (the job never started)."""


class JobFailed(Exception):
    """A job raised in its worker; the message is the worker's error."""


@dataclass(frozen=True)
class MoveJob:
    """Choose one action for ``seat`` in ``state`` with the agent ``key`` names."""

    key: AgentKey
    state: Any
    seat: int
    rng_path: tuple[str | int, ...]  # derive_rng(*rng_path): the table's secret seed and where


@dataclass(frozen=True)
class AnalysisJob:
    """Analyse a finished game's record (``gamebag.analysis``); ``key`` names its configuration, so the job
    goes to a worker that already holds its solved tables where one is free."""

    key: AgentKey
    record: dict[str, Any]
    playouts: int | None


@dataclass(frozen=True)
class CoachJob:
    """The coach's advice for ``seat`` at the end of ``record`` (the events so far, no pending choices),
    from the seat's own information (``gamebag.analysis.coach``)."""

    key: AgentKey
    record: dict[str, Any]
    seat: int


@dataclass(frozen=True)
class WarmJob:
    """Get a worker ready to analyse the configuration ``key`` names (its solved tables loaded, its
    playout kernels compiled or loaded), sent when a table's game ends, so the analysis a player
    asks for next starts on a warm worker (``_take`` prefers the worker that holds the key)."""

    key: AgentKey


@dataclass(frozen=True)
class BuildJob:
    """Build (and so solve, for the exact agents) the agent ``key`` names, to check it and warm the cache."""

    key: AgentKey


Job = MoveJob | BuildJob | AnalysisJob | CoachJob | WarmJob


def _agent_name(key: AgentKey) -> str:
    """The agent of a build's key, without its parameters ("ismcts:iterations=5" -> "ismcts")."""
    return key[3].split(":", 1)[0]


def check_solve_budget(pool: WorkerPool, job: BuildJob, owner: str, budget_seconds: float) -> None:
    """Refuse (``RateLimited``, 429) a slow build (a new solve) for ``owner`` past its budget of
    measured worker seconds in the last minute; quick builds (measured before) always pass."""
    if pool.lane_of(job) != SLOW_LANE:
        return
    wait = pool.shares.retry_after(owner, budget_seconds)
    if wait > 0:
        raise RateLimited(
            _("your tables' new solves took {spent} worker seconds in the last minute "
              "(at most {budget}); choose options opened before, or try again in {wait} s",
              spent=formatted(pool.shares.spent(owner), ".0f"), budget=formatted(budget_seconds, "g"), wait=wait),
            wait,
        )


# ---- the worker process ----------------------------------------------------------------------


def _worker_main(connection: multiprocessing.connection.Connection) -> None:
    """Serve jobs from the pipe until it closes: ``("ok", result)`` or ``("error", text)`` each."""
    import json

    import gamebag
    from gamebag.agents.base import Agent, SeatView
    from gamebag.agents.registry import available_agents, make_agent
    from gamebag.core.rng import derive_rng

    # Import every game and agent module now, so that a job's time is its own work.
    for game_id in gamebag.game_ids():
        available_agents(game_id)
    agents: OrderedDict[AgentKey, Agent] = OrderedDict()
    connection.send(("ready", None))

    def agent_for(key: AgentKey) -> tuple[Any, Agent]:
        game_id, players, options, spec = key
        game = gamebag.make(game_id, players, **json.loads(options))
        agent = agents.get(key)
        if agent is None:
            agent = make_agent(spec, game, local=False)  # never an agent that runs a file of this machine
            agents[key] = agent
            while len(agents) > AGENT_CACHE:
                agents.popitem(last=False)
        agents.move_to_end(key)
        return game, agent

    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        try:
            if isinstance(job, BuildJob):
                agent_for(job.key)
                reply: tuple[str, Any] = ("ok", None)
            elif isinstance(job, WarmJob):
                from gamebag.analysis.run import warm_up

                game_id, players, options, _ = job.key
                warm_up(gamebag.make(game_id, players, **json.loads(options)))
                reply = ("ok", None)
            elif isinstance(job, AnalysisJob):
                from gamebag.analysis import AnalysisSettings, analyse_record
                from gamebag.core.records import Record

                def report(done: int, total: int) -> None:
                    connection.send(("progress", (done, total)))

                settings = AnalysisSettings(playouts=job.playouts)
                reply = ("ok", analyse_record(Record.from_json(job.record), settings, report).to_json())
            elif isinstance(job, CoachJob):
                from gamebag.analysis.coach import advise
                from gamebag.core.records import Record, replay

                game, state = replay(Record.from_json(job.record), gamebag.make)
                reply = ("ok", advise(game, state, job.seat, step=len(job.record["events"])))
            else:
                game, agent = agent_for(job.key)
                seed, *path = job.rng_path
                action = agent.act(SeatView(game, job.state, job.seat), derive_rng(seed, *path))
                reply = ("ok", game.action_to_json(action))
        except Exception as error:  # reported to the server, which refuses or falls back
            reply = ("error", _players_words(error))
        try:
            connection.send(reply)
        except (EOFError, OSError):
            return


def _players_words(error: Exception) -> str:
    """What a client may read of a job's failure: a game's or agent's own refusal (written for
    players), else a plain sentence; Python's own texts (``TypeError: f() got ...``) go to the log."""
    from gamebag.core.errors import GamebagError

    if isinstance(error, GamebagError) and str(error):
        return str(error)
    logging.getLogger("gamebag.web").error("a worker job failed", exc_info=error)
    return _("this could not be prepared with these settings; choose other options or another agent")


# ---- the pool, in the server -----------------------------------------------------------------


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    connection: multiprocessing.connection.Connection
    keys: set[AgentKey] = field(default_factory=set)
    ready: bool = False


class WorkerPool:
    """At most ``size`` worker processes, started on first use."""

    def __init__(self, size: int = 2) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least 1 worker, not {size}")
        self.size = size
        self._context: SpawnContext = multiprocessing.get_context("spawn")
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self.shares = FairShares(size)
        self.build_seconds: OrderedDict[AgentKey, float] = OrderedDict()  # each agent's last measured build (a solve)
        self.timeouts = 0
        self.jobs = 0
        self._closed = False

    def lane_of(self, job: Job) -> str:
        """Moves, builds of agents that never solve, and builds measured quick before go in the
        move lane; solves, analyses, advice in the slow one."""
        if isinstance(job, MoveJob):
            return MOVE_LANE
        if not isinstance(job, BuildJob):
            return SLOW_LANE
        if _agent_name(job.key) in BUILDS_WITHOUT_SOLVE:
            return MOVE_LANE  # nothing to solve or train, whatever the options: quick
        measured = self.build_seconds.get(job.key)
        return MOVE_LANE if measured is not None and measured <= QUICK_BUILD_SECONDS else SLOW_LANE

    async def run(
        self,
        job: Job,
        seconds: float,
        progress: Progress | None = None,
        owner: str = "",
        queue_seconds: float | None = None,
    ) -> Any:
        """The job's result; ``JobTimeout`` past ``seconds``, ``JobFailed`` on error.

        ``owner`` (a client address) is charged the worker seconds of a slow-lane job and waits in
        its own share. Waiting for a worker counts against ``seconds`` unless ``queue_seconds``
        bounds the wait on its own (``WorkersBusy`` past it). ``progress(done, total)`` hears what
        a long job reports on its way (an analysis, event by event).
        """
        lane = self.lane_of(job)
        deadline = time.monotonic() + seconds
        waiting = seconds if queue_seconds is None else queue_seconds
        try:
            await self.shares.acquire(lane, owner, waiting)
        except TimeoutError:
            self.timeouts += 1
            raise WorkersBusy(_("no bot worker was free within {seconds} s", seconds=formatted(waiting, "g"))) from None
        if queue_seconds is not None:
            deadline = time.monotonic() + seconds
        started = time.monotonic()
        took: float | None = None  # the job's own time in its worker (a fresh worker's start not counted)
        worker: _Worker | None = None
        try:
            # Starting a process (fork and exec) takes tens of milliseconds: never on the event loop.
            taken = self._take(job.key)
            worker = taken if taken is not None else await asyncio.to_thread(self._spawn)
            remaining = max(0.001, deadline - time.monotonic())
            status, value, took = await asyncio.to_thread(self._call, worker, job, remaining, progress)
        except JobTimeout:
            self.timeouts += 1
            if worker is not None:
                self._kill(worker)
            worker = None
            raise
        except BaseException:
            if worker is not None:
                self._kill(worker)  # interrupted mid-job: its pipe may hold a stale answer
            worker = None
            raise
        finally:
            if worker is not None:
                self._idle.append(worker)
            if lane == SLOW_LANE:  # charged before the worker is handed on: the charge decides who is next
                self.shares.charge(owner, took if took is not None else time.monotonic() - started)
            self.shares.release(lane)
        self.jobs += 1
        if status != "ok":
            raise JobFailed(value)
        worker_keys = worker.keys if worker is not None else set()
        worker_keys.add(job.key)
        if isinstance(job, BuildJob) and took is not None:
            self.build_seconds[job.key] = took
            self.build_seconds.move_to_end(job.key)
            while len(self.build_seconds) > MEASURED_BUILDS:
                self.build_seconds.popitem(last=False)
        return value

    def holds(self, key: AgentKey) -> bool:
        """Whether a running worker has done a job for ``key`` (it holds that configuration's tables)."""
        return any(key in worker.keys and worker.process.is_alive() for worker in self._all)

    def _take(self, key: AgentKey) -> _Worker | None:
        """An idle worker, one that used ``key`` last if any; None: a new one must be started."""
        for index, worker in enumerate(self._idle):
            if key in worker.keys:
                return self._idle.pop(index)
        if self._idle:
            return self._idle.pop()
        return None

    def _spawn(self) -> _Worker:
        if self._closed:
            raise JobFailed(_("the server is shutting down"))
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_worker_main, args=(theirs,), daemon=True, name="gamebag-bot")
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        self._all.append(worker)
        return worker

    @staticmethod
    def _call(worker: _Worker, job: Job, seconds: float, progress: Progress | None = None) -> tuple[str, Any, float]:
        """Send ``job`` to ``worker``: its answer ``(status, value)`` and the seconds the job itself took."""
        if not worker.ready:
            # Starting a worker (importing the agents) is not the job's time.
            if not worker.connection.poll(STARTUP_SECONDS):
                raise JobTimeout(_("a bot worker did not start within {seconds} s",
                                   seconds=formatted(STARTUP_SECONDS, "g")))
            worker.connection.recv()
            worker.ready = True
        worker.connection.send(job)
        sent = time.monotonic()
        deadline = sent + seconds
        while True:
            if not worker.connection.poll(max(0.0, deadline - time.monotonic())):
                raise JobTimeout(_(_TOOK_LONGER[type(job).__name__ if type(job) in (AnalysisJob, CoachJob) else "bot"],
                                   seconds=formatted(seconds, ".3g")))
            reply: tuple[str, Any] = worker.connection.recv()
            if reply[0] != "progress":
                return reply[0], reply[1], time.monotonic() - sent
            if progress is not None:
                progress(*reply[1])

    def _kill(self, worker: _Worker) -> None:
        if worker in self._all:
            self._all.remove(worker)
        with contextlib.suppress(Exception):
            worker.process.kill()
            worker.process.join(timeout=5)
        with contextlib.suppress(Exception):
            worker.connection.close()

    @property
    def processes(self) -> int:
        """Worker processes alive now (at most ``size``)."""
        return len(self._all)

    def close(self) -> None:
        self._closed = True
        for worker in list(self._all):
            self._kill(worker)
        self._idle.clear()
