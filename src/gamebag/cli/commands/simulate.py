"""``gamebag simulate``: many seeded games between agents, with win shares and intervals."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

import gamebag
from gamebag.cli.common import (
    MAX_WORKERS,
    check_output_folder,
    check_workers,
    dumps,
    engine_notice,
    progress_bar,
    sigterm_as_interrupt,
    split_agents,
)
from gamebag.core.options import parse_option_pairs
from gamebag.sim.simulate import (
    MAX_GAMES,
    SimulationResult,
    SimulationSpec,
    choose_engine,
    run_simulation,
    validate_spec,
)


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate(
        game: str = typer.Argument(..., help="Game id, as `gamebag list` shows it."),
        players: int = typer.Option(None, "--players", "-n", help="Number of players (default: the game's)."),
        games: int = typer.Option(1000, "--games", "-g", help=f"How many games to play (1 to {MAX_GAMES:,})."),
        agents: str = typer.Option(
            "random", "--agents", "-a", help="One agent per seat, comma-separated, or one for all seats."
        ),
        seed: int = typer.Option(0, "--seed", "-s", help="Seed; the same seed gives the same numbers."),
        workers: int = typer.Option(
            1, "--workers", "-w", help=f"Worker processes, 1 to {MAX_WORKERS} (results do not depend on it)."
        ),
        option: list[str] = typer.Option([], "--option", "-o", help="Game option key=value (repeatable)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object (no progress bar)."),
        record: Path | None = typer.Option(
            None, "--record", help="Write every game's record into this folder (checked writable before any game)."
        ),
        engine: str = typer.Option(
            "auto",
            "--engine",
            "-e",
            help="auto: the compiled fast engine when the game, options and agents all have kernels (learned "
            "too, where a policy ships), else the rules engine; rules or fast to choose (the fast engine keeps "
            "no records).",
        ),
    ) -> None:
        """Simulate GAMES games and print win share per seat (95% interval), mean scores and rounds."""
        check_workers(workers)
        if record is not None:
            check_output_folder("--record", record)
        cls = gamebag.entry(game).game_class
        n = players if players is not None else cls.default_players
        spec = SimulationSpec(
            game=game,
            players=n,
            agents=tuple(split_agents(agents, n)),
            games=games,
            seed=seed,
            options=parse_option_pairs(option),
        )
        validate_spec(spec)
        choose_engine(spec, engine, keep_records=record is not None)  # a bad --engine fails before any game
        spec = SimulationSpec(
            game=spec.game,
            players=spec.players,
            agents=spec.agents,
            games=spec.games,
            seed=spec.seed,
            options=dict(gamebag.make(game, n, **spec.options).options),
        )
        show_progress = not as_json and sys.stderr.isatty()
        with sigterm_as_interrupt():
            if show_progress:
                with progress_bar() as bar:
                    task = bar.add_task(f"simulating {game}", total=games)
                    result = run_simulation(spec, workers, record, lambda k: bar.advance(task, k), engine=engine)
            else:
                result = run_simulation(spec, workers, record, engine=engine)
        engine_notice(engine, result.engine_reason)
        if as_json:
            typer.echo(dumps(result.to_json()))
        else:
            print_result(result)


def print_result(result: SimulationResult) -> None:
    spec = result.spec
    console = Console()
    if result.interrupted:
        console.print(f"[bold yellow]interrupted[/bold yellow]: the first {result.played:,} of {spec.games:,} games")
    table = Table(title=f"{spec.game}: {result.played} games, {spec.players} players, seed {spec.seed}")
    for column in ("seat", "agent", "win share", "95% interval", "mean score"):
        table.add_column(column, justify="right" if column != "agent" else "left")
    for seat in range(spec.players):
        low, high = result.win_interval[seat]
        table.add_row(
            str(seat),
            spec.agents[seat],
            f"{result.win_share[seat]:.3f}",
            f"{low:.3f} - {high:.3f}",
            f"{result.mean_score[seat]:.2f}",
        )
    console.print(table)
    console.print(
        f"mean rounds: {result.mean_rounds:.2f}   games per second: {result.games_per_second:,.0f}"
        f"   options: {dict(spec.options) or 'defaults'}"
    )
    why = f" ({result.engine_reason})" if result.engine_reason else ""
    console.print(f"engine: {result.engine}{why}", markup=False)
    if "ended_by" in result.extra:
        reasons = ", ".join(f"{reason}: {count}" for reason, count in result.extra["ended_by"].items())
        console.print(f"how the games ended: {reasons}")
