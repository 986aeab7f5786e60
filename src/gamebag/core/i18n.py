"""Translation: gettext catalogues (managed with Babel), the reader's language, and locale formats.

Text is made per reader at the edge, never stored translated: records, JSON, option names and action
codes stay language-neutral, and each front end (the terminal, a page, a socket message) builds its
words in the language of the reader it serves.

* **Domains.** Each package part carries its own catalogues, so a game (or a plugin's game) brings
  its translations with it: ``gamebag`` (core, CLI, lab, analysis) in ``gamebag/locale``, ``web`` in
  ``gamebag/web/locale``, and one per game in ``games/<package>/locale``. A module takes its
  domain's functions once: ``_, ngettext = catalogue("eigen_kweek", __name__)``.
* **The reader's language** is a context variable: a request, a socket or a CLI run sets it with
  ``use_language`` (or ``set_language``), and every ``_()`` below it answers in that language.
  Threads started by ``asyncio.to_thread``/Starlette's thread pool copy the context, so work done
  off the event loop for a reader speaks that reader's language.
* **Messages** use ``{name}`` placeholders, filled by ``str.format`` after translation; plurals go
  through ``ngettext`` (the catalogue's plural rule), numbers through ``number``/``decimal``/``percent``
  (Babel, by locale). No sentence is built by joining translated pieces.
* **Catalogues** are ``.po`` files; ``make`` compiles them to ``.mo`` (``scripts/i18n.py compile``).
  A ``.mo`` older than its ``.po`` (or missing, as in a fresh checkout) is not trusted: the ``.po``
  is read with Babel instead, so a translator's edit shows at the next start without a build step.
* **The pseudo-locale** ``en_XA`` is made from the English source on the fly (accented, 40% longer,
  bracketed): a page in it shows at a glance any string that escaped the catalogues, and any that no
  longer fits.
"""

from __future__ import annotations

import contextvars
import functools
import gettext as _gettext
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

# The languages gamebag ships catalogues for, in the order a language switcher lists them, with each
# one's own name (a switcher shows a language in that language, so a reader finds their own). A
# language added by a translator (``scripts/i18n.py new it``) is found by ``languages()`` without this.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "fr": "Français",
    "de": "Deutsch",
    "ja": "日本語",
    "zh_Hans": "简体中文",
}
DEFAULT_LANGUAGE = "en"
PSEUDO_LANGUAGE = "en_XA"
# The source language of every msgid: English needs no catalogue.
SOURCE_LANGUAGE = "en"

# BCP 47 tags (as browsers send them) for each language; the first is the page's ``lang`` attribute.
_TAGS: dict[str, tuple[str, ...]] = {
    "en": ("en",),
    "nl": ("nl", "nl-BE", "nl-NL"),
    "fr": ("fr",),
    "de": ("de",),
    "ja": ("ja",),
    "zh_Hans": ("zh-Hans", "zh", "zh-CN", "zh-SG", "zh-Hans-CN"),
    PSEUDO_LANGUAGE: ("en-XA",),
}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:[!:][^{}]*)?\}")

_current: contextvars.ContextVar[str] = contextvars.ContextVar("gamebag_language", default=DEFAULT_LANGUAGE)


class UnknownLanguageError(ValueError):
    """A language code gamebag has no catalogues for."""


@functools.cache
def languages() -> dict[str, str]:
    """Every language there are catalogues for (the shipped ones and any a translator added to the
    ``gamebag`` domain), each with its own name."""
    found = dict(LANGUAGES)  # a copy: callers may not change the cached answer through it
    folder = Path(str(resources.files("gamebag").joinpath("locale")))
    if folder.is_dir():
        for child in sorted(folder.iterdir()):
            if (child / "LC_MESSAGES" / "gamebag.po").is_file() and child.name not in found:
                try:
                    from babel import Locale

                    found[child.name] = Locale.parse(child.name).get_display_name(child.name) or child.name
                except Exception:
                    found[child.name] = child.name
                _TAGS.setdefault(child.name, (child.name.replace("_", "-"),))
    return found


def known_language(code: str | None) -> str | None:
    """``code`` (a gettext code ``nl_BE``, a BCP 47 tag ``nl-BE``, a POSIX locale ``nl_BE.UTF-8``, any
    case) as one of ``LANGUAGES`` (or the pseudo-locale), or None when gamebag does not speak it."""
    if not code:
        return None
    code = code.strip().split(".", 1)[0].split("@", 1)[0].replace("_", "-")
    if not code or code in ("C", "POSIX"):
        return None
    lowered = code.lower()
    languages()
    for language, tags in _TAGS.items():
        if any(lowered == tag.lower() for tag in tags):
            return language
    primary = lowered.split("-", 1)[0]
    if primary == "zh" and any(part in ("hant", "tw", "hk", "mo") for part in lowered.split("-")[1:]):
        return None  # Traditional Chinese: not Simplified; better English than the wrong script
    for language, tags in _TAGS.items():
        if language != PSEUDO_LANGUAGE and tags[0].split("-", 1)[0].lower() == primary:
            return language
    return None


def language_or_refuse(code: str) -> str:
    """``known_language(code)``, or an ``UnknownLanguageError`` naming the languages there are."""
    language = known_language(code)
    if language is None:
        raise UnknownLanguageError(
            f"unknown language {code!r}; choose one of: {', '.join(language_tag(c) for c in languages())}"
        )
    return language


def language_tag(language: str) -> str:
    """The BCP 47 tag for a page's ``lang`` attribute: ``zh_Hans`` is ``zh-Hans``."""
    return _TAGS.get(language, (language.replace("_", "-"),))[0]


def negotiate(accept_language: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The reader's language from an ``Accept-Language`` header: the first of theirs, by quality, that
    gamebag speaks (``nl-BE, en;q=0.5`` is Dutch); ``default`` when none is."""
    choices: list[tuple[float, int, str]] = []
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            choices.append((-quality, position, tag))
    for _, _, tag in sorted(choices):
        language = known_language(tag)
        if language is not None and language != PSEUDO_LANGUAGE:
            return language
    return default


def language_from_environment(environ: dict[str, str]) -> str | None:
    """The terminal's language as gettext reads it: ``LANGUAGE`` (a list), then ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``; None when none names a language gamebag speaks."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if not value:
            continue
        for code in value.split(":"):
            language = known_language(code)
            if language is not None:
                return language
        if name != "LANGUAGE":
            return None  # the first variable that is set decides, as in gettext
    return None


def current_language() -> str:
    """The language of the reader being served now."""
    return _current.get()


def set_language(language: str) -> None:
    """Make ``language`` the current one for the rest of this context (a CLI run, a socket task)."""
    _current.set(language if language in languages() or language == PSEUDO_LANGUAGE else DEFAULT_LANGUAGE)


@contextmanager
def use_language(language: str | None) -> Iterator[str]:
    """Speak ``language`` (None: keep the current one) inside the ``with`` block."""
    chosen = current_language() if language is None else language
    if chosen not in languages() and chosen != PSEUDO_LANGUAGE:
        chosen = DEFAULT_LANGUAGE
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


# ---------------------------------------------------------------------------------------------
# Catalogues


class _Translations(Protocol):
    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...
    def pgettext(self, context: str, message: str) -> str: ...


@dataclass(frozen=True)
class Domain:
    """A catalogue domain: its name and the folder holding ``<language>/LC_MESSAGES/<name>.po``."""

    name: str
    directory: Path


_DOMAINS: dict[str, Domain] = {}
_LOADED: dict[tuple[str, str], _Translations] = {}
_LOCK = threading.Lock()


def register_domain(name: str, package: str, folder: str = "locale") -> Domain:
    """Declare the domain ``name`` whose catalogues are in ``package``'s ``folder`` (a lower layer
    may name a folder of a higher one's package, by path, without importing that package)."""
    directory = Path(str(resources.files(package).joinpath(folder)))
    domain = Domain(name, directory)
    existing = _DOMAINS.get(name)
    if existing is not None and existing.directory != directory:
        raise ValueError(f"translation domain {name!r} is already in {existing.directory}")
    _DOMAINS[name] = domain
    return domain


def domains() -> dict[str, Domain]:
    """Every declared domain by name (the packages that declared them must have been imported)."""
    return dict(_DOMAINS)


def translations(domain: str, language: str) -> _Translations:
    """The catalogue of ``domain`` in ``language`` (English and unknown domains: the source text)."""
    key = (domain, language)
    found = _LOADED.get(key)
    if found is None:
        with _LOCK:
            found = _LOADED.get(key)
            if found is None:
                found = _LOADED[key] = _load(domain, language)
    return found


def forget_loaded() -> None:
    """Drop every loaded catalogue (a test or a translator who just edited a ``.po`` file)."""
    with _LOCK:
        _LOADED.clear()


def _load(domain_name: str, language: str) -> _Translations:
    if language == PSEUDO_LANGUAGE:
        return _Pseudo()
    domain = _DOMAINS.get(domain_name)
    if domain is None or language == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    folder = domain.directory / language / "LC_MESSAGES"
    po, mo = folder / f"{domain_name}.po", folder / f"{domain_name}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return _gettext.GNUTranslations(handle)
    if po.is_file():
        return _read_po(po)
    return _gettext.NullTranslations()


def _read_po(path: Path) -> _Translations:
    """A ``.po`` file read with Babel into gettext's own translations object (no ``.mo`` on disk)."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalog = read_po(handle)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def catalogue(domain: str, package: str, folder: str = "locale") -> tuple[Callable[..., str], Callable[..., str]]:
    """The domain's ``_`` and ``ngettext`` for a module: ``_("Roll {count} dice", count=3)``.

    Both translate into the current language, then fill the ``{name}`` placeholders from the
    keywords (a message without keywords is returned as translated, braces and all).
    """
    register_domain(domain, package, folder)

    def _(message: str, /, **params: Any) -> str:
        text = translations(domain, current_language()).gettext(message)
        return _fill(text, params) if params else text

    def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
        text = translations(domain, current_language()).ngettext(singular, plural, n)
        return _fill(text, {"n": number(n), **params})

    return _, ngettext


def pgettext_in(domain: str, context: str, message: str, /, **params: Any) -> str:
    """``message`` in ``context`` (a word with two meanings in English) from ``domain``."""
    text = translations(domain, current_language()).pgettext(context, message)
    return _fill(text, params) if params else text


def gettext_in(domain: str, message: str, /, **params: Any) -> str:
    """``message`` from ``domain`` in the current language (text marked elsewhere with ``N_``)."""
    text = translations(domain, current_language()).gettext(message)
    return _fill(text, params) if params else text


def game_text(game: Any, message: str, /, **params: Any) -> str:
    """``message`` (marked with ``N_`` in a game's own module: an option's description, a preset's
    name) in the current language, from the catalogue of the game that declared it
    (``Game.text_domain``); the English source for a game without one. Words gamebag gives every
    game (the rulebook's preset) come from gamebag's own catalogue when the game's has none."""
    domain = getattr(game, "text_domain", None)
    language = current_language()
    text = translations(domain, language).gettext(message) if domain else message
    if text == message and language not in (SOURCE_LANGUAGE, PSEUDO_LANGUAGE):
        text = translations("gamebag", language).gettext(message)
    if domain is None and current_language() == PSEUDO_LANGUAGE:
        text = pseudo(message)
    return _fill(text, params) if params else text


def localized_text(package: str, name: str) -> str:
    """A text file of ``package`` in the current language: ``players.nl.md`` for ``players.md`` when
    the reader reads Dutch, the file itself (the English source) when there is no translation yet.
    The pseudo-locale gets the English text made pseudo, paragraph by paragraph."""
    folder = resources.files(package)
    stem, dot, suffix = name.rpartition(".")
    language = current_language()
    if language not in (SOURCE_LANGUAGE, PSEUDO_LANGUAGE):
        translated = folder.joinpath(f"{stem}.{language}{dot}{suffix}")
        if translated.is_file():
            return translated.read_text(encoding="utf-8")
    text = folder.joinpath(name).read_text(encoding="utf-8")
    if language == PSEUDO_LANGUAGE:
        return "\n".join(_pseudo_markdown_line(line) for line in text.split("\n"))
    return text


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues without translating it (a table of texts read later)."""
    return message


def _fill(text: str, params: dict[str, Any]) -> str:
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        # A translation whose placeholders differ from the source's (the completeness test forbids
        # it): the words are still shown, with the placeholders that do match filled.
        return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders in a message (the completeness test compares them)."""
    return {match.group(1) for match in _PLACEHOLDER.finditer(text.replace("{{", "").replace("}}", ""))}


# ---------------------------------------------------------------------------------------------
# Numbers and dates by locale


def babel_locale(language: str | None = None) -> Any:
    """The Babel ``Locale`` of ``language`` (the current one by default; the pseudo-locale formats
    as English)."""
    language = current_language() if language is None else language
    if language == PSEUDO_LANGUAGE or language not in languages():
        language = DEFAULT_LANGUAGE
    return _locale(language)


@functools.cache
def _locale(language: str) -> Any:
    from babel import Locale

    return Locale.parse(language)


def number(value: int | float) -> str:
    """An integer (or a whole float) in the reader's digits and grouping: 12,345 / 12.345 / 12 345."""
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=babel_locale()))


def decimal(value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals in the reader's notation: 2.5 / 2,5."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return str(format_decimal(value, format=pattern, locale=babel_locale()))


def percent(fraction: float, digits: int = 0) -> str:
    """``fraction`` (0.25) as the reader writes a percentage: 25% / 25 % / 25 %."""
    from babel.numbers import format_percent

    locale = babel_locale()
    pattern = str(locale.percent_formats[None].pattern)  # the locale's own: "#,##0%", "#,##0 %"
    if digits > 0:
        pattern = pattern.replace("0", "0." + "0" * digits, 1)
    return str(format_percent(fraction, format=pattern, locale=locale))


def formatted(value: float, spec: str) -> str:
    """``format(value, spec)`` (``.3g``, ``g``, ``.0f``, ``,``) with the reader's decimal sign and
    digit grouping: 2.5 s in English, 2,5 s in Dutch."""
    from babel.numbers import get_decimal_symbol, get_group_symbol

    text = format(value, spec)
    locale = babel_locale()
    point, group = str(get_decimal_symbol(locale)), str(get_group_symbol(locale))
    if (point, group) == (".", ","):
        return text
    return text.replace(",", "\0").replace(".", point).replace("\0", group)


def join_list(items: list[str], style: str = "standard") -> str:
    """Items joined as the reader's language lists them: "A, B and C" / "A, B en C" / "A、B、C"."""
    from babel.lists import format_list

    if not items:
        return ""
    return str(format_list(items, style=style, locale=babel_locale()))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# The pseudo-locale

_ACCENTED = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "åƀçđéƒĝĥîĵķļɱñöþǫŕšŧûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŦÛṼŴẊÝŽ",
        strict=True,
    )
)
# Placeholders, HTML tags and entities, and Markdown link targets pass through untouched.
_KEEP = re.compile(r"\{[^{}]*\}|<[^<>]*>|&[a-zA-Z#0-9]+;|\]\([^()]*\)|`[^`]*`")


def pseudo(text: str) -> str:
    """``text`` accented and 40% longer inside brackets: "Roll" is "[Ŕöļļ·]"; placeholders kept."""
    if not any(ch.isalpha() for ch in _KEEP.sub("", text)):
        return text  # punctuation and placeholders alone (a list's ", "): nothing a reader reads as words
    parts: list[str] = []
    position = 0
    letters = 0
    for match in _KEEP.finditer(text):
        chunk = text[position:match.start()]
        letters += sum(ch.isalpha() for ch in chunk)
        parts.append("".join(_ACCENTED.get(ch, ch) for ch in chunk))
        parts.append(match.group(0))
        position = match.end()
    chunk = text[position:]
    letters += sum(ch.isalpha() for ch in chunk)
    parts.append("".join(_ACCENTED.get(ch, ch) for ch in chunk))
    padding = "·" * max(1, round(letters * 0.4)) if letters else ""
    body = "".join(parts)
    stripped = body.rstrip("\n")
    return "[" + stripped + padding + "]" + body[len(stripped):]


_MARKDOWN_LEAD = re.compile(r"^(\s*(?:#+\s+|[-*+]\s+|\d+[.)]\s+|>\s*|\|)?)(.*)$")


def _pseudo_markdown_line(line: str) -> str:
    """A Markdown line made pseudo with its heading, list or quote marker kept in front."""
    if not line.strip() or set(line.strip()) <= set("|-: "):
        return line
    match = _MARKDOWN_LEAD.match(line)
    lead, body = (match.group(1) or "", match.group(2)) if match else ("", line)
    return lead + pseudo(body)


class _Pseudo:
    """The pseudo-locale's "catalogue": every message made from its English source."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)
