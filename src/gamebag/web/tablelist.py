"""The lobby's list of tables: when each was opened, who plays, who won; abandoned ones left out.

A table is abandoned when its game is unfinished, nobody is connected to it and nothing was
played on it for ``ABANDONED_AFTER_S`` (a group that left without finishing): listing it
would only invite people to watch a game that will not move. Its host page, links and record
still work; it is only not offered in the lobby.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gamebag.web.db import TableRow
from gamebag.web.messages import result_json

if TYPE_CHECKING:
    from gamebag.web.manager import TableManager

__all__ = ["ABANDONED_AFTER_S", "lobby_tables"]

ABANDONED_AFTER_S = 2 * 3600.0


def lobby_tables(manager: TableManager, now: float | None = None) -> list[dict[str, Any]]:
    """The newest tables' public facts with ``opened_at`` and ``last_active`` (Unix seconds) and
    ``winners`` (their names, once the game is over), newest first, abandoned ones left out."""
    now = time.time() if now is None else now
    tables = manager.list_tables()
    activity = _last_activity(manager, [table.id for table in tables])
    listed = []
    for table in tables:
        meta = manager.meta(table)
        active = activity.get(table.id) or table.config.created_at
        anyone_here = any(seat["connected"] for seat in meta["seats"] if not seat["bot"])
        if not table.is_over and not anyone_here and now - active > ABANDONED_AFTER_S:
            continue
        result = result_json(table)
        winners = None if result is None else [table.seats[seat].name for seat in result["winners"]]
        listed.append({**meta, "opened_at": table.config.created_at, "last_active": active, "winners": winners})
    return listed


def _last_activity(manager: TableManager, table_ids: list[str]) -> dict[str, float]:
    """When each table last accepted an action (as stored: every process of a cluster writes it)."""
    if not table_ids:
        return {}
    with Session(manager.store.engine) as session:
        rows = session.execute(select(TableRow.id, TableRow.last_active).where(TableRow.id.in_(table_ids)))
        return {table_id: float(active) for table_id, active in rows if active is not None}
