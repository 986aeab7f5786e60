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
from gamebag.core.options import parse_option_pairs
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
    @app.command("tournament")
    def tournament(
        game: str = typer.Argument(..., help="Game id, as `gamebag list` shows it."),
        players: int = typer.Option(2, "--players", "-n", help="Seats per game."),
        agents: str = typer.Option(
            ...,
            "--agents",
            "-a",
            help=f"The field (2 to {MAX_AGENTS} agents), comma-separated, with parameters: "
            "random,heuristic,ismcts:iterations=200 (your own function: policy:path/to/file.py:NAME)",
        ),
        games: int = typer.Option(
            100,
            "--games",
            "-g",
            help=f"Games per pairing (or seat mix) and per ladder point, 1 to {MAX_GAMES:,}; at most "
            f"{MAX_TOTAL_GAMES:,} games in all.",
        ),
        seed: int = typer.Option(0, "--seed", "-s", help="Seed; the same seed gives the same numbers."),
        ladder: str = typer.Option(
            None,
            "--ladder",
            help="Agent whose budget doubles, e.g. ismcts:iterations=25 (default: the first agent of the field "
            "that takes iterations, from 25).",
        ),
        ladder_steps: int = typer.Option(
            DEFAULT_LADDER_STEPS, "--ladder-steps", help=f"How many budgets the ladder tries (1 to {MAX_LADDER_STEPS})."
        ),
        no_ladder: bool = typer.Option(False, "--no-ladder", help="Skip the skill ladder."),
        workers: int = typer.Option(
            1, "--workers", "-w", help=f"Worker processes, 1 to {MAX_WORKERS} (results do not depend on it)."
        ),
        option: list[str] = typer.Option([], "--option", "-o", help="Game option key=value (repeatable)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object (no progress bar)."),
        plot: Path = typer.Option(
            None,
            "--plot",
            help=f"Draw the results into this file ({', '.join(SUPPORTED_SUFFIXES)}; checked writable before the "
            "first game).",
        ),
        engine: str = typer.Option(
            "auto",
            "--engine",
            "-e",
            help="auto: matchups whose agents all have compiled policies (learned too, where a policy ships) play "
            "on the fast engine, the others on the rules engine; rules or fast to choose.",
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
            raise GamebagError("--ladder and --no-ladder contradict each other; give one of them")
        if engine not in ENGINES:
            raise GamebagError(f"--engine must be one of {', '.join(ENGINES)}, not {engine!r}")
        validate(spec)  # every count, agent and budget, before the first game
        warning = long_run_warning(spec, configured, workers)
        if warning is not None:
            typer.echo(f"warning: {warning}", err=True)
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
                Console().print(f"plot written to {plot}")


def _run(spec: TournamentSpec, workers: int, engine: str, show_progress: bool) -> TournamentResult:
    if not show_progress:
        return run_tournament(spec, workers, engine=engine)
    with progress_bar() as bar:
        task = bar.add_task(f"tournament: {spec.game}", total=total_games(spec))
        return run_tournament(spec, workers, progress=lambda k: bar.advance(task, k), engine=engine)


def print_result(result: TournamentResult) -> None:
    spec = result.spec
    console = Console()
    if result.interrupted:
        console.print(
            f"[bold yellow]interrupted[/bold yellow]: the figures cover the {result.games_played:,} games that finished"
        )
    names = spec.agents
    matrix = Table(
        title=f"{spec.game}, {spec.players} players: row finishes ahead of column "
        f"({spec.games} games per matchup, seed {spec.seed}; 95% interval)"
    )
    matrix.add_column("agent")
    for name in names:
        matrix.add_column(name, justify="center")
    for i, row in enumerate(result.matrix):
        cells = ["–" if cell is None else f"{cell.rate:.3f}\n({cell.low:.3f}–{cell.high:.3f})" for cell in row]
        matrix.add_row(names[i], *cells)
    console.print(matrix)
    ratings = Table(title="openskill ratings (Plackett-Luce), best first")
    for column in ("agent", "mu", "sigma", "ordinal (mu - 3 sigma)", "games"):
        ratings.add_column(column, justify="left" if column == "agent" else "right")
    for rating in result.ratings:
        ratings.add_row(
            rating.agent, f"{rating.mu:.2f}", f"{rating.sigma:.2f}", f"{rating.ordinal:.2f}", str(rating.games)
        )
    console.print(ratings)
    ladder = result.ladder
    if ladder is not None:
        table = Table(title=f"skill ladder: {ladder.agent}, {ladder.parameter} doubling; win share (95% interval)")
        table.add_column(ladder.parameter, justify="right")
        for opponent in ladder.field:
            table.add_column(f"vs {opponent}", justify="center")
        for budget, rates in zip(ladder.budgets, ladder.rates, strict=True):
            table.add_row(f"{budget:g}", *(f"{r.rate:.3f} ({r.low:.3f}–{r.high:.3f})" for r in rates))
        console.print(table)
    elif spec.auto_ladder:
        console.print(
            "no skill ladder: no agent of the field takes iterations (name one with --ladder AGENT:iterations=N)"
        )
    else:
        console.print("skill ladder skipped (--no-ladder)")
    why = f" ({result.engine_reason})" if result.engine_reason else ""
    console.print(f"played in {result.seconds:.1f} s   engine: {result.engine}{why}", markup=False)
