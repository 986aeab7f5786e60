"""Watching the server's event loop: every callback that holds it longer than 20 ms is caught.

``TestClient`` runs the app on an event loop of its own, in another thread (anyio's
blocking portal); ``watched_client`` builds that loop itself, in asyncio's debug mode with
``slow_callback_duration`` at 20 ms, and times each of the loop's turns in the loop
thread's CPU time (``LoopWatch``). So what is measured is the server's loop, not the test's
thread.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import gamebag
from gamebag.core.match import Match
from gamebag.web.app import create_app
from gamebag.web.lobby import parse_table_request
from gamebag.web.people.listing import Listing, write_listing
from gamebag.web.store.db import Store

SLOW_SECONDS = 0.02  # the most one turn of the loop (a request handler's step, a socket message) may take


class LoopWatch(logging.Handler):
    """The server loop's turns that took over ``SLOW_SECONDS`` of its own thread's CPU time.

    Wall-clock time alone would blame the server for the moments this shared machine gave its
    thread to other processes; the loop thread's CPU time counts only what the loop itself ran.
    The interpreter's garbage collections that happen to run in a turn are not counted either
    (``gc.callbacks``): their cost is the size of the whole heap (this test process's, grown by
    every test before), not the request's; a turn reports them beside its own time.
    asyncio's debug mode names the callbacks that ran long (its "Executing ... took" warnings),
    and each slow turn is reported with the names logged during it.
    """

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.slow: list[str] = []
        self.named: list[str] = []  # asyncio's slow-callback warnings in the current turn
        self.loops: list[asyncio.AbstractEventLoop] = []
        self.longest = 0.0  # the most CPU time one turn took so far (seconds), for measurements
        self.gc_cpu = 0.0  # CPU time of garbage collections in the loop's thread so far
        self._gc_started = 0.0
        self.loop_thread: int | None = None

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        del info
        if threading.get_ident() != self.loop_thread:
            return
        if phase == "start":
            self._gc_started = time.thread_time()
        else:
            self.gc_cpu += time.thread_time() - self._gc_started

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("Executing "):
            self.named.append(message[:240])

    def turn_ran(self, cpu: float, wall: float, collecting: float) -> None:
        named, self.named = self.named, []
        self.longest = max(self.longest, cpu)
        if cpu >= SLOW_SECONDS:
            took = f"{cpu * 1000:.0f} ms of CPU ({wall * 1000:.0f} ms, garbage collection {collecting * 1000:.0f} ms)"
            self.slow.append(f"{took}: " + " | ".join(named or ["?"]))

    def new_loop(self) -> asyncio.AbstractEventLoop:
        loop = _WatchedLoop(self)
        loop.set_debug(True)
        loop.slow_callback_duration = SLOW_SECONDS
        self.loops.append(loop)
        return loop

    def check(self, what: str) -> None:
        """Fail naming the turns that held the loop past the bound since the last check."""
        slow, self.slow = self.slow, []
        assert not slow, f"{what} held the server's event loop over {SLOW_SECONDS * 1000:.0f} ms:\n" + "\n".join(slow)


class _WatchedLoop(asyncio.SelectorEventLoop):
    """An event loop that times each of its turns in its own thread's CPU time."""

    def __init__(self, watch: LoopWatch) -> None:
        super().__init__()
        self._watch = watch

    def _run_once(self) -> None:
        watch = self._watch
        watch.loop_thread = threading.get_ident()
        cpu, wall, collecting = time.thread_time(), time.perf_counter(), watch.gc_cpu
        super()._run_once()  # type: ignore[misc]
        collecting = watch.gc_cpu - collecting
        watch.turn_ran(time.thread_time() - cpu - collecting, time.perf_counter() - wall, collecting)


@contextmanager
def watched_client(url: str, **options: Any) -> Iterator[tuple[TestClient, LoopWatch]]:
    """An in-process server on ``url`` whose loop is watched; the start-up is not counted."""
    options.setdefault("bot_delay", 0.0)
    options.setdefault("allow_seed", True)
    options.setdefault("host_names", ("testserver",))
    watch = LoopWatch()
    asyncio_log = logging.getLogger("asyncio")
    asyncio_log.addHandler(watch)
    gc.callbacks.append(watch.on_gc)
    try:
        with TestClient(create_app(url, **options), backend_options={"loop_factory": watch.new_loop}) as client:
            assert watch.loops, "the test client did not use the watched loop"
            watch.slow.clear()  # starting the server (schema, worker processes) is not a request
            yield client, watch
    finally:
        gc.callbacks.remove(watch.on_gc)
        asyncio_log.removeHandler(watch)


def store_long_tables(
    path: Path | str,
    count: int,
    finished: int,
    game: str = "eigen-kweek",
    players: int = 3,
    seed: int = 5,
    stopped_at: float = 0.5,
) -> list[str]:
    """Write ``count`` tables of one long game straight into the database at ``path`` (an SQLite
    file, or a database URL) with no server running: the first ``finished`` of them played to
    the end, the others stopped part-way (``stopped_at``: the share of the game played). Every
    seat is a person's, so nothing plays on when they are loaded."""
    match = Match(gamebag.make(game, players), str(seed))
    rng = random.Random(seed)
    while not match.is_over:
        seat = match.waiting_for()[0]  # secret choices too: each waiting seat in turn
        match.submit(seat, rng.choice(list(match.legal_actions(seat))))
    events = list(match.record.events)
    store = Store(path if isinstance(path, str) else f"sqlite:///{path}")
    ids = []
    try:
        for index in range(count):
            seats = [{"name": name} for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Fe")[:players]]
            request = {"game": game, "players": players, "seats": seats, "seed": seed}
            config = parse_table_request(request, allow_seed=True)
            store.create_table(config)
            write_listing(store.engine, config.id, Listing(public=True))  # listed in the lobby
            done = index < finished
            won = list(match.game.winners(match.state)) if done else None
            store.save_events(config.id, 0, events if done else events[: int(len(events) * stopped_at)], done, won)
            ids.append(config.id)
    finally:
        store.close()
    return ids
