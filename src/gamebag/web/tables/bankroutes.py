"""The time banks' HTTP route: a seat marks or ends its vacation.

``POST /api/tables/{id}/vacation`` with the seat's token in ``X-Seat-Token`` and the body
``{"on": true|false}``: the seat's bank pauses (while the host's allowance lasts) or runs again.
The answer is the seat's bank as every reader sees it (``turnclock.SeatBank.public``); everyone at
the table is sent the change. Only a seat changes its own vacation; the host cannot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gamebag.web.admission.bounds import BadJsonError, parse_json
from gamebag.web.admission.guard import RateLimits, client_address
from gamebag.web.words.text import N_, _

if TYPE_CHECKING:
    from gamebag.web.tables.manager import TableManager

router = APIRouter()

VACATION_SHAPE = N_('the body must be {"on": true} to start a vacation or {"on": false} to end it.')
TOKEN_NEEDED = N_("this needs your seat's token (in the X-Seat-Token header).")


@router.post("/api/tables/{table_id}/vacation", response_model=None)
async def vacation(request: Request, table_id: str) -> JSONResponse | dict[str, Any]:
    """A seat marks (``on``) or ends its vacation."""
    manager: TableManager = request.app.state.manager
    if not manager.is_loaded(table_id):
        rates: RateLimits = request.app.state.rates
        await rates.table_load(client_address(request.scope))
    table = await manager.get_async(table_id)
    token = request.headers.get("x-seat-token")
    if not token:
        return JSONResponse({"error": _(TOKEN_NEEDED)}, status_code=403)
    seat = table.seat_of_token(token)
    try:
        data = parse_json(await request.body() or b"null")
    except BadJsonError:
        data = None
    if not isinstance(data, dict) or set(data) != {"on"} or not isinstance(data["on"], bool):
        return JSONResponse({"error": _(VACATION_SHAPE)}, status_code=400)
    return await manager.set_vacation(table, seat, data["on"])
