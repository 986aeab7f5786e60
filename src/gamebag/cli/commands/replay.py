"""``gamebag replay``: check a game record against the rules and show where it ends."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

import gamebag
from gamebag.cli.common import dumps, plain_number
from gamebag.core.records import Record, replay
from gamebag.plugins import plugin_arguments

UNFINISHED = 3  # exit status for a record whose game is not over


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_command(
        file: Path = typer.Argument(..., help="A game record (JSON), as docs/records.md describes."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of the table."),
    ) -> None:
        """Check every event of a record against the rules and print the final position.

        A record that breaks a rule exits with status 2 and names the event (0-based) and the rule.
        A record of a game that is not over exits with status 3 and says so.
        """
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
        console.print(f"\n{len(record.events)} events replayed; every one follows the rules.")
        if not finished:
            waiting = ", ".join(f"seat {seat}" for seat in game.acting_players(state)) or "chance"
            resume = f"gamebag {plugin_arguments(game.game_id)}play {game.game_id} --resume {file}"
            console.print(
                f"[yellow]The record is unfinished: the game is not over[/yellow] (round "
                f"{game.round_number(state)}, waiting for {waiting}). `{resume}` continues it.",
                highlight=False,
            )
            raise typer.Exit(UNFINISHED)
