"""What the server does for each person's seat, kept in the database so that a restart keeps it.

A seat's standing pass (``tables/autopass.py``: the period, an Eigen Kweek round, for which it
asked the server to pass the character windows) and its "done for you" notes (``tables/forcing.py``:
the moves the server made for it, newest last) lived only in the serving process's memory, so a
restart forgot them: the pass stopped passing and the seat's log lost its lines. They are kept
here in a table of their own (``web_seat_aid``, one row per seat that has either), written as
every other write of the store is: one transaction each, in a thread (never on the event loop),
and in a cluster only while this process holds the table's lease (``LeaseLostError`` otherwise,
nothing written). The row is the seat's own business: only ``forcing.py`` reads it, and only
that seat's messages carry what it holds.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ForeignKey, Integer, Text, delete, insert, select, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, mapped_column

from gamebag.core.protocol import JsonDict
from gamebag.web.store.base import Base
from gamebag.web.words.text import _


class SeatAidRow(Base):
    """One seat's standing pass (the period it covers, JSON; NULL: off) and its notes (a JSON list)."""

    __tablename__ = "web_seat_aid"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    passing: Mapped[str | None] = mapped_column(Text, nullable=True)
    notes: Mapped[str] = mapped_column(Text, default="[]")


class LeaseHeldElsewhereError(RuntimeError):
    """A cluster's process wrote a seat's aid for a table whose lease it no longer holds."""


# The lease is held while ``web_tables`` names this process its owner until a time still to come
# (the database's clock: one clock for every process of a cluster, as ``Store.clock_sql``).
_LEASE_HELD = text(
    "SELECT id FROM web_tables WHERE id = :t AND owner = :node AND lease_until > EXTRACT(EPOCH FROM clock_timestamp())"
)


def _check_lease(connection: Connection, table_id: str, node: str | None) -> None:
    """In a cluster, refuse the write unless this process (``node``) holds the table's lease now."""
    if node is not None and connection.execute(_LEASE_HELD, {"t": table_id, "node": node}).first() is None:
        raise LeaseHeldElsewhereError(_("this server no longer holds table {table}", table=table_id))


def save_seat_aid(
    engine: Engine, node: str | None, table_id: str, seat: int, passing: Any, notes: Sequence[JsonDict]
) -> None:
    """Replace ``seat``'s row with its standing pass period (None: off) and notes, in one transaction
    (run it in a thread). A seat with neither keeps no row."""
    table = Base.metadata.tables[SeatAidRow.__tablename__]
    with engine.begin() as connection:
        _check_lease(connection, table_id, node)
        connection.execute(delete(table).where(table.c.table_id == table_id, table.c.seat == seat))
        if passing is None and not notes:
            return
        row = {
            "table_id": table_id,
            "seat": seat,
            "passing": None if passing is None else json.dumps(passing),
            "notes": json.dumps(list(notes), separators=(",", ":")),
        }
        connection.execute(insert(table), [row])


def load_seat_aid(engine: Engine, table_id: str, notes_kept: int) -> tuple[dict[int, deque[JsonDict]], dict[int, Any]]:
    """Every seat's notes (the newest ``notes_kept``) and standing pass periods of ``table_id`` (run it in
    a thread, or where the table's own rows are read)."""
    table = Base.metadata.tables[SeatAidRow.__tablename__]
    notes: dict[int, deque[JsonDict]] = {}
    passing: dict[int, Any] = {}
    with engine.connect() as connection:
        rows = connection.execute(
            select(table.c.seat, table.c.passing, table.c.notes).where(table.c.table_id == table_id)
        ).all()
    for seat, period, kept in rows:
        told = json.loads(kept or "[]")
        if told:
            notes[int(seat)] = deque(told, maxlen=notes_kept)
        if period is not None:
            passing[int(seat)] = json.loads(period)
    return notes, passing
