"""The ``gamebag`` command line (Typer + Rich).

Each module in ``gamebag.cli.commands`` defines ``register(app)`` and adds its
own subcommand(s), so adding a command never means editing a central list.
User mistakes (``GamebagError``) become a one-line message and exit status 2,
never a traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer
from rich.console import Console

from gamebag.core.errors import GamebagError

app = typer.Typer(
    name="gamebag",
    help="Play, simulate, solve and study tabletop games: Eel Harvest, Wriggle Roulette, "
    "Catch A Dragon By The Tail and Eigen Kweek.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

error_console = Console(stderr=True)


@app.callback()
def _plugins(
    plugin: list[str] = typer.Option(
        [],
        "--plugin",
        help="A Python file or module registering a game variant (repeatable; before the command): "
        "gamebag --plugin my_variant.py simulate my-variant ...",
    ),
) -> None:
    """Play, simulate, solve and study tabletop games."""
    import gamebag
    from gamebag import plugins

    for problem in gamebag.plugin_problems:
        error_console.print(f"[bold yellow]warning:[/bold yellow] plugin skipped: {problem}", highlight=False)
    plugins.activate(plugin)
    plugins.check_games(plugins.plugin_games())


def _register_commands() -> None:
    from gamebag.cli import commands

    for module in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{module.name}").register(app)


_register_commands()


def main() -> None:
    """Entry point of the ``gamebag`` console script."""
    try:
        app()
    except GamebagError as error:
        error_console.print(f"[bold red]error:[/bold red] {error}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        error_console.print("interrupted")
        sys.exit(130)
