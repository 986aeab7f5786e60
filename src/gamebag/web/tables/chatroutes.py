"""The chat's HTTP routes: the host's settings and the chat of a table for its replay.

* ``POST /api/tables/{id}/chat/settings`` with ``X-Host-Token``: ``{"spectators": true|false}``
  turns the spectators' channel on or off; ``{"seat": n, "muted": true|false}`` mutes or unmutes a
  seat. The answer is the settings after the change. The host reads nothing more than anyone at the table.
* ``GET /api/tables/{id}/chat/settings`` with ``X-Host-Token``: the settings as they stand (the
  host page's switches), in the same shape as the answer above.
* ``GET /api/tables/{id}/chat``: the players' channel of a table, each line with its
  ``replay_step`` (the replay's step it was said at; at most ``MAX_LINES_PER_TABLE``
  lines, each at most ``MAX_CHARS`` characters: the answer's size is bounded), counted as a download.
  The spectators' channel is never in it.

Lines are sent over the table's socket (``ws.py``); these routes only read or set.
"""

from __future__ import annotations

import asyncio
import bisect
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gamebag.web.admission.bounds import BadJsonError, parse_json
from gamebag.web.admission.guard import RateLimits, client_address
from gamebag.web.store.chatstore import PLAYERS
from gamebag.web.tables.chat import MAX_LINES_PER_TABLE
from gamebag.web.words.text import N_, _

if TYPE_CHECKING:
    from gamebag.web.tables.live import LiveTable
    from gamebag.web.tables.manager import TableManager

router = APIRouter()

SETTINGS_SHAPE = N_('the body must be {"spectators": true|false} or {"seat": <seat number>, "muted": true|false}')


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


async def _table(request: Request, table_id: str) -> LiveTable:
    """The table, loaded off the event loop if need be (a load counts against the client's budget)."""
    manager = _manager(request)
    if not manager.is_loaded(table_id):
        rates: RateLimits = request.app.state.rates
        await rates.table_load(client_address(request.scope))
    return await manager.get_async(table_id)


@router.post("/api/tables/{table_id}/chat/settings", response_model=None)
async def chat_settings(request: Request, table_id: str) -> JSONResponse | dict[str, Any]:
    """The host turns spectators' chat on or off, or mutes or unmutes one seat."""
    manager = _manager(request)
    table = await _table(request, table_id)
    manager.check_host(table, request.headers.get("x-host-token"))
    try:
        data = parse_json(await request.body() or b"null")
    except BadJsonError:
        data = None
    if isinstance(data, dict) and set(data) == {"spectators"} and isinstance(data["spectators"], bool):
        settings = await manager.chat.change(table, spectators=data["spectators"])
    elif (
        isinstance(data, dict) and set(data) == {"seat", "muted"} and isinstance(data["muted"], bool)
        and isinstance(data["seat"], int) and not isinstance(data["seat"], bool)
    ):
        seat = data["seat"]
        if not 0 <= seat < len(table.seats):
            refusal = _("no seat {seat}: seats are 0 to {most}", seat=seat, most=len(table.seats) - 1)
            return JSONResponse({"error": refusal}, status_code=400)
        settings = await manager.chat.change(table, mute=(seat, data["muted"]))
    else:
        return JSONResponse({"error": _(SETTINGS_SHAPE)}, status_code=400)
    return {"spectators": settings.spectators, "muted": sorted(settings.muted)}


@router.get("/api/tables/{table_id}/chat/settings")
async def chat_settings_now(request: Request, table_id: str) -> dict[str, Any]:
    """The host reads the settings as they stand: whether spectators chat, and the muted seats."""
    manager = _manager(request)
    table = await _table(request, table_id)
    manager.check_host(table, request.headers.get("x-host-token"))
    settings = await asyncio.to_thread(manager.chat.store.settings, table.id)
    return {"spectators": settings.spectators, "muted": sorted(settings.muted)}


@router.get("/api/tables/{table_id}/chat")
async def chat_lines(request: Request, table_id: str) -> dict[str, Any]:
    """The players' chat of a table, oldest first, with the step each line was said at (for the replay)."""
    table = await _table(request, table_id)  # a download: counted by its cost class (admission/costs.py)
    manager = _manager(request)
    lines = await asyncio.to_thread(manager.chat.store.recent, table.id, (PLAYERS,), MAX_LINES_PER_TABLE)
    places = await asyncio.to_thread(replay_places, table, [line.step for line in lines])
    return {"lines": [{**line.to_json(), "replay_step": place} for line, place in zip(lines, places, strict=True)]}


def replay_places(table: LiveTable, steps: list[int]) -> list[int]:
    """Where lines said at these table steps (record events so far) fall in the replay, whose steps
    are the game's decisions (``LiveTable.step_views``): the first decision at or after each."""
    events = table.match.record.events
    decisions = [i for i in range(len(events) + 1) if i == len(events) or "moves" in events[i]]
    return [min(bisect.bisect_left(decisions, step), len(decisions) - 1) for step in steps]
