"""An account's e-mail address for notices: giving it (double opt-in), its settings, unsubscribing.

Every function takes a ``Connection`` inside a transaction and does database work only (callers
run it in a thread). Bad input raises ``NoticeError`` with one sentence in players' words.
An address is used only once the link sent to it was opened (``confirm``), so nobody can make
the server mail a stranger more than the few confirmation mails ``CONFIRMS_PER_DAY`` allows.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from zoneinfo import available_timezones

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from gamebag.web.notices.rows import (
    MailAddressRow,
    NoticeDueRow,
    NoticeSentRow,
    delete_notices,
    export_notices,
    read_rows,
)
from gamebag.web.people import accounts
from gamebag.web.words.text import N_, _

CONFIRMS_PER_DAY = 3  # confirmation mails an account may have sent in 24 hours
MODES = ("move", "digest")
DIGEST_HOURS = (1, 168)  # a digest at most every hour, at least every week
ADDRESS_PATTERN = re.compile(r"[^@\s<>()\[\],;:\"\\]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+")

TEXT = {
    "address": N_("'address' must be an e-mail address such as name@example.org (at most 254 characters)"),
    "settings": (
        N_('the body must hold some of {"mode": "move" or "digest", "digest_hours": 1 to 168, '
        '"quiet_start": 0 to 23 or null, "quiet_end": 0 to 23 or null, "time_zone": "Europe/Amsterdam"}')
    ),
    "zone": N_("'time_zone' must be a time zone name such as Europe/Amsterdam or UTC"),
    "quiet": N_("quiet hours need both 'quiet_start' and 'quiet_end' (hours 0 to 23), or neither"),
    "no_address": N_("give an e-mail address first"),
    "too_many": N_("at most {limit} confirmation e-mails a day may be sent; try again tomorrow"),
    "link": N_("this link is not valid (any longer); ask for a new one on your account page"),
}

# An account's export holds its address, settings and sent log; deleting the account deletes them.
accounts.export_sections["notices"] = export_notices
accounts.deletion_steps["notices"] = delete_notices


class NoticeError(ValueError):
    """Refused input for notices (the message says what is allowed)."""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@lru_cache(maxsize=1)
def _zones() -> frozenset[str]:
    return frozenset(available_timezones()) | {"UTC"}


def check_address(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 254 or not ADDRESS_PATTERN.fullmatch(value):
        raise NoticeError(_(TEXT["address"]))
    return value


@dataclass(frozen=True)
class NoticeSettings:
    """How an account wants its notices."""

    mode: str = "move"
    digest_hours: int = 24
    quiet_start: int | None = None
    quiet_end: int | None = None
    time_zone: str = "UTC"


def check_settings(data: Any, current: NoticeSettings) -> NoticeSettings:
    """``current`` with the fields of ``data`` changed, each checked."""
    keys = {"mode", "digest_hours", "quiet_start", "quiet_end", "time_zone"}
    if not isinstance(data, dict) or not data or set(data) - keys:
        raise NoticeError(_(TEXT["settings"]))
    merged = {**current.__dict__, **data}
    hours = merged["digest_hours"]
    if merged["mode"] not in MODES or isinstance(hours, bool) or not isinstance(hours, int):
        raise NoticeError(_(TEXT["settings"]))
    if not DIGEST_HOURS[0] <= hours <= DIGEST_HOURS[1]:
        raise NoticeError(_(TEXT["settings"]))
    for key in ("quiet_start", "quiet_end"):
        value = merged[key]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 23):
            raise NoticeError(_(TEXT["settings"]))
    if (merged["quiet_start"] is None) != (merged["quiet_end"] is None):
        raise NoticeError(_(TEXT["quiet"]))
    if not isinstance(merged["time_zone"], str) or merged["time_zone"] not in _zones():
        raise NoticeError(_(TEXT["zone"]))
    return NoticeSettings(**merged)


def settings_of(row: MailAddressRow | None) -> NoticeSettings:
    if row is None:
        return NoticeSettings()
    return NoticeSettings(row.mode, row.digest_hours, row.quiet_start, row.quiet_end, row.time_zone)


def address_row(connection: Connection, account_id: str) -> MailAddressRow | None:
    wanted = select(MailAddressRow).where(MailAddressRow.account_id == account_id)
    found: list[MailAddressRow] = read_rows(connection, wanted)
    return found[0] if found else None


def sent_since(connection: Connection, account_id: str, kind: str, since: float) -> int:
    return int(
        connection.execute(
            select(func.count())
            .select_from(NoticeSentRow)
            .where(NoticeSentRow.account_id == account_id, NoticeSentRow.kind == kind, NoticeSentRow.sent_at >= since)
        ).scalar_one()
    )


def log_sent(
    connection: Connection, account_id: str, kind: str, table_id: str | None, step: int | None, at: float
) -> None:
    connection.execute(
        insert(NoticeSentRow).values(account_id=account_id, kind=kind, table_id=table_id, step=step, sent_at=at)
    )


def give_address(connection: Connection, account_id: str, address: str, link_base: str, now: float) -> str:
    """Store ``address`` (unconfirmed, replacing any earlier one) and return the confirm code to mail it.

    Refused past ``CONFIRMS_PER_DAY`` confirmation mails in 24 hours.
    """
    if sent_since(connection, account_id, "confirm", now - 86400) >= CONFIRMS_PER_DAY:
        raise NoticeError(_(TEXT["too_many"], limit=CONFIRMS_PER_DAY))
    code = secrets.token_urlsafe(24)
    current = settings_of(address_row(connection, account_id))
    connection.execute(delete(NoticeDueRow).where(NoticeDueRow.account_id == account_id))
    connection.execute(delete(MailAddressRow).where(MailAddressRow.account_id == account_id))
    connection.execute(
        insert(MailAddressRow).values(
            account_id=account_id,
            address=address,
            confirmed=False,
            confirm_digest=digest(code),
            unsubscribe_token=secrets.token_urlsafe(32),
            link_base=link_base,
            created_at=now,
            **current.__dict__,
        )
    )
    log_sent(connection, account_id, "confirm", None, None, now)
    return code


def confirm(connection: Connection, code: str) -> str:
    """Mark the address whose confirm code this is as confirmed; returns its account."""
    row = connection.execute(
        select(MailAddressRow.account_id).where(MailAddressRow.confirm_digest == digest(code))
    ).scalar_one_or_none()
    if row is None:
        raise NoticeError(_(TEXT["link"]))
    connection.execute(
        update(MailAddressRow).where(MailAddressRow.account_id == row).values(confirmed=True, confirm_digest=None)
    )
    return str(row)


def change_settings(connection: Connection, account_id: str, data: Any) -> NoticeSettings:
    row = address_row(connection, account_id)
    if row is None:
        raise NoticeError(_(TEXT["no_address"]))
    wanted = check_settings(data, settings_of(row))
    connection.execute(update(MailAddressRow).where(MailAddressRow.account_id == account_id).values(**wanted.__dict__))
    return wanted


def forget_address(connection: Connection, account_id: str) -> None:
    """The account takes its address back: the address, and the notices waiting for it, go."""
    connection.execute(delete(NoticeDueRow).where(NoticeDueRow.account_id == account_id))
    connection.execute(delete(MailAddressRow).where(MailAddressRow.account_id == account_id))


def unsubscribe(connection: Connection, token: str) -> None:
    """The one-click unsubscribe: the address with this token is forgotten (its log stays with the account)."""
    if not 0 < len(token) <= 64:
        raise NoticeError(_(TEXT["link"]))
    found = connection.execute(
        select(MailAddressRow.account_id).where(MailAddressRow.unsubscribe_token == token)
    ).scalar_one_or_none()
    if found is None:
        raise NoticeError(_(TEXT["link"]))
    forget_address(connection, str(found))


def public_settings(row: MailAddressRow | None, available: bool) -> dict[str, Any]:
    """What the account page shows its owner (their own address in full: it is theirs)."""
    settings = settings_of(row).__dict__
    return {
        "available": available,
        "address": None if row is None else row.address,
        "confirmed": False if row is None else row.confirmed,
        **settings,
    }
