"""``gamebag tournament``: every pairing of a field of agents, a win-rate matrix, ratings and a skill ladder."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

import gamebag
from gamebag.agents.registry import split_agent_specs
from gamebag.cli.common import (
    MAX_WORKERS,
    check_output_file,
    check_workers,
    dumps,
    engine_notice,
    progress_bar,
    sigterm_as_interrupt,
)
from gamebag.core.errors import GamebagError
from gamebag.core.i18n import number
from gamebag.core.options import parse_option_pairs
from gamebag.lab.translation import _, fmt, shown
from gamebag.sim.tournament import (
    DEFAULT_LADDER_STEPS,
    ENGINES,
    MAX_AGENTS,
    MAX_GAMES,
    MAX_LADDER_STEPS,
    MAX_TOTAL_GAMES,
    TournamentResult,
    TournamentSpec,
    long_run_warning,
    run_tournament,
    total_games,
    validate,
)
from gamebag.sim.tournament_plot import SUPPORTED_SUFFIXES, plot_tournament


def register(app: typer.Typer) -> None:
    @app.command(
        "tournament",
        help=_(
            "Play every pairing (or seat mix for more players) with seats rotated; print win rates, ratings, ladder."
        ),
    )
    def tournament(
        game: str = typer.Argument(..., help=_("Game id, as `gamebag list` shows it.")),
        players: int = typer.Option(2, "--players", "-n", help=_("Seats per game.")),
        agents: str = typer.Option(
            ...,
            "--agents",
            "-a",
            help=_(
                "The field (2 to {most} agents), comma-separated, with parameters: "
                "random,heuristic,ismcts:iterations=200 (your own function: policy:path/to/file.py:NAME)",
                most=MAX_AGENTS,
            ),
        ),
        games: int = typer.Option(
            100,
            "--games",
            "-g",
            help=_(
                "Games per pairing (or seat mix) and per ladder point, 1 to {most}; at most {total} games in all.",
                most=number(MAX_GAMES),
                total=number(MAX_TOTAL_GAMES),
            ),
        ),
        seed: int = typer.Option(0, "--seed", "-s", help=_("Seed; the same seed gives the same numbers.")),
        ladder: str = typer.Option(
            None,
            "--ladder",
            help=_(
                "Agent whose budget doubles, e.g. ismcts:iterations=25 (default: the first agent of the field "
                "that takes iterations, from 25)."
            ),
        ),
        ladder_steps: int = typer.Option(
            DEFAULT_LADDER_STEPS,
            "--ladder-steps",
            help=_("How many budgets the ladder tries (1 to {most}).", most=MAX_LADDER_STEPS),
        ),
        no_ladder: bool = typer.Option(False, "--no-ladder", help=_("Skip the skill ladder.")),
        workers: int = typer.Option(
            1,
            "--workers",
            "-w",
            help=_("Worker processes, 1 to {most} (results do not depend on it).", most=MAX_WORKERS),
        ),
        option: list[str] = typer.Option([], "--option", "-o", help=_("Game option key=value (repeatable).")),
        as_json: bool = typer.Option(False, "--json", help=_("Print one JSON object (no progress bar).")),
        plot: Path = typer.Option(
            None,
            "--plot",
            help=_(
                "Draw the results into this file ({suffixes}; checked writable before the first game).",
                suffixes=", ".join(SUPPORTED_SUFFIXES),
            ),
        ),
        engine: str = typer.Option(
            "auto",
            "--engine",
            "-e",
            help=_(
                "auto: matchups whose agents all have compiled policies (learned too, where a policy ships) play "
                "on the fast engine, the others on the rules engine; rules or fast to choose."
            ),
        ),
    ) -> None:
        """Play every pairing (or seat mix for more players) with seats rotated; print win rates, ratings, ladder."""
        check_workers(workers)
        if plot is not None:
            check_output_file("--plot", plot, SUPPORTED_SUFFIXES)
        field = split_agent_specs(agents)
        game_options = parse_option_pairs(option)
        configured = gamebag.make(game, players, **game_options)
        spec = TournamentSpec(
            game=game,
            players=players,
            agents=tuple(field),
            games=games,
            seed=seed,
            options=dict(configured.options),
            ladder=ladder,
            ladder_steps=ladder_steps,
            auto_ladder=not no_ladder,
        )
        if no_ladder and ladder is not None:
            raise GamebagError(_("--ladder and --no-ladder contradict each other; give one of them"))
        if engine not in ENGINES:
            raise GamebagError(
                _("--engine must be one of {choices}, not {given}", choices=", ".join(ENGINES), given=repr(engine))
            )
        validate(spec)  # every count, agent and budget, before the first game
        warning = long_run_warning(spec, configured, workers)
        if warning is not None:
            typer.echo(_("warning: {text}", text=warning), err=True)
        with sigterm_as_interrupt():
            result = _run(spec, workers, engine, show_progress=not as_json and sys.stderr.isatty())
        engine_notice(engine, result.engine_reason)
        if plot is not None:
            plot_tournament(result, plot)
        if as_json:
            typer.echo(dumps(result.to_json()))
        else:
            print_result(result)
            if plot is not None:
                Console().print(_("plot written to {path}", path=plot))


def _run(spec: TournamentSpec, workers: int, engine: str, show_progress: bool) -> TournamentResult:
    if not show_progress:
        return run_tournament(spec, workers, engine=engine)
    with progress_bar() as bar:
        task = bar.add_task(_("tournament: {game}", game=spec.game), total=total_games(spec))
        return run_tournament(spec, workers, progress=lambda k: bar.advance(task, k), engine=engine)


def _rate(rate: float, low: float, high: float, between: str = " ") -> str:
    return f"{fmt(rate, '.3f')}{between}({fmt(low, '.3f')}–{fmt(high, '.3f')})"


def print_result(result: TournamentResult) -> None:
    spec = result.spec
    console = Console()
    if result.interrupted:
        console.print(
            _(
                "[bold yellow]interrupted[/bold yellow]: the figures cover the {games} games that finished",
                games=number(result.games_played),
            )
        )
    names = spec.agents
    matrix = Table(
        title=_(
            "{game}, {players} players: row finishes ahead of column ({games} games per matchup, seed {seed}; "
            "95% interval)",
            game=spec.game,
            players=spec.players,
            games=number(spec.games),
            seed=spec.seed,
        )
    )
    matrix.add_column(_("agent"))
    for name in names:
        matrix.add_column(name, justify="center")
    for i, row in enumerate(result.matrix):
        cells = ["–" if cell is None else _rate(cell.rate, cell.low, cell.high, "\n") for cell in row]
        matrix.add_row(names[i], *cells)
    console.print(matrix)
    ratings = Table(title=_("openskill ratings (Plackett-Luce), best first"))
    for column in (_("agent"), "mu", "sigma", _("ordinal (mu - 3 sigma)"), _("games")):
        ratings.add_column(column, justify="left" if column == _("agent") else "right")
    for rating in result.ratings:
        ratings.add_row(
            rating.agent,
            fmt(rating.mu, ".2f"),
            fmt(rating.sigma, ".2f"),
            fmt(rating.ordinal, ".2f"),
            number(rating.games),
        )
    console.print(ratings)
    ladder = result.ladder
    if ladder is not None:
        table = Table(
            title=_(
                "skill ladder: {agent}, {parameter} doubling; win share (95% interval)",
                agent=ladder.agent,
                parameter=ladder.parameter,
            )
        )
        table.add_column(ladder.parameter, justify="right")
        for opponent in ladder.field:
            table.add_column(_("vs {opponent}", opponent=opponent), justify="center")
        for budget, rates in zip(ladder.budgets, ladder.rates, strict=True):
            table.add_row(fmt(budget, "g"), *(_rate(r.rate, r.low, r.high) for r in rates))
        console.print(table)
    elif spec.auto_ladder:
        console.print(
            _("no skill ladder: no agent of the field takes iterations (name one with --ladder AGENT:iterations=N)")
        )
    else:
        console.print(_("skill ladder skipped (--no-ladder)"))
    seconds = fmt(result.seconds, ".1f")
    if result.engine_reason:
        line = _(
            "played in {seconds} s   engine: {engine} ({reason})",
            seconds=seconds,
            engine=result.engine,
            reason=shown(result.engine_reason),
        )
    else:
        line = _("played in {seconds} s   engine: {engine}", seconds=seconds, engine=result.engine)
    console.print(line, markup=False)
