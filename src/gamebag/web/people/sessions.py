"""Sign-in sessions: server-side rows, an HttpOnly cookie, and a CSRF token bound to each.

A session id is 32 random bytes; the cookie holds it, the database only its SHA-256, so a copy
of the database signs nobody in. The cookie is HttpOnly, SameSite=Lax, Path=/, and Secure when
the server is behind TLS (``serve --secure-cookies``, or a request that arrived over https,
which uvicorn knows from X-Forwarded-Proto only for the proxies named with
``--forwarded-allow``). A session lasts ``SESSION_DAYS``; signing in always starts a new one
(the old id, if any, is deleted: no fixation); signing out deletes it.

``SessionLayer`` (an ASGI middleware) sets ``request.state.account_id`` (``whoami.account_of``)
for HTTP requests and sockets that carry a live session's cookie. A request that changes
something (POST, PUT, PATCH, DELETE) counts as signed in only if it also carries the session's
CSRF token in ``X-CSRF-Token``, which only this server's own pages can read (``GET /api/me``):
a page on another site can make a browser send the cookie, never the token. Without it the
request is served as a guest's (so the guest pages keep working unchanged); with a wrong one it
is refused (403). The Origin, when the browser names one, must be this server itself: the Guard
refuses other sites' changing requests, and even an origin let in with ``--allow-origin`` never
acts for an account.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import HTTPConnection
from starlette.responses import Response

from gamebag.core.i18n import PSEUDO_LANGUAGE, current_language
from gamebag.web.people.accounts import digest
from gamebag.web.people.credentials import SessionRow
from gamebag.web.people.schema import AccountRow
from gamebag.web.words.text import N_, _

log = logging.getLogger("gamebag.web")

SESSION_COOKIE = "gamebag_session"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30.0
CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_REFUSED = N_("This request did not carry this session's check code; reload the page and try again.")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def start_session(connection: Connection, account_id: str, replacing: str | None = None) -> tuple[str, str]:
    """A new session for the account: (session id for the cookie, CSRF token). ``replacing``: the
    session id the browser held before, deleted (a sign-in always gets a new id)."""
    if replacing:
        connection.execute(delete(SessionRow).where(SessionRow.id_hash == digest(replacing)))
    # Sessions past their expiry are deleted as new ones start, so the table holds live ones.
    connection.execute(delete(SessionRow).where(SessionRow.expires_at < time.time()))
    session_id, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    now = time.time()
    connection.execute(
        insert(SessionRow).values(
            id_hash=digest(session_id),
            account_id=account_id,
            csrf=csrf,
            created_at=now,
            expires_at=now + SESSION_DAYS * 86400,
        )
    )
    return session_id, csrf


def end_session(connection: Connection, session_id: str) -> None:
    connection.execute(delete(SessionRow).where(SessionRow.id_hash == digest(session_id)))


def live_session(connection: Connection, session_id: str) -> tuple[str, str] | None:
    """(account id, CSRF token) of a live session of an enabled account, or None."""
    row = connection.execute(
        select(SessionRow.account_id, SessionRow.csrf)
        .join(AccountRow, AccountRow.id == SessionRow.account_id)
        .where(
            SessionRow.id_hash == digest(session_id),
            SessionRow.expires_at > time.time(),
            AccountRow.disabled.is_(False),
        )
    ).first()
    return None if row is None else (str(row.account_id), str(row.csrf))


def session_cookie(connection: HTTPConnection) -> str | None:
    value = connection.cookies.get(SESSION_COOKIE)
    return value if value and len(value) <= 100 else None


def secure_cookies(connection: HTTPConnection) -> bool:
    """Whether cookies get the Secure flag: the server says it is behind TLS, or this request came over https."""
    return bool(getattr(connection.app.state, "secure_cookies", False)) or connection.url.scheme in ("https", "wss")


def set_session_cookie(response: Response, connection: HTTPConnection, session_id: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        session_id,
        max_age=int(SESSION_DAYS * 86400),
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure_cookies(connection),
    )


def clear_session_cookie(response: Response, connection: HTTPConnection) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure_cookies(connection))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _cookie_of(scope: Scope) -> str | None:
    text = _header(scope, b"cookie")
    if not text or SESSION_COOKIE not in text:
        return None
    cookies: SimpleCookie = SimpleCookie()
    try:
        cookies.load(text)
    except Exception:  # a malformed Cookie header: no session, as browsers would do
        return None
    morsel = cookies.get(SESSION_COOKIE)
    return morsel.value if morsel is not None and 0 < len(morsel.value) <= 100 else None


def _own_origin(scope: Scope) -> bool:
    """Whether the request's Origin, if it names one, is this very server (scheme and Host)."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True  # same-origin requests of older browsers, and scripts; the CSRF token still decides
    scheme, _sep, rest = origin.partition("://")
    return scheme in ("http", "https") and rest == (_header(scope, b"host") or "")


def _engine_of(scope: Scope) -> Engine | None:
    app = scope.get("app")
    manager = getattr(getattr(app, "state", None), "manager", None)
    return None if manager is None else manager.store.engine


def _lookup(engine: Engine, session_id: str, language: str) -> tuple[str, str] | None:
    """The live session's (account, CSRF token); the account's language is recorded as ``language``
    when it changed (its e-mails are written in the language it last read the site in)."""
    with engine.connect() as connection:
        found = live_session(connection, session_id)
        if found is None or language == PSEUDO_LANGUAGE:
            return found
        stored = connection.execute(select(AccountRow.language).where(AccountRow.id == found[0])).scalar()
    if stored != language:
        try:
            with engine.begin() as connection:
                connection.execute(update(AccountRow).where(AccountRow.id == found[0]).values(language=language))
        except SQLAlchemyError:  # a busy database: recorded at a later request; this one is served
            log.warning("the language of account %s could not be recorded", found[0], exc_info=True)
    return found


class SessionLayer:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope.get("path", "").startswith("/static/"):
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state["account_id"] = None
        session_id = _cookie_of(scope)
        engine = _engine_of(scope)
        if session_id is not None and engine is not None:
            try:
                found = await asyncio.to_thread(_lookup, engine, session_id, current_language())  # off the loop
            except SQLAlchemyError:
                # The database is failing (see "Faults that heal"): served as a guest meanwhile, so
                # the tables, whose seats hold their own tokens, go on; account routes say "sign in".
                found = None
            if found is not None:
                account_id, csrf = found
                state["csrf"] = csrf
                changing = scope["type"] == "http" and scope["method"] in CHANGING_METHODS
                sent = _header(scope, CSRF_HEADER.encode())
                if sent is not None and not _own_origin(scope):
                    sent = None  # another site's page (even one --allow-origin lets in) never acts for an account
                if not changing or (sent is not None and secrets.compare_digest(sent.encode(), csrf.encode())):
                    state["account_id"] = account_id
                elif sent is not None:  # a wrong token: refused, not served as a guest
                    await _refuse(send)
                    return
        await self.app(scope, receive, send)


async def _refuse(send: Send) -> None:
    body = json.dumps({"error": _(CSRF_REFUSED)}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})
