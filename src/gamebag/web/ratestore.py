"""Rate-limit counts shared by every server process of a cluster, kept in its PostgreSQL database.

A storage for the ``limits`` library's moving-window strategy: with it, the
per-address limits (new tables, new sockets) hold for the whole deployment, not
for each process. It lives in the database the cluster already shares (as the bus
does), so a deployment still runs, secures and watches one server besides its own.

Each key (a limit and a client address) is one row holding the times of the hits
still inside the longest window asked about. Taking a hit is one statement: the
``INSERT … ON CONFLICT DO UPDATE`` locks the key's row, so two processes hitting one
key at once are counted one after the other, and a hit over the limit changes nothing.
"""

from __future__ import annotations

import time

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


class PostgresRateStorage(Storage, MovingWindowSupport):
    """The ``limits`` moving-window storage on the cluster's PostgreSQL (table ``web_rate_hits``)."""

    STORAGE_SCHEME: list[str] | None = ["gamebag+postgresql"]  # noqa: RUF012 (declared so by limits)

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        with engine.begin() as connection:  # one process creates it; the lock keeps the others waiting
            connection.execute(text("SELECT pg_advisory_xact_lock(hashtext('gamebag web_rate_hits'))"))
            connection.execute(
                text(
                    "CREATE TABLE IF NOT EXISTS web_rate_hits (key VARCHAR(200) PRIMARY KEY, "
                    "hits DOUBLE PRECISION[] NOT NULL, accepted BOOLEAN NOT NULL DEFAULT TRUE)"
                )
            )
        self.engine = engine.execution_options(isolation_level="AUTOCOMMIT")

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        values = {"key": key, "limit": limit, "expiry": expiry, "amount": amount, "now": time.time()}
        with self.engine.connect() as connection:
            keep = max(expiry, KEEP_SECONDS)
            accepted = connection.execute(_ACQUIRE, {**values, "keep": keep}).scalar()
        return bool(accepted)

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
