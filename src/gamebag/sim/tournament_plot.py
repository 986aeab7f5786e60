"""A tournament as one picture: the win-rate matrix, the ratings and the skill ladder.

Drawn with matplotlib's object interface (no global pyplot state, no display
needed); the file type follows the extension (``.png``, ``.svg``, ``.pdf``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gamebag.core.errors import GamebagError
from gamebag.core.i18n import number
from gamebag.sim.plotwords import reader_fonts, reader_numbers
from gamebag.sim.tournament import TournamentResult
from gamebag.sim.translation import _, fmt

if TYPE_CHECKING:  # matplotlib is imported only when a plot is drawn, so the CLI starts fast
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SUPPORTED_SUFFIXES = (".png", ".svg", ".pdf")


def _short(spec: str, width: int = 22) -> str:
    return spec if len(spec) <= width else spec[: width - 1] + "…"


def plot_tournament(result: TournamentResult, path: Path) -> None:
    """Write the picture of ``result`` to ``path``."""
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise GamebagError(
            _(
                "cannot draw a plot as {name}: name a file ending in {suffixes}",
                name=repr(path.name),
                suffixes=", ".join(SUPPORTED_SUFFIXES),
            )
        )
    with reader_fonts():
        _plot(result, path)


def _plot(result: TournamentResult, path: Path) -> None:
    spec = result.spec
    panels = 3 if result.ladder is not None else 2
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.2 * panels, 5.6), layout="constrained")
    axes = figure.subplots(1, panels)
    figure.suptitle(
        _(
            "{game}, {players} players: {games} games per matchup, seed {seed}",
            game=spec.game,
            players=spec.players,
            games=number(spec.games),
            seed=spec.seed,
        ),
        fontsize=13,
    )
    _matrix_panel(result, axes[0], figure)
    _ratings_panel(result, axes[1])
    if result.ladder is not None:
        _ladder_panel(result, axes[2])
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)


def _matrix_panel(result: TournamentResult, axis: Axes, figure: Figure) -> None:
    names = [_short(a) for a in result.spec.agents]
    count = len(names)
    values = [[cell.rate if cell is not None else float("nan") for cell in row] for row in result.matrix]
    image = axis.imshow(values, cmap="RdBu", vmin=0.0, vmax=1.0)
    for i, row in enumerate(result.matrix):
        for j, cell in enumerate(row):
            if cell is None:
                continue
            dark = abs(cell.rate - 0.5) > 0.3
            axis.text(
                j,
                i,
                f"{fmt(cell.rate, '.2f')}\n{fmt(cell.low, '.2f')}–{fmt(cell.high, '.2f')}",
                ha="center",
                va="center",
                fontsize=10 if count <= 4 else 8,
                color="white" if dark else "black",
            )
    axis.set_xticks(range(count), names, rotation=30, ha="right")
    axis.set_yticks(range(count), names)
    axis.set_xlabel(_("opponent"))
    axis.set_title(_("row finishes ahead of column\n(rate, 95% interval)"))
    reader_numbers(figure.colorbar(image, ax=axis, shrink=0.8).ax)


def _ratings_panel(result: TournamentResult, axis: Axes) -> None:
    ratings = list(reversed(result.ratings))  # best at the top
    positions = range(len(ratings))
    axis.barh(
        positions,
        [r.mu for r in ratings],
        xerr=[3 * r.sigma for r in ratings],
        color="#4c72b0",
        ecolor="#333333",
        capsize=4,
    )
    axis.set_yticks(positions, [_short(r.agent) for r in ratings])
    axis.set_xlabel(_("openskill mu (bars: ± 3 sigma)"))
    reader_numbers(axis, "x")
    axis.set_title(_("ratings"))
    for position, rating in zip(positions, ratings, strict=True):
        axis.text(rating.mu, position, " " + fmt(rating.mu, ".1f"), va="bottom", ha="left", fontsize=8)


def _ladder_panel(result: TournamentResult, axis: Axes) -> None:
    ladder = result.ladder
    assert ladder is not None  # only called when there is a ladder
    budgets = list(ladder.budgets)
    for column, opponent in enumerate(ladder.field):
        rates = [row[column] for row in ladder.rates]
        line = axis.plot(
            budgets, [r.rate for r in rates], marker="o", label=_("vs {opponent}", opponent=_short(opponent))
        )
        axis.fill_between(
            budgets, [r.low for r in rates], [r.high for r in rates], alpha=0.18, color=line[0].get_color()
        )
    fair = 1.0 / result.spec.players
    axis.axhline(fair, color="grey", linestyle="--", linewidth=1, label=_("even ({share})", share=fmt(fair, ".2f")))
    axis.set_xscale("log", base=2)
    axis.set_xticks(budgets, [fmt(b, "g") for b in budgets])
    axis.set_ylim(0.0, 1.0)
    axis.set_xlabel(_("{agent} {parameter} per move", agent=ladder.agent, parameter=ladder.parameter))
    axis.set_ylabel(_("win share (95% band)"))
    reader_numbers(axis)
    axis.set_title(_("skill ladder: {agent} budget doubling", agent=ladder.agent))
    axis.legend(loc="best", fontsize=8)
    axis.grid(alpha=0.3)
