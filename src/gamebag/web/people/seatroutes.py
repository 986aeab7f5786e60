"""Seats that follow people: your seats on every device, a guest's seat moved into an account,
a friend invited by name, and the claim of an invite by a signed-in person.

* ``GET /api/me/seats``: every seat you own, with its own token (to you only, over your
  session), so any device you sign in on opens it; a seat a host kept for you comes with its
  invite instead, which your device claims.
* ``POST /api/me/seats/adopt``: a guest who played a seat signs in (or up) and proves the
  seat's token: the seat becomes the account's.
* ``POST /api/tables/{id}/seats/{seat}/invite-account``: the host (host token) keeps an
  unclaimed seat for a signed-in friend, named by their display name: the seat's invite then
  shows among the friend's seats, and only that account can claim it. The host still never
  sees a claimed seat's token.
* Claiming an invite while signed in makes the seat yours (``own_claimed``); a host re-issuing
  a seat's invite takes the seat from its owner too (``release_owner``).

A seat's token gives exactly what it gave before; an account only finds its own seats' tokens,
so a signed-in person cannot act for a seat that is not theirs.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import select
from sqlalchemy.engine import Connection

from gamebag.web.lobby import person_seat_name
from gamebag.web.people import accounts
from gamebag.web.people.owners import account_names, name_seat, owners_of_table, set_owner
from gamebag.web.people.requests import PeopleRefusal, in_transaction, json_fields, manager_of, signed_in, table_of
from gamebag.web.people.schema import SeatOwnerRow
from gamebag.web.people.whoami import account_of
from gamebag.web.store.db import SeatRow, TableRow
from gamebag.web.tables.claims import invite_path
from gamebag.web.tables.live import LiveTable
from gamebag.web.words.text import N_, _

SEAT_TEXTS = {
    "reserved": N_("The host kept this seat for someone's account; sign in as that person to take it."),
    "no_seat": N_("No seat of this table has this token; open the seat on the device that played it."),
    "owned": N_("This seat already belongs to another account."),
    "no_account": N_("No account has this name; check how your friend writes it."),
    "claimed": N_("This seat is already claimed; give it a new link first to keep it for someone else."),
    "bot": N_("A bot plays this seat."),
    "range": N_("There is no seat with this number at this table."),
}

router = APIRouter()


def _seats_of(connection: Connection, account_id: str) -> list[dict[str, Any]]:
    rows = connection.execute(
        select(
            SeatRow.table_id,
            SeatRow.seat,
            SeatRow.name,
            SeatRow.token,
            SeatRow.claimed,
            SeatRow.agent,
            TableRow.game,
            TableRow.created_at,
            TableRow.finished,
            TableRow.closed,
        )
        .join(SeatOwnerRow, (SeatOwnerRow.table_id == SeatRow.table_id) & (SeatOwnerRow.seat == SeatRow.seat))
        .join(TableRow, TableRow.id == SeatRow.table_id)
        .where(SeatOwnerRow.account_id == account_id, SeatRow.agent.is_(None))
        .order_by(TableRow.created_at.desc())
    )
    seats = []
    for row in rows:
        item: dict[str, Any] = {
            "table": row.table_id,
            "seat": int(row.seat),
            "name": row.name,
            "game": row.game,
            "created_at": row.created_at,
            "finished": bool(row.finished),
            "closed": row.closed,
            "play": f"/play/{row.table_id}",
        }
        if row.claimed is False:  # kept for this account by the host: its invite, to claim
            item["invite"] = invite_path(row.table_id, row.token)
        else:
            item["token"] = row.token
        seats.append(item)
    return seats


@router.get("/api/me/seats")
async def my_seats(request: Request) -> dict[str, Any]:
    """Your seats at every table, newest first, each with its token (or the invite kept for you)."""
    account_id = signed_in(request)
    return {"seats": await in_transaction(request, lambda c: _seats_of(c, account_id))}


@router.post("/api/me/seats/adopt")
async def adopt_seat(request: Request) -> dict[str, Any]:
    """Move a seat you played as a guest into your account: ``{"table", "token"}`` (the seat's token)."""
    account_id = signed_in(request)
    data = await json_fields(request, ("table", "token"))
    table_id, token = data["table"], data["token"]
    if not isinstance(table_id, str) or not isinstance(token, str) or len(table_id) > 32 or len(token) > 64:
        raise PeopleRefusal(404, _(SEAT_TEXTS["no_seat"]))

    manager = manager_of(request)

    def adopt(connection: Connection) -> tuple[int, str | None]:
        row = connection.execute(
            select(SeatRow.seat, SeatRow.token).where(
                SeatRow.table_id == table_id,
                SeatRow.token == token,
                SeatRow.claimed.is_not(False),
                SeatRow.agent.is_(None),
            )
        ).first()
        if row is None or not secrets.compare_digest(str(row.token).encode(), token.encode()):
            raise PeopleRefusal(404, _(SEAT_TEXTS["no_seat"]))
        owner = owners_of_table(connection, table_id).get(int(row.seat))
        if owner is not None and owner != account_id:
            raise PeopleRefusal(409, _(SEAT_TEXTS["owned"]))
        set_owner(connection, table_id, int(row.seat), account_id)
        name = account_names(connection, [account_id]).get(account_id)
        if name is not None:  # the seat shows the account's name from now on, on every process
            name_seat(connection, table_id, int(row.seat), name)
            manager.store.announce(connection, table_id, -1, "seats")
        return int(row.seat), name

    seat, name = await in_transaction(request, adopt)
    if name is not None:
        manager.rename_seats(table_id, {seat: name})
    return {"table": table_id, "seat": seat}


@router.post("/api/tables/{table_id}/seats/{seat}/invite-account")
async def invite_account(request: Request, table_id: str, seat: int) -> dict[str, Any]:
    """For the host (``X-Host-Token``): keep an unclaimed seat for a friend's account, ``{"name"}``."""
    manager = manager_of(request)
    table = await table_of(request, table_id)
    manager.check_host(table, request.headers.get("x-host-token"))
    data = await json_fields(request, ("name",))
    if not 0 <= seat < len(table.seats):
        raise PeopleRefusal(400, _(SEAT_TEXTS["range"]))
    if table.seats[seat].agent is not None:
        raise PeopleRefusal(409, _(SEAT_TEXTS["bot"]))
    if table.seats[seat].claimed:
        raise PeopleRefusal(409, _(SEAT_TEXTS["claimed"]))

    def keep(connection: Connection) -> str:
        friend = accounts.account_by_name(connection, data["name"])
        if friend is None or friend.disabled:
            raise PeopleRefusal(404, _(SEAT_TEXTS["no_account"]))
        set_owner(connection, table.id, seat, friend.id)
        return friend.name

    return {"seat": seat, "account": await in_transaction(request, keep)}


def _invited_seat(table: LiveTable, code: str) -> int | None:
    for seat in table.seats:
        if not seat.claimed and seat.agent is None and secrets.compare_digest(seat.token.encode(), code.encode()):
            return seat.seat
    return None


async def check_reserved(request: Request, table: LiveTable, code: str) -> str | None:
    """Before an invite is claimed: a seat the host kept for an account is claimed by that account
    only. The answer: the signed-in claimer's account name, which the seat takes (None: a guest)."""
    seat = _invited_seat(table, code)
    account_id = account_of(request)

    def read(connection: Connection) -> tuple[str | None, str | None]:
        owner = None if seat is None else owners_of_table(connection, table.id).get(seat)
        names = account_names(connection, [] if account_id is None else [account_id])
        return owner, names.get(account_id or "")

    if seat is None and account_id is None:
        return None  # a guest with a used code: the claim itself says the invite is used
    owner, name = await in_transaction(request, read)
    if owner is not None and owner != account_id:
        raise PeopleRefusal(403, _(SEAT_TEXTS["reserved"]))
    return name


async def own_claimed(request: Request, table_id: str, seat: int) -> None:
    """After a claim: the seat is the signed-in claimer's (a guest's claim changes nothing)."""
    account_id = account_of(request)
    if account_id is not None:
        await in_transaction(request, lambda c: set_owner(c, table_id, seat, account_id))


async def release_owner(request: Request, table_id: str, seat: int) -> None:
    """The host re-issued the seat's invite: it belongs to nobody until claimed again, and a seat
    an account held no longer shows that account's name (another person may take it now)."""
    manager = manager_of(request)

    def release(connection: Connection) -> str | None:
        if owners_of_table(connection, table_id).get(seat) is None:
            return None
        set_owner(connection, table_id, seat, None)
        name = person_seat_name(seat)
        name_seat(connection, table_id, seat, name)
        manager.store.announce(connection, table_id, -1, "seats")
        return name

    name = await in_transaction(request, release)
    if name is not None:
        manager.rename_seats(table_id, {seat: name})


async def kept_for(request: Request, table: LiveTable) -> dict[int, str]:
    """For the host page: the unclaimed seats kept for an account, seat -> the account's name."""

    def read(connection: Connection) -> dict[int, str]:
        owners = owners_of_table(connection, table.id)
        waiting = {seat: owner for seat, owner in owners.items() if not table.seats[seat].claimed}
        names = account_names(connection, waiting.values())
        return {seat: names[owner] for seat, owner in waiting.items() if owner in names}

    return await in_transaction(request, read)
