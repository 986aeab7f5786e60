"""The ``gamebag`` command line (Typer + Rich).

Each module in ``gamebag.cli.commands`` defines ``register(app)`` and adds its
own subcommand(s), so adding a command never means editing a central list.
User mistakes become a one-line message on standard error and exit status 2, never a
traceback: a ``GamebagError`` raised by a command, and a value Click refuses while reading the
command line (a bound given as ``min``/``max``, a word where a number belongs). The group does
this itself, so the app called in-process (``typer.testing.CliRunner``) answers as the console
script does.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from gamebag.cli.toolkit import help_option_words, localize_toolkit
from gamebag.core.errors import GamebagError
from gamebag.core.i18n import UnknownLanguageError, current_language, language_or_refuse, set_language
from gamebag.core.translation import _

USAGE_ERROR = 2
# Click's UsageError, from the Click that Typer uses (recent Typers carry their own copy of Click).
UsageError: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")

error_console = Console(stderr=True)


def refuse(message: str) -> NoReturn:
    """Print one ``error:`` line and leave with status 2 (a message of several lines is joined into one)."""
    message = " ".join(part.strip() for part in message.splitlines() if part.strip())
    prefix = escape(_("error:"))
    error_console.print(f"[bold red]{prefix}[/bold red] {message}", markup=True, highlight=False, soft_wrap=True)
    raise typer.Exit(USAGE_ERROR)


class GamebagGroup(TyperGroup):
    """The ``gamebag`` group: every user mistake in a subcommand becomes one ``error:`` line."""

    def get_help_option(self, ctx: Any) -> Any:
        return _translated_help_option(super().get_help_option(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None and not isinstance(command, GamebagGroup):
            _translated_help_option(command.get_help_option(ctx))
        return command

    def invoke(self, ctx: Any) -> Any:
        # ``--lang`` changes the language for this run only: an app invoked in-process (a test) leaves
        # its caller's language as it found it.
        language = current_language()
        try:
            return super().invoke(ctx)
        except GamebagError as error:
            refuse(escape(str(error)))
        except UsageError as error:
            if type(error).__name__ == "NoArgsIsHelpError":
                raise
            own = getattr(error, "ctx", None)
            where = (own or ctx).command_path
            message = error.format_message()  # type: ignore[attr-defined]
            refuse(escape(_("{message} (see `{command} --help`)", message=message, command=where)))
        finally:
            set_language(language)
            localize_toolkit()


def _translated_help_option(option: Any) -> Any:
    """The ``--help`` option with its line in the reader's language."""
    if option is not None:
        option.help = help_option_words()
    return option


app = typer.Typer(
    cls=GamebagGroup,
    name="gamebag",
    help=_("Play, simulate, solve and study tabletop games: Eel Harvest, Wriggle Roulette, "
           "Catch A Dragon By The Tail and Eigen Kweek."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


@app.callback()
def _plugins(
    plugin: list[str] = typer.Option(
        [],
        "--plugin",
        help=_("A Python file or module registering a game variant (repeatable; before the command): "
               "gamebag --plugin my_variant.py simulate my-variant ..."),
    ),
    lang: str | None = typer.Option(
        None,
        "--lang",
        help=_("The language of every message (nl, fr, de, ja, zh-Hans, en; before the command); "
               "default: LANGUAGE, LC_ALL or LANG, else English."),
    ),
) -> None:
    """Play, simulate, solve and study tabletop games."""
    import gamebag
    from gamebag import plugins

    if lang is not None:
        try:
            set_language(language_or_refuse(lang))
        except UnknownLanguageError as error:
            refuse(escape(str(error)))
        localize_toolkit()
    for problem in gamebag.plugin_problems:
        error_console.print(
            "[bold yellow]" + escape(_("warning:")) + "[/bold yellow] "
            + escape(_("plugin skipped: {problem}", problem=problem)),
            highlight=False,
        )
    plugins.activate(plugin)
    plugins.check_games(plugins.plugin_games())


def _register_commands() -> None:
    from gamebag.cli import commands

    for module in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{module.name}").register(app)


_register_commands()
localize_toolkit()  # the console script set the language before importing this module


def main() -> None:
    """Entry point of the ``gamebag`` console script."""
    try:
        app()
    except GamebagError as error:  # raised outside a subcommand (the group's own work)
        prefix = escape(_("error:"))
        error_console.print(f"[bold red]{prefix}[/bold red] {escape(str(error))}", highlight=False, soft_wrap=True)
        sys.exit(USAGE_ERROR)
    except KeyboardInterrupt:
        error_console.print(_("interrupted"))
        sys.exit(130)
