"""Which account owns which seat: the one link between people and tables."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from gamebag.web.people.schema import AccountRow, SeatOwnerRow


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
    connection.execute(
        delete(SeatOwnerRow).where(SeatOwnerRow.table_id == table_id, SeatOwnerRow.seat == seat)
    )
    if account_id is not None:
        connection.execute(insert(SeatOwnerRow).values(table_id=table_id, seat=seat, account_id=account_id))


def account_names(connection: Connection, account_ids: Iterable[str]) -> dict[str, str]:
    """The display names of the given accounts: id -> name (unknown ids left out)."""
    wanted = sorted(set(account_ids))
    if not wanted:
        return {}
    rows = connection.execute(select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(wanted)))
    return {str(account): str(name) for account, name in rows}
