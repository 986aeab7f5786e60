"""``gamebag dice``: exact turn odds of a dice game from any held set (see ``gamebag.lab.dice``)."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from gamebag.cli.common import build_game, dumps


def register(app: typer.Typer) -> None:
    @app.command("dice")
    def dice(
        game: str = typer.Argument(..., help="A dice game with a turn model: catch-a-dragon."),
        held: str = typer.Option(None, "--held", help="Colours held, comma-separated (default: the turn's start)."),
        option: list[str] = typer.Option([], "--option", "-o", help="Game option key=value (repeatable)."),
        round_no: int = typer.Option(
            1, "--round", help="The round of the turn (where a variant's rules change by round)."
        ),
        seat: int = typer.Option(0, "--seat", help="The seat of the turn (where a variant's rules change by seat)."),
        players: int = typer.Option(None, "--players", "-n", help="Player count (default: the game's)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """The exact distribution of a turn's points and the bust chance under optimal-score play."""
        from gamebag.lab.dice import turn_odds

        configured = build_game(game, players, option)
        colours = [c.strip() for c in held.split(",") if c.strip()] if held else None
        odds = turn_odds(configured, colours, round_no, seat)
        if as_json:
            typer.echo(dumps(odds.to_json()))
            return
        console = Console()
        where = "the start of a turn" if not odds.held else "holding " + ", ".join(odds.held)
        rules = f", turn rules {odds.turn_rules} (round {round_no}, seat {seat})" if odds.turn_rules else ""
        console.print(f"[bold]{game}[/bold], {where}{rules} (optimal-score play)")
        if odds.stop_points is not None:
            console.print(f"stop now: {odds.stop_points} points; roll on: {float(odds.roll_value):.4f} expected")
            console.print(f"best: [bold]{odds.best}[/bold] ({float(odds.value):.4f} expected points)")
        else:
            console.print(f"expected points of the turn: {float(odds.roll_value):.4f} ({odds.roll_value})")
        console.print(f"chance to score nothing if you roll: {float(odds.roll_bust):.4f} ({odds.roll_bust})")
        table = Table(title="points of the turn if you roll now, then play on optimally")
        for column in ("points", "chance", "exact"):
            table.add_column(column, justify="right")
        for points, chance in odds.roll_distribution.items():
            table.add_row(str(points), f"{float(chance):.4f}", str(chance))
        console.print(table)
