"""``gamebag analyse``: every decision of a finished game judged, each seat's accuracy and luck."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from gamebag.cli.common import dumps, progress_bar
from gamebag.core.i18n import number, percent
from gamebag.core.translation import N_, _

SHOWN_DECISIONS = 10  # the text output lists the costliest decisions, then the labelled rest


def register(app: typer.Typer) -> None:
    from gamebag.analysis.run import (
        DEFAULT_PLAYOUTS,
        DEFAULT_RULES_PLAYOUTS,
        GAME_STEPS,
        MAX_PLAYOUTS,
        MIN_PLAYOUTS,
    )

    @app.command(
        "analyse",
        help=_("Judge every decision of a finished game (winning chance of the action taken and of the best one) "
               "and give each seat its accuracy, its inaccuracies, mistakes and blunders, and its luck.\n\n"
               "Exact where gamebag solves the game (two-player Pig, Catch A Dragon, Eel Harvest, Wriggle "
               "Roulette), else estimated by playouts from the seat's own information, with 95% intervals "
               "(docs/analysis.md). A record that breaks a rule or whose game is not over exits with status 2."),
    )
    def analyse(
        file: Path = typer.Argument(..., help=_("A finished game's record (JSON), as docs/records.md describes.")),
        seat: list[int] = typer.Option(
            [], "--seat", help=_("Analyse only this seat (repeatable; default: every seat).")
        ),
        as_json: bool = typer.Option(False, "--json", help=_("Print one JSON object (seats and decisions).")),
        budget: int = typer.Option(
            None,
            "--budget",
            help=_("Playouts per estimated value at most, {low} to {high} (default {default}, fewer in a long game: "
                   "about {steps} events played out a game; {rules} where playouts run on the rules engine); exact "
                   "analyses ignore it.", low=MIN_PLAYOUTS, high=MAX_PLAYOUTS,
                   default=DEFAULT_PLAYOUTS, steps=number(GAME_STEPS), rules=DEFAULT_RULES_PLAYOUTS),
        ),
        seed: int = typer.Option(0, "--seed", help=_("Seed of the playouts of estimated analyses.")),
    ) -> None:
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
            task = bar.add_task(_("analysing"), total=max(1, len(record.events)))
            result = analyse_record(record, settings, lambda done, total: bar.update(task, completed=done))
        show(result.to_json())


# The terminal's own lines, one whole sentence or label each (the sentences about the game are
# gamebag.analysis.words's).
TEXT = {
    "title": N_("{game}, {players} players."),
    "seat": N_("seat {seat}: accuracy {accuracy}, luck {luck} win chance, {inaccuracies} inaccuracies, {mistakes} "
               "mistakes, {blunders} blunders ({decisions} decisions; result {result})"),
    "seat_range": N_("seat {seat}: accuracy {accuracy}, luck {luck} win chance ({low} to {high}), {inaccuracies} "
                     "inaccuracies, {mistakes} mistakes, {blunders} blunders ({decisions} decisions; result "
                     "{result})"),
    "costliest": N_("The costliest decisions:"),
    "none": N_("No decision lost win chance."),
    "undecided": N_("{count} of {total} decisions were too close to judge at this budget (a larger --budget may "
                    "judge them)."),
    "how": N_("How this is computed:"),
}


def show(data: dict[str, Any]) -> None:
    """The analysis in words: who played well and who was lucky first, the decisions worth reading, the method last."""
    from gamebag.analysis.words import (
        NEGLIGIBLE,
        accuracy_unit,
        decision_sentence,
        headline,
        how_computed,
        is_undecided,
        luck_unit,
        percent_change,
        seat_name,
    )

    console = Console()
    names = [seat_name(seat) for seat in range(int(data["players"]))]
    console.print(f"[bold]{escape(headline(data, names))}[/bold]", highlight=False)
    console.print(_(TEXT["title"], game=data["game"], players=number(data["players"])), highlight=False)
    for seat in data["seats"]:
        fields = {
            **seat,
            "accuracy": "-" if seat["accuracy"] is None else percent(seat["accuracy"] / 100, 1),
            "luck": percent_change(seat["luck"]),
            "result": number(seat["result"]),
        }
        if "luck_interval" in seat:
            low, high = seat["luck_interval"]
            line = _(TEXT["seat_range"], **fields, low=percent_change(low), high=percent_change(high))
        else:
            line = _(TEXT["seat"], **fields)
        console.print(escape(line), highlight=False)
    console.print(escape(f"{accuracy_unit()} {luck_unit()}"), style="dim", highlight=False)
    decisions = data["decisions"]
    judged = [d for d in decisions if not is_undecided(d)]
    costly = sorted((d for d in judged if d["loss"] >= NEGLIGIBLE), key=lambda d: -d["loss"])[:SHOWN_DECISIONS]
    shown = sorted({id(d): d for d in costly + [d for d in judged if d["label"]]}.values(), key=lambda d: d["event"])
    if shown:
        console.print(_(TEXT["costliest"]), highlight=False)
        for d in shown:
            console.print(escape(f"- {decision_sentence(d, names)}"), highlight=False)
    else:
        console.print(_(TEXT["none"]), highlight=False)
    if len(judged) < len(decisions):
        console.print(
            _(TEXT["undecided"], count=number(len(decisions) - len(judged)), total=number(len(decisions))),
            highlight=False,
        )
    console.print(_(TEXT["how"]), style="dim", highlight=False)
    for line in how_computed(data):
        console.print(escape(line), style="dim", highlight=False)
