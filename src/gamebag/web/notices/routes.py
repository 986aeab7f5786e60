"""The notices room's HTTP routes (included by ``app.py``): the "your move" list and e-mail settings.

``POST /api/yourmove`` answers, for the seats a browser holds (guests: the seat tokens it posts)
and the signed-in account's seats, the open tables where that seat must act now: whose move it
is, public at every table, read from the tables in memory (a table not in memory is loaded off
the loop, counted as a table page's load is); at most ``homepage.OPEN_LIMIT`` tables, each request
counted against its own cost class (``your-move``, ``Limits.your_move_lists_per_minute``: pages poll it, so it spares
the lobby's). E-mail routes are for signed-in people; without ``--smtp`` they
say e-mail is not available and change nothing. Every database call runs in a thread.
"""

from __future__ import annotations

import asyncio
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from sqlalchemy import select
from sqlalchemy.engine import Engine

from gamebag.web.admission.bounds import BadJsonError, LobbyError, parse_json
from gamebag.web.admission.guard import RateLimited, RateLimits, client_address
from gamebag.web.notices.addresses import (
    NoticeError,
    address_row,
    change_settings,
    check_address,
    confirm,
    forget_address,
    give_address,
    public_settings,
    unsubscribe,
)
from gamebag.web.notices.rounds import NoticeService, confirm_mail, game_title
from gamebag.web.people.homepage import OPEN_LIMIT, Mine, my_seats, parse_home
from gamebag.web.people.whoami import account_of
from gamebag.web.store.db import TableRow
from gamebag.web.tables.manager import TableManager
from gamebag.web.words.pages import page
from gamebag.web.words.text import N_, _

STATIC_DIR = Path(str(resources.files("gamebag.web").joinpath("static")))
POLL_SECONDS = 20  # how often a page asks again (the widget's bound; the lobby rate bounds the rest)

TEXT = {
    "json": N_("the request body must be JSON"),
    "sign_in": N_("sign in to get e-mail notices (guests get the list and browser notices)"),
    "no_mail": N_("e-mail is not available on this server: its operator has not set up a mail server"),
    "address_body": N_('the body must be {"address": "name@example.org"} or {"address": null} to stop e-mails'),
    "code": N_('the body must be {"code": "<the code after #confirm= in the link>"}'),
    "token": N_("the unsubscribe link is not complete; open the link from the e-mail again"),
    "busy": N_("the confirmation e-mail could not be queued just now; try again in a minute"),
}

router = APIRouter()


class SignInNeeded(NoticeError):
    """A guest asked for an e-mail route."""


def register(app: FastAPI) -> None:
    """The routes, and their refusals as one JSON line (401 for a guest, 400 for bad input)."""
    app.include_router(router)

    @app.exception_handler(NoticeError)
    async def _refused(_request: Request, error: NoticeError) -> JSONResponse:
        return _error(401 if isinstance(error, SignInNeeded) else 400, str(error))


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _service(request: Request) -> NoticeService | None:
    service: NoticeService | None = request.app.state.notices
    return service


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


async def _body(request: Request) -> Any:
    try:
        return parse_json(await request.body() or b"null")
    except BadJsonError:
        raise LobbyError(_(TEXT["json"])) from None


def open_tables(engine: Engine, mine: Mine) -> list[tuple[str, str]]:
    """(id, game) of the asker's open, unfinished tables, newest first, ``OPEN_LIMIT`` at most."""
    if not mine:
        return []
    with engine.connect() as connection:
        rows = connection.execute(
            select(TableRow.id, TableRow.game)
            .where(TableRow.id.in_(sorted(mine)), TableRow.closed.is_(None), TableRow.finished.is_(False))
            .order_by(TableRow.created_at.desc())
            .limit(OPEN_LIMIT)
        ).all()
    return [(str(table_id), str(game)) for table_id, game in rows]


@router.post("/api/yourmove")
async def your_move(request: Request) -> dict[str, Any]:
    """Every open table where it is the asker's move now: game, seat and the link to it."""
    rates: RateLimits = request.app.state.rates
    address = client_address(request.scope)
    data = await _body(request)
    wanted = parse_home({"seats": data.get("seats", [])} if isinstance(data, dict) and set(data) <= {"seats"} else data)
    manager = _manager(request)
    engine = manager.store.engine
    mine = await asyncio.to_thread(my_seats, engine, wanted.tokens, account_of(request))
    found = []
    for table_id, game in await asyncio.to_thread(open_tables, engine, mine):
        try:
            if not manager.is_loaded(table_id):
                await rates.table_load(address)  # each load counts, as a table page's does
            table = await manager.get_async(table_id)
        except (LookupError, RateLimited):
            continue  # closed meanwhile, or over this address's loads: asked again at the next poll
        seat = mine[table_id]
        if not table.is_over and seat in table.waiting_for():
            found.append(
                {"id": table_id, "game": game, "title": game_title(game), "seat": seat, "play": f"/play/{table_id}"}
            )
    return {"tables": found, "poll_seconds": POLL_SECONDS}


# ---- e-mail ---------------------------------------------------------------------------------------
def _link_base(request: Request) -> str:
    base: str | None = request.app.state.invite_base
    return base or str(request.base_url).rstrip("/")


def _signed_in(request: Request) -> str:
    account = account_of(request)
    if account is None:
        raise SignInNeeded(_(TEXT["sign_in"]))
    return account


@router.get("/api/notices/email")
async def email_settings(request: Request) -> dict[str, Any]:
    """The signed-in person's address and settings, and whether this server can send e-mail at all."""
    account = _signed_in(request)

    def read() -> dict[str, Any]:
        with _manager(request).store.engine.connect() as connection:
            return public_settings(address_row(connection, account), _service(request) is not None)

    return await asyncio.to_thread(read)


@router.post("/api/notices/email", response_model=None)
async def give_email(request: Request) -> dict[str, Any] | JSONResponse:
    """Give an address (a confirmation link is mailed to it first) or take it back (``null``)."""
    account = _signed_in(request)
    data = await _body(request)
    if not isinstance(data, dict) or set(data) != {"address"}:
        raise NoticeError(_(TEXT["address_body"]))
    engine = _manager(request).store.engine
    if data["address"] is None:

        def forget() -> None:
            with engine.begin() as connection:
                forget_address(connection, account)

        await asyncio.to_thread(forget)
        return {"address": None}
    service = _service(request)
    if service is None:
        return _error(409, _(TEXT["no_mail"]))
    address = check_address(data["address"])
    base = _link_base(request)
    clock = service.timing.clock

    def give() -> str:
        with engine.begin() as connection:
            return give_address(connection, account, address, base, clock())

    code = await asyncio.to_thread(give)
    if not service.send_confirmation(confirm_mail(address, base, code)):
        return _error(503, _(TEXT["busy"]))
    return {"address": address, "confirmed": False}


@router.post("/api/notices/settings")
async def email_settings_change(request: Request) -> dict[str, Any]:
    """Per move or a digest every N hours, quiet hours and their time zone."""
    account = _signed_in(request)
    data = await _body(request)

    def change() -> dict[str, Any]:
        with _manager(request).store.engine.begin() as connection:
            return change_settings(connection, account, data).__dict__

    return await asyncio.to_thread(change)


@router.post("/api/notices/confirm")
async def confirm_email(request: Request) -> dict[str, Any]:
    """The link mailed to an address was opened: notices may go there now."""
    data = await _body(request)
    if not isinstance(data, dict) or set(data) != {"code"} or not isinstance(data["code"], str):
        raise NoticeError(_(TEXT["code"]))
    code = data["code"][:128]

    def run() -> str:
        with _manager(request).store.engine.begin() as connection:
            return confirm(connection, code)

    await asyncio.to_thread(run)
    return {"confirmed": True}


@router.post("/api/notices/unsubscribe")
async def unsubscribe_email(request: Request) -> dict[str, Any]:
    """One click: the address of this link's token gets no more mail (RFC 8058's POST, or the page's)."""
    token = request.query_params.get("token")
    if token is None:
        data = await _body(request)
        token = data.get("token") if isinstance(data, dict) and set(data) == {"token"} else None
    if not isinstance(token, str) or not token:
        raise NoticeError(_(TEXT["token"]))
    given = token

    def run() -> None:
        with _manager(request).store.engine.begin() as connection:
            unsubscribe(connection, given)

    await asyncio.to_thread(run)
    return {"unsubscribed": True}


@router.get("/api/notices/unsubscribe", include_in_schema=False)
async def unsubscribe_link(request: Request) -> RedirectResponse:
    """A mail program that opens the List-Unsubscribe address instead of posting to it: the page's button."""
    token = request.query_params.get("token", "")[:64]
    return RedirectResponse(f"/notices#unsubscribe={quote(token)}", status_code=303)


@router.get("/notices", include_in_schema=False)
async def notices_page() -> HTMLResponse:
    return await page("notices.html")
