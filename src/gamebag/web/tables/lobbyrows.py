"""The lobby's list of tables from one query: a summary row per table, written with its events.

The lobby used to list tables by loading each one (replaying its whole game) on the event
loop: after a restart one ``GET /api/tables`` took seconds and stalled every table. What only
the game could tell the lobby (the step reached, the winners, when the table last moved) is
kept in ``web_summaries``, one row per table, written in the same transaction as the events
that change it (``Store.save_events``; on PostgreSQL inside its one statement), so it is
never behind the record. The rest of what the lobby shows (game, players, options, seat
names, finished) is in ``web_tables`` and ``web_seats`` already: ``lobby_rows`` reads all of
it with one statement (the server calls it off the event loop) and rebuilds no game.

A database from before this table gets its rows when it is brought under migrations
(``backfill``, from ``store/migrate.py``): each table's step counted from its stored events, its
winners unknown until it is next loaded (``write`` then fills them in).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Float, Integer, String, Text, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, mapped_column

from gamebag.web.store.base import Base

Seats = Sequence[int] | None  # a finished game's winners (None: not over, or not known)


class SummaryRow(Base):
    """What the lobby shows of a table that only its game could tell."""

    __tablename__ = "web_summaries"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)  # web_tables.id
    step: Mapped[int] = mapped_column(Integer)  # record events so far (``LiveTable.step``)
    winners: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON list of seats, once over
    updated_at: Mapped[float] = mapped_column(Float)  # wall-clock seconds of the last change


# Both dialects read the same upsert; a finished table's winners are never unknown again.
_UPSERT = (
    "INSERT INTO web_summaries (table_id, step, winners, updated_at) {source} "
    "ON CONFLICT (table_id) DO UPDATE SET step = EXCLUDED.step, "
    "winners = COALESCE(EXCLUDED.winners, web_summaries.winners), updated_at = EXCLUDED.updated_at"
)
# The PostgreSQL cluster's one-statement write of events (``db._EVENTS_SQL``) adds this
# part: the summary is written only where the lease check let the events be written.
EVENTS_CTE = ", summarised AS (" + _UPSERT.format(source="SELECT id, :step, CAST(:win AS TEXT), :now FROM lease") + ")"

# Rows for tables that have none (a database from before this table), stepped by their events.
_BACKFILL = (
    "INSERT INTO web_summaries (table_id, step, winners, updated_at) "
    "SELECT t.id, (SELECT count(*) FROM web_events e WHERE e.table_id = t.id), NULL, "
    "COALESCE(t.last_active, t.created_at) FROM web_tables t "
    "WHERE NOT EXISTS (SELECT 1 FROM web_summaries s WHERE s.table_id = t.id) "
    "ON CONFLICT (table_id) DO NOTHING"
)

# Only public tables (``web_listings``, ``people/listing.py``): a private table is reached by invite only.
_LOBBY = (
    "SELECT t.id, t.game, t.players, t.options, t.turn_seconds, t.finished, t.created_at, "
    "s.step, s.winners, COALESCE(s.updated_at, t.last_active, t.created_at), "
    "seat.seat, seat.name, seat.agent, seat.claimed, l.rated, l.quick "
    "FROM (SELECT * FROM web_tables WHERE closed IS NULL "
    "AND id IN (SELECT table_id FROM web_listings WHERE public) ORDER BY created_at DESC LIMIT :n) t "
    "JOIN web_listings l ON l.table_id = t.id "
    "LEFT JOIN web_summaries s ON s.table_id = t.id "
    "JOIN web_seats seat ON seat.table_id = t.id "
    "ORDER BY t.created_at DESC, t.id, seat.seat"
)


def backfill(connection: Connection) -> None:
    """Give every table without a summary row its row (a database from before the summaries)."""
    connection.execute(text(_BACKFILL))


def winners_json(winners: Seats) -> str | None:
    return None if winners is None else json.dumps([int(seat) for seat in winners])


def write(connection: Connection, table_id: str, step: int, winners: Seats, at: float) -> None:
    """Upsert a table's summary in ``connection``'s transaction (its events' own)."""
    source = "VALUES (:t, :step, :win, :now)"
    connection.execute(
        text(_UPSERT.format(source=source)), {"t": table_id, "step": step, "win": winners_json(winners), "now": at}
    )


def fill_winners(engine: Engine, table_id: str, winners: Seats) -> None:
    """Give a finished table's row its winners if it has none yet (a row ``prepare`` made)."""
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE web_summaries SET winners = :win WHERE table_id = :t AND winners IS NULL"),
            {"t": table_id, "win": winners_json(winners)},
        )


def lobby_rows(engine: Engine, limit: int) -> list[dict[str, Any]]:
    """The newest ``limit`` open public tables as the lobby lists them (without who is connected,
    which only the server's memory knows), newest first: one statement, no game rebuilt."""
    tables: dict[str, dict[str, Any]] = {}
    with engine.connect() as connection:
        rows = connection.execute(text(_LOBBY), {"n": limit}).all()
    for row in rows:
        table_id = str(row[0])
        table = tables.get(table_id)
        if table is None:
            table = tables[table_id] = {
                "id": table_id,
                "game": row[1],
                "players": row[2],
                "options": json.loads(row[3]),
                "turn_seconds": row[4],
                "finished": bool(row[5]),
                "created_at": row[6],
                "step": int(row[7] or 0),
                "winners": None if row[8] is None else json.loads(row[8]),
                "updated_at": row[9],
                "rated": bool(row[14]),
                "quick": bool(row[15]),
                "seats": [],
            }
        bot = row[12] is not None
        claimed = not bot and row[13] in (None, True, 1)  # NULL: a table from before one-time claims
        table["seats"].append({"seat": row[10], "name": row[11], "bot": bot, "agent": row[12], "claimed": claimed})
    return list(tables.values())
