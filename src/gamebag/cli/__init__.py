"""The gamebag command line.

``main`` is the console script's entry point: it settles the reader's language first (``--lang``
anywhere before the command's own arguments, else ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``,
else English) and only then imports the app, because Typer reads the commands' help texts when
their modules are imported.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

LANG_OPTION = "--lang"


def language_argument(argv: Sequence[str]) -> str | None:
    """The value of ``--lang X`` / ``--lang=X`` in ``argv`` (the last one given), or None."""
    found: str | None = None
    for position, word in enumerate(argv):
        if word == "--":
            break
        if word == LANG_OPTION and position + 1 < len(argv):
            found = argv[position + 1]
        elif word.startswith(LANG_OPTION + "="):
            found = word[len(LANG_OPTION) + 1:]
    return found


def choose_language(argv: Sequence[str], environ: dict[str, str]) -> str:
    """The language of this run: ``--lang``, else the environment's, else English.

    An unknown ``--lang`` raises ``UnknownLanguageError`` (its message names the languages there are).
    """
    from gamebag.core.i18n import DEFAULT_LANGUAGE, language_from_environment, language_or_refuse

    given = language_argument(argv)
    if given is not None:
        return language_or_refuse(given)
    return language_from_environment(environ) or DEFAULT_LANGUAGE


def main() -> None:
    """Entry point of the ``gamebag`` console script: the language, then the app."""
    from gamebag.core.i18n import UnknownLanguageError, set_language

    try:
        language = choose_language(sys.argv[1:], dict(os.environ))
    except UnknownLanguageError as error:
        sys.stderr.write(f"error: {error}\n")
        sys.exit(2)
    set_language(language)
    from gamebag.cli.app import main as run

    run()
