"""The SQLAlchemy engine of a server's database: SQLite with no shared-memory mapping, or PostgreSQL.

**SQLite.** One server process owns an SQLite file (``db.py`` locks it). SQLite in WAL mode
normally maps its WAL index, ``<database>-shm``, into memory shared between processes; a
file that is cut short (or on a file system that turns read-only) under a statement already
reading the mapping kills the process with SIGBUS, which no check before the statement can
prevent. The ``unix-excl`` VFS (part of SQLite's Unix build) takes a process-wide exclusive
lock on the database and keeps the WAL index in heap memory instead: no ``-shm`` file exists
and nothing is mapped, while the process's own connections (the pool, the threads that load
tables) still work side by side. Other processes cannot open the file while the server runs,
which the server's own lock already refuses. ``mmap_size=0`` keeps the database file itself
read with ``read()``. Measured with ``bench/sqlite_wal_index.py`` (docs/web.md, *Faults that
heal*): the same commit latency, and a ``-shm`` cut short mid-run no longer kills the server.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import QueuePool

SQLITE_VFS = "unix-excl"  # the WAL index in heap memory, the file locked against other processes


def sqlite_connect(database: str, vfs: str = SQLITE_VFS) -> sqlite3.Connection:
    """A connection to the SQLite file ``database`` through ``vfs`` (usable from any thread: the
    pool hands each connection to one user at a time)."""
    return sqlite3.connect(f"file:{database}?vfs={vfs}", uri=True, check_same_thread=False)


def make_engine(url: str, sync: str, vfs: str = SQLITE_VFS) -> Engine:
    """The engine for ``url``; ``sync`` ("normal" or "full") is SQLite's commit durability."""
    if url.startswith("sqlite"):
        database = make_url(url).database
        if database in (None, "", ":memory:"):
            engine = create_engine(url, connect_args={"check_same_thread": False})
        else:
            # The same pool a file database gets by default; connections made through the VFS.
            engine = create_engine("sqlite://", creator=lambda: sqlite_connect(str(database), vfs), poolclass=QueuePool)
        pragma = "FULL" if sync == "full" else "NORMAL"

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            # In WAL mode a commit is in the log file before the call returns, so it
            # survives the server being killed (SIGKILL) with NORMAL; FULL also waits for
            # the disk (fsync) on every commit, so it survives a power cut, at ~5 ms each.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={pragma}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA mmap_size=0")  # the file read with read(), never mapped: no SIGBUS if cut short
            cursor.close()

        return engine
    # No ping before each use: it would double the round trips of every action. A connection
    # found dead fails one request, and SQLAlchemy then replaces the whole pool.
    return create_engine(url, pool_size=10, max_overflow=10, pool_recycle=1800)
