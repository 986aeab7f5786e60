"""What the people routes share: the server's parts (tables, rates, database), database work off
the event loop, JSON bodies, the signed-in account (``signed_in``: one way to read it everywhere).

Refusals are ``PeopleRefusal`` (a status and one sentence in players' words), answered as
``{"error": ...}`` by the routes' ``refusal_response``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine
from starlette.requests import Request
from starlette.responses import JSONResponse

from gamebag.web.admission.bounds import BadJsonError, parse_json
from gamebag.web.admission.guard import RateLimits, client_address
from gamebag.web.people.sessions import CSRF_REFUSED
from gamebag.web.people.whoami import account_of
from gamebag.web.tables.live import LiveTable
from gamebag.web.tables.manager import TableManager
from gamebag.web.words.text import N_, _

_Result = TypeVar("_Result")

REQUEST_TEXTS = {
    "sign_in_first": N_("Sign in first; this needs your account."),
    "body": N_("The request body must be a JSON object with the fields {fields}."),
}


class PeopleRefusal(Exception):
    """A request the people routes refuse: ``status`` and the sentence that says why."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


def refusal_response(refusal: PeopleRefusal) -> JSONResponse:
    return JSONResponse({"error": str(refusal)}, status_code=refusal.status)


def manager_of(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def rates_of(request: Request) -> RateLimits:
    """The server's rate limits: every route charges the asker's address (or account) here."""
    rates: RateLimits = request.app.state.rates
    return rates


def engine_of(request: Request) -> Engine:
    return manager_of(request).store.engine


async def table_of(request: Request, table_id: str) -> LiveTable:
    """A table by id; loading one from the database counts against the address's rate, as a table page does."""
    manager = manager_of(request)
    if not manager.is_loaded(table_id):
        await rates_of(request).table_load(client_address(request.scope))
    return await manager.get_async(table_id)


async def in_transaction(request: Request, work: Callable[[Connection], _Result]) -> _Result:
    """``work(connection)`` in one transaction, on a thread: database work never runs on the loop."""
    engine = engine_of(request)

    def run() -> _Result:
        with engine.begin() as connection:
            return work(connection)

    return await asyncio.to_thread(run)


def signed_in(request: Request) -> str:
    """The signed-in account, or a refusal: 403 when the cookie is there but the CSRF token is not
    (a changing request), 401 for a guest."""
    account = account_of(request)
    if account is not None:
        return account
    if getattr(request.state, "csrf", None):
        raise PeopleRefusal(403, _(CSRF_REFUSED))
    raise PeopleRefusal(401, _(REQUEST_TEXTS["sign_in_first"]))


async def json_fields(request: Request, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """The body's JSON object with exactly these fields (the optional ones may be missing)."""
    try:
        data = parse_json(await request.body() or b"null")
    except BadJsonError:
        data = None
    allowed = set(required) | set(optional)
    if not isinstance(data, dict) or not set(required) <= set(data) <= allowed:
        fields = ", ".join(f'"{name}"' for name in (*required, *optional))
        raise PeopleRefusal(400, _(REQUEST_TEXTS["body"], fields=fields))
    return data
