"""``gamebag tune``: search a game's options for the design that best meets the designer's goals."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from gamebag.cli.common import MAX_WORKERS, check_output_folder, check_workers, dumps, sigterm_as_interrupt
from gamebag.core.i18n import number
from gamebag.core.options import parse_option_pairs
from gamebag.lab.translation import _, fmt, shown


def register(app: typer.Typer) -> None:
    @app.command(
        "tune", help=_("Find the options of GAME that best meet --goal within --limit, re-measured and confirmed.")
    )
    def tune(
        game: str = typer.Argument(..., help=_("Game id, as `gamebag list` shows it.")),
        players: int = typer.Option(None, "--players", "-n", help=_("Player count (default: the game's).")),
        search: list[str] = typer.Option(
            [],
            "--search",
            help=_(
                "What may change: NAME=LO..HI (an integer option) or NAME=a,b,c (repeatable; "
                "an option group as a/b/c, e.g. coins=10/10/10/0/5,20/10/5/0/0)."
            ),
        ),
        goal: list[str] = typer.Option(
            [],
            "--goal",
            help=_(
                "fair, length=R, short, long, min:METRIC or max:METRIC (repeatable: several goals give a Pareto front)."
            ),
        ),
        limit: list[str] = typer.Option(
            [], "--limit", help=_("METRIC<=X or METRIC>=X that every recommended design must meet (repeatable).")
        ),
        trials: int = typer.Option(50, "--trials", "-t", help=_("Designs to try (1 to {most}).", most=number(10_000))),
        games: int = typer.Option(
            2000,
            "--games",
            "-g",
            help=_("Games per trial, 1 to {most}; the leaders get 4x that.", most=number(250_000)),
        ),
        seed: int = typer.Option(0, "--seed", "-s", help=_("Seed of the sampler and of every game.")),
        agents: str = typer.Option(
            None,
            "--agents",
            "-a",
            help=_("One agent for every seat, or one per seat (default: the strongest fast bot)."),
        ),
        option: list[str] = typer.Option([], "--option", "-o", help=_("A fixed game option key=value (repeatable).")),
        workers: int = typer.Option(
            1, "--workers", "-w", help=_("Worker processes for each trial's games (1 to {most}).", most=MAX_WORKERS)
        ),
        executor: str = typer.Option("local", "--executor", help=_("local (this machine) or ray.")),
        address: str = typer.Option(None, "--address", help=_("Ray cluster address (with --executor ray).")),
        storage: str = typer.Option(
            None,
            "--storage",
            help=_(
                "Optuna RDB URL (sqlite:///tune.db) to keep trials: the same command resumes, "
                "and several processes share one search."
            ),
        ),
        max_rounds: int = typer.Option(
            1000, "--max-rounds", help=_("Stop a game after this many rounds (1 to {most}).", most=number(100_000))
        ),
        metrics_games: int = typer.Option(
            300,
            "--metrics-games",
            help=_(
                "Games traced per trial for quality goals and limits (skill, drama, ...; 1 to {most}).",
                most=number(20_000),
            ),
        ),
        as_json: bool = typer.Option(False, "--json", help=_("Print one JSON object (best, pareto, trials).")),
        report: Path = typer.Option(
            None,
            "--report",
            help=_("Write tune.json, pictures and index.html into this folder (checked writable before any trial)."),
        ),
    ) -> None:
        """Find the options of GAME that best meet --goal within --limit, re-measured and confirmed."""
        check_workers(workers)
        if report is not None:
            check_output_folder("--report", report)
        import gamebag
        from gamebag.agents.registry import split_agent_specs
        from gamebag.lab.tune import TuneSettings, parse_goals, parse_limits, parse_search
        from gamebag.lab.tune import tune as run_tune
        from gamebag.lab.tune.report import write_report
        from gamebag.lab.tune.search import check_settings

        count = players if players is not None else gamebag.entry(game).game_class.default_players
        fixed = parse_option_pairs(option)
        settings = TuneSettings(
            game=game,
            players=count,
            dimensions=tuple(parse_search(game, count, search, fixed)),
            goals=tuple(parse_goals(goal)),
            limits=tuple(parse_limits(limit)),
            trials=trials,
            games=games,
            seed=seed,
            agents=None if agents is None else tuple(split_agent_specs(agents)),
            options=fixed,
            workers=workers,
            executor=executor,
            address=address,
            storage=storage,
            max_rounds=max_rounds,
            metrics_games=metrics_games,
        )
        check_settings(settings)
        show = not as_json and sys.stderr.isatty()
        with sigterm_as_interrupt(), _TrialBar(show, trials) as bar:
            result = run_tune(settings, bar.advance)
        if report is not None:
            write_report(result, report, "gamebag " + " ".join(shlex.quote(a) for a in sys.argv[1:]))
        if as_json:
            typer.echo(dumps(result.to_json()))
            return
        print_tune(result)


class _TrialBar:
    """A progress bar of trials with the time left, on standard error."""

    def __init__(self, show: bool, total: int) -> None:
        self.show, self.total = show, total
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> _TrialBar:
        if self.show:
            from gamebag.cli.common import progress_bar

            self.bar = progress_bar()
            self.bar.__enter__()
            self.task = self.bar.add_task(_("trials"), total=self.total)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def advance(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done, total=total)


def _goal_heading(goal: Any) -> str:
    if goal.target is not None:
        return _("{goal} (distance)", goal=goal.text)
    if goal.text == goal.metric:
        return str(goal.text)
    if goal.sign < 0:
        return _("{goal} (max {metric})", goal=goal.text, metric=goal.metric)
    return _("{goal} (min {metric})", goal=goal.text, metric=goal.metric)


def _range(e: Any) -> str:
    return _("{value} ({low} to {high})", value=fmt(e.value, ".4g"), low=fmt(e.low, ".4g"), high=fmt(e.high, ".4g"))


def print_tune(result: Any) -> None:
    console = Console()
    s = result.settings
    if result.interrupted:
        console.print(_("[bold yellow]interrupted[/bold yellow]: what finished before Ctrl-C"))
    complete = [t for t in result.trials if t.state == "complete"]
    table = Table(
        title=_(
            "{game}, {players} players: the best trials of {trials}",
            game=s.game,
            players=s.players,
            trials=number(len(result.trials)),
        )
    )
    table.add_column(_("trial"), justify="right")
    table.add_column(_("options"))
    for g in s.goals:
        table.add_column(_goal_heading(g), justify="right")
    table.add_column(_("limits"))
    for trial in sorted(complete, key=lambda t: (not t.feasible, sum(t.objectives)))[:10]:
        table.add_row(
            str(trial.number),
            " ".join(f"{k}={v}" for k, v in trial.params.items()),
            *(fmt(v * g.sign, ".4g") for v, g in zip(trial.objectives, s.goals, strict=True)),
            _("met") if trial.feasible else _("broken"),
        )
    console.print(table)
    best = result.best
    if best is not None:
        final = best.confirmation or best.remeasured
        options = " ".join(f"{k}={v}" for k, v in best.params.items())
        console.print(_("[bold]recommended:[/bold] {options}", options=options))
        for g in (g for g in s.goals if g.target is not None):
            console.print(f"  {_goal_heading(g)}: {_range(g.value(final.metrics))}")
        for name, e in final.metrics.items():
            console.print(f"  {name}: {_range(e)}", highlight=False)
        games, why = number(final.games), shown(best.why)
        if best.confirmed:
            line = _("[green]confirmed[/green]: {why} ({games} games at a fresh seed)", why=why, games=games)
        else:
            line = _("[yellow]not confirmed[/yellow]: {why} ({games} games at a fresh seed)", why=why, games=games)
        console.print("  " + line)
    for note in result.notes:
        console.print("[dim]" + _("note: {text}", text=shown(note)) + "[/dim]", highlight=False)
    console.print(
        _(
            "{trials} trials in {seconds} s",
            trials=number(len(complete)),
            seconds=fmt(result.seconds, ".1f"),
        )
    )
