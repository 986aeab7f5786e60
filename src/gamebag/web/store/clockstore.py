"""Time banks kept in the database, so that every deadline survives a restart or a takeover.

Two tables: ``web_clock_settings`` (one row per table with a time bank: the host's settings as
JSON) and ``web_seat_clocks`` (one row per person's seat of such a table: the bank left and the
vacation allowance left at the accounting time ``since``, whether it runs, whether the seat is on
vacation or out). A seat's deadline is ``since + bank`` (plus the vacation left while on vacation):
nothing about a bank lives only in a process's memory. Writes are one transaction each, in a
cluster only while this process holds the table's lease (as ``seataid.py``). Each function here
blocks: call it in a thread, or where the store is already called synchronously (SQLite's moves).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, case, delete, exists, insert, select
from sqlalchemy import text as text_clause
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql.elements import ColumnElement

from gamebag.web.store.base import Base
from gamebag.web.store.seataid import _check_lease
from gamebag.web.tables.turnclock import BankSettings, SeatBank


class ClockSettingRow(Base):
    """The time bank a table's host chose (``BankSettings`` as JSON)."""

    __tablename__ = "web_clock_settings"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("web_tables.id"), primary_key=True)
    settings: Mapped[str] = mapped_column(Text)


class SeatClockRow(Base):
    """One person's seat's bank: seconds left (bank, vacation) at ``since`` (wall-clock seconds)."""

    __tablename__ = "web_seat_clocks"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    bank: Mapped[float] = mapped_column(Float)
    since: Mapped[float] = mapped_column(Float)
    running: Mapped[bool] = mapped_column(Boolean, default=False)
    vacation_left: Mapped[float] = mapped_column(Float, default=0.0)
    on_vacation: Mapped[bool] = mapped_column(Boolean, default=False)
    out: Mapped[bool] = mapped_column(Boolean, default=False)


def _row(table_id: str, bank: SeatBank) -> dict[str, object]:
    return {
        "table_id": table_id,
        "seat": bank.seat,
        "bank": bank.bank,
        "since": bank.since,
        "running": bank.running,
        "vacation_left": bank.vacation_left,
        "on_vacation": bank.on_vacation,
        "out": bank.out,
    }


def create_banks(engine: Engine, table_id: str, settings: BankSettings, banks: Iterable[SeatBank]) -> None:
    """Store a new table's settings and its seats' full banks, in one transaction."""
    with engine.begin() as connection:
        connection.execute(insert(ClockSettingRow), [{"table_id": table_id, "settings": settings.dumps()}])
        rows = [_row(table_id, bank) for bank in banks]
        if rows:
            connection.execute(insert(SeatClockRow), rows)


def load_banks(engine: Engine, table_id: str) -> tuple[BankSettings | None, dict[int, SeatBank]]:
    """A table's bank settings (None: it has none) and its seats' banks."""
    with engine.connect() as connection:
        text = connection.execute(
            select(ClockSettingRow.settings).where(ClockSettingRow.table_id == table_id)
        ).scalar_one_or_none()
        if text is None:
            return None, {}
        rows = connection.execute(select(SeatClockRow).where(SeatClockRow.table_id == table_id)).all()
    banks = {
        int(r.seat): SeatBank(
            int(r.seat), float(r.bank), float(r.since), bool(r.running), float(r.vacation_left), bool(r.on_vacation),
            bool(r.out),
        )
        for r in rows
    }
    return BankSettings.loads(text), banks


def save_banks(engine: Engine, node: str | None, table_id: str, banks: Iterable[SeatBank]) -> None:
    """Replace these seats' rows, in one transaction (in a cluster only while the lease is held)."""
    changed = list(banks)
    if not changed:
        return
    with engine.begin() as connection:
        _check_lease(connection, table_id, node)
        write_banks(connection, table_id, changed)


def write_banks(connection: Connection, table_id: str, banks: Iterable[SeatBank]) -> None:
    """Replace these seats' rows within the caller's transaction (a move's own, ``Store.save_events``)."""
    changed = list(banks)
    if not changed:
        return
    seats = [bank.seat for bank in changed]
    connection.execute(delete(SeatClockRow).where(SeatClockRow.table_id == table_id, SeatClockRow.seat.in_(seats)))
    connection.execute(insert(SeatClockRow), [_row(table_id, bank) for bank in changed])


def _deadline_sql() -> ColumnElement[float]:
    vacation = case((SeatClockRow.on_vacation.is_(True), SeatClockRow.vacation_left), else_=0.0)
    deadline: ColumnElement[float] = SeatClockRow.since + SeatClockRow.bank + vacation
    return deadline


def next_deadlines(engine: Engine, limit: int = 100) -> list[tuple[float, str]]:
    """The earliest running banks' deadlines, soonest first: (wall-clock seconds, table id)."""
    deadline = _deadline_sql()
    tables = Base.metadata.tables["web_tables"]  # declared in schema.py, which imports this module
    with engine.connect() as connection:
        rows = connection.execute(
            select(deadline, SeatClockRow.table_id)
            .join(tables, tables.c.id == SeatClockRow.table_id)
            .where(SeatClockRow.running.is_(True), SeatClockRow.out.is_(False))
            .where(tables.c.closed.is_(None), tables.c.finished.is_(False))
            .order_by(deadline)
            .limit(limit)
        ).all()
    return [(float(at), str(table_id)) for at, table_id in rows]


def running_banks(engine: Engine, table_ids: Iterable[str]) -> dict[str, dict[int, float]]:
    """For each of ``table_ids`` (open, unfinished) with a bank running: its seats that must act
    now and each one's wall-clock deadline. Read from the database alone (no table is loaded), for
    the "your move" lists and notices; call it in a thread."""
    ids = list(table_ids)
    if not ids:
        return {}
    deadline = _deadline_sql()
    tables = Base.metadata.tables["web_tables"]
    with engine.connect() as connection:
        rows = connection.execute(
            select(SeatClockRow.table_id, SeatClockRow.seat, deadline)
            .join(tables, tables.c.id == SeatClockRow.table_id)
            .where(SeatClockRow.table_id.in_(ids), SeatClockRow.running.is_(True), SeatClockRow.out.is_(False))
            .where(tables.c.closed.is_(None), tables.c.finished.is_(False))
        ).all()
    found: dict[str, dict[int, float]] = {}
    for table_id, seat, at in rows:
        found.setdefault(str(table_id), {})[int(seat)] = float(at)
    return found


def bank_runs(table_id_column: Any) -> ColumnElement[bool]:
    """A clause: the table of ``table_id_column`` has a bank running (its idle expiry waits)."""
    return exists().where(
        SeatClockRow.table_id == table_id_column, SeatClockRow.running.is_(True), SeatClockRow.out.is_(False)
    )


def forfeited_seats(connection: Connection, table_id: str) -> set[int]:
    """The seats of ``table_id`` whose bank ran out with the "forfeit" consequence (placed last)."""
    rows = connection.execute(
        select(SeatClockRow.seat).where(SeatClockRow.table_id == table_id, SeatClockRow.out.is_(True))
    )
    return {int(row[0]) for row in rows}


def database_offset(engine: Engine) -> float:
    """The database's clock less this machine's, in seconds (PostgreSQL: one clock for a cluster)."""
    with engine.connect() as connection:
        before = time.time()
        database = float(connection.execute(text_clause("SELECT EXTRACT(EPOCH FROM clock_timestamp())")).scalar_one())
        after = time.time()
    return database - (before + after) / 2
