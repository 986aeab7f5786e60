"""Pages in the reader's language: the HTML templates (Jinja2, ``web/templates``) rendered once per
page and language, their text from the ``web`` catalogue.

A template writes its text as ``{{ _("Open a table") }}`` (or ``{% trans %}…{% endtrans %}``), and
``{% include "_head.html" %}`` gives it the page's language, the translation script for its modules
and the style sheet; ``{% include "_language.html" %}`` is the language switcher. Rendering depends
only on the page and the language, so each is rendered once and kept.
"""

from __future__ import annotations

import asyncio
import functools
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from fastapi.responses import HTMLResponse

from gamebag.core.i18n import (
    PSEUDO_LANGUAGE,
    current_language,
    gettext_in,
    language_tag,
    languages,
    translations,
    use_language,
)
from gamebag.web.words import text as _web_text  # noqa: F401 - declares the "web" domain
from gamebag.web.words.bundles import bundle

TEMPLATE_DIR = Path(str(resources.files("gamebag.web").joinpath("templates")))
# Right-to-left languages would set dir="rtl"; none is shipped yet.
_RIGHT_TO_LEFT = frozenset({"ar", "he", "fa", "ur"})


def _gettext(message: str, **params: Any) -> str:
    return gettext_in("web", message, **params)


def _ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    text = translations("web", current_language()).ngettext(singular, plural, n)
    return text.format(n=n, **params) if "{" in text else text


@functools.cache
def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    return environment


@functools.lru_cache(maxsize=256)
def _rendered(name: str, language: str) -> str:
    with use_language(language):
        template = _environment().get_template(name)
        script = bundle(language)
        return template.render(
            language=language,
            lang_tag=language_tag(language),
            text_direction="rtl" if language.split("_")[0] in _RIGHT_TO_LEFT else "ltr",
            bundle_url=f"/i18n/{language}.js?v={script.version}",
            languages=[(code, name) for code, name in languages().items()],
            pseudo=language == PSEUDO_LANGUAGE,
        )


_PAGES: dict[tuple[str, str], str] = {}  # (template, language): as many as there are of both


async def page(name: str) -> HTMLResponse:
    """The template ``name`` in the current reader's language (the answer varies by their choice),
    rendered off the event loop the first time (it reads the catalogues) and kept."""
    language = current_language()
    text = _PAGES.get((name, language))
    if text is None:
        text = _PAGES[(name, language)] = await asyncio.to_thread(_rendered, name, language)
    return HTMLResponse(
        text,
        headers={"Content-Language": language_tag(language), "Vary": "Accept-Language, Cookie",
                 "Cache-Control": "no-cache"},
    )
