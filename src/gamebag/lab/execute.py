"""Where blocks of games run: this process, a pool of worker processes, or a Ray cluster.

Every executor hands back ``concurrent.futures.Future`` objects holding a
:class:`~gamebag.lab.play.Block`, and the scheduler in :mod:`gamebag.lab.study`
reads them in game order, so the figures never depend on the executor or on the
number of workers. Progress is reported per game: in this process directly, from
worker processes through a queue, and from Ray per finished block (a block is at
most a few hundred games).
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import queue
import signal
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from gamebag.core.errors import GamebagError
from gamebag.lab.cells import Cell
from gamebag.lab.play import Block, play_block
from gamebag.lab.translation import N_, _

EXECUTORS = ("local", "ray")
MAIN_GUARD_HINT = N_(
    "the worker processes stopped while starting. In a script, call the lab with workers > 1 under "
    '`if __name__ == "__main__":` (worker processes start by importing the script again, which must '
    "not start another study); or pass workers=1"
)

MAX_WORKERS = 64
# Ray is an optional extra (pyproject.toml: ``cluster``); without it ``--executor ray`` is refused up front.
RAY_MISSING = N_("--executor ray needs Ray, which is not installed: pip install 'gamebag[cluster]' (Ray's extra)")

Progress = Callable[[int, int], None]  # (cell index, games finished)


class Executor:
    """Runs blocks in this process, one at a time (``workers=1``)."""

    parallel = 1

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress

    def submit(self, cell: Cell, start: int, stop: int, engine: str, max_rounds: int) -> Future[Block]:
        future: Future[Block] = Future()
        tick = None if self.progress is None else _ticker(self.progress, cell.index)
        try:
            future.set_result(play_block(cell, start, stop, engine, max_rounds, tick))
        except Exception as error:  # handed to the caller through the future, as a pool would
            future.set_exception(error)
        return future

    def poll(self) -> None:
        """Deliver progress reported by workers (nothing to do in this process)."""

    def close(self, cancel: bool = False) -> None:
        """Release workers; ``cancel`` drops blocks not started."""


def _ticker(progress: Progress, cell: int) -> Callable[[int], None]:
    return lambda k: progress(cell, k)


# ---- worker processes ---------------------------------------------------------------------
_worker_queue: Any = None


def _init_worker(progress_queue: Any) -> None:
    global _worker_queue
    _worker_queue = progress_queue
    # Ctrl-C goes to the main process, which stops handing out blocks and keeps what finished.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_block(cell: Cell, start: int, stop: int, engine: str, max_rounds: int) -> Block:
    progress_queue = _worker_queue

    def tick(k: int) -> None:
        if progress_queue is not None:
            progress_queue.put((cell.index, k))

    return play_block(cell, start, stop, engine, max_rounds, tick)


class PoolExecutor(Executor):
    """Runs blocks in ``workers`` processes; they report each finished game through a queue."""

    def __init__(self, workers: int, progress: Progress | None) -> None:
        if getattr(multiprocessing.current_process(), "_inheriting", False):
            # A worker importing a script that starts a study at import time (no main guard): stop
            # it with the cause, once, instead of multiprocessing's long bootstrapping traceback.
            raise SystemExit(f"gamebag: {_(MAIN_GUARD_HINT)}")
        super().__init__(progress)
        self.parallel = workers
        context = multiprocessing.get_context("spawn")
        self.queue: Any = context.Queue() if progress is not None else None
        self.pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(self.queue,)
        )

    def submit(self, cell: Cell, start: int, stop: int, engine: str, max_rounds: int) -> Future[Block]:
        return self.pool.submit(_worker_block, cell, start, stop, engine, max_rounds)

    def poll(self) -> None:
        if self.queue is None or self.progress is None:
            return
        while True:
            try:
                cell, k = self.queue.get_nowait()
            except queue.Empty:
                return
            self.progress(cell, k)

    def close(self, cancel: bool = False) -> None:
        self.pool.shutdown(wait=True, cancel_futures=cancel)
        self.poll()


class RayExecutor(Executor):
    """Runs blocks as Ray tasks (on the cluster at ``address``, or a local Ray started here)."""

    def __init__(self, address: str | None, workers: int, progress: Progress | None) -> None:
        super().__init__(progress)
        try:
            import ray
        except ImportError:
            raise GamebagError(_(RAY_MISSING)) from None
        self.ray = ray
        self.started_here = False
        if not ray.is_initialized():
            if address is not None:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
                self.started_here = True
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        self.parallel = max(1, int(resources.get("CPU", workers)))
        self.remote = ray.remote(play_block)
        self.watched: dict[Future[Block], tuple[int, int]] = {}

    def submit(self, cell: Cell, start: int, stop: int, engine: str, max_rounds: int) -> Future[Block]:
        future: Future[Block] = self.remote.remote(cell, start, stop, engine, max_rounds).future()
        self.watched[future] = (cell.index, stop - start)
        return future

    def poll(self) -> None:
        for future in [f for f in self.watched if f.done()]:
            cell, games = self.watched.pop(future)
            if self.progress is not None and future.exception() is None:
                self.progress(cell, games)

    def close(self, cancel: bool = False) -> None:
        self.poll()
        if self.started_here:
            self.ray.shutdown()


def check_executor(kind: str, workers: int, address: str | None) -> None:
    """Refuse an unknown executor, a worker count out of range, an address without Ray, or Ray where
    it is not installed; starts nothing (callers check this before any work)."""
    if kind not in EXECUTORS:
        raise GamebagError(
            _(
                "--executor {given} is not known; choose one of {choices}",
                given=repr(kind),
                choices=", ".join(EXECUTORS),
            )
        )
    if not 1 <= workers <= MAX_WORKERS:
        raise GamebagError(_("--workers must be from 1 to {most}, not {given}", most=MAX_WORKERS, given=workers))
    if kind == "ray":
        if importlib.util.find_spec("ray") is None:
            raise GamebagError(_(RAY_MISSING))
    elif address is not None:
        raise GamebagError(_("--address names a Ray cluster; use it with --executor ray"))


def make_executor(kind: str, workers: int, address: str | None, progress: Progress | None) -> Executor:
    """The executor ``kind`` (``local`` or ``ray``) with ``workers`` processes (local) or CPUs (a local Ray)."""
    check_executor(kind, workers, address)
    if kind == "ray":
        return RayExecutor(address, workers, progress)
    return Executor(progress) if workers == 1 else PoolExecutor(workers, progress)
