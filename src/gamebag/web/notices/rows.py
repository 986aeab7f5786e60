"""The notices room's tables: an account's e-mail address and settings, the notices waiting to go,
and the log of what was sent (declared on the web schema's base, registered in ``store/schema.py``).

Addresses are personal data: an account's export holds its row and its log, deleting the account
deletes both (registered in ``accounts.export_sections`` and ``deletion_steps`` by ``addresses.py``),
unsubscribing deletes the address. No log line ever names an address in full (``masked``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Integer, Select, String, delete, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, Session, mapped_column

from gamebag.web.store.base import Base


class MailAddressRow(Base):
    """An account's e-mail address for "your move" notices and how it wants them."""

    __tablename__ = "notice_addresses"

    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254))
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)  # the link sent to it was opened
    confirm_digest: Mapped[str | None] = mapped_column(String(64), nullable=True)  # SHA-256 of the confirm link's code
    unsubscribe_token: Mapped[str] = mapped_column(String(64), unique=True)  # in every mail's unsubscribe link
    mode: Mapped[str] = mapped_column(String(8), default="move")  # "move": one mail a move; "digest"
    digest_hours: Mapped[int] = mapped_column(Integer, default=24)
    quiet_start: Mapped[int | None] = mapped_column(Integer, nullable=True)  # local hour quiet hours begin
    quiet_end: Mapped[int | None] = mapped_column(Integer, nullable=True)  # local hour they end
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    link_base: Mapped[str] = mapped_column(String(200))  # the address links in mails start with
    created_at: Mapped[float] = mapped_column(Float)
    last_digest_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class NoticeDueRow(Base):
    """A seat whose move it became at ``step``: its notice goes at ``due_at`` if it is still their move."""

    __tablename__ = "notice_due"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"), index=True)
    step: Mapped[int] = mapped_column(Integer)
    due_at: Mapped[float] = mapped_column(Float, index=True)  # wall-clock seconds


class NoticeSentRow(Base):
    """One mail handed to the mailer: its kind ("confirm", "move", "digest") and, for a move, the table."""

    __tablename__ = "notice_sent"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    step: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the step it was their move at
    sent_at: Mapped[float] = mapped_column(Float)


def read_rows(connection: Connection, statement: Select[Any]) -> list[Any]:
    """The model objects a ``select(Model)`` finds, read in ``connection``'s transaction."""
    with Session(bind=connection) as session:
        return list(session.execute(statement).scalars())


def masked(address: str) -> str:
    """An address as logs may show it: the first letter and the domain (``a…@example.org``)."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}…@{domain}"


def export_notices(connection: Connection, account_id: str) -> dict[str, Any]:
    """The account's address, settings and sent log, for its data export."""
    found = read_rows(connection, select(MailAddressRow).where(MailAddressRow.account_id == account_id))
    row = found[0] if found else None
    sent = connection.execute(
        select(NoticeSentRow.kind, NoticeSentRow.table_id, NoticeSentRow.sent_at)
        .where(NoticeSentRow.account_id == account_id)
        .order_by(NoticeSentRow.id)
    ).all()
    address = None
    if row is not None:
        address = {
            "address": row.address,
            "confirmed": row.confirmed,
            "mode": row.mode,
            "digest_hours": row.digest_hours,
            "quiet_start": row.quiet_start,
            "quiet_end": row.quiet_end,
            "time_zone": row.time_zone,
            "created_at": row.created_at,
        }
    return {"address": address, "sent": [{"kind": k, "table": t, "sent_at": s} for k, t, s in sent]}


def delete_notices(connection: Connection, account_id: str) -> None:
    """Remove the account's address, waiting notices and sent log (the account is being deleted)."""
    for row in (NoticeDueRow, NoticeSentRow, MailAddressRow):
        connection.execute(delete(row).where(row.account_id == account_id))
