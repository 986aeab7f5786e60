"""An option sweep as a picture: how the varied options move game length, shared wins and seat balance.

A study that varies options (``--vary coins=10/10/10/0/5,20/10/5/0/0``) gets one point per cell:
the x axis holds the varied options' values (an option group such as Eigen Kweek's ``coins``
shown as one value), and the cells of one player count are joined by a line. Three panels, each
figure with its 95% interval: the mean game length in rounds, the share of games won by several
seats, and the seat gap (the best seat's win share minus the worst's; a filled marker where the
fairness test rejects equal seats at the 5% level). The figures are the ones ``gamebag tune``
measures (``gamebag.lab.tune.metrics``), so a sweep and a search speak the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamebag.lab.cells import shown_options
from gamebag.lab.results import BalanceResult
from gamebag.lab.stats import Estimate
from gamebag.lab.translation import N_, _, fmt, ngettext
from gamebag.lab.tune.metrics import measure_run
from gamebag.sim.plotwords import reader_numbers

if TYPE_CHECKING:  # matplotlib is imported only when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

# (metric, axis label) of the panels, top to bottom.
PANELS = (
    ("mean_rounds", N_("mean rounds")),
    ("shared_rate", N_("shared wins\n(share of games)")),
    ("seat_gap", N_("seat gap\n(best - worst seat)")),
)
DEFAULTS = "defaults"  # the x value of a cell at the default options (shown in the reader's language)
PANEL_HEIGHT = 2.1  # inches per panel
UNFAIR_P = 0.05


@dataclass(frozen=True)
class SweepPoint:
    """One cell of a sweep: its player count, the varied options' values and its figures."""

    cell: int
    players: int
    value: str  # the varied options as shown on the x axis, e.g. ``coins=10/10/10/0/5``
    metrics: dict[str, Estimate]

    def to_json(self) -> dict[str, Any]:
        return {
            "cell": self.cell,
            "players": self.players,
            "value": self.value,
            "metrics": {name: estimate.to_json() for name, estimate in self.metrics.items()},
        }


def _shown(result: BalanceResult) -> list[dict[str, str]]:
    """Each cell's options as shown (an option group as one value), in the cells' order."""
    return [dict(shown_options(cell.cell.game, cell.cell.options)) for cell in result.cells]


def varied_names(result: BalanceResult) -> list[str]:
    """The shown options (a group counts as one) whose value differs between cells, in the cells' order."""
    shown = _shown(result)
    names: dict[str, None] = {}
    for options in shown:
        names.update(dict.fromkeys(options))
    return [name for name in names if len({options.get(name) for options in shown}) > 1]


def is_sweep(result: BalanceResult) -> bool:
    """Whether some player count has cells with different option values (a sweep to draw)."""
    if not varied_names(result):
        return False
    counts: dict[int, int] = {}
    for cell in result.cells:
        counts[cell.cell.players] = counts.get(cell.cell.players, 0) + 1
    return max(counts.values()) > 1


def sweep_points(result: BalanceResult) -> list[SweepPoint]:
    """One point per played cell (an interrupted study draws what finished)."""
    varied = varied_names(result)
    runs = {run.cell.index: run for run in result.runs if run.games > 0}
    points = []
    for cell, options in zip(result.cells, _shown(result), strict=True):
        run = runs.get(cell.cell.index)
        if run is None:
            continue
        value = " ".join(f"{name}={options[name]}" for name in varied if name in options) or DEFAULTS
        points.append(SweepPoint(cell.cell.index, cell.cell.players, value, measure_run(run)))
    return points


def sweep_panels(result: BalanceResult, axes: list[Axes]) -> None:
    """Draw the three panels of ``PANELS`` onto ``axes`` (top to bottom; the x axis is shared)."""
    points = sweep_points(result)
    values = list(dict.fromkeys(point.value for point in points))
    counts = sorted({point.players for point in points})
    for index, count in enumerate(counts):
        mine = [point for point in points if point.players == count]
        # Player counts sit side by side at each value so their intervals do not hide each other.
        dodge = (index - (len(counts) - 1) / 2) * 0.12
        xs = [values.index(point.value) + dodge for point in mine]
        for axis, (metric, _label) in zip(axes, PANELS, strict=True):
            estimates = [point.metrics[metric] for point in mine]
            centre = [e.value for e in estimates]
            below = [max(0.0, e.value - e.low) for e in estimates]
            above = [max(0.0, e.high - e.value) for e in estimates]
            lines = axis.errorbar(
                xs,
                centre,
                yerr=[below, above],
                fmt="-",
                capsize=3,
                linewidth=1.2,
                label=ngettext("{n} player", "{n} players", count),
            )
            colour = lines[0].get_color()
            unfair = [point.metrics["fairness_p"].value < UNFAIR_P for point in mine]
            for x, y, filled in zip(xs, centre, unfair, strict=True):
                face = colour if (filled or metric != "seat_gap") else "white"
                axis.plot([x], [y], "o", color=colour, markerfacecolor=face, markersize=5)
    for axis, (_metric, label) in zip(axes, PANELS, strict=True):
        axis.set_ylabel(_(label), fontsize=8)
        axis.grid(alpha=0.3)
        reader_numbers(axis)
    # The x axis is shared: the bottom panel's ticks and labels serve every panel.
    for axis in axes[:-1]:
        axis.tick_params(labelbottom=False)
    shown = [_("defaults") if value == DEFAULTS else value for value in values]
    axes[-1].set_xticks(range(len(values)), shown, rotation=30, ha="right", fontsize=7)
    axes[-1].set_xlabel(
        _(
            "varied options (95% intervals; seat gap: filled where the fairness test gives p < {p})",
            p=fmt(UNFAIR_P, "g"),
        ),
        fontsize=8,
    )
    axes[0].legend(fontsize=7)
    axes[0].set_title(_("{game}: what the varied options change", game=result.game), fontsize=10)


def sweep_figure(result: BalanceResult) -> Figure:
    """The sweep's panels as a figure of their own (the report's)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10.0, 0.9 + PANEL_HEIGHT * len(PANELS)), layout="constrained")
    axes = figure.subplots(len(PANELS), 1, sharex=True, squeeze=False)
    sweep_panels(result, list(axes[:, 0]))
    return figure
