"""Limit counts shared by every server process of a cluster, kept in its PostgreSQL database.

``PostgresRateStorage`` is a storage for the ``limits`` library's moving-window
strategy: with it, the per-address rates (new tables, new sockets) hold for the whole
deployment, not for each process. ``SharedSocketCounts`` counts the sockets open now
(per client address, per table, per seat token) over every live process, so the
open-socket bounds hold for the deployment too. Both live in the database the cluster
already shares (as the bus does), so a deployment still runs, secures and watches one
server besides its own.

Each key (a limit and a client address) is one row holding the times of the hits
still inside the longest window asked about. Taking a hit is one statement: the
``INSERT … ON CONFLICT DO UPDATE`` locks the key's row, so two processes hitting one
key at once are counted one after the other, and a hit over the limit changes nothing.
Keys with no hit left in the last hour are deleted now and then (every ``PRUNE_EVERY``
hits a process takes), so the table does not grow with every address ever seen.

Open sockets are one row per (kind, key, process) with that process's count. A
process's rows count only while it is alive (``web_nodes``, renewed with its leases
every third of ``--lease-seconds``): the sockets of a process that died stop counting
once its heartbeat runs out, without anyone cleaning up after it. Taking a socket is
one call of a database function (one round trip): it locks each key (advisory locks,
always in the same order, so two calls never wait for each other in a cycle), sums the
live processes' counts, and counts the new socket only if every key is under its bound.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from limits.storage import MovingWindowSupport, Storage
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

_ACQUIRE = text(
    """
    INSERT INTO web_rate_hits AS r (key, hits, accepted)
    VALUES (:key, CASE WHEN :amount <= :limit THEN array_fill(CAST(:now AS DOUBLE PRECISION), ARRAY[:amount])
                  ELSE CAST(ARRAY[] AS DOUBLE PRECISION[]) END, :amount <= :limit)
    ON CONFLICT (key) DO UPDATE SET
        accepted = (SELECT count(*) FROM unnest(r.hits) AS h WHERE h > :now - :expiry) + :amount <= :limit,
        hits = CASE
            WHEN (SELECT count(*) FROM unnest(r.hits) AS h WHERE h > :now - :expiry) + :amount <= :limit
            THEN array_fill(CAST(:now AS DOUBLE PRECISION), ARRAY[:amount])
                 || ARRAY(SELECT h FROM unnest(r.hits) AS h WHERE h > :now - :keep ORDER BY h DESC)
            ELSE ARRAY(SELECT h FROM unnest(r.hits) AS h WHERE h > :now - :keep ORDER BY h DESC)
        END
    RETURNING accepted
    """
)
_WINDOW = text(
    "SELECT min(h), count(h) FROM web_rate_hits AS r, unnest(r.hits) AS h WHERE r.key = :key AND h > :now - :expiry"
)
KEEP_SECONDS = 3600  # hits are kept this long (the longest window of the server's limits)
PRUNE_EVERY = 1000  # hits taken by a process between two deletions of keys gone quiet


class PostgresRateStorage(Storage, MovingWindowSupport):
    """The ``limits`` moving-window storage on the cluster's PostgreSQL (table ``web_rate_hits``)."""

    STORAGE_SCHEME: list[str] | None = ["gamebag+postgresql"]  # noqa: RUF012 (declared so by limits)

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        # The table is the schema's (store/migrations): the ``Store`` on this engine made it.
        self.engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._since_prune = 0

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        values = {"key": key, "limit": limit, "expiry": expiry, "amount": amount, "now": time.time()}
        with self.engine.connect() as connection:
            keep = max(expiry, KEEP_SECONDS)
            accepted = connection.execute(_ACQUIRE, {**values, "keep": keep}).scalar()
        self._since_prune += 1
        if self._since_prune >= PRUNE_EVERY:
            self._since_prune = 0
            self.prune()
        return bool(accepted)

    def prune(self) -> int:
        """Delete the keys with no hit left inside any window (addresses gone quiet), so the
        table holds the addresses of the last hour, not of every address ever seen."""
        with self.engine.connect() as connection:
            deleted = connection.execute(
                text(
                    "DELETE FROM web_rate_hits AS r WHERE coalesce((SELECT max(h) FROM unnest(r.hits) AS h), 0) "
                    "<= :cutoff"
                ),
                {"cutoff": time.time() - KEEP_SECONDS},
            ).rowcount
        return int(deleted)

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        with self.engine.connect() as connection:
            row = connection.execute(_WINDOW, {"key": key, "now": now, "expiry": expiry}).first()
        if row is None or row[0] is None:
            return now, 0
        return float(row[0]), int(row[1])

    # The rest of the ``Storage`` interface (the other strategies' counters) is not used by
    # the moving window; these keep its meaning for a caller that asks anyway.
    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        self.acquire_entry(key, 2**31 - 1, expiry, amount)
        return self.get_moving_window(key, 2**31 - 1, expiry)[1]

    def get(self, key: str) -> int:
        return self.get_moving_window(key, 2**31 - 1, KEEP_SECONDS)[1]

    def get_expiry(self, key: str) -> float:
        return time.time() + KEEP_SECONDS

    def check(self) -> bool:
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
            return True
        except SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        with self.engine.connect() as connection:
            return int(connection.execute(text("DELETE FROM web_rate_hits")).rowcount)

    def clear(self, key: str) -> None:
        with self.engine.connect() as connection:
            connection.execute(text("DELETE FROM web_rate_hits WHERE key = :key"), {"key": key})


# Open sockets: each process's count per (kind, key) in ``web_open_sockets``; the table and the
# two functions taking and releasing sockets are the schema's (store/migrations/baseline.py).
_TAKE = text(
    "SELECT gamebag_take_sockets(:node, CAST(:kinds AS TEXT[]), CAST(:keys AS TEXT[]), CAST(:limits AS INTEGER[]))"
)
_RELEASE = text("SELECT gamebag_release_sockets(:node, CAST(:kinds AS TEXT[]), CAST(:keys AS TEXT[]))")

SocketKey = tuple[str, str]  # (kind: "address", "table" or "seat"; key)


class SharedSocketCounts:
    """The sockets open on every live process of a cluster, per (kind, key) (table ``web_open_sockets``)."""

    def __init__(self, engine: Engine, node: str) -> None:
        with engine.begin() as connection:
            # Rows of processes forgotten by ``web_nodes`` (gone for an hour) no longer count.
            connection.execute(text("DELETE FROM web_open_sockets WHERE node NOT IN (SELECT id FROM web_nodes)"))
        self.engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        self.node = node

    def take(self, wanted: Sequence[tuple[str, str, int]]) -> list[str]:
        """Count one more socket under each (kind, key) unless one already has its bound (the third
        item) open over the live processes; the kinds that were full (empty: counted)."""
        ordered = sorted(wanted)  # one order of locks for every caller
        values = {
            "node": self.node,
            "kinds": [kind for kind, _, _ in ordered],
            "keys": [key for _, key, _ in ordered],
            "limits": [limit for _, _, limit in ordered],
        }
        with self.engine.connect() as connection:
            full = connection.execute(_TAKE, values).scalar()
        return list(full or [])

    def release(self, keys: Iterable[SocketKey]) -> None:
        """One socket fewer under each (kind, key), for this process."""
        pairs = list(keys)
        values = {"node": self.node, "kinds": [kind for kind, _ in pairs], "keys": [key for _, key in pairs]}
        with self.engine.connect() as connection:
            connection.execute(_RELEASE, values)

    def replace(self, counts: dict[SocketKey, int]) -> None:
        """Make this process's rows say ``counts`` (after a release that could not be written)."""
        rows = [{"kind": kind, "key": key, "node": self.node, "n": n} for (kind, key), n in counts.items() if n > 0]
        with self.engine.begin() as connection:
            connection.execute(text("DELETE FROM web_open_sockets WHERE node = :node"), {"node": self.node})
            if rows:
                connection.execute(
                    text("INSERT INTO web_open_sockets (kind, key, node, n) VALUES (:kind, :key, :node, :n)"), rows
                )

    def forget(self) -> None:
        """This process stops: none of its sockets count any more."""
        with self.engine.connect() as connection:
            connection.execute(text("DELETE FROM web_open_sockets WHERE node = :node"), {"node": self.node})
