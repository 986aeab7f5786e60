"""``gamebag analyse``: every decision of a finished game judged, each seat's accuracy and luck."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from gamebag.cli.common import dumps, progress_bar

SHOWN_DECISIONS = 10  # the text output lists the costliest decisions, then the labelled rest


def register(app: typer.Typer) -> None:
    from gamebag.analysis.run import (
        DEFAULT_PLAYOUTS,
        DEFAULT_RULES_PLAYOUTS,
        GAME_STEPS,
        MAX_PLAYOUTS,
        MIN_PLAYOUTS,
    )

    @app.command("analyse")
    def analyse(
        file: Path = typer.Argument(..., help="A finished game's record (JSON), as docs/records.md describes."),
        seat: list[int] = typer.Option([], "--seat", help="Analyse only this seat (repeatable; default: every seat)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object (seats and decisions)."),
        budget: int = typer.Option(
            None,
            "--budget",
            help=f"Playouts per estimated value at most, {MIN_PLAYOUTS} to {MAX_PLAYOUTS} (default {DEFAULT_PLAYOUTS}, "
            f"fewer in a long game: about {GAME_STEPS:,} events played out a game; {DEFAULT_RULES_PLAYOUTS} where "
            "playouts run on the rules engine); exact analyses ignore it.",
        ),
        seed: int = typer.Option(0, "--seed", help="Seed of the playouts of estimated analyses."),
    ) -> None:
        """Judge every decision of a finished game (winning chance of the action taken and of the best one)
        and give each seat its accuracy, its inaccuracies, mistakes and blunders, and its luck.

        Exact where gamebag solves the game (two-player Pig, Catch A Dragon, Eel Harvest, Wriggle Roulette),
        else estimated by playouts from the seat's own information, with 95% intervals (docs/analysis.md).
        A record that breaks a rule or whose game is not over exits with status 2.
        """
        from gamebag.analysis.run import AnalysisSettings, analyse_record
        from gamebag.core.records import Record

        record = Record.load(file)
        settings = AnalysisSettings(seats=tuple(sorted(set(seat))) or None, playouts=budget, seed=seed)
        if as_json or not sys.stderr.isatty():  # a bar only where someone watches (a refusal stays one line)
            result = analyse_record(record, settings)
            if as_json:
                typer.echo(dumps(result.to_json()))
                return
            show(result.to_json())
            return
        with progress_bar() as bar:
            task = bar.add_task("analysing", total=max(1, len(record.events)))
            result = analyse_record(record, settings, lambda done, total: bar.update(task, completed=done))
        show(result.to_json())


UNDECIDED = (
    "{count} decisions could not be judged to within 5 points in this game's budget; "
    "they are left out of accuracy and labels (in --json: judged false, with the reason)."
)


def show(data: dict[str, Any]) -> None:
    """The analysis as a seat summary and the decisions worth reading."""
    console = Console()
    console.print(f"[bold]{data['game']}[/bold], {data['players']} players. {data['method']}.", highlight=False)
    for seat in data["seats"]:
        accuracy = "-" if seat["accuracy"] is None else f"{seat['accuracy']:.1f}%"
        luck = f"{seat['luck']:+.3f}"
        if "luck_interval" in seat:
            low, high = seat["luck_interval"]
            luck += f" ({low:+.3f} to {high:+.3f})"
        console.print(
            f"seat {seat['seat']}: accuracy {accuracy}, luck {luck}, {seat['inaccuracies']} inaccuracies, "
            f"{seat['mistakes']} mistakes, {seat['blunders']} blunders ({seat['decisions']} decisions; "
            f"result {seat['result']:g})",
            highlight=False,
        )
    # A decision the budget could not judge to +-5 points has no figures worth showing (docs/analysis.md).
    undecided = sum(1 for d in data["decisions"] if "undecided" in d)
    if undecided:
        console.print(UNDECIDED.format(count=undecided), highlight=False)
    decisions = [d for d in data["decisions"] if "undecided" not in d]
    costly = sorted(decisions, key=lambda d: -d["loss"])[:SHOWN_DECISIONS]
    shown = sorted({id(d): d for d in costly + [d for d in decisions if d["label"]]}.values(), key=lambda d: d["event"])
    shown = [d for d in shown if d["loss"] > 0 or d["label"]]
    if not shown:
        console.print("No decision lost winning chance.")
        return
    table = Table(title="costliest decisions (winning chance of the seat)")
    numbers = ("event", "seat", "value", "best value", "loss")
    for column in ("event", "seat", "action", "best", "value", "best value", "loss", "label"):
        table.add_column(column, justify="right" if column in numbers else "left")
    for d in shown:
        loss = f"{d['loss']:.3f}"
        if "loss_interval" in d:
            loss += f" ({d['loss_interval'][0]:.3f}..{d['loss_interval'][1]:.3f})"
        if "points" in d:
            loss += f"; {d['points']['loss']:.2f} pts"
        table.add_row(
            str(d["event"]),
            str(d["seat"]),
            dumps_short(d["action"]),
            " or ".join(dumps_short(b) for b in d["best"]),
            f"{d['value']:.3f}",
            f"{d['best_value']:.3f}",
            loss,
            d["label"] or "",
        )
    console.print(table)


def dumps_short(value: Any) -> str:
    """An action as a player reads it: lists joined with '+', text as it is."""
    if isinstance(value, list):
        return "+".join(dumps_short(v) for v in value)
    return str(value)
