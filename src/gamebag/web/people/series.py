"""The running tally of a series of rematches: wins per seat over the table and the rematches
before and after it (the chain ``web_tables.next_id`` links), for the end screen."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from gamebag.web.store.db import SeatRow, TableRow
from gamebag.web.tables.lobbyrows import SummaryRow

MAX_SERIES = 100  # tables of one series counted at most, each way


def series_ids(engine: Engine, table_id: str) -> list[str]:
    """The tables of ``table_id``'s series, first to last (bounded by ``MAX_SERIES`` each way)."""
    with engine.connect() as connection:
        before: list[str] = []
        current = table_id
        for _ in range(MAX_SERIES):
            previous = connection.execute(select(TableRow.id).where(TableRow.next_id == current).limit(1)).scalar()
            if previous is None or previous in before:
                break
            before.append(str(previous))
            current = str(previous)
        after: list[str] = []
        current = table_id
        for _ in range(MAX_SERIES):
            following = connection.execute(select(TableRow.next_id).where(TableRow.id == current)).scalar()
            if following is None or following in after or following == table_id:
                break
            after.append(str(following))
            current = str(following)
    return [*reversed(before), table_id, *after]


def series_tally(engine: Engine, table_id: str) -> dict[str, Any]:
    """Wins per seat over the finished games of the series (a shared win counts for each winner)."""
    ids = series_ids(engine, table_id)
    with engine.connect() as connection:
        names = {
            int(seat): str(name)
            for seat, name in connection.execute(select(SeatRow.seat, SeatRow.name).where(SeatRow.table_id == table_id))
        }
        rows = connection.execute(
            select(SummaryRow.table_id, SummaryRow.winners).where(SummaryRow.table_id.in_(ids))
        ).all()
    winners = {str(t): json.loads(w) for t, w in rows if w is not None}
    wins = dict.fromkeys(sorted(names), 0)
    for table in ids:
        for seat in winners.get(table, []):
            wins[int(seat)] = wins.get(int(seat), 0) + 1
    return {
        "tables": ids,
        "games": sum(1 for table in ids if table in winners),
        "wins": [{"seat": seat, "name": names.get(seat, ""), "wins": count} for seat, count in sorted(wins.items())],
    }
