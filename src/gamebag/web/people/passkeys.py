"""Passkeys (WebAuthn, through py_webauthn): adding one to your account, signing in with one.

Each ceremony is two requests: the options (with a fresh random challenge, kept in the database
for ``CHALLENGE_SECONDS`` so that any process of a cluster can finish it, and used once), then
the browser's answer, which py_webauthn checks against that challenge, this server's origin and
relying-party id (the host name the page was opened at, which the Guard has checked against the
names this server answers to) and, for a sign-in, the stored public key and signature counter.
Sign-in uses discoverable credentials: the browser offers the passkeys it holds for this site,
so no name is typed.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from gamebag.web.admission.addresses import host_of
from gamebag.web.admission.guard import client_address
from gamebag.web.people import accounts
from gamebag.web.people.accountroutes import signed_in_answer
from gamebag.web.people.accounts import Account, digest
from gamebag.web.people.credentials import ChallengeRow, PasskeyRow
from gamebag.web.people.requests import PeopleRefusal, in_transaction, json_fields, rates_of, signed_in
from gamebag.web.words.text import N_, _

CHALLENGE_SECONDS = 300.0
MAX_PASSKEYS = 10  # per account
MAX_CREDENTIAL_JSON = 16 * 1024  # characters of a browser's answer (the guard bounds the body too)
RP_NAME = "gamebag"

PASSKEY_TEXTS = {
    "expired": N_("This passkey request has expired; start again."),
    "refused": N_("The passkey could not be checked; try again, or use your password."),
    "unknown": N_("This passkey does not belong to any account here."),
    "too_many": N_("An account holds at most {most} passkeys."),
    "not_yours": N_("You have no passkey with this id; reload the page to see your passkeys."),
    "last_way": N_("This passkey is your only way to sign in; set a password or add another passkey first."),
}

router = APIRouter()


def _rp_id(request: Request) -> str:
    return host_of(request.headers.get("host", "localhost"))


def _origin(request: Request) -> str:
    return f"{request.url.scheme}://{request.headers.get('host', 'localhost')}"


def _keep_challenge(connection: Connection, challenge: bytes, purpose: str, account_id: str | None) -> str:
    """Store a ceremony's challenge; the id the browser sends back with its answer."""
    connection.execute(delete(ChallengeRow).where(ChallengeRow.expires_at < time.time()))
    challenge_id = secrets.token_urlsafe(24)
    connection.execute(
        insert(ChallengeRow).values(
            id_hash=digest(challenge_id),
            challenge=challenge,
            purpose=purpose,
            account_id=account_id,
            expires_at=time.time() + CHALLENGE_SECONDS,
        )
    )
    return challenge_id


def _take_challenge(connection: Connection, challenge_id: object, purpose: str, account_id: str | None) -> bytes:
    """The challenge of a ceremony under way (deleted: each is used once), or a refusal."""
    if not isinstance(challenge_id, str) or len(challenge_id) > 64:
        raise PeopleRefusal(400, _(PASSKEY_TEXTS["expired"]))
    row = connection.execute(
        delete(ChallengeRow)
        .where(ChallengeRow.id_hash == digest(challenge_id))
        .returning(ChallengeRow.challenge, ChallengeRow.purpose, ChallengeRow.account_id, ChallengeRow.expires_at)
    ).first()
    if row is None or row.purpose != purpose or row.account_id != account_id or row.expires_at < time.time():
        raise PeopleRefusal(400, _(PASSKEY_TEXTS["expired"]))
    return bytes(row.challenge)


def _credential(data: dict[str, Any]) -> str:
    credential = data["credential"]
    text = json.dumps(credential) if isinstance(credential, dict) else ""
    if not text or len(text) > MAX_CREDENTIAL_JSON:
        raise PeopleRefusal(400, _(PASSKEY_TEXTS["refused"]))
    return text


@router.post("/api/me/passkeys/options")
async def registration_options(request: Request) -> dict[str, Any]:
    """Options for adding a passkey to your account (``navigator.credentials.create``)."""
    account_id = signed_in(request)

    def begin(connection: Connection) -> dict[str, Any]:
        account = accounts.account_by_id(connection, account_id)
        held = connection.execute(select(PasskeyRow.credential_id).where(PasskeyRow.account_id == account_id))
        held_ids = [row[0] for row in held]
        if account is None or len(held_ids) >= MAX_PASSKEYS:
            raise PeopleRefusal(409, _(PASSKEY_TEXTS["too_many"], most=MAX_PASSKEYS))
        options = generate_registration_options(
            rp_id=_rp_id(request),
            rp_name=RP_NAME,
            user_id=account_id.encode(),
            user_name=account.name,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(credential)) for credential in held_ids
            ],
        )
        challenge_id = _keep_challenge(connection, options.challenge, "register", account_id)
        return {"challenge_id": challenge_id, "options": json.loads(options_to_json(options))}

    return await in_transaction(request, begin)


@router.post("/api/me/passkeys")
async def register_passkey(request: Request) -> dict[str, Any]:
    """Finish adding a passkey: ``{"challenge_id", "credential"}`` (the browser's answer, as JSON)."""
    account_id = signed_in(request)
    data = await json_fields(request, ("challenge_id", "credential"))
    credential = _credential(data)
    rp_id, origin = _rp_id(request), _origin(request)

    # Taken in a transaction of its own: the challenge is spent even when the answer is refused.
    challenge = await in_transaction(
        request, lambda c: _take_challenge(c, data["challenge_id"], "register", account_id)
    )

    def finish(connection: Connection) -> int:
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin
            )
        except (WebAuthnException, ValueError, KeyError, TypeError):
            raise PeopleRefusal(400, _(PASSKEY_TEXTS["refused"])) from None
        connection.execute(
            insert(PasskeyRow).values(
                credential_id=bytes_to_base64url(verified.credential_id),
                account_id=account_id,
                public_key=verified.credential_public_key,
                sign_count=verified.sign_count,
                created_at=time.time(),
            )
        )
        held = connection.execute(select(PasskeyRow.credential_id).where(PasskeyRow.account_id == account_id))
        return len(held.fetchall())

    return {"passkeys": await in_transaction(request, finish)}


def _passkeys_of(connection: Connection, account_id: str) -> list[dict[str, Any]]:
    rows = connection.execute(
        select(PasskeyRow.credential_id, PasskeyRow.created_at)
        .where(PasskeyRow.account_id == account_id)
        .order_by(PasskeyRow.created_at)
    )
    return [{"id": credential, "created_at": created} for credential, created in rows]


@router.get("/api/me/passkeys")
async def list_passkeys(request: Request) -> dict[str, Any]:
    """Your passkeys, oldest first: each one's id (the credential id, which your browser shows
    to this site at every sign-in; nothing secret) and when it was added."""
    account_id = signed_in(request)
    return {"passkeys": await in_transaction(request, lambda c: _passkeys_of(c, account_id))}


@router.post("/api/me/passkeys/remove")
async def remove_passkey(request: Request) -> dict[str, Any]:
    """Remove one of your passkeys: ``{"id"}``; it signs nobody in from then on. The last way to
    sign in (no password, no other passkey) is kept: the answer says what to do first."""
    account_id = signed_in(request)
    data = await json_fields(request, ("id",))
    credential = data["id"] if isinstance(data["id"], str) and len(data["id"]) <= 400 else ""

    def remove(connection: Connection) -> list[dict[str, Any]]:
        held = [row["id"] for row in _passkeys_of(connection, account_id)]
        if credential not in held:
            raise PeopleRefusal(404, _(PASSKEY_TEXTS["not_yours"]))
        if len(held) == 1 and accounts.password_hash(connection, account_id) is None:
            raise PeopleRefusal(409, _(PASSKEY_TEXTS["last_way"]))
        connection.execute(
            delete(PasskeyRow).where(PasskeyRow.account_id == account_id, PasskeyRow.credential_id == credential)
        )
        return _passkeys_of(connection, account_id)

    return {"passkeys": await in_transaction(request, remove)}


@router.post("/api/account/passkey/options")
async def sign_in_options(request: Request) -> dict[str, Any]:
    """Options for signing in with a passkey (``navigator.credentials.get``)."""
    rates = rates_of(request)
    await rates.sign_in(client_address(request.scope))
    options = generate_authentication_options(
        rp_id=_rp_id(request), user_verification=UserVerificationRequirement.PREFERRED
    )
    challenge_id = await in_transaction(request, lambda c: _keep_challenge(c, options.challenge, "sign-in", None))
    return {"challenge_id": challenge_id, "options": json.loads(options_to_json(options))}


@router.post("/api/account/passkey")
async def sign_in_with_passkey(request: Request) -> JSONResponse:
    """Finish a passkey sign-in: ``{"challenge_id", "credential"}``."""
    data = await json_fields(request, ("challenge_id", "credential"))
    credential = _credential(data)
    credential_id = data["credential"].get("id")
    rp_id, origin = _rp_id(request), _origin(request)

    challenge = await in_transaction(request, lambda c: _take_challenge(c, data["challenge_id"], "sign-in", None))

    def finish(connection: Connection) -> Account:
        row = connection.execute(select(PasskeyRow).where(PasskeyRow.credential_id == str(credential_id)[:400])).first()
        if row is None:
            raise PeopleRefusal(401, _(PASSKEY_TEXTS["unknown"]))
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=row.public_key,
                credential_current_sign_count=row.sign_count,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError):
            raise PeopleRefusal(401, _(PASSKEY_TEXTS["refused"])) from None
        connection.execute(
            update(PasskeyRow)
            .where(PasskeyRow.credential_id == row.credential_id)
            .values(sign_count=verified.new_sign_count)
        )
        account = accounts.account_by_id(connection, row.account_id)
        if account is None:
            raise PeopleRefusal(401, _(PASSKEY_TEXTS["unknown"]))
        return account

    return await signed_in_answer(request, await in_transaction(request, finish))
