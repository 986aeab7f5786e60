"""The account routes: sign up, sign in (password or recovery code), sign out, profile, export, delete.

Every database call runs on a thread (``requests.in_transaction``); password hashing too (argon2
releases the interpreter's lock). Sign-in, sign-up and recovery attempts count against the
client address's budget, and failed ones against the account's (``RateLimits.sign_in``,
``account_sign_in``), so guessing is slow from one address and from many.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from gamebag.web.admission.guard import client_address
from gamebag.web.people import (
    accounts,
    chatdeletion,  # noqa: F401  (its import registers the chat's deletion step)
    sessions,
)
from gamebag.web.people.accounts import Account
from gamebag.web.people.credentials import PasskeyRow
from gamebag.web.people.owners import SeatNames, rename_owned_seats
from gamebag.web.people.passwords import (
    check_password,
    needs_rehash,
    normalise_password,
    spend_verify_time,
    verify_password,
)
from gamebag.web.people.requests import PeopleRefusal, in_transaction, json_fields, manager_of, rates_of, signed_in
from gamebag.web.words.text import N_, _

ACCOUNT_TEXTS = {
    "wrong": N_("The name or the password is wrong."),
    "wrong_code": N_("The name or the recovery code is wrong (each code works once)."),
    "disabled": N_("This account is disabled; ask the operator of this server."),
    "confirm": N_("To delete your account, type your name exactly as it is shown."),
    "gone": N_("This account no longer exists."),
}

router = APIRouter()


def _profile(connection: Connection, account: Account) -> dict[str, Any]:
    passkeys = connection.execute(select(func.count()).where(PasskeyRow.account_id == account.id)).scalar()
    return {
        "id": account.id,
        "name": account.name,
        "created_at": account.created_at,
        "has_password": accounts.password_hash(connection, account.id) is not None,
        "passkeys": int(passkeys or 0),
        "recovery_codes_left": accounts.recovery_codes_left(connection, account.id),
    }


async def signed_in_answer(request: Request, account: Account, extra: dict[str, Any] | None = None) -> JSONResponse:
    """Start a new session for ``account`` (the browser's old one deleted), set its cookie, and
    answer with the profile and the session's CSRF token."""
    if account.disabled:
        raise PeopleRefusal(403, _(ACCOUNT_TEXTS["disabled"]))
    old = sessions.session_cookie(request)

    def start(connection: Connection) -> tuple[str, str, dict[str, Any]]:
        session_id, csrf = sessions.start_session(connection, account.id, replacing=old)
        return session_id, csrf, _profile(connection, account)

    session_id, csrf, profile = await in_transaction(request, start)
    response = JSONResponse({"account": profile, "csrf": csrf, **(extra or {})})
    sessions.set_session_cookie(response, request, session_id)
    return response


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    """Who is signed in on this browser (``account`` null for a guest) and the session's CSRF token."""
    account_id = getattr(request.state, "account_id", None)
    if not account_id:
        return {"account": None, "csrf": None}

    def read(connection: Connection) -> dict[str, Any] | None:
        account = accounts.account_by_id(connection, account_id)
        return None if account is None else _profile(connection, account)

    return {"account": await in_transaction(request, read), "csrf": request.state.csrf}


@router.post("/api/account/signup")
async def sign_up(request: Request) -> JSONResponse:
    """A new account: ``{"name", "password"}`` (the password may be left out to use a passkey); the
    answer holds its recovery codes, shown this once."""
    data = await json_fields(request, ("name",), ("password",))
    await rates_of(request).sign_in(client_address(request.scope))
    created = await in_transaction(request, lambda c: accounts.create_account(c, data["name"], data.get("password")))
    account, codes = created
    response = await signed_in_answer(request, account, {"recovery_codes": codes})
    response.status_code = 201
    return response


@router.post("/api/account/signin")
async def sign_in(request: Request) -> JSONResponse:
    """Sign in with ``{"name", "password"}``."""
    data = await json_fields(request, ("name", "password"))
    password = data["password"] if isinstance(data["password"], str) else ""
    rates = rates_of(request)
    await rates.sign_in(client_address(request.scope))

    def find(connection: Connection) -> tuple[Account | None, str | None]:
        account = accounts.account_by_name(connection, data["name"])
        return account, None if account is None else accounts.password_hash(connection, account.id)

    account, stored = await in_transaction(request, find)
    if account is not None:
        await rates.account_sign_in(account.id)
    if account is None or stored is None:
        await asyncio.to_thread(spend_verify_time, password)  # the same time as a wrong password
        ok = False
    else:
        ok = await asyncio.to_thread(verify_password, stored, password)
    if account is None or not ok:
        if account is not None:
            await rates.account_sign_in(account.id, failed=True)
        raise PeopleRefusal(401, _(ACCOUNT_TEXTS["wrong"]))
    if stored is not None and needs_rehash(stored):  # today's parameters, from now on
        normalised = normalise_password(password)
        await in_transaction(request, lambda c: accounts.set_password(c, account.id, normalised))
    return await signed_in_answer(request, account)


@router.post("/api/account/recover")
async def recover(request: Request) -> JSONResponse:
    """Sign in with ``{"name", "code"}``, one of the account's recovery codes (it is spent)."""
    data = await json_fields(request, ("name", "code"))
    rates = rates_of(request)
    await rates.sign_in(client_address(request.scope))
    code = data["code"] if isinstance(data["code"], str) and len(data["code"]) <= 64 else ""

    def spend(connection: Connection) -> tuple[Account | None, bool]:
        account = accounts.account_by_name(connection, data["name"])
        return account, account is not None and accounts.use_recovery_code(connection, account.id, code)

    account, ok = await in_transaction(request, spend)
    if account is not None:
        await rates.account_sign_in(account.id, failed=not ok)
    if account is None or not ok:
        raise PeopleRefusal(401, _(ACCOUNT_TEXTS["wrong_code"]))
    return await signed_in_answer(request, account)


@router.post("/api/account/signout")
async def sign_out(request: Request) -> JSONResponse:
    """End this browser's session."""
    signed_in(request)
    session_id = sessions.session_cookie(request)
    if session_id:
        await in_transaction(request, lambda c: sessions.end_session(c, session_id))
    response = JSONResponse({"account": None})
    sessions.clear_session_cookie(response, request)
    return response


@router.post("/api/me/name")
async def change_name(request: Request) -> dict[str, Any]:
    """Rename yourself: ``{"name"}`` (the same rules as at sign-up). Your seats, at every table, show
    the new name: renaming counts against the address's sign-in rate, as the name's other changes do."""
    account_id = signed_in(request)
    data = await json_fields(request, ("name",))
    await rates_of(request).sign_in(client_address(request.scope))
    manager = manager_of(request)

    def change(connection: Connection) -> tuple[str, SeatNames]:
        shown = accounts.rename(connection, account_id, data["name"])
        renamed = rename_owned_seats(connection, account_id, shown)
        for table_id in renamed:
            manager.store.announce(connection, table_id, -1, "seats")  # other processes reload the names
        return shown, renamed

    shown, renamed = await in_transaction(request, change)
    for table_id, names in renamed.items():
        manager.rename_seats(table_id, names)
    return {"name": shown}


@router.post("/api/me/password")
async def change_password(request: Request) -> dict[str, Any]:
    """Set or change your password: ``{"password"}``."""
    account_id = signed_in(request)
    data = await json_fields(request, ("password",))

    def store(connection: Connection) -> None:
        account = accounts.account_by_id(connection, account_id)
        if account is None:
            raise PeopleRefusal(404, _(ACCOUNT_TEXTS["gone"]))
        accounts.set_password(connection, account_id, check_password(data["password"], account.name))

    await in_transaction(request, store)
    return {"has_password": True}


@router.post("/api/me/recovery-codes")
async def renew_recovery_codes(request: Request) -> dict[str, Any]:
    """New recovery codes (the old ones stop working), shown this once."""
    account_id = signed_in(request)
    return {"recovery_codes": await in_transaction(request, lambda c: accounts.new_recovery_codes(c, account_id))}


def _record_loader(request: Request) -> Any:
    store = manager_of(request).store

    def load(table_id: str) -> dict[str, Any] | None:
        # What the public record of a finished game holds, no more: never the seed, which would
        # tell draws nobody saw (cards left in a deck).
        stored = store.load(table_id)
        if stored is None:
            return None
        config = stored.config
        return {
            "table": config.id,
            "game": config.game,
            "players": config.players,
            "options": config.options,
            "created_at": config.created_at,
            "seats": [{"seat": s.seat, "name": s.name, "agent": s.agent} for s in config.seats],
            "events": stored.events,
        }

    return load


@router.get("/api/me/export")
async def export(request: Request) -> Response:
    """Everything this server keeps about you, as a JSON download."""
    account_id = signed_in(request)  # a download: counted by its cost class (admission/costs.py)
    loader = _record_loader(request)
    data = await in_transaction(request, lambda c: accounts.export_account(c, account_id, loader))
    body = await asyncio.to_thread(lambda: json.dumps(data, ensure_ascii=False, indent=1).encode())
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="gamebag-account.json"'},
    )


@router.post("/api/me/delete")
async def delete(request: Request) -> JSONResponse:
    """Delete your account and its personal data: ``{"name"}``, your name typed as a confirmation."""
    account_id = signed_in(request)
    data = await json_fields(request, ("name",))

    manager = manager_of(request)

    def remove(connection: Connection) -> SeatNames:
        account = accounts.account_by_id(connection, account_id)
        if account is None:
            raise PeopleRefusal(404, _(ACCOUNT_TEXTS["gone"]))
        if data["name"] != account.name:
            raise PeopleRefusal(400, _(ACCOUNT_TEXTS["confirm"]))
        renamed = accounts.delete_account(connection, account_id)
        for table_id in renamed:
            manager.store.announce(connection, table_id, -1, "seats")  # other processes reload the names
        return renamed

    for table_id, names in (await in_transaction(request, remove)).items():
        manager.rename_seats(table_id, names)  # the anonymous names, at once on this process's live tables
    response = JSONResponse({"deleted": True})
    sessions.clear_session_cookie(response, request)
    return response
