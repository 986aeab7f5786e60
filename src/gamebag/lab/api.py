"""The lab's entry points: ``plan`` (the cells of a study), ``balance`` (run it) and ``card_study``.

``balance`` plays every cell (player count x option values), on the compiled
engine where one plays the cell and on the rules engine otherwise, in this
process, in worker processes or on Ray; the numbers are the same on all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gamebag
from gamebag.agents.registry import split_agent_specs
from gamebag.core.options import OptionValue
from gamebag.lab.cells import Cell, build_cells, parse_players, parse_vary
from gamebag.lab.execute import check_executor, make_executor
from gamebag.lab.quality import DEFAULT_TRACE_GAMES, check_quality_limits, measure_quality
from gamebag.lab.results import BalanceResult, analyse_cell, compare_cells
from gamebag.lab.study import DEFAULT_MAX_ROUNDS, CellRun, check_limits, run_study
from gamebag.lab.translation import N_, say
from gamebag.lab.warnings import REFERENCE_GAMES, probe_alike, reference_length, study_warnings

Players = int | str | Sequence[int] | None
Vary = Mapping[str, Sequence[OptionValue]] | Sequence[str] | None


def plan(
    game: str,
    players: Players = None,
    agents: str | Sequence[str] | None = None,
    vary: Vary = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    population: str | Sequence[str] | None = None,
) -> tuple[list[Cell], list[str]]:
    """The validated cells of a study and the notices about them (nothing is played)."""
    counts = _players(game, players)
    pairs = _vary(vary)
    return build_cells(game, counts, _specs(agents), pairs, options, seed, _specs(population))


def _specs(agents: str | Sequence[str] | None) -> list[str] | None:
    if agents is None:
        return None
    return split_agent_specs(agents) if isinstance(agents, str) else list(agents)


def balance(
    game: str,
    players: Players = None,
    agents: str | Sequence[str] | None = None,
    vary: Vary = None,
    options: Mapping[str, Any] | None = None,
    games: int = 1000,
    until: float | None = None,
    seed: int = 0,
    workers: int = 1,
    executor: str = "local",
    address: str | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    progress: Callable[[int, int], None] | None = None,
    on_cell_done: Callable[[CellRun], None] | None = None,
    metrics: bool = False,
    metrics_games: int = DEFAULT_TRACE_GAMES,
    population: str | Sequence[str] | None = None,
) -> BalanceResult:
    """Run a balance study of ``game`` and return its figures (see :class:`BalanceResult`).

    ``players``: a count, ``"2-8"``, ``"2,4"`` or a list (default: the game's).
    ``agents``: one spec for every seat or one per seat (default: the strongest fast agent).
    ``vary``: ``{"rotate_start": [False, True]}`` or ``["rotate_start=false,true"]``; cells are
    the product. ``games`` per cell, or fewer with ``until`` (stop a cell once every seat's 95%
    interval is narrower than this). ``progress(cell, games)`` is called as games finish.
    ``population``: instead of ``agents``, agents each game draws its seats from (seeded by the game).
    ``metrics``: add each cell's game-quality metrics (``gamebag.lab.quality``) from
    ``metrics_games`` traced games and a ladder of agents.
    """
    check_limits(games, until, max_rounds)
    check_quality_limits(metrics_games)
    check_executor(executor, workers, address)
    cells, notices = plan(game, players, agents, vary, options, seed, population)
    result = run_cells(
        game, cells, notices, games, until, seed, workers, executor, address, max_rounds, progress, on_cell_done
    )
    if metrics and not result.interrupted:
        add_quality(result, metrics_games)
    return result


def add_quality(result: BalanceResult, traced_games: int) -> None:
    """Measure every cell's game-quality metrics; Ctrl-C keeps the cells already measured."""
    try:
        for cell in result.cells:
            c = cell.cell
            cell.quality = measure_quality(c.game, c.players, dict(c.options), c.agents, c.seed, traced_games)
    except KeyboardInterrupt:
        result.interrupted = True
        result.warnings.insert(0, "interrupted: some cells have no quality metrics")


def run_cells(
    game: str,
    cells: list[Cell],
    notices: list[str],
    games: int,
    until: float | None,
    seed: int,
    workers: int,
    executor: str,
    address: str | None,
    max_rounds: int,
    progress: Callable[[int, int], None] | None,
    on_cell_done: Callable[[CellRun], None] | None,
) -> BalanceResult:
    """Play validated ``cells`` and analyse them."""
    run_executor = make_executor(executor, workers, address, progress)
    study = run_study(cells, run_executor, games, until, max_rounds, on_cell_done)
    played = [run for run in study.cells if run.games > 0]
    results = [analyse_cell(run) for run in played]
    for run, result in zip(played, results, strict=True):
        if run.engine != "rules" and result.alike_rate is None and not study.interrupted:
            result.alike_rate = probe_alike(run.cell, max_rounds)
    for run in study.cells:
        if run.engine_reason is not None and run.engine == "rules":
            notices.append(say(N_("{cell}: rules engine ({reason})"), cell=run.cell.label, reason=run.engine_reason))
            break
    comparisons = compare_cells(played)
    cache: dict[tuple[int, tuple[str, ...]], float] = {}

    def reference(cell: Cell) -> float:
        key = (cell.players, cell.agents)
        if key not in cache:
            cache[key] = reference_length(cell, max_rounds, min(games, REFERENCE_GAMES))
        return cache[key]

    warnings = study_warnings(played, results, max_rounds, None if study.interrupted else reference)
    if study.interrupted:
        warnings.insert(0, "interrupted: the figures cover the games finished before Ctrl-C")
    return BalanceResult(
        game=game,
        seed=seed,
        cells=results,
        comparisons=comparisons,
        warnings=warnings,
        notices=notices,
        interrupted=study.interrupted,
        seconds=study.seconds,
        runs=study.cells,
    )


def _players(game: str, players: Players) -> tuple[int, ...]:
    if players is None:
        return (gamebag.entry(game).game_class.default_players,)
    if isinstance(players, int):
        return parse_players(str(players), game)
    if isinstance(players, str):
        return parse_players(players, game)
    return parse_players(",".join(str(int(n)) for n in players), game)


def _vary(vary: Vary) -> list[tuple[str, list[str]]]:
    if vary is None:
        return []
    if isinstance(vary, Mapping):
        return [(name, [_text(v) for v in values]) for name, values in vary.items()]
    return parse_vary(list(vary))


def _text(value: OptionValue) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple | list):
        return ",".join(value)
    return "none" if value is None else str(value)
