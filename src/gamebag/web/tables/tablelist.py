"""The lobby's list of public tables as players read it: who won by name, free seats, abandoned ones left out.

The rows come from ``lobbyrows.py`` (one query, no game rebuilt). A table is abandoned when
its game is unfinished, no person is connected to it and nothing was played on it for
``ABANDONED_AFTER_S`` (a group that left without finishing): listing it would only invite
people to watch a game that will not move. Its host page, links and record still work; it
is only not offered in the lobby.
"""

from __future__ import annotations

import time
from typing import Any

__all__ = ["ABANDONED_AFTER_S", "listed"]

ABANDONED_AFTER_S = 2 * 3600.0


def listed(rows: list[dict[str, Any]], now: float | None = None) -> list[dict[str, Any]]:
    """``rows`` (the lobby's summary rows, with who is connected) without the abandoned tables,
    each with ``winner_names`` (the winners' seat names once the game is over and known) and
    ``free_seats`` (the seats anyone may take while the game goes on)."""
    now = time.time() if now is None else now
    kept = []
    for row in rows:
        anyone_here = any(seat["connected"] for seat in row["seats"] if not seat["bot"])
        if not row["finished"] and not anyone_here and now - float(row["updated_at"]) > ABANDONED_AFTER_S:
            continue
        names = {seat["seat"]: seat["name"] for seat in row["seats"]}
        winners = row.get("winners")
        # A free seat: a person's seat no device has claimed yet, which anyone may take (a public table).
        free = [] if row["finished"] else [s["seat"] for s in row["seats"] if not s["bot"] and not s["claimed"]]
        named = None if winners is None else [names[seat] for seat in winners]
        kept.append({**row, "winner_names": named, "free_seats": free})
    return kept
