"""``gamebag replay``: check a game record against the rules and show where it ends."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

import gamebag
from gamebag.cli.common import dumps, plain_number
from gamebag.core.records import Record, replay


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_command(
        file: Path = typer.Argument(..., help="A game record (JSON), as docs/records.md describes."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of the table."),
    ) -> None:
        """Check every event of a record against the rules and print the final position.

        A record that breaks a rule exits with status 2 and names the event (0-based) and the rule.
        """
        record = Record.load(file)
        game, state = replay(record, gamebag.make)
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
            return
        console = Console()
        console.print(gamebag.entry(game.game_id).render_view(game.public_view(state)))
        console.print(f"\n{len(record.events)} events replayed; every one follows the rules.")
