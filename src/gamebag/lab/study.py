"""Running a study: cells into blocks of games, blocks onto an executor, results read in game order.

A cell is played in blocks of games (``BLOCK`` on the rules engine, ``FAST_BLOCK``
on the compiled engine, whose games take microseconds; ``BLOCK`` on both under
``until``), several in flight at once. Blocks
are taken back in game order, so a cell's rows are the games ``0 .. k-1`` of its
seed however many workers ran them. ``until`` stops a cell at the first multiple
of the block size where every seat's 95% interval is narrower than asked (a
fixed checkpoint, so the stopping point does not depend on the workers either).
The block size depends only on the engine, and no game's numbers depend on it.
Ctrl-C stops handing out blocks and keeps every block that finished.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.core.errors import GamebagError
from gamebag.core.i18n import number
from gamebag.lab.cells import MAX_GAMES_PER_CELL, Cell
from gamebag.lab.execute import MAIN_GUARD_HINT, Executor
from gamebag.lab.play import FAST, Block, choose_engine
from gamebag.lab.stats import wilson
from gamebag.lab.translation import _, fmt

BLOCK = 500
FAST_BLOCK = 5000
DEFAULT_MAX_ROUNDS = 1000
MAX_ROUNDS_LIMIT = 100_000
POLL_SECONDS = 0.1


@dataclass
class CellRun:
    """What was played of one cell."""

    cell: Cell
    engine: str
    engine_reason: str | None
    requested: int
    blocks: list[Block] = field(default_factory=list)
    stopped_early: bool = False  # --until was met

    @property
    def games(self) -> int:
        return sum(len(b) for b in self.blocks)

    def column(self, name: str) -> npt.NDArray[Any]:
        parts = [getattr(b, name) for b in self.blocks]
        if not parts:
            width = (0, self.cell.players) if name in ("scores", "returns") else (0,)
            return np.zeros(width)
        return np.concatenate(parts)

    def ended_by(self) -> list[str]:
        return [reason for b in self.blocks for reason in b.ended_by]


@dataclass
class StudyRun:
    cells: list[CellRun]
    interrupted: bool
    seconds: float


def check_limits(games: int, until: float | None, max_rounds: int) -> None:
    if not 1 <= games <= MAX_GAMES_PER_CELL:
        raise GamebagError(
            _("--games must be from 1 to {most} per cell, not {given}", most=number(MAX_GAMES_PER_CELL), given=games)
        )
    if until is not None and not 0.001 <= until <= 1.0:
        raise GamebagError(
            _("--until is an interval width from {least} to 1, not {given}", least=fmt(0.001, "g"), given=until)
        )
    if not 1 <= max_rounds <= MAX_ROUNDS_LIMIT:
        raise GamebagError(
            _("--max-rounds must be from 1 to {most}, not {given}", most=number(MAX_ROUNDS_LIMIT), given=max_rounds)
        )


def narrow_enough(run: CellRun, width: float) -> bool:
    """Whether every seat's 95% win-share interval is narrower than ``width``."""
    games = run.games
    if games == 0:
        return False
    wins = run.column("returns").sum(axis=0)
    return all(high - low < width for low, high in (wilson(float(w), games) for w in wins))


def run_study(
    cells: list[Cell],
    executor: Executor,
    games: int,
    until: float | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    on_cell_done: Callable[[CellRun], None] | None = None,
) -> StudyRun:
    """Play every cell (``games`` each, or fewer under ``until``) on ``executor``."""
    check_limits(games, until, max_rounds)
    runs = []
    for cell in cells:
        engine, reason = choose_engine(cell)
        runs.append(CellRun(cell, engine, reason, games))
    started = time.perf_counter()
    interrupted = False
    in_flight: dict[int, deque[tuple[int, Future[Block]]]] = {run.cell.index: deque() for run in runs}
    next_start = {run.cell.index: 0 for run in runs}
    finished: set[int] = set()
    window = max(2, 2 * executor.parallel)
    try:
        while len(finished) < len(runs):
            _fill(runs, executor, in_flight, next_start, finished, window, games, max_rounds, until is not None)
            pending = [f for queue in in_flight.values() for _block, f in queue]
            if pending:
                wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            executor.poll()
            for run in runs:
                index = run.cell.index
                queue = in_flight[index]
                while queue and queue[0][1].done() and index not in finished:
                    _, future = queue.popleft()
                    run.blocks.append(_result(future))
                    if until is not None and narrow_enough(run, until):
                        run.stopped_early = True
                    if run.stopped_early or run.games >= games:
                        finished.add(index)
                        for _block, rest in queue:
                            rest.cancel()
                        queue.clear()
                        if on_cell_done is not None:
                            on_cell_done(run)
    except KeyboardInterrupt:
        interrupted = True
        for queue in in_flight.values():
            for _block, future in queue:
                future.cancel()
    finally:
        executor.close(cancel=True)
    if interrupted:
        # Keep the blocks that finished in order; a later block without its predecessors is dropped.
        for run in runs:
            for _block, future in in_flight[run.cell.index]:
                if future.done() and not future.cancelled() and future.exception() is None:
                    block = future.result()
                    if block.start == run.games:
                        run.blocks.append(block)
    return StudyRun(runs, interrupted, time.perf_counter() - started)


def _result(future: Future[Block]) -> Block:
    """A block's games, or a clear error where the worker pool broke (usually a missing main guard)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool:
        raise GamebagError(_(MAIN_GUARD_HINT)) from None


def _fill(
    runs: list[CellRun],
    executor: Executor,
    in_flight: dict[int, deque[tuple[int, Future[Block]]]],
    next_start: dict[int, int],
    finished: set[int],
    window: int,
    games: int,
    max_rounds: int,
    checkpoints: bool,
) -> None:
    """Hand out blocks, earliest cells first, until ``window`` blocks are in flight.

    With ``checkpoints`` (``until``) every block is ``BLOCK`` games, so the stopping points
    are the same on either engine.
    """
    busy = sum(len(q) for q in in_flight.values())
    for run in runs:
        index = run.cell.index
        while busy < window and index not in finished and next_start[index] < games:
            start = next_start[index]
            size = FAST_BLOCK if run.engine == FAST and not checkpoints else BLOCK
            stop = min(games, start + size)
            in_flight[index].append((start, executor.submit(run.cell, start, stop, run.engine, max_rounds)))
            next_start[index] = stop
            busy += 1
        if busy >= window:
            return


def uses_fast_engine(run: CellRun) -> bool:
    return run.engine == FAST
