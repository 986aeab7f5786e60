"""Accounts: creating, finding, renaming, disabling, exporting and deleting them.

Every function takes a SQLAlchemy ``Connection`` inside a transaction and does database work
only, so callers run it off the event loop (``asyncio.to_thread``) or from the command line.
Other rooms add to what an export holds and to what deleting an account removes through two
small registries, ``export_sections`` and ``deletion_steps`` (ratings will add theirs).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from gamebag.web.people.credentials import ChallengeRow, PasskeyRow, PasswordRow, RecoveryCodeRow, SessionRow
from gamebag.web.people.names import NAME_TEXTS, BadNameError, clean_name, name_key
from gamebag.web.people.owners import SeatNames, anonymise_seats, seats_of_account
from gamebag.web.people.passwords import check_password, hash_password
from gamebag.web.people.schema import AccountRow, SeatOwnerRow
from gamebag.web.store.db import SeatRow, TableRow
from gamebag.web.words.text import _

RECOVERY_CODES = 10  # shown once at sign-up; each signs in once
MAX_EXPORTED_RECORDS = 500  # the most recent finished games whose records an export holds

ExportSection = Callable[[Connection, str], Any]
DeletionStep = Callable[[Connection, str], None]
# name -> function(connection, account id) -> JSON value: each is one key of the export.
export_sections: dict[str, ExportSection] = {}
# name -> function(connection, account id): removes that room's personal data of the account,
# in the transaction that deletes it (before the account row goes).
deletion_steps: dict[str, DeletionStep] = {}


@dataclass(frozen=True)
class Account:
    """An account as the server reads it."""

    id: str
    name: str
    created_at: float
    disabled: bool


def digest(secret: str) -> str:
    """The SHA-256 (hex) a long random secret (session id, recovery code) is stored as."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _account(row: Any) -> Account:
    return Account(id=str(row.id), name=str(row.name), created_at=float(row.created_at), disabled=bool(row.disabled))


def create_account(connection: Connection, name: str, password: str | None) -> tuple[Account, list[str]]:
    """A new account named ``name`` (with ``password``, checked, if given) and its recovery codes.

    ``BadNameError`` for a name that is refused or taken (a look-alike included),
    ``BadPasswordError`` for a password the rules refuse. Nothing is written then.
    """
    shown = clean_name(name)
    normalised = None if password is None else check_password(password, shown)
    account = Account(id=secrets.token_hex(16), name=shown, created_at=time.time(), disabled=False)
    try:
        with connection.begin_nested():
            connection.execute(
                insert(AccountRow).values(
                    id=account.id, name=shown, name_key=name_key(shown), created_at=account.created_at, disabled=False
                )
            )
    except IntegrityError:
        raise BadNameError(_(NAME_TEXTS["taken"])) from None
    if normalised is not None:
        set_password(connection, account.id, normalised)
    return account, new_recovery_codes(connection, account.id)


def account_by_id(connection: Connection, account_id: str) -> Account | None:
    row = connection.execute(select(AccountRow).where(AccountRow.id == account_id)).first()
    return None if row is None else _account(row)


def account_by_name(connection: Connection, name: object) -> Account | None:
    """The account whose name looks like ``name`` (its look-alike key), or None."""
    try:
        key = name_key(clean_name(name))
    except BadNameError:
        return None
    row = connection.execute(select(AccountRow).where(AccountRow.name_key == key)).first()
    return None if row is None else _account(row)


def rename(connection: Connection, account_id: str, name: str) -> str:
    """Give the account a new display name (the same checks as at sign-up); the name as shown."""
    shown = clean_name(name)
    try:
        with connection.begin_nested():
            connection.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(name=shown, name_key=name_key(shown))
            )
    except IntegrityError:
        raise BadNameError(_(NAME_TEXTS["taken"])) from None
    return shown


def password_hash(connection: Connection, account_id: str) -> str | None:
    value = connection.execute(select(PasswordRow.hash).where(PasswordRow.account_id == account_id)).scalar()
    return None if value is None else str(value)


def set_password(connection: Connection, account_id: str, normalised: str) -> None:
    """Store the argon2id hash of a checked, normalised password (replacing any earlier one)."""
    connection.execute(delete(PasswordRow).where(PasswordRow.account_id == account_id))
    connection.execute(
        insert(PasswordRow).values(account_id=account_id, hash=hash_password(normalised), changed_at=time.time())
    )


def new_recovery_codes(connection: Connection, account_id: str) -> list[str]:
    """Fresh one-time recovery codes (the old ones stop working); only their hashes are kept."""
    connection.execute(delete(RecoveryCodeRow).where(RecoveryCodeRow.account_id == account_id))
    codes = ["-".join(secrets.token_hex(3) for __ in range(3)) for __ in range(RECOVERY_CODES)]
    connection.execute(
        insert(RecoveryCodeRow), [{"code_hash": digest(code), "account_id": account_id} for code in codes]
    )
    return codes


def use_recovery_code(connection: Connection, account_id: str, code: str) -> bool:
    """Spend one recovery code of the account: True if it was one (it works no more)."""
    cleaned = code.strip().lower()
    result = connection.execute(
        delete(RecoveryCodeRow).where(
            RecoveryCodeRow.account_id == account_id, RecoveryCodeRow.code_hash == digest(cleaned)
        )
    )
    return bool(result.rowcount)


def recovery_codes_left(connection: Connection, account_id: str) -> int:
    query = select(func.count()).select_from(RecoveryCodeRow).where(RecoveryCodeRow.account_id == account_id)
    return int(connection.execute(query).scalar() or 0)


def list_accounts(connection: Connection) -> list[Account]:
    rows = connection.execute(select(AccountRow).order_by(AccountRow.created_at)).all()
    return [_account(row) for row in rows]


def set_disabled(connection: Connection, account_id: str, disabled: bool) -> None:
    """Disable (or enable) an account; disabling signs it out everywhere."""
    connection.execute(update(AccountRow).where(AccountRow.id == account_id).values(disabled=disabled))
    if disabled:
        connection.execute(delete(SessionRow).where(SessionRow.account_id == account_id))


def delete_account(connection: Connection, account_id: str) -> SeatNames:
    """Delete the account and its personal data: sessions, passkeys (and ceremonies under way),
    password, recovery codes, the registered rooms' data (``deletion_steps``) and its seat
    ownerships. The seats themselves stay at their tables, owned by nobody, under the anonymous
    name (``owners.anonymise_seats``, whose answer this returns so the caller can tell the live
    tables): a finished game keeps an anonymous seat and its outcome, and an unfinished one stays
    claimed by the devices that hold its token."""
    renamed = anonymise_seats(connection, account_id)
    for step in deletion_steps.values():
        step(connection, account_id)
    for row in (SessionRow, PasskeyRow, PasswordRow, RecoveryCodeRow, ChallengeRow, SeatOwnerRow):
        connection.execute(delete(row).where(row.account_id == account_id))
    connection.execute(delete(AccountRow).where(AccountRow.id == account_id))
    return renamed


def _seat_facts(connection: Connection, account_id: str) -> list[dict[str, Any]]:
    owned = seats_of_account(connection, account_id)
    tables = {table for table, __ in owned}
    if not tables:
        return []
    rows = connection.execute(
        select(
            TableRow.id,
            TableRow.game,
            TableRow.created_at,
            TableRow.finished,
            TableRow.closed,
            SeatRow.seat,
            SeatRow.name,
        )
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(TableRow.id.in_(sorted(tables)))
    )
    mine = set(owned)
    facts = [
        {
            "table": r.id,
            "seat": int(r.seat),
            "seat_name": r.name,
            "game": r.game,
            "created_at": r.created_at,
            "finished": bool(r.finished),
            "closed": r.closed,
        }
        for r in rows
        if (str(r.id), int(r.seat)) in mine
    ]
    return sorted(facts, key=lambda fact: (-float(fact["created_at"]), fact["table"]))


def export_account(connection: Connection, account_id: str, load_record: Callable[[str], Any]) -> dict[str, Any]:
    """Everything the server keeps about the account, as JSON: the account, its seats, the records
    of its finished games (``load_record(table id)``, the newest ``MAX_EXPORTED_RECORDS``) and every
    registered section. Secrets are left out (hashes, seat tokens, session ids)."""
    account = account_by_id(connection, account_id)
    if account is None:
        raise LookupError(account_id)
    seats = _seat_facts(connection, account_id)
    finished = [fact["table"] for fact in seats if fact["finished"]][:MAX_EXPORTED_RECORDS]
    passkeys = connection.execute(select(PasskeyRow.created_at).where(PasskeyRow.account_id == account_id))
    sessions = connection.execute(
        select(SessionRow.created_at, SessionRow.expires_at).where(SessionRow.account_id == account_id)
    )
    export: dict[str, Any] = {
        "account": {
            "id": account.id,
            "name": account.name,
            "created_at": account.created_at,
            "disabled": account.disabled,
            "has_password": password_hash(connection, account_id) is not None,
            "recovery_codes_left": recovery_codes_left(connection, account_id),
        },
        "passkeys": [{"created_at": row.created_at} for row in passkeys],
        "sessions": [{"created_at": row.created_at, "expires_at": row.expires_at} for row in sessions],
        "seats": seats,
        "records": {table: load_record(table) for table in dict.fromkeys(finished)},
    }
    for name, section in export_sections.items():
        export[name] = section(connection, account_id)
    return export
