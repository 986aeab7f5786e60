"""The people tables: accounts and the seats they own (declared on the web schema's base).

Added columns must be nullable or have a default, so that rows written by older code stay valid.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from gamebag.web.store.base import Base


class AccountRow(Base):
    """A person's account: a lasting display name (``name``) and its look-alike key (``name_key``)."""

    __tablename__ = "people_accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)  # as shown (NFC-normalised)
    name_key: Mapped[str] = mapped_column(String(64), unique=True)  # compared: no two names look alike
    created_at: Mapped[float] = mapped_column(Float)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    # The language of the account's latest signed-in request (a code such as "nl"): its e-mails
    # ("your move") are written in it. None: never seen since it was recorded (English).
    language: Mapped[str | None] = mapped_column(String(16), nullable=True)


class SeatOwnerRow(Base):
    """A seat that belongs to an account: it follows the person to every device they sign in on."""

    __tablename__ = "people_seat_owners"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"), index=True)
