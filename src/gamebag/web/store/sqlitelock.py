"""One server process per SQLite file: an exclusive lock on ``<database>.lock`` beside it.

Two servers (or a server and ``gamebag db upgrade``) on one SQLite file would corrupt its
games, so whoever opens the file for writing first takes the lock and the second is refused
with ``DatabaseInUseError``. The lock is counted per process: the server, its ``Store`` and
the migrations it runs on start share it.
"""

from __future__ import annotations

import fcntl
import os
from typing import ClassVar

from sqlalchemy.engine import make_url


class DatabaseInUseError(RuntimeError):
    """Another server process already serves this SQLite file."""


def sqlite_path(url: str) -> str | None:
    """The file of an SQLite URL (None for another database or an in-memory one)."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    return os.path.abspath(parsed.database)


class _FileLock:
    """An exclusive lock on ``<database>.lock`` held while this process serves the file."""

    _held: ClassVar[dict[str, tuple[int, int]]] = {}  # path -> (descriptor, users) in this process

    @classmethod
    def acquire(cls, database: str) -> str:
        path = database + ".lock"
        held = cls._held.get(path)
        if held is not None:
            cls._held[path] = (held[0], held[1] + 1)
            return path
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            raise DatabaseInUseError(
                f"another gamebag server already uses the SQLite database {database}; two servers on one "
                "SQLite file would corrupt its games. Stop the other server, choose another --db file, or "
                "serve several processes from PostgreSQL (see docs/web.md)."
            ) from None
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode())
        cls._held[path] = (descriptor, 1)
        return path

    @classmethod
    def release(cls, path: str) -> None:
        held = cls._held.get(path)
        if held is None:
            return
        if held[1] > 1:
            cls._held[path] = (held[0], held[1] - 1)
            return
        del cls._held[path]
        fcntl.flock(held[0], fcntl.LOCK_UN)
        os.close(held[0])


def lock_sqlite(url: str) -> str | None:
    """Take the lock of an SQLite database (``DatabaseInUseError`` if another process has it)."""
    database = sqlite_path(url)
    return None if database is None else _FileLock.acquire(database)


def unlock_sqlite(lock: str | None) -> None:
    """Give back a lock ``lock_sqlite`` took (None: there was none to take)."""
    if lock is not None:
        _FileLock.release(lock)
