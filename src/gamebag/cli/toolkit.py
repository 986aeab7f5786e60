"""The command-line toolkit's own words (Typer's help panels, Click's usage line and ``--help``) in
the reader's language.

Typer and the Click it carries write a few words of their own around gamebag's: the ``Usage:`` line,
the panel titles of ``--help``, the ``--help`` option's line and the ``[default: ...]`` notes. They
are English literals or module constants there, so ``localize_toolkit`` puts gamebag's translations
in their place once the run's language is known (English leaves them as they are). The messages
Click builds for a mistyped command line stay Click's own English; gamebag prints them inside its
own translated ``error:`` line.
"""

from __future__ import annotations

from typing import Any

from gamebag.core.i18n import current_language
from gamebag.core.translation import N_, _

# Typer's rich_utils constants, by name, with their English words.
PANEL_WORDS: dict[str, str] = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "DEFAULT_STRING": N_("[default: {}]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
HELP_OPTION = N_("Show this message and exit.")
USAGE_PREFIX = N_("Usage: ")


def help_option_words() -> str:
    """The ``--help`` option's line in the reader's language."""
    return _(HELP_OPTION)


def localize_toolkit() -> None:
    """Put the toolkit's words in the current language (called when the run's language is set)."""
    import typer.rich_utils as rich_utils

    for name, english in PANEL_WORDS.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, _(english))
    if current_language() != "en":
        _localize_usage()


def _localize_usage() -> None:
    """Click's ``Usage:`` prefix through a formatter that asks the catalogue for it."""
    from typer import _click

    context: Any = _click.core.Context
    base = context.formatter_class
    if getattr(base, "gamebag_localized", False):
        return

    class LocalizedFormatter(base):  # type: ignore[misc, valid-type]
        gamebag_localized = True

        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            super().write_usage(prog, args, _(USAGE_PREFIX) if prefix is None else prefix)

    context.formatter_class = LocalizedFormatter
