"""A study as pictures: seat win shares with 95% intervals per cell, and game-length histograms
(and, for a study that varies options, what they change: ``gamebag.lab.sweep``).

Drawn with matplotlib's object interface (no global pyplot state, no display);
the file type follows the extension (``.png``, ``.svg``, ``.pdf``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gamebag.core.errors import GamebagError
from gamebag.lab.results import BalanceResult, CellResult
from gamebag.lab.translation import _, fmt
from gamebag.sim.plotwords import reader_fonts, reader_numbers

if TYPE_CHECKING:  # matplotlib is imported only when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SUPPORTED_SUFFIXES = (".png", ".svg", ".pdf")
MAX_HISTOGRAMS = 12


def check_plot_path(path: Path) -> None:
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise GamebagError(
            _(
                "cannot draw a plot as {name}: name a file ending in {suffixes}",
                name=repr(path.name),
                suffixes=", ".join(SUPPORTED_SUFFIXES),
            )
        )


SEATS_PER_ROW = 24  # a row of the shares figure holds cells with about this many seats in all
FIGURE_WIDTH = 10.0  # inches: the figures fit a page (and the report's column) whatever the study


def share_rows(result: BalanceResult) -> list[list[CellResult]]:
    """The cells in rows of at most about ``SEATS_PER_ROW`` seats (a cell is never split)."""
    rows: list[list[CellResult]] = [[]]
    seats = 0
    for cell in result.cells:
        if rows[-1] and seats + cell.cell.players > SEATS_PER_ROW:
            rows.append([])
            seats = 0
        rows[-1].append(cell)
        seats += cell.cell.players
    return rows


def row_width(cells: list[CellResult]) -> float:
    """The x extent a row of cells takes in ``shares_panel``."""
    return sum(cell.cell.players + 1.5 for cell in cells) - 0.5


def wrap_label(label: str, width: int) -> list[str]:
    """``label`` in lines of about ``width`` characters, broken between words, and after the ``=`` of a
    word too long for a line (``coins=10/10/10/0/5``), so no label runs under its neighbours."""
    words: list[str] = []
    for word in label.split():
        name, sep, value = word.partition("=")
        words.extend([name + sep, value] if sep and len(word) > width and value else [word])
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= width and not lines[-1].endswith("="):
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def shares_panel(
    result: BalanceResult, axis: Axes, cells: list[CellResult] | None = None, width: float | None = None
) -> None:
    """Each cell's seat shares with their intervals, against the fair share 1/n (dashed).

    ``width``: the x extent to draw (the widest row's, so every row of a figure has one scale).
    """
    position = 0.0
    ticks, labels = [], []
    for cell in result.cells if cells is None else cells:
        n = cell.cell.players
        xs = [position + seat for seat in range(n)]
        lows = [max(0.0, cell.win_share[s] - cell.win_share_ci[s][0]) for s in range(n)]
        highs = [max(0.0, cell.win_share_ci[s][1] - cell.win_share[s]) for s in range(n)]
        axis.errorbar(xs, cell.win_share, yerr=[lows, highs], fmt="o", capsize=3, color="tab:blue")
        axis.hlines(1 / n, xs[0] - 0.4, xs[-1] + 0.4, colors="tab:red", linestyles="dashed", linewidth=1)
        ticks.append(position + (n - 1) / 2)
        lines = wrap_label(cell.cell.label, max(10, int(2.2 * n)))  # characters a label may take
        labels.append("\n".join([*lines, f"p={fmt(cell.fairness_p, '.2g')}"]))
        position += n + 1.5
    axis.set_xticks(ticks, labels, fontsize=7)
    axis.set_xlim(-1.0, max(position - 0.5, width or 0.0))
    axis.set_ylabel(_("win share by seat\n(seat 0 first, 95% interval)"), fontsize=8)
    axis.grid(axis="y", alpha=0.3)
    reader_numbers(axis)


def lengths_panel(result: BalanceResult, axis: Axes) -> None:
    """Each cell's histogram of game length (the first ``MAX_HISTOGRAMS`` cells)."""
    for cell in result.cells[:MAX_HISTOGRAMS]:
        histogram = cell.length.histogram
        if not histogram or cell.games == 0:
            continue
        starts = [start for start, _count in histogram]
        shares = [count / cell.games for _start, count in histogram]
        axis.step(starts, shares, where="post", label=cell.cell.label, linewidth=1.2)
    axis.set_xlabel(_("game length (rounds)"))
    axis.set_ylabel(_("share of games"))
    reader_numbers(axis, "both")
    axis.set_title(_("{game}: game length per cell", game=result.game), fontsize=11)
    if result.cells:
        axis.legend(fontsize=7)
    axis.grid(alpha=0.3)


def _title(result: BalanceResult) -> str:
    return _("{game}: seat shares per cell (dashed: fair share; p: fairness test)", game=result.game)


def shares_figure(result: BalanceResult) -> Figure:
    from matplotlib.figure import Figure

    rows = share_rows(result)
    figure = Figure(figsize=(FIGURE_WIDTH, 0.6 + 3.3 * len(rows)), layout="constrained")
    axes = figure.subplots(len(rows), 1, squeeze=False)
    widest = max(row_width(cells) for cells in rows)
    for axis, cells in zip(axes[:, 0], rows, strict=True):
        shares_panel(result, axis, cells, widest)
    figure.suptitle(_title(result), fontsize=11)
    return figure


def lengths_figure(result: BalanceResult) -> Figure:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7.5, 5.0), layout="constrained")
    lengths_panel(result, figure.subplots())
    return figure


def plot_study(result: BalanceResult, path: Path) -> None:
    """Write shares and length histograms side by side to ``path``."""
    check_plot_path(path)
    with reader_fonts():
        _plot_study(result, path)


def _plot_study(result: BalanceResult, path: Path) -> None:
    from matplotlib.figure import Figure

    from gamebag.lab.sweep import PANEL_HEIGHT, PANELS, is_sweep, sweep_panels

    rows = share_rows(result)
    # A study that varies options also shows what they change (``gamebag.lab.sweep``).
    sweep = len(PANELS) if is_sweep(result) else 0
    heights = [3.3] * len(rows) + [PANEL_HEIGHT] * sweep + [4.0]
    figure = Figure(figsize=(FIGURE_WIDTH, 0.6 + sum(heights)), layout="constrained")
    axes = figure.subplots(len(heights), 1, height_ratios=heights)
    widest = max(row_width(cells) for cells in rows)
    for axis, cells in zip(axes[: len(rows)], rows, strict=True):
        shares_panel(result, axis, cells, widest)
    if sweep:
        panels = list(axes[len(rows) : len(rows) + sweep])
        for axis in panels[1:]:
            axis.sharex(panels[0])
        sweep_panels(result, panels)
    lengths_panel(result, axes[-1])
    figure.suptitle(_title(result), fontsize=11)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
