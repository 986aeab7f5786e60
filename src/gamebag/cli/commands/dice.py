"""``gamebag dice``: exact turn odds of a dice game from any held set (see ``gamebag.lab.dice``)."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from gamebag.cli.common import build_game, dumps
from gamebag.core.i18n import decimal, join_list, number
from gamebag.core.translation import _


def register(app: typer.Typer) -> None:
    @app.command(
        "dice", help=_("The exact distribution of a turn's points and the bust chance under optimal-score play.")
    )
    def dice(
        game: str = typer.Argument(..., help=_("A dice game with a turn model: catch-a-dragon.")),
        held: str = typer.Option(None, "--held", help=_("Colours held, comma-separated (default: the turn's start).")),
        option: list[str] = typer.Option([], "--option", "-o", help=_("Game option key=value (repeatable).")),
        round_no: int = typer.Option(
            1, "--round", help=_("The round of the turn (where a variant's rules change by round).")
        ),
        seat: int = typer.Option(0, "--seat", help=_("The seat of the turn (where a variant's rules change by seat).")),
        players: int = typer.Option(None, "--players", "-n", help=_("Player count (default: the game's).")),
        as_json: bool = typer.Option(False, "--json", help=_("Print one JSON object.")),
    ) -> None:
        from gamebag.lab.dice import turn_odds

        configured = build_game(game, players, option)
        colours = [c.strip() for c in held.split(",") if c.strip()] if held else None
        odds = turn_odds(configured, colours, round_no, seat)
        if as_json:
            typer.echo(dumps(odds.to_json()))
            return
        console = Console()
        where = _("holding {colours}", colours=join_list(list(odds.held))) if odds.held else _("the start of a turn")
        if odds.turn_rules:
            console.print(_("[bold]{game}[/bold], {where}, turn rules {rules} (round {round}, seat {seat}) "
                            "(optimal-score play)", game=game, where=where, rules=odds.turn_rules, round=round_no,
                            seat=seat))
        else:
            console.print(_("[bold]{game}[/bold], {where} (optimal-score play)", game=game, where=where))
        if odds.stop_points is not None:
            console.print(_("stop now: {points} points; roll on: {value} expected", points=number(odds.stop_points),
                            value=decimal(float(odds.roll_value), 4)))
            console.print(_("best: [bold]{best}[/bold] ({value} expected points)", best=odds.best,
                            value=decimal(float(odds.value), 4)))
        else:
            console.print(_("expected points of the turn: {value} ({exact})", value=decimal(float(odds.roll_value), 4),
                            exact=odds.roll_value))
        console.print(_("chance to score nothing if you roll: {value} ({exact})",
                        value=decimal(float(odds.roll_bust), 4), exact=odds.roll_bust))
        table = Table(title=_("points of the turn if you roll now, then play on optimally"))
        for column in (_("points"), _("chance"), _("exact")):
            table.add_column(column, justify="right")
        for points, chance in odds.roll_distribution.items():
            table.add_row(number(points), decimal(float(chance), 4), str(chance))
        console.print(table)
