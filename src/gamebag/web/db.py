"""Persistence of web tables with SQLAlchemy 2: tables, seats, record events, pending choices,
host tokens and rematches.

Every accepted action is one transaction: a secret choice that does not yet
complete the joint action is stored as a pending row; the choice that completes
it appends the record events it caused and clears the pending rows, together.
A table is rebuilt on start by replaying its events through ``Match`` (which
derives chance from the seed and the event index) and re-submitting the pending
choices, so it continues exactly where it was.

SQLite (a file in the working folder) is the default; any SQLAlchemy URL works.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from gamebag.web.settings import DEFAULT_DB_URL, SYNC_MODES


class Base(DeclarativeBase):
    """Declarative base of the web schema."""


class TableRow(Base):
    """One table: the game, its configuration and its seed."""

    __tablename__ = "web_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)  # JSON object
    seed: Mapped[str] = mapped_column(String(64))
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    timeout_agent: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)


class SeatRow(Base):
    """One seat of a table: held by a secret token (humans) or played by a bot."""

    __tablename__ = "web_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    agent: Mapped[str | None] = mapped_column(String(200), nullable=True)  # None: a human seat


class EventRow(Base):
    """One record event (``{"moves": ...}`` or ``{"chance": ...}``) of a table, in order."""

    __tablename__ = "web_events"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column("idx", Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)


class PendingRow(Base):
    """A secret choice made at the current decision node, not yet revealed."""

    __tablename__ = "web_pending"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(Text)  # JSON encoding of the action


class HostRow(Base):
    """The host token of a table: it recovers the invite links and hands a no-show seat to a bot."""

    __tablename__ = "web_hosts"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)


class RematchRow(Base):
    """The table that a finished table's rematch (same seats) continues at."""

    __tablename__ = "web_rematches"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    next_id: Mapped[str] = mapped_column(String(32))


@dataclass(frozen=True)
class SeatConfig:
    """A seat as stored: its token, display name and agent (None for a human)."""

    seat: int
    token: str
    name: str
    agent: str | None


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
    host_token: str | None = None  # None: a table opened before host pages existed
    next_id: str | None = None  # the rematch table, once one is opened


@dataclass(frozen=True)
class StoredTable:
    """A table as loaded from the database: configuration, events and pending choices."""

    config: TableConfig
    events: list[dict[str, Any]]
    pending: dict[int, Any]




def _make_engine(url: str, sync: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
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
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """The database of a web server (one per process)."""

    def __init__(self, url: str = DEFAULT_DB_URL, sync: str = "normal") -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        self.url = url
        self.engine = _make_engine(url, sync)
        Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

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
                )
            )
            session.flush()
            for seat in config.seats:
                session.add(
                    SeatRow(table_id=config.id, seat=seat.seat, token=seat.token, name=seat.name, agent=seat.agent)
                )
            if config.host_token is not None:
                session.add(HostRow(table_id=config.id, token=config.host_token))

    def set_seat_agent(self, table_id: str, seat: int, agent: str) -> None:
        """Hand a seat to a bot (its token stops working for people)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(agent=agent)
            )

    def set_rematch(self, table_id: str, next_id: str) -> None:
        """Remember the rematch table of ``table_id``."""
        with Session(self.engine) as session, session.begin():
            session.add(RematchRow(table_id=table_id, next_id=next_id))

    # Accepted actions are written with SQLAlchemy Core (no ORM unit of work): they are the
    # hot path of a busy server, one transaction each.
    def save_pending(self, table_id: str, seat: int, action_json: Any) -> None:
        """Store (or replace) one secret choice, in its own transaction."""
        pending = Base.metadata.tables[PendingRow.__tablename__]
        with self.engine.begin() as connection:
            connection.execute(delete(pending).where(pending.c.table_id == table_id, pending.c.seat == seat))
            connection.execute(
                insert(pending), [{"table_id": table_id, "seat": seat, "action": json.dumps(action_json)}]
            )

    def save_events(self, table_id: str, first_index: int, events: Iterable[Mapping[str, Any]], finished: bool) -> None:
        """Append record events and clear the pending choices, in one transaction."""
        rows = [
            {"table_id": table_id, "idx": first_index + offset, "data": json.dumps(data)}
            for offset, data in enumerate(events)
        ]
        with self.engine.begin() as connection:
            if rows:
                connection.execute(insert(Base.metadata.tables[EventRow.__tablename__]), rows)
            pending = Base.metadata.tables[PendingRow.__tablename__]
            connection.execute(delete(pending).where(pending.c.table_id == table_id))
            if finished:
                connection.execute(update(TableRow).where(TableRow.id == table_id).values(finished=True))

    # ---- reads -------------------------------------------------------------------------------
    def table_ids(self, unfinished_only: bool = False) -> list[str]:
        with Session(self.engine) as session:
            query = select(TableRow.id).order_by(TableRow.created_at)
            if unfinished_only:
                query = query.where(TableRow.finished.is_(False))
            return list(session.scalars(query))

    def load(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = tuple(
                SeatConfig(s.seat, s.token, s.name, s.agent)
                for s in session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
            )
            host = session.get(HostRow, table_id)
            rematch = session.get(RematchRow, table_id)
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
                host_token=None if host is None else host.token,
                next_id=None if rematch is None else rematch.next_id,
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
            return StoredTable(config, events, pending)


def now() -> float:
    """Wall-clock seconds, for creation times."""
    return time.time()
