"""The browser's translations: one script per language, made from the same catalogues as the server's
words, so a page's own text and the text its scripts build agree.

``/i18n/<language>.js?v=<version>`` sets ``window.GB_I18N``: the language, its plural rule and each
browser-facing domain's messages (``web`` and every game's). The version is a hash of the content,
so a page never mixes a cached bundle of one catalogue with the pages of another; pages load it as a
classic script before their modules (the Content-Security-Policy allows only this server's scripts,
so the plural rule is written into the script here rather than evaluated from a string there).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from gamebag.core.i18n import (
    PSEUDO_LANGUAGE,
    SOURCE_LANGUAGE,
    domains,
    language_tag,
    pseudo,
    translations,
)

# Domains whose words only the server and the terminal use (never sent to a browser).
SERVER_ONLY_DOMAINS = frozenset({"gamebag", "analysis", "lab", "server"})
_PLURAL_EXPRESSION = re.compile(r"^[n0-9\s()!=<>&|?:%+\-*/]+$")


@dataclass(frozen=True)
class Bundle:
    language: str
    version: str
    script: bytes


def _plural_expression(language: str, catalog: Any) -> str:
    """The catalogue's gettext plural rule as a JavaScript expression of ``n`` (only its own
    characters: a rule is code in the page, so nothing else may pass)."""
    header = getattr(catalog, "_info", {}).get("plural-forms", "")
    match = re.search(r"plural\s*=\s*(.+?);?\s*$", header)
    expression = match.group(1) if match else "(n != 1)"
    if not _PLURAL_EXPRESSION.match(expression):
        raise ValueError(f"the {language} catalogue's plural rule is not a plain expression of n: {expression!r}")
    return expression


def _template_messages(domain_name: str) -> list[tuple[str, str | None]]:
    """Every (msgid, plural msgid) of a domain, from its template (the pseudo-locale needs them all)."""
    from babel.messages.pofile import read_po

    domain = domains()[domain_name]
    path = domain.directory / f"{domain_name}.pot"
    if not path.is_file():
        return []
    with path.open("rb") as handle:
        catalog = read_po(handle)
    found: list[tuple[str, str | None]] = []
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            found.append((message.id[0], message.id[1]))
        else:
            found.append((message.id, None))
    return found


def _messages(domain_name: str, language: str) -> tuple[dict[str, Any], str]:
    if language == PSEUDO_LANGUAGE:
        messages: dict[str, Any] = {}
        for singular, plural in _template_messages(domain_name):
            messages[singular] = [pseudo(singular), pseudo(plural)] if plural is not None else pseudo(singular)
        return messages, "(n != 1)"
    catalog = translations(domain_name, language)
    raw: dict[Any, str] = getattr(catalog, "_catalog", {})
    messages = {}
    for key, text in raw.items():
        if isinstance(key, tuple):
            singular, index = key
            forms = messages.setdefault(singular, [])
            while len(forms) <= index:
                forms.append("")
            forms[index] = text
        elif key:  # the empty msgid is the header
            messages[key] = text
    expression = "(n != 1)" if language == SOURCE_LANGUAGE else _plural_expression(language, catalog)
    return messages, expression


_MADE: dict[str, Bundle] = {}  # by language: as many as there are languages


async def bundle_for(language: str) -> Bundle:
    """``bundle(language)``, made off the event loop the first time (it reads every browser
    catalogue) and kept."""
    made = _MADE.get(language)
    if made is None:
        made = _MADE[language] = await asyncio.to_thread(bundle, language)
    return made


@functools.lru_cache(maxsize=16)
def bundle(language: str) -> Bundle:
    """The translation script for ``language`` (cached: catalogues do not change while serving)."""
    payload: dict[str, Any] = {"language": language, "tag": language_tag(language), "domains": {}}
    expression = "(n != 1)"
    for name in sorted(domains()):
        if name in SERVER_ONLY_DOMAINS:
            continue
        messages, expression = _messages(name, language)
        payload["domains"][name] = messages
    body = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    script = (
        "// gamebag's translations for this page (generated from the catalogues; see docs/translating.md)\n"
        f"window.GB_I18N = {body};\n"
        f"window.GB_I18N.plural = function (n) {{ return +({expression}); }};\n"
    ).encode()
    version = hashlib.sha256(script).hexdigest()[:12]
    return Bundle(language, version, script)
