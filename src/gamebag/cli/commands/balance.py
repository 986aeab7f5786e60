"""``gamebag balance``: the designer's balance lab on the command line (see ``gamebag.lab``)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from gamebag.cli.common import MAX_WORKERS, check_output_file, check_output_folder, check_workers, dumps
from gamebag.core.errors import GamebagError
from gamebag.core.i18n import number
from gamebag.core.options import parse_option_pairs
from gamebag.lab.translation import _, fmt, or_list, shown


def register(app: typer.Typer) -> None:
    @app.command(
        "balance",
        help=_("Seat balance, option effects and game length of GAME, with intervals, tests and warnings."),
    )
    def balance(
        game: str = typer.Argument(..., help=_("Game id, as `gamebag list` shows it.")),
        players: str = typer.Option(
            None, "--players", "-n", help=_("Player counts: 4, 2-8 or 2,4,6 (default: the game's).")
        ),
        agents: str = typer.Option(
            None,
            "--agents",
            "-a",
            help=_("One agent for every seat, or one per seat (default: the strongest fast bot)."),
        ),
        population: str = typer.Option(
            None,
            "--population",
            help=_(
                "Instead of --agents: agents each game draws every seat from, seeded (2 to 16), "
                "e.g. heuristic,learned,ismcts:iterations=200."
            ),
        ),
        vary: list[str] = typer.Option(
            [], "--vary", "-v", help=_("An option's values: name=a,b,c (repeatable; cells are the product).")
        ),
        option: list[str] = typer.Option([], "--option", "-o", help=_("A fixed game option key=value (repeatable).")),
        games: int = typer.Option(
            2000,
            "--games",
            "-g",
            help=_("Games per cell, 1 to {most} (the most, with --until).", most=number(1_000_000)),
        ),
        until: float = typer.Option(
            None, "--until", help=_("Stop a cell once every seat's 95% interval is narrower than this.")
        ),
        seed: int = typer.Option(0, "--seed", "-s", help=_("Seed; the same seed gives the same numbers anywhere.")),
        workers: int = typer.Option(
            1, "--workers", "-w", help=_("Worker processes (or CPUs of a local Ray), 1 to {most}.", most=MAX_WORKERS)
        ),
        executor: str = typer.Option("local", "--executor", help=_("local (this machine) or ray.")),
        address: str = typer.Option(None, "--address", help=_("Ray cluster address (with --executor ray).")),
        max_rounds: int = typer.Option(
            1000,
            "--max-rounds",
            help=_("Stop a game after this many rounds, 1 to {most} (reported as capped).", most=number(100_000)),
        ),
        cards: bool = typer.Option(
            False,
            "--cards",
            help=_(
                "Card study: each card's worth to a seat that abstains from it; every seat plays "
                "--agents heuristic (the default) or learned."
            ),
        ),
        metrics: bool = typer.Option(
            False, "--metrics", help=_("Add game-quality metrics per cell: drama, decisions, skill, interaction.")
        ),
        metrics_games: int = typer.Option(
            300, "--metrics-games", help=_("Games traced per cell for --metrics (1 to {most}).", most=number(20_000))
        ),
        as_json: bool = typer.Option(False, "--json", help=_("Print one JSON object.")),
        per_game: Path = typer.Option(
            None,
            "--per-game",
            help=_("Write one row per game to FILE.csv or FILE.parquet (checked writable before the first game)."),
        ),
        plot: Path = typer.Option(
            None,
            "--plot",
            help=_("Draw shares and lengths to FILE (.png, .svg, .pdf; checked writable before the first game)."),
        ),
        report: Path = typer.Option(
            None,
            "--report",
            help=_("Write an offline HTML report into this folder (checked writable before the first game)."),
        ),
    ) -> None:
        """Seat balance, option effects and game length of GAME, with intervals, tests and warnings."""
        # Every output is checked before the lab (and its compiler) is even imported.
        check_workers(workers)
        if per_game is not None:
            check_output_file("--per-game", per_game, (".csv", ".parquet"))
        if plot is not None:
            check_output_file("--plot", plot, (".png", ".svg", ".pdf"))
        if report is not None:
            check_output_folder("--report", report)
        from gamebag import lab

        fixed = parse_option_pairs(option)
        show = not as_json and sys.stderr.isatty()
        with _Progress(show) as progress:
            if cards:
                if vary:
                    raise GamebagError(_("--cards compares cards at fixed options; leave out --vary"))
                if population is not None:
                    raise GamebagError(
                        _("--cards seats one agent everywhere (--agents heuristic or learned); leave out --population")
                    )
                counts = _card_counts(game, players)
                progress.games = games
                study = lab.card_study(
                    game,
                    counts,
                    games,
                    seed,
                    workers,
                    executor,
                    address,
                    fixed,
                    progress.advance,
                    progress.done,
                    agent=_card_agent(agents),
                )
                result = study.study
            else:
                cells, _notices = lab.plan(game, players, agents, vary, fixed, seed, population)
                progress.start_cells([c.label for c in cells], games)
                result = lab.balance(
                    game,
                    players,
                    agents,
                    vary,
                    fixed,
                    games,
                    until,
                    seed,
                    workers,
                    executor,
                    address,
                    max_rounds,
                    progress.advance,
                    progress.done,
                    metrics,
                    metrics_games,
                    population,
                )
                study = None
        if per_game is not None:
            from gamebag.lab.export import write_table

            write_table(result.per_game, per_game)
        if plot is not None:
            from gamebag.lab.figures import plot_study

            plot_study(result, plot)
        if report is not None:
            from gamebag.lab.report import write_report

            write_report(result, report, "gamebag " + " ".join(shlex.quote(a) for a in sys.argv[1:]))
        if as_json:
            typer.echo(dumps(study.to_json() if study is not None else result.to_json()))
            return
        print_result(result)
        if study is not None:
            print_cards(study)


class _Progress:
    """One progress bar per cell on standard error, moving as games finish."""

    def __init__(self, show: bool) -> None:
        self.show = show
        self.bar: Any = None
        self.tasks: dict[int, Any] = {}
        self.games: int | None = None  # a bar's total where cells are not known in advance (card studies)

    def __enter__(self) -> _Progress:
        if self.show:
            from gamebag.cli.common import progress_bar

            self.bar = progress_bar()
            self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def start_cells(self, labels: list[str], games: int) -> None:
        if self.bar is None:
            return
        for index, label in enumerate(labels):
            self.tasks[index] = self.bar.add_task(label, total=games)

    def advance(self, cell: int, games: int) -> None:
        if self.bar is None:
            return
        if cell not in self.tasks:
            self.tasks[cell] = self.bar.add_task(_("cell {cell}", cell=cell), total=self.games)
        self.bar.advance(self.tasks[cell], games)

    def done(self, run: Any) -> None:
        if self.bar is not None and run.cell.index in self.tasks:
            task = self.tasks[run.cell.index]
            self.bar.update(task, completed=run.games, total=run.games)


def _card_agent(agents: str | None) -> str:
    """The one agent a card study seats (``--agents``; the heuristic when none is named)."""
    from gamebag.lab.cards import STUDY_AGENTS

    if agents is None:
        return "heuristic"
    named = agents.strip()
    if named not in STUDY_AGENTS:
        raise GamebagError(
            _(
                "--cards with --agents names one agent for every seat, {choices}, not {given}",
                choices=or_list(STUDY_AGENTS),
                given=repr(agents),
            )
        )
    return named


def _card_counts(game: str, players: str | None) -> list[int]:
    import gamebag
    from gamebag.lab.cells import parse_players

    return list(parse_players(players, game) if players else (gamebag.entry(game).game_class.default_players,))


def _interval(value: float, low: float, high: float) -> str:
    return f"{fmt(value, '.3f')} ({fmt(low, '.3f')}-{fmt(high, '.3f')})"


def _difference(estimate: float, low: float, high: float, spec: str) -> str:
    return _("{estimate} ({low} to {high})", estimate=fmt(estimate, spec), low=fmt(low, spec), high=fmt(high, spec))


def print_result(result: Any) -> None:
    console = Console()
    if result.interrupted:
        # Translators: [bold yellow]...[/bold yellow] is terminal markup: keep the brackets, translate the word.
        console.print(_("[bold yellow]interrupted[/bold yellow]: what finished before Ctrl-C"))
    table = Table(
        title=_("{game}: balance per cell (seed {seed})", game=result.game, seed=result.seed), show_lines=True
    )
    left = (_("cell"), _("seat shares (95% interval)"), _("ended by"))
    for column in (
        _("cell"),
        _("games"),
        _("seat shares (95% interval)"),
        _("fairness p"),
        # Translators: a column of the share of games won by several seats together.
        _("shared"),
        _("length mean / median (10%-90%)"),
        _("ended by"),
    ):
        table.add_column(column, justify="left" if column in left else "right")
    for cell in result.cells:
        shares = "\n".join(
            f"{seat}: {_interval(share, low, high)}"
            for seat, (share, (low, high)) in enumerate(zip(cell.win_share, cell.win_share_ci, strict=True))
        )
        length = cell.length
        played = number(cell.games)
        table.add_row(
            cell.cell.label + ("" if cell.engine == "rules" else "\n[dim]" + _("compiled engine") + "[/dim]"),
            # Translators: --until stopped this cell early; keep the option's name "until" as it is.
            _("{games} (until)", games=played) if cell.stopped_early else played,
            shares,
            _p(cell.fairness_p),
            fmt(cell.shared_win_rate, ".3f"),
            f"{fmt(length.mean, '.2f')} / {fmt(length.median, 'g')} ({fmt(length.p10, 'g')}-{fmt(length.p90, 'g')})",
            "\n".join(f"{k}: {number(v)}" for k, v in cell.ended_by.items()),
        )
    console.print(table)
    print_quality(console, result)
    print_population(console, result)
    if result.comparisons:
        labels = {c.cell.index: c.cell.label for c in result.cells}
        first = labels.get(result.comparisons[0].against, "")
        versus = Table(title=_("against the first cell ({first}): difference, 95% interval, p", first=first))
        for column in (_("cell"), _("seat share differences"), _("length difference")):
            versus.add_column(column)
        for comparison in result.comparisons:
            seats = "\n".join(
                f"{seat}: {_difference(d.estimate, d.low, d.high, '+.3f')} p={_p(d.p)}"
                for seat, d in enumerate(comparison.seats)
            )
            d = comparison.length
            versus.add_row(
                labels.get(comparison.cell, ""), seats, f"{_difference(d.estimate, d.low, d.high, '+.2f')} p={_p(d.p)}"
            )
        console.print(versus)
    for notice in result.notices:
        console.print("[dim]" + _("note: {text}", text=shown(notice)) + "[/dim]", highlight=False)
    for warning in result.warnings:
        console.print(_("[bold yellow]warning:[/bold yellow] {text}", text=shown(warning)), highlight=False)
    console.print(
        _(
            "{games} games in {seconds} s",
            games=number(sum(c.games for c in result.cells)),
            seconds=fmt(result.seconds, ".1f"),
        )
    )


def print_population(console: Console, result: Any) -> None:
    for cell in (c for c in result.cells if c.agent_shares is not None):
        table = Table(title=_("{cell}: each agent's win share over the seats it was drawn into", cell=cell.cell.label))
        for column in (_("agent"), _("seats"), _("win share (95% interval)")):
            table.add_column(column, justify="left" if column == _("agent") else "right")
        for agent, (share, (low, high), seats) in cell.agent_shares.items():
            table.add_row(agent, number(seats), _interval(share, low, high))
        console.print(table)


def print_quality(console: Console, result: Any) -> None:
    from gamebag.lab.quality import QUALITY_METRICS

    measured = [cell for cell in result.cells if cell.quality is not None]
    if not measured:
        return
    table = Table(title=_("game-quality metrics per cell (95% intervals; docs/designers.md defines them)"))
    table.add_column(_("metric"))
    for cell in measured:
        table.add_column(cell.cell.label, justify="right")
    for name in QUALITY_METRICS:
        row = []
        for cell in measured:
            e = cell.quality.estimates().get(name)
            row.append("-" if e is None else f"{fmt(e.value, '.3g')} ({fmt(e.low, '.3g')}-{fmt(e.high, '.3g')})")
        table.add_row(name, *row)
    console.print(table)
    for cell in measured:
        for note in cell.quality.notes:
            console.print(f"[dim]{cell.cell.label}: {shown(note)}[/dim]", highlight=False)


def print_cards(study: Any) -> None:
    for count in sorted({row.players for row in study.rows}):
        table = Table(
            title=_(
                "{count} players: each card's worth to seat 0, win share playing it vs abstaining from it",
                count=count,
            )
        )
        for column in (_("card"), _("with the card"), _("without it"), _("worth (95% interval)"), "p"):
            table.add_column(column, justify="left" if column == _("card") else "right")
        rows = [row for row in study.rows if row.players == count]
        for row in sorted(rows, key=lambda r: -r.difference.estimate):
            d = row.difference
            table.add_row(
                row.card,
                _interval(row.with_card, *row.with_card_ci),
                _interval(row.without_card, *row.without_card_ci),
                _difference(d.estimate, d.low, d.high, "+.3f"),
                _p(d.p),
            )
        Console().print(table)


def _p(p: float) -> str:
    return fmt(p, ".3f") if p >= 0.001 else fmt(p, ".1e")
