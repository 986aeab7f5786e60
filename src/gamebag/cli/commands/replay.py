"""``gamebag replay``: check a game record against the rules and show where it ends."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

import gamebag
from gamebag.cli.common import dumps, plain_number
from gamebag.core.i18n import join_list
from gamebag.core.records import Record, replay
from gamebag.core.translation import _, ngettext
from gamebag.plugins import plugin_arguments

UNFINISHED = 3  # exit status for a record whose game is not over


def register(app: typer.Typer) -> None:
    @app.command(
        "replay",
        help=_("Check every event of a record against the rules and print the final position.\n\n"
               "A record that breaks a rule exits with status 2 and names the event (0-based) and the rule. "
               "A record of a game that is not over exits with status 3 and says so."),
    )
    def replay_command(
        file: Path = typer.Argument(..., help=_("A game record (JSON), as docs/records.md describes.")),
        as_json: bool = typer.Option(False, "--json", help=_("Print one JSON object instead of the table.")),
    ) -> None:
        record = Record.load(file)
        game, state = replay(record, gamebag.make)
        finished = game.is_terminal(state)
        if as_json:
            result = {
                "game": game.game_id,
                "players": game.num_players,
                "options": record.options,
                "events": len(record.events),
                "terminal": game.is_terminal(state),
                "next": game.node_kind(state).value,
                "acting": list(game.acting_players(state)),
                "round": game.round_number(state),
                "scores": [plain_number(s) for s in game.scores(state)],
                "winners": list(game.winners(state)),
                "view": game.public_view(state),
            }
            typer.echo(dumps(result))
            if not finished:
                raise typer.Exit(UNFINISHED)
            return
        console = Console()
        console.print(gamebag.entry(game.game_id).render_view(game.public_view(state)))
        console.print()
        console.print(ngettext("{n} event replayed; every one follows the rules.",
                               "{n} events replayed; every one follows the rules.", len(record.events)))
        if not finished:
            seats = [_("seat {seat}", seat=seat) for seat in game.acting_players(state)]
            waiting = join_list(seats) if seats else _("chance")
            resume = f"gamebag {plugin_arguments(game.game_id)}play {game.game_id} --resume {file}"
            console.print(
                _("[yellow]The record is unfinished: the game is not over[/yellow] (round {round}, waiting for "
                  "{waiting}). `{command}` continues it.", round=game.round_number(state), waiting=waiting,
                  command=resume),
                highlight=False,
            )
            raise typer.Exit(UNFINISHED)
