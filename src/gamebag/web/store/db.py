"""Persistence of web tables with SQLAlchemy 2: tables, seats, record events, pending choices.

Every accepted action is one transaction: a secret choice that does not yet
complete the joint action is stored as a pending row; the choice that completes
it appends the record events it caused and clears the pending rows, together.
A table is rebuilt on start by replaying its events through ``Match`` (which
derives chance from the seed and the event index) and re-submitting the pending
choices, so it continues exactly where it was.

SQLite (a file in the working folder) is the default; one server process owns
an SQLite file (a second one is refused, ``DatabaseInUseError``, ``sqlitelock.py``).
PostgreSQL serves several processes (see ``cluster.py``). The tables are declared in
``schema.py``; ``Store`` brings the database's schema to head on start (``migrate.py``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    delete,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.orm import Session

from gamebag.web.settings import DEFAULT_DB_URL, SYNC_MODES
from gamebag.web.store import migrate
from gamebag.web.store.base import Base
from gamebag.web.store.chatstore import delete_table_chat
from gamebag.web.store.clockstore import bank_runs
from gamebag.web.store.engines import make_engine
from gamebag.web.store.schema import EventRow, NodeRow, PendingRow, SeatRow, TableRow
from gamebag.web.store.sqlitelock import DatabaseInUseError, lock_sqlite, sqlite_path, unlock_sqlite
from gamebag.web.tables import lobbyrows
from gamebag.web.tables.lobbyrows import Seats
from gamebag.web.words.text import _

# Names other modules import from here (the row classes and the SQLite lock moved out).
__all__ = [
    "TABLES_CHANNEL",
    "Base",
    "DatabaseInUseError",
    "EventRow",
    "LeaseLostError",
    "NodeRow",
    "PendingRow",
    "SeatConfig",
    "SeatRow",
    "Store",
    "StoredTable",
    "TableConfig",
    "TableRow",
    "lock_sqlite",
    "make_engine",
    "now",
    "safe_url",
    "sqlite_path",
    "unlock_sqlite",
]


@dataclass(frozen=True)
class SeatConfig:
    """A seat as stored: its token (``claimed`` False: its invite code, claims.py), name and agent."""

    seat: int
    token: str
    name: str
    agent: str | None
    claimed: bool = True


@dataclass(frozen=True)
class TableConfig:
    """Everything needed to rebuild a table, without its events."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: str
    turn_seconds: float | None
    timeout_agent: str
    created_at: float
    finished: bool
    seats: tuple[SeatConfig, ...]
    host_token: str = ""
    closed: str | None = None
    next_id: str | None = None  # the rematch table (same seats), once one is opened
    coach: str = ""  # the coach setting as JSON text (``coachsetting.CoachSetting``); empty: never offered
    bank: str = ""  # the time bank settings as JSON text (``turnclock.BankSettings``); empty: none


@dataclass(frozen=True)
class StoredTable:
    """A table as loaded from the database: configuration, events and pending choices."""

    config: TableConfig
    events: list[dict[str, Any]]
    pending: dict[int, Any]
    clock: tuple[int, float | None] | None = None  # a cluster's turn clock: step, wall-clock deadline


# Take a table's lease for this process (``:node``, ``:s`` seconds) unless another live process
# holds it: free, already ours, or run out by the database's clock.
TAKE_LEASE = (
    "UPDATE web_tables SET owner = :node, lease_until = EXTRACT(EPOCH FROM clock_timestamp()) + :s "
    "WHERE id = :id AND closed IS NULL AND (owner IS NULL OR owner = :node "
    "OR lease_until IS NULL OR lease_until < EXTRACT(EPOCH FROM clock_timestamp()))"
)


TABLES_CHANNEL = "gamebag_tables"  # the bus channel where every table change is announced
NOTICE_LIMIT = 7900  # PostgreSQL refuses NOTIFY payloads of 8000 bytes or more

# A cluster's hot writes (PostgreSQL), each one statement: the lease is checked (the ``lease``
# row exists only while this process holds it), the change is made only if it is held, and
# the notice is sent with it (delivered at commit). No row back: the lease was lost, nothing
# was written.
_LEASE_CTE = (
    "lease AS (UPDATE web_tables SET last_active = :now{extra} WHERE id = :t AND owner = :node "
    "AND lease_until > EXTRACT(EPOCH FROM clock_timestamp()) RETURNING id)"
)
_PENDING_SQL = (
    "WITH "
    + _LEASE_CTE.format(extra="")
    + ", added AS (INSERT INTO web_pending (table_id, seat, action) SELECT id, :seat, :action FROM lease "
    "ON CONFLICT (table_id, seat) DO UPDATE SET action = EXCLUDED.action) "
    "SELECT pg_notify(:channel, :payload) FROM lease"
)
_EVENTS_SQL = (
    "WITH "
    + _LEASE_CTE.format(extra=", finished = finished OR CAST(:fin AS BOOLEAN)")
    + ", added AS (INSERT INTO web_events (table_id, idx, data) SELECT lease.id, e.idx, e.data FROM lease, "
    "unnest(CAST(:idxs AS INTEGER[]), CAST(:datas AS TEXT[])) AS e(idx, data)), "
    "cleared AS (DELETE FROM web_pending WHERE table_id = :t AND EXISTS (SELECT 1 FROM lease))"
    + lobbyrows.EVENTS_CTE
    + " SELECT pg_notify(:channel, :payload) FROM lease"
)

_CLOCK_SQL = (
    "WITH kept AS (UPDATE web_tables SET clock_step = :s, clock_deadline = CAST(:d AS DOUBLE PRECISION) "
    "WHERE id = :t AND owner = :node RETURNING id) SELECT pg_notify(:channel, :payload) FROM kept"
)


# More writes made in a move's own transaction (``Store.save_events``, ``Store.save_pending``).
Also = Callable[[Connection], None] | None


class LeaseLostError(RuntimeError):
    """This process wrote to a table whose lease another process has taken; nothing was written."""


def safe_url(url: str) -> str:
    """The database URL with any password hidden, for banners and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: show its scheme only
        return url.split(":", 1)[0] + ":…"


class Store:
    """The database of a web server (one per process)."""

    def __init__(self, url: str = DEFAULT_DB_URL, sync: str = "normal") -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        self.url = url
        self.node: str | None = None  # this process's id in a cluster (PostgreSQL); None: the only one
        self._lock = lock_sqlite(url)
        try:
            self.engine = make_engine(url, sync)
            self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            # A fresh database gets the head schema, an older one is upgraded (``serve`` decides
            # first whether an upgrade is allowed; see migrate.py), a newer one is refused.
            self.migration = migrate.upgrade(self.engine)
        except BaseException:
            unlock_sqlite(self._lock)
            raise

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @property
    def is_postgresql(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def close(self) -> None:
        self.engine.dispose()
        unlock_sqlite(self._lock)
        self._lock = None

    # ---- writes ------------------------------------------------------------------------------
    def create_table(self, config: TableConfig) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(
                TableRow(
                    id=config.id,
                    game=config.game,
                    players=config.players,
                    options=json.dumps(config.options),
                    seed=config.seed,
                    turn_seconds=config.turn_seconds,
                    timeout_agent=config.timeout_agent,
                    created_at=config.created_at,
                    finished=config.finished,
                    host_token=config.host_token or None,
                    last_active=config.created_at,
                    owner=self.node,
                )
            )
            session.flush()
            for seat in config.seats:
                row = SeatRow(table_id=config.id, seat=seat.seat, token=seat.token, name=seat.name, agent=seat.agent)
                session.add(row)
                row.claimed = seat.claimed

    # Accepted actions are written with SQLAlchemy Core (no ORM unit of work): they are the
    # hot path of a busy server, one transaction each. In a cluster (``node`` set) each write
    # first checks, in its transaction, that this process still holds the table's lease (so a
    # process that lost it cannot write), and announces the change on the bus, which
    # PostgreSQL delivers at commit.
    def _touch(self, connection: Connection, table_id: str, values: dict[str, Any], step: int, kind: str) -> None:
        query = update(TableRow).where(TableRow.id == table_id)
        if self.node is not None:
            query = query.where(TableRow.owner == self.node, TableRow.lease_until > self.clock_sql())
        if connection.execute(query.values(**values)).rowcount != 1 and self.node is not None:
            raise LeaseLostError(_("this server no longer holds table {table}", table=table_id))
        self.announce(connection, table_id, step, kind)

    def announce(self, connection: Connection, table_id: str, step: int, kind: str) -> None:
        """Tell the other processes (at commit) that ``table_id`` changed (PostgreSQL only)."""
        if self.node is None:
            return
        payload = json.dumps({"k": kind, "t": table_id, "s": step, "n": self.node})
        connection.execute(
            text("SELECT pg_notify(:channel, :payload)"), {"channel": TABLES_CHANNEL, "payload": payload}
        )

    def save_pending(self, table_id: str, seat: int, action_json: Any, step: int = 0, also: Also = None) -> None:
        """Store (or replace) one secret choice, in its own transaction (``also``: more writes in it, SQLite)."""
        action = json.dumps(action_json)
        if self.node is not None:
            # The notice names the seat, never its secret choice: any database role may LISTEN,
            # so the replicas read the choice back with the servers' own rights.
            notice = {"k": "pending", "t": table_id, "s": step, "n": self.node, "seat": seat}
            self._write_in_one(_PENDING_SQL, {"t": table_id, "seat": seat, "action": action}, notice)
            return
        pending = Base.metadata.tables[PendingRow.__tablename__]
        with self.engine.begin() as connection:
            self._touch(connection, table_id, {"last_active": now()}, step, "pending")
            connection.execute(delete(pending).where(pending.c.table_id == table_id, pending.c.seat == seat))
            connection.execute(insert(pending), [{"table_id": table_id, "seat": seat, "action": action}])
            if also is not None:
                also(connection)

    def save_events(
        self,
        table_id: str,
        first_index: int,
        events: Iterable[Mapping[str, Any]],
        finished: bool,
        won: Seats = None,
        also: Also = None,
    ) -> None:
        """Append record events, clear the pending choices and update the lobby's summary, in one transaction.

        ``also``: more writes in that transaction (the time banks the move stops and starts); on
        SQLite only: a cluster's write is one statement, and the caller writes those after it."""
        datas = [json.dumps(data) for data in events]
        step = first_index + len(datas)
        if self.node is not None:
            events_in = [json.loads(data) for data in datas]
            notice = {"k": "events", "t": table_id, "s": step, "n": self.node, "f": first_index, "e": events_in}
            indexes = list(range(first_index, step))
            win = lobbyrows.winners_json(won)
            sql_values = {"t": table_id, "fin": finished, "idxs": indexes, "datas": datas, "step": step, "win": win}
            self._write_in_one(_EVENTS_SQL, sql_values, notice)
            return
        rows = [{"table_id": table_id, "idx": first_index + offset, "data": data} for offset, data in enumerate(datas)]
        values: dict[str, Any] = {"last_active": now()}
        if finished:
            values["finished"] = True
        with self.engine.begin() as connection:
            self._touch(connection, table_id, values, step, "events")
            if rows:
                connection.execute(insert(Base.metadata.tables[EventRow.__tablename__]), rows)
            pending = Base.metadata.tables[PendingRow.__tablename__]
            connection.execute(delete(pending).where(pending.c.table_id == table_id))
            lobbyrows.write(connection, table_id, step, won, values["last_active"])
            if also is not None:
                also(connection)

    def _write_in_one(self, sql: str, values: dict[str, Any], notice: dict[str, Any]) -> None:
        """A cluster's hot write: the lease check, the change and its notice in one statement.

        One statement in autocommit is one round trip to the database and one atomic
        change (every part or none), where a transaction of separate statements took six;
        the server waits for it on its event loop, so every round trip counts. A notice
        too large for the bus goes without its data (the replicas then read the database).
        """
        payload = json.dumps(notice, separators=(",", ":"))
        if len(payload.encode()) > NOTICE_LIMIT:
            payload = json.dumps({k: v for k, v in notice.items() if k not in ("e", "a")}, separators=(",", ":"))
        with self._autocommit.connect() as connection:
            held = connection.execute(
                text(sql),
                {**values, "node": self.node, "now": now(), "channel": TABLES_CHANNEL, "payload": payload},
            ).first()
        if held is None:
            raise LeaseLostError(_("this server no longer holds table {table}", table=values["t"]))

    def save_clock(self, table_id: str, step: int, deadline: float | None) -> None:
        """A cluster's owner stores its turn clock (``deadline``: wall-clock seconds, None: stopped)
        and announces it, in one statement; nothing happens if this process no longer owns the table."""
        if self.node is None:
            return
        notice = {"k": "clock", "t": table_id, "n": self.node, "s": step, "d": deadline}
        values = {"t": table_id, "s": step, "d": deadline, "node": self.node, "channel": TABLES_CHANNEL}
        with self._autocommit.connect() as connection:
            connection.execute(text(_CLOCK_SQL), {**values, "payload": json.dumps(notice, separators=(",", ":"))})

    def close_table(self, table_id: str, reason: str) -> None:
        """Close an unfinished table for good (``reason``: "host" or "expired"); its chat goes with it."""
        with self.engine.begin() as connection:
            connection.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.closed.is_(None))
                .values(closed=reason, owner=None, lease_until=None)
            )
            delete_table_chat(connection, table_id)  # nobody can read a closed table's chat again
            self.announce(connection, table_id, -1, "closed")

    def reissue_token(self, table_id: str, seat: int, code: str) -> None:
        """Give a seat a new invite code, to be claimed: its old token or code stops working."""
        with self.engine.begin() as connection:
            query = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            connection.execute(query.values(token=code, claimed=False))
            self.announce(connection, table_id, -1, "seats")

    # ---- leases (a cluster of processes on PostgreSQL) ---------------------------------------
    def clock_sql(self) -> Any:
        """The database's clock in seconds (one clock for every process, wherever it runs)."""
        return text("EXTRACT(EPOCH FROM clock_timestamp())")

    def acquire(self, table_id: str, seconds: float) -> bool:
        """Take (or keep) the table's lease unless another live process holds it."""
        if self.node is None:
            raise RuntimeError("leases exist only in a cluster")
        with self.engine.begin() as connection:
            row = connection.execute(
                text(f"{TAKE_LEASE} RETURNING id"),
                {"node": self.node, "s": seconds, "id": table_id},
            ).first()
            return row is not None

    def acquire_or_owner(self, table_id: str, seconds: float) -> str | None:
        """Take (or keep) the table's lease if it is free; the process holding it after (None: unknown)."""
        if self.node is None:
            raise RuntimeError("leases exist only in a cluster")
        with self.engine.begin() as connection:
            row = connection.execute(
                text(
                    f"WITH taken AS ({TAKE_LEASE} RETURNING id) "
                    "SELECT (SELECT count(*) FROM taken), (SELECT owner FROM web_tables WHERE id = :id)"
                ),
                {"node": self.node, "s": seconds, "id": table_id},
            ).first()
        if row is None:
            return None
        return self.node if row[0] else (str(row[1]) if row[1] is not None else None)

    def renew(self, table_ids: Iterable[str], seconds: float) -> set[str]:
        """Extend this process's leases; the ids it still holds."""
        ids = list(table_ids)
        if not ids or self.node is None:
            return set()
        with self.engine.begin() as connection:
            rows = connection.execute(
                text(
                    # Late is not lost: a lease that ran out but that nobody took is still ours
                    # (writes were refused meanwhile). Taken by another process, it is gone.
                    "UPDATE web_tables SET lease_until = EXTRACT(EPOCH FROM clock_timestamp()) + :s "
                    "WHERE id = ANY(:ids) AND owner = :node RETURNING id"
                ),
                {"node": self.node, "s": seconds, "ids": ids},
            )
            return {row[0] for row in rows}

    def heartbeat(self, seconds: float) -> set[str]:
        """Say this process is alive for ``seconds`` more; the processes alive now (this one too).

        What a process announced on the bus (the seats connected to it) counts only while
        it is alive: a process that died says nothing more, so the others forget it here.
        """
        if self.node is None:
            raise RuntimeError("heartbeats exist only in a cluster")
        clock = "EXTRACT(EPOCH FROM clock_timestamp())"
        with self.engine.begin() as connection:
            connection.execute(
                text(
                    f"INSERT INTO web_nodes (id, alive_until) VALUES (:node, {clock} + :s) "
                    "ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until"
                ),
                {"node": self.node, "s": seconds},
            )
            # Rows of processes gone for an hour are of no more use to anyone.
            connection.execute(text(f"DELETE FROM web_nodes WHERE alive_until < {clock} - 3600"))
            rows = connection.execute(text(f"SELECT id FROM web_nodes WHERE alive_until >= {clock}"))
            return {row[0] for row in rows}

    def leave(self) -> None:
        """This process stops: it is no longer alive for the others."""
        if self.node is None:
            return
        with self.engine.begin() as connection:
            connection.execute(text("DELETE FROM web_nodes WHERE id = :node"), {"node": self.node})

    def release(self, table_ids: Iterable[str]) -> None:
        ids = list(table_ids)
        if not ids or self.node is None:
            return
        with self.engine.begin() as connection:
            connection.execute(
                text("UPDATE web_tables SET owner = NULL, lease_until = NULL WHERE id = ANY(:ids) AND owner = :node"),
                {"node": self.node, "ids": ids},
            )

    def owners(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """Each table's owner, None where its lease is free (no owner, or expired)."""
        ids = list(table_ids)
        if not ids:
            return {}
        with self.engine.begin() as connection:
            rows = connection.execute(
                text(
                    "SELECT id, CASE WHEN lease_until >= EXTRACT(EPOCH FROM clock_timestamp()) THEN owner END "
                    "FROM web_tables WHERE id = ANY(:ids)"
                ),
                {"ids": ids},
            )
            return {row[0]: row[1] for row in rows}

    def set_seat_agent(self, table_id: str, seat: int, agent: str) -> None:
        """Hand a person's seat to a bot (its token stops working for people)."""
        query = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(agent=agent)
        with self.engine.begin() as connection:
            connection.execute(query)
            self.announce(connection, table_id, -1, "seats")

    def set_rematch(self, table_id: str, next_id: str) -> None:
        """Remember the rematch table of ``table_id``."""
        with self.engine.begin() as connection:
            connection.execute(update(TableRow).where(TableRow.id == table_id).values(next_id=next_id))
            self.announce(connection, table_id, -1, "seats")

    def idle_tables(self, before: float, limit: int = 500) -> list[str]:
        """Open, unfinished tables where nothing happened since ``before`` (oldest first)."""
        with Session(self.engine) as session:
            activity = TableRow.last_active
            query = (
                select(TableRow.id)
                .where(TableRow.finished.is_(False), TableRow.closed.is_(None))
                .where((activity < before) | (activity.is_(None) & (TableRow.created_at < before)))
                .where(~bank_runs(TableRow.id))  # a running time bank keeps its table (turn-based play)
                .order_by(TableRow.created_at)
                .limit(limit)
            )
            return list(session.scalars(query))

    # ---- reads -------------------------------------------------------------------------------
    def table_ids(self, unfinished_only: bool = False, limit: int | None = None) -> list[str]:
        """Table ids, oldest first (``limit``: only the newest ``limit`` of them)."""
        with Session(self.engine) as session:
            query = select(TableRow.id)
            if unfinished_only:
                query = query.where(TableRow.finished.is_(False), TableRow.closed.is_(None))
            if limit is not None:
                return list(reversed(list(session.scalars(query.order_by(TableRow.created_at.desc()).limit(limit)))))
            return list(session.scalars(query.order_by(TableRow.created_at)))

    def load_since(self, table_id: str, index: int) -> tuple[list[dict[str, Any]], dict[int, Any]]:
        """The events of a table from ``index`` on, and its pending choices (a replica catching up)."""
        with Session(self.engine) as session:
            events = [
                json.loads(data)
                for data in session.scalars(
                    select(EventRow.data)
                    .where(EventRow.table_id == table_id, EventRow.index >= index)
                    .order_by(EventRow.index)
                )
            ]
            pending = {
                p.seat: json.loads(p.action)
                for p in session.scalars(select(PendingRow).where(PendingRow.table_id == table_id))
            }
            return events, pending

    def load(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = tuple(
                SeatConfig(s.seat, s.token, s.name, s.agent, s.claimed is not False)
                for s in session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
            )
            config = TableConfig(
                id=row.id,
                game=row.game,
                players=row.players,
                options=json.loads(row.options),
                seed=row.seed,
                turn_seconds=row.turn_seconds,
                timeout_agent=row.timeout_agent,
                created_at=row.created_at,
                finished=row.finished,
                seats=seats,
                host_token=row.host_token or "",
                closed=row.closed,
                next_id=row.next_id,
                coach=row.coach or "",
            )
            events = [
                json.loads(data)
                for data in session.scalars(
                    select(EventRow.data).where(EventRow.table_id == table_id).order_by(EventRow.index)
                )
            ]
            pending = {
                p.seat: json.loads(p.action)
                for p in session.scalars(select(PendingRow).where(PendingRow.table_id == table_id))
            }
            clock = None if row.clock_step is None else (row.clock_step, row.clock_deadline)
            return StoredTable(config, events, pending, clock)


def now() -> float:
    """Wall-clock seconds, for creation times."""
    return time.time()
