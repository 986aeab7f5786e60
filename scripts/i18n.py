"""The translators' tool: extract, update, check and compile gamebag's catalogues (Babel).

    python scripts/i18n.py extract          # source -> each domain's template (.pot)
    python scripts/i18n.py update           # template -> every language's .po (new texts empty)
    python scripts/i18n.py check [LANG...]  # every text translated, none fuzzy, placeholders kept
    python scripts/i18n.py compile          # .po -> .mo (``make`` runs this)
    python scripts/i18n.py new LANG         # start a language: a .po per domain from the templates
    python scripts/i18n.py todo LANG        # what is left to translate in LANG, domain by domain

``make translations`` runs extract then update; docs/translating.md is the workflow in words.
The domains and their sources are listed once, in ``DOMAINS`` below; line numbers are left out of
the catalogues (a file name is enough to find a text, and edits elsewhere never churn them).
"""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "gamebag"
LANGUAGES = ("nl", "fr", "de", "ja", "zh_Hans")  # English is the source language: no catalogue
PYTHON_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "pgettext": ((1, "c"), 2)}
JS_KEYWORDS = {"_": None, "ngettext": (1, 2)}
TEMPLATE_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}
WIDTH = 100


@dataclass(frozen=True)
class DomainSources:
    """One catalogue domain: where its texts are written and where its catalogues live."""

    name: str
    locale: Path  # holds <name>.pot and <lang>/LC_MESSAGES/<name>.po
    python: tuple[str, ...] = ()  # globs under src/gamebag
    javascript: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def files(self) -> list[tuple[str, Path]]:
        found: list[tuple[str, Path]] = []
        for method, patterns in (("python", self.python), ("javascript", self.javascript),
                                 ("jinja2", self.templates)):
            for pattern in patterns:
                for path in sorted(SRC.glob(pattern)):
                    relative = path.relative_to(SRC).as_posix()
                    if path.is_file() and not any(relative.startswith(prefix) for prefix in self.exclude):
                        found.append((method, path))
        return found


def _game(package: str, scripts: tuple[str, ...]) -> DomainSources:
    return DomainSources(package, SRC / "games" / package / "locale", python=(f"games/{package}/**/*.py",),
                         javascript=tuple(f"web/static/games/{script}" for script in scripts))


# The designer's commands speak the lab's words (one catalogue for a designer's whole workflow).
_DESIGN_COMMANDS = tuple(f"cli/commands/{name}.py" for name in ("balance", "tune", "simulate", "tournament",
                                                                   "solve", "train"))

# The web server's analysis and coach answers speak the analysis's words (its catalogue, not the server's).
_ANALYSIS_PAGES = ("web/tables/analysis.py", "web/tables/coaching.py")

DOMAINS: tuple[DomainSources, ...] = (
    DomainSources(
        "gamebag", SRC / "locale",
        python=("*.py", "core/**/*.py", "cli/**/*.py", "agents/**/*.py", "interop/**/*.py", "fast/**/*.py"),
        exclude=_DESIGN_COMMANDS,
    ),
    DomainSources("analysis", SRC / "analysis" / "locale", python=("analysis/**/*.py", *_ANALYSIS_PAGES)),
    DomainSources("lab", SRC / "lab" / "locale", python=("lab/**/*.py", "sim/**/*.py", *_DESIGN_COMMANDS)),
    # The web server's Python (errors, notices, words sent on sockets) and the pages (templates and
    # their scripts: the browser's bundle): two domains, one folder.
    DomainSources("server", SRC / "web" / "locale", python=("web/**/*.py",), exclude=_ANALYSIS_PAGES),
    DomainSources(
        "web", SRC / "web" / "locale",
        javascript=("web/static/js/*.js", "web/static/games/generic.js"), templates=("web/templates/*.html",),
    ),
    _game("catch_a_dragon", ("catch-a-dragon.js",)),
    _game("eel_family", ("eel-family.js", "eel-harvest.js", "wriggle-roulette.js")),
    _game("eigen_kweek", ("eigen-kweek.js", "eigen-kweek-words.js", "eigen-kweek-art.js")),
    _game("pig", ("pig.js",)),
)


def domain(name: str) -> DomainSources:
    for found in DOMAINS:
        if found.name == name:
            return found
    raise SystemExit(f"error: unknown domain {name!r}; known: {', '.join(d.name for d in DOMAINS)}")


def extract(sources: DomainSources) -> Catalog:
    """Every text the domain's source marks for translation, with the files it is in."""
    catalog = Catalog(project="gamebag", domain=sources.name, fuzzy=False, copyright_holder="the gamebag authors",
                      creation_date=datetime(2026, 1, 1), revision_date=datetime(2026, 1, 1))
    for method, path in sources.files():
        keywords: Any
        options: dict[str, Any] = {}
        if method == "python":
            keywords, how = PYTHON_KEYWORDS, "python"
        elif method == "javascript":
            keywords, how = JS_KEYWORDS, "javascript"
            options = {"template_string": True}
        else:
            keywords, how = TEMPLATE_KEYWORDS, "jinja2.ext:babel_extract"
            options = {"extensions": "jinja2.ext.i18n", "trimmed": "true"}
        relative = path.relative_to(SRC).as_posix()
        for line, message, comments, context in extract_from_file(how, str(path), keywords=keywords,
                                                                   comment_tags=("Translators:",),
                                                                   options=options, strip_comment_tags=True):
            catalog.add(message, None, [(relative, line)], auto_comments=comments, context=context)
    return catalog


def template_path(sources: DomainSources) -> Path:
    return sources.locale / f"{sources.name}.pot"


def po_path(sources: DomainSources, language: str) -> Path:
    return sources.locale / language / "LC_MESSAGES" / f"{sources.name}.po"


def _write(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, include_lineno=False, sort_output=True, omit_header=False)
    text = buffer.getvalue()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_bytes() != text:
        path.write_bytes(text)


def _read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def cmd_extract() -> None:
    for sources in DOMAINS:
        catalog = extract(sources)
        _write(template_path(sources), catalog)
        print(f"{sources.name}: {len(catalog)} texts")


def cmd_update(languages: tuple[str, ...] = LANGUAGES) -> None:
    for sources in DOMAINS:
        template = extract(sources)
        for language in languages:
            path = po_path(sources, language)
            if path.is_file():
                catalog = _read(path, language)
                catalog.update(template, no_fuzzy_matching=True)
                catalog.obsolete.clear()
            else:
                catalog = Catalog(locale=language, project="gamebag", domain=sources.name, fuzzy=False,
                                  copyright_holder="the gamebag authors", creation_date=datetime(2026, 1, 1),
                                  revision_date=datetime(2026, 1, 1))
                catalog.update(template, no_fuzzy_matching=True)
            _write(path, catalog)


def problems(sources: DomainSources, language: str) -> list[str]:
    """What keeps ``language``'s catalogue of ``sources`` from being complete (empty when it is)."""
    sys.path.insert(0, str(ROOT / "src"))
    from gamebag.core.i18n import placeholders

    found: list[str] = []
    path = po_path(sources, language)
    template = extract(sources)
    if not path.is_file():
        return [f"{path.relative_to(ROOT)}: missing (python scripts/i18n.py update)"] if len(template) else []
    catalog = _read(path, language)
    where = path.relative_to(ROOT)
    for message in template:
        if not message.id:
            continue
        entry = catalog.get(message.id, context=message.context)
        shown = message.id if isinstance(message.id, str) else message.id[0]
        if entry is None:
            found.append(f"{where}: not in the catalogue: {shown!r} (python scripts/i18n.py update)")
            continue
        if entry.fuzzy:
            found.append(f"{where}: fuzzy: {shown!r}")
        strings = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
        if not all(strings):
            found.append(f"{where}: untranslated: {shown!r}")
            continue
        sources_ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        wanted = set().union(*(placeholders(text) for text in sources_ids))
        for text in strings:
            have = placeholders(text)
            if have - wanted or (len(sources_ids) == 1 and wanted - have):
                found.append(f"{where}: placeholders {sorted(have)} where the source has {sorted(wanted)}: {shown!r}")
        if isinstance(message.id, tuple | list) and len(strings) != catalog.num_plurals:
            found.append(f"{where}: {len(strings)} plural forms, the language has {catalog.num_plurals}: {shown!r}")
    return found


def cmd_check(languages: tuple[str, ...]) -> int:
    all_problems = [p for sources in DOMAINS for language in languages for p in problems(sources, language)]
    for problem in all_problems:
        print(problem)
    print(f"{len(all_problems)} problems in {len(languages)} languages" if all_problems else "every catalogue complete")
    return 1 if all_problems else 0


def cmd_compile() -> None:
    for sources in DOMAINS:
        for language in LANGUAGES:
            path = po_path(sources, language)
            if not path.is_file():
                continue
            catalog = _read(path, language)
            with path.with_suffix(".mo").open("wb") as handle:
                write_mo(handle, catalog, use_fuzzy=False)


def cmd_todo(language: str) -> None:
    for sources in DOMAINS:
        left = [p for p in problems(sources, language)]
        print(f"{sources.name}: {len(left)} left")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("extract", "update", "check", "compile", "new", "todo"):
        print(__doc__)
        return 2
    command, rest = argv[0], tuple(argv[1:])
    if command == "extract":
        cmd_extract()
    elif command == "update":
        cmd_update(rest or LANGUAGES)
    elif command == "check":
        return cmd_check(rest or LANGUAGES)
    elif command == "compile":
        cmd_compile()
    elif command == "new":
        if len(rest) != 1:
            print("error: name one language code, e.g. python scripts/i18n.py new it", file=sys.stderr)
            return 2
        cmd_update(rest)
    elif command == "todo":
        for language in rest or LANGUAGES:
            print(f"[{language}]")
            cmd_todo(language)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
