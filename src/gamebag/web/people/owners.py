"""Which account owns which seat: the one link between people and tables.

A seat that becomes an account's (claimed or taken while signed in, or adopted) takes the
account's name in ``web_seats`` itself, so the table, the lobby, home pages, records and every
process of a cluster show it with no lookup; a renamed account's seats take the new name; when
the account is deleted (or the host re-issues a seat's invite) the seat takes the anonymous name
a seat nobody named has (``lobby.person_seat_name``). The callers tell the
live tables (``TableManager.rename_seats``) and, on PostgreSQL, the other processes (``"seats"``).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from gamebag.web.lobby import person_seat_name
from gamebag.web.people.schema import AccountRow, SeatOwnerRow
from gamebag.web.store.db import SeatRow

SeatNames = dict[str, dict[int, str]]  # table id -> seat -> the name it now has


def owners_of_table(connection: Connection, table_id: str) -> dict[int, str]:
    """The accounts owning seats of one table: seat -> account id (seats without an owner left out)."""
    rows = connection.execute(
        select(SeatOwnerRow.seat, SeatOwnerRow.account_id).where(SeatOwnerRow.table_id == table_id)
    )
    return {int(seat): str(account) for seat, account in rows}


def seats_of_account(connection: Connection, account_id: str) -> list[tuple[str, int]]:
    """Every (table id, seat) an account owns, in no particular order."""
    rows = connection.execute(
        select(SeatOwnerRow.table_id, SeatOwnerRow.seat).where(SeatOwnerRow.account_id == account_id)
    )
    return [(str(table), int(seat)) for table, seat in rows]


def set_owner(connection: Connection, table_id: str, seat: int, account_id: str | None) -> None:
    """Give a seat to an account (``None``: to nobody), replacing any earlier owner."""
    connection.execute(delete(SeatOwnerRow).where(SeatOwnerRow.table_id == table_id, SeatOwnerRow.seat == seat))
    if account_id is not None:
        connection.execute(insert(SeatOwnerRow).values(table_id=table_id, seat=seat, account_id=account_id))


def account_names(connection: Connection, account_ids: Iterable[str]) -> dict[str, str]:
    """The display names of the given accounts: id -> name (unknown ids left out)."""
    wanted = sorted(set(account_ids))
    if not wanted:
        return {}
    rows = connection.execute(select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(wanted)))
    return {str(account): str(name) for account, name in rows}


def name_seat(connection: Connection, table_id: str, seat: int, name: str) -> None:
    """A seat taken into an account shows the account's name."""
    connection.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(name=name))


def anonymise_seats(connection: Connection, account_id: str) -> SeatNames:
    """Before an account is deleted: its seats take the anonymous name (what changed is returned)."""
    renamed: SeatNames = {}
    for table_id, seat in seats_of_account(connection, account_id):
        name = person_seat_name(seat)
        name_seat(connection, table_id, seat, name)
        renamed.setdefault(table_id, {})[seat] = name
    return renamed


def rename_owned_seats(connection: Connection, account_id: str, name: str) -> SeatNames:
    """An account renamed: every seat it owns shows the new name (what changed is returned)."""
    renamed: SeatNames = {}
    for table_id, seat in seats_of_account(connection, account_id):
        name_seat(connection, table_id, seat, name)
        renamed.setdefault(table_id, {})[seat] = name
    return renamed
