"""The translation script and the language switcher's one route.

``GET /i18n/<language>.js`` is the browser's bundle (``bundles.py``): cached for a year when the
page asked for the current version, else never. ``GET /language?lang=<code>`` remembers the reader's
choice on this device (a cookie, a year) and goes back to the page it was chosen on (same origin
only: the form's ``next``, which the switcher's script fills in; else the lobby).
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from gamebag.core.i18n import PSEUDO_LANGUAGE, known_language, language_tag, languages
from gamebag.web.words.bundles import bundle_for
from gamebag.web.words.reader import LANGUAGE_COOKIE

YEAR = 365 * 24 * 3600


def words_router() -> APIRouter:
    router = APIRouter()

    @router.get("/i18n/{name}", include_in_schema=False)
    async def translation_script(name: str, v: str | None = None) -> Response:
        code, _, suffix = name.partition(".")
        language = known_language(code) if suffix == "js" else None
        if language is None or (language not in languages() and language != PSEUDO_LANGUAGE):
            known = ", ".join(f"{language_tag(c)}.js" for c in languages())
            return Response(f"// unknown translation script {name!r}; there are: {known}\n", status_code=404,
                            media_type="text/javascript")
        script = await bundle_for(language)
        cache = f"public, max-age={YEAR}, immutable" if v == script.version else "no-cache"
        return Response(script.script, media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": cache, "ETag": f'"{script.version}"'})

    @router.get("/language", include_in_schema=False)
    async def choose_language(request: Request, lang: str = "", next: str = "/") -> Response:
        language = known_language(lang)
        response = RedirectResponse(_same_site_path(next), status_code=303)
        if language is not None:
            response.set_cookie(LANGUAGE_COOKIE, language, max_age=YEAR, samesite="lax", path="/",
                                secure=request.url.scheme == "https")
        return response

    return router


def _same_site_path(target: str) -> str:
    """``target`` as a path on this site without its ``lang`` (which would override the choice just
    made); anything else (another site, a scheme, ``//host``) is the lobby."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//") \
            or "\\" in target or len(target) > 2000:
        return "/"
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "lang"])
    return parts.path + (f"?{query}" if query else "")
