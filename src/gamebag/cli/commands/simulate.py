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
from gamebag.core.i18n import number
from gamebag.core.options import parse_option_pairs
from gamebag.lab.translation import _, fmt, shown
from gamebag.sim.simulate import (
    MAX_GAMES,
    SimulationResult,
    SimulationSpec,
    choose_engine,
    run_simulation,
    validate_spec,
)


def register(app: typer.Typer) -> None:
    @app.command(
        "simulate",
        help=_("Simulate GAMES games and print win share per seat (95% interval), mean scores and rounds."),
    )
    def simulate(
        game: str = typer.Argument(..., help=_("Game id, as `gamebag list` shows it.")),
        players: int = typer.Option(None, "--players", "-n", help=_("Number of players (default: the game's).")),
        games: int = typer.Option(
            1000, "--games", "-g", help=_("How many games to play (1 to {most}).", most=number(MAX_GAMES))
        ),
        agents: str = typer.Option(
            "random", "--agents", "-a", help=_("One agent per seat, comma-separated, or one for all seats.")
        ),
        seed: int = typer.Option(0, "--seed", "-s", help=_("Seed; the same seed gives the same numbers.")),
        workers: int = typer.Option(
            1,
            "--workers",
            "-w",
            help=_("Worker processes, 1 to {most} (results do not depend on it).", most=MAX_WORKERS),
        ),
        option: list[str] = typer.Option([], "--option", "-o", help=_("Game option key=value (repeatable).")),
        as_json: bool = typer.Option(False, "--json", help=_("Print one JSON object (no progress bar).")),
        record: Path | None = typer.Option(
            None, "--record", help=_("Write every game's record into this folder (checked writable before any game).")
        ),
        engine: str = typer.Option(
            "auto",
            "--engine",
            "-e",
            help=_(
                "auto: the compiled fast engine when the game, options and agents all have kernels (learned "
                "too, where a policy ships), else the rules engine; rules or fast to choose (the fast engine keeps "
                "no records)."
            ),
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
                    task = bar.add_task(_("simulating {game}", game=game), total=games)
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
        console.print(
            _(
                "[bold yellow]interrupted[/bold yellow]: the first {played} of {games} games",
                played=number(result.played),
                games=number(spec.games),
            )
        )
    table = Table(
        title=_(
            "{game}: {games} games, {players} players, seed {seed}",
            game=spec.game,
            games=number(result.played),
            players=spec.players,
            seed=spec.seed,
        )
    )
    for column in (_("seat"), _("agent"), _("win share"), _("95% interval"), _("mean score")):
        table.add_column(column, justify="left" if column == _("agent") else "right")
    for seat in range(spec.players):
        low, high = result.win_interval[seat]
        table.add_row(
            str(seat),
            spec.agents[seat],
            fmt(result.win_share[seat], ".3f"),
            f"{fmt(low, '.3f')} - {fmt(high, '.3f')}",
            fmt(result.mean_score[seat], ".2f"),
        )
    console.print(table)
    console.print(
        _(
            "mean rounds: {rounds}   games per second: {speed}   options: {options}",
            rounds=fmt(result.mean_rounds, ".2f"),
            speed=fmt(result.games_per_second, ",.0f"),
            options=dict(spec.options) or _("defaults"),
        )
    )
    if result.engine_reason:
        line = _("engine: {engine} ({reason})", engine=result.engine, reason=shown(result.engine_reason))
    else:
        line = _("engine: {engine}", engine=result.engine)
    console.print(line, markup=False)
    if "ended_by" in result.extra:
        reasons = ", ".join(f"{reason}: {number(count)}" for reason, count in result.extra["ended_by"].items())
        console.print(_("how the games ended: {reasons}", reasons=reasons))
