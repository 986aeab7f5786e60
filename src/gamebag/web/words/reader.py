"""Which language a request or socket is served in.

The reader's own choice comes first (``?lang=`` on a page, then the ``gb_lang`` cookie the language
switcher sets on the device), then the browser's ``Accept-Language``, then English. The middleware
sets it as the context's current language (``gamebag.core.i18n``) for the whole request or socket,
so every message made while serving it (an error, a page, a socket's words) is in that language;
a socket may also name its language in its ``hello``.
"""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie

from starlette.types import ASGIApp, Receive, Scope, Send

from gamebag.core.i18n import PSEUDO_LANGUAGE, known_language, negotiate, use_language

LANGUAGE_COOKIE = "gb_lang"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if bytes(key).lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _query_language(scope: Scope) -> str | None:
    from urllib.parse import parse_qs

    query = bytes(scope.get("query_string", b"")).decode("latin-1")
    values = parse_qs(query).get("lang")
    return known_language(values[0]) if values else None


def cookie_language(cookie_header: str | None) -> str | None:
    """The language the reader chose on this device (the switcher's cookie), if it names one."""
    if not cookie_header:
        return None
    try:
        jar = SimpleCookie(cookie_header)
    except CookieError:
        return None
    morsel = jar.get(LANGUAGE_COOKIE)
    return known_language(morsel.value) if morsel is not None else None


def reader_language(scope: Scope) -> str:
    """The language to serve this request or socket in."""
    chosen = _query_language(scope) or cookie_language(_header(scope, b"cookie"))
    if chosen is not None:
        return chosen
    return negotiate(_header(scope, b"accept-language"))


class ReaderLanguage:
    """ASGI middleware: each request and socket runs in its reader's language (``reader_language``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        language = reader_language(scope)
        scope.setdefault("state", {})["language"] = language
        with use_language(language):
            await self.app(scope, receive, send)


def is_pseudo(language: str) -> bool:
    """Whether ``language`` is the pseudo-locale (a check of the catalogues, never a reader's choice
    in the switcher)."""
    return language == PSEUDO_LANGUAGE
