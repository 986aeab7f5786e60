"""One-time invite claims: an invite link gives its seat to the first device that opens it.

A person's seat starts with an *invite code* (``SeatConfig.claimed`` False) instead of a
token. The invite link carries the code (``/play/{id}#invite=CODE``); the first device to
open it claims the seat: the seat gets a fresh token that only that device is told, and the
code stops working, so neither the link nor the host's copy of it gives the seat any more.
The host can re-issue a seat's invite (a new code; the claimed token stops working and the
seat's sockets are told they were moved), but never learns a claimed seat's token.

The claim is one conditional UPDATE, so of two devices (on one process or two processes of a
cluster) opening the same link at once exactly one gets the seat.
"""

from __future__ import annotations

import secrets

from sqlalchemy import update

from gamebag.web.store.db import SeatRow, Store
from gamebag.web.words.text import N_

# What a seat's sockets are told when the host re-issues its invite (``code`` "moved").
MOVED_TEXT = N_("the host re-issued this seat's invite: this device no longer holds the seat")
# Who opened a rematch when the host did (the ``rematch`` message's ``by``, made per reader).
BY_HOST = N_("the host")
USED_TEXT = N_("this invite link was already used (or re-issued by the host); ask the host for a new link")


def invite_path(table_id: str, code: str) -> str:
    """The path of a seat's invite link (the code after ``#``: browsers never send it)."""
    return f"/play/{table_id}#invite={code}"


def new_secret() -> str:
    """A fresh seat token or invite code."""
    return secrets.token_urlsafe(24)


def claim_seat(store: Store, table_id: str, code: str, token: str, name: str | None = None) -> int | None:
    """The seat whose unclaimed invite code is ``code`` takes ``token`` (and, for a signed-in
    claimer, ``name``: the account's): its number, or None when no seat of the table has that
    code unclaimed. Database work: call it in a thread."""
    query = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.token == code)
    query = query.where(SeatRow.claimed.is_(False), SeatRow.agent.is_(None))
    values: dict[str, object] = {"token": token, "claimed": True}
    if name is not None:
        values["name"] = name
    with store.engine.begin() as connection:
        seat = connection.execute(query.values(**values).returning(SeatRow.seat)).scalar()
        if seat is not None:
            store.announce(connection, table_id, -1, "seats")  # the other processes reload the seats
        return None if seat is None else int(seat)
