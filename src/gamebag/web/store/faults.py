"""Faults of the database that heal: what counts as one, how it is told, and when to try again.

A write that fails because the database cannot be written just now (a full disk, a file
made read-only, removed or cut short, a lost PostgreSQL connection) is a *storage fault*:

* the request that caused it is answered 503 in players' words (nothing changed, try again
  in a minute), a socket action with an ``error``; one log line says what failed, never a
  traceback, and readiness (``/api/health``'s ``ready``) is false until a write succeeds again;
* a move the server makes itself (a bot's, the turn clock's, a forced one) is tried again with
  backoff (``RETRY_DELAYS``) for as long as the table waits for it, so the table carries on by
  itself once the fault clears;
* on SQLite, the database file and its WAL index are checked before each statement
  (``check_sqlite_files``): a file that vanished, was replaced or was cut short is a storage
  fault here, where SQLite reading its memory-mapped WAL index past the cut-short end would
  kill the whole process with SIGBUS.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Engine, event, text
from sqlalchemy.exc import SQLAlchemyError

from gamebag.web.words.text import N_, _

log = logging.getLogger("gamebag.web")

# Seconds before each new try of a move the server makes itself; the last repeats.
RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
# The errors of a disk or file system that cannot take a write just now.
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO})
PLAYER_TEXT = N_(
    "the server cannot read or save games just now (its disk is full or its database cannot be used); "
    "nothing changed; try again in a minute"
)


class StorageUnavailable(RuntimeError):
    """The database cannot be read or written just now (answered 503)."""


def is_storage_fault(error: BaseException) -> bool:
    """Whether ``error`` is the database (or its disk) failing, rather than a bad request."""
    if isinstance(error, StorageUnavailable | SQLAlchemyError):
        return True
    return isinstance(error, OSError) and error.errno in STORAGE_ERRNOS


def retry_delay(attempt: int) -> float:
    """Seconds to wait before try number ``attempt`` (0: the first try again)."""
    return RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]


def describe(error: BaseException) -> str:
    """One short line for the log: the error's kind and its first line (SQLAlchemy adds pages)."""
    first = str(getattr(error, "orig", None) or error).splitlines()
    return f"{type(error).__name__}: {first[0] if first else ''}"[:300]


@dataclass
class StorageHealth:
    """Whether this server's database took its last write (readiness), told once per change."""

    ready: bool = True
    failures: int = 0
    last_error: str = ""
    since: float = field(default_factory=time.time)
    probed: float = 0.0  # when the readiness probe last ran (monotonic)

    def failed(self, error: BaseException, doing: str) -> None:
        self.failures += 1
        self.last_error = describe(error)
        if self.ready:
            self.ready, self.since = False, time.time()
            log.error("the database cannot be written (%s): %s; answering 503 until it can", doing, self.last_error)

    def succeeded(self) -> None:
        if not self.ready:
            log.warning("the database can be written again after %.0f s", time.time() - self.since)
            self.ready, self.since = True, time.time()

    def as_json(self) -> dict[str, object]:
        answer: dict[str, object] = {"ready": self.ready}
        if not self.ready:
            answer["not_ready_since"] = round(self.since, 1)
            answer["database_error"] = self.last_error
        return answer


@dataclass
class SqliteFiles:
    """The identity of an SQLite database's file and the size its WAL index reached.

    SQLite maps its WAL index (``<database>-shm``) into memory; a read past the end of a
    mapped file that was cut short kills the process with SIGBUS, so a shrunken index is
    refused before any statement. A removed index is no such danger (the mapping stays
    valid), and SQLite itself empties it when a connection opens with no other one open:
    the size is forgotten then (``forget_index``).
    """

    database: str
    inode: int = -1
    index_size: int = 0

    def forget_index(self) -> None:
        self.index_size = 0

    def check(self) -> None:
        """Raise ``StorageUnavailable`` if the file vanished or was replaced, or the index shrank."""
        try:
            stat = os.stat(self.database)
        except OSError as error:
            raise StorageUnavailable(f"the database file {self.database} is gone ({error.strerror})") from None
        if self.inode < 0:
            self.inode = stat.st_ino
        elif stat.st_ino != self.inode:
            raise StorageUnavailable(f"the database file {self.database} was replaced while in use")
        try:
            size = os.stat(self.database + "-shm").st_size
        except FileNotFoundError:
            self.index_size = 0
            return
        if size < self.index_size:
            raise StorageUnavailable(f"the WAL index {self.database}-shm was cut short while in use")
        self.index_size = size


def watch_sqlite_files(engine: Engine, database: str | None) -> SqliteFiles | None:
    """Check an SQLite database's files (``SqliteFiles``) before each statement of ``engine``.

    Costs two ``stat`` calls a statement (microseconds). None for another database.
    """
    if database is None:
        return None
    files = SqliteFiles(database)

    @event.listens_for(engine, "connect")
    def _opened(_dbapi_connection: Any, _record: Any) -> None:
        files.forget_index()

    @event.listens_for(engine, "before_cursor_execute")
    def _before(*_args: Any) -> None:
        files.check()

    return files


def probe_write(engine: Engine) -> None:
    """One small real write (SQLite: its header's user version, rewritten; PostgreSQL: a
    round trip), raising what the database raises when it cannot take one."""
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            version = connection.execute(text("PRAGMA user_version")).scalar_one()
            connection.execute(text(f"PRAGMA user_version = {int(version)}"))
        else:
            connection.execute(text("SELECT 1"))


PROBE_SECONDS = 2.0  # while not ready, ``/api/health`` tries a write at most this often


async def readiness(health: StorageHealth, engine: Engine) -> dict[str, object]:
    """``/api/health``'s readiness: while a fault lasts, a probe write (in a thread, at most every
    ``PROBE_SECONDS``) finds out whether it cleared, so readiness heals with no other write."""
    now = time.monotonic()
    if not health.ready and now - health.probed >= PROBE_SECONDS:
        health.probed = now
        try:
            await asyncio.to_thread(probe_write, engine)
        except Exception as error:
            if not is_storage_fault(error):
                raise
            health.failed(error, "the readiness probe")
        else:
            health.succeeded()
    return health.as_json()


def register_storage_faults(app: FastAPI, health_of: Callable[[Request], StorageHealth]) -> None:
    """Answer a storage fault of any request 503 in players' words, told once in the log."""

    async def answer(request: Request, error: Exception) -> JSONResponse:
        if not is_storage_fault(error):
            raise error  # not the database: the server's own error page (500), as before
        if not isinstance(error, StorageUnavailable) or error.__cause__ is None:
            health_of(request).failed(error, f"{request.method} {request.url.path}")
        return JSONResponse({"error": _(PLAYER_TEXT)}, status_code=503, headers={"Retry-After": "60"})

    for kind in (StorageUnavailable, SQLAlchemyError, OSError):
        app.add_exception_handler(kind, answer)
