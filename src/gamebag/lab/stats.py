"""The statistics of a balance study: intervals, the fairness test, and comparisons of cells.

Win shares count a shared win as ``1/k`` to each of ``k`` winners, as the rules
engine's ``returns`` do. Intervals are Wilson score intervals (good near 0 and 1,
where seat shares of 8-player games live). The fairness test is Pearson's
chi-square test of the seats' wins against equal shares; with fractional shared
wins the seats' counts vary a little less than a multinomial's, so the test is
slightly conservative. Cells are compared with two-sample z tests (shares) and
Welch's test on mean length, each with a 95% interval of the difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import erfc, sqrt

import numpy as np
import numpy.typing as npt
from scipy import stats as scipy_stats

from gamebag.core.results import checked_sign
from gamebag.sim.stats import Z95, wilson_interval

FloatArray = npt.NDArray[np.float64]


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``successes`` out of ``trials``."""
    return wilson_interval(successes, trials)


def winning_margins(scores: FloatArray, returns: FloatArray, sign: int) -> FloatArray:
    """For each game with one winner, how far the best score is ahead of the runner-up's, in points.

    ``scores`` and ``returns`` are ``[games, seats]``; ``sign`` is the game's ``score_sign()``,
    so in a lowest-score-wins game the margin runs from the lowest score to the next lowest
    (``gamebag.core.results.winner_margin``, row by row). Empty with fewer than two seats.
    """
    single = (returns > 0).sum(axis=1) == 1
    if scores.shape[1] < 2 or not np.any(single):
        return np.array([], dtype=np.float64)
    ordered: FloatArray = np.sort(checked_sign(sign) * scores[single].astype(np.float64), axis=1)
    margins: FloatArray = ordered[:, -1] - ordered[:, -2]
    return margins


def fairness_p(wins: FloatArray) -> float:
    """P-value of Pearson's chi-square test that every seat wins an equal share.

    ``wins`` holds each seat's wins (shared wins fractional). A small value says
    the seats are not equal; 1.0 when there is nothing to test (one seat, no wins).
    """
    total = float(np.sum(wins))
    seats = len(wins)
    if seats < 2 or total <= 0:
        return 1.0
    expected = total / seats
    statistic = float(np.sum((wins - expected) ** 2) / expected)
    return float(scipy_stats.chi2.sf(statistic, seats - 1))


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return erfc(abs(z) / sqrt(2.0))


@dataclass(frozen=True)
class Difference:
    """``b - a`` for one quantity of two cells: estimate, 95% interval, two-sided p-value."""

    estimate: float
    low: float
    high: float
    p: float

    def to_json(self) -> dict[str, object]:
        return {"difference": self.estimate, "ci95": [self.low, self.high], "p": self.p}


def share_difference(wins_a: float, games_a: int, wins_b: float, games_b: int) -> Difference:
    """Difference of two win shares: unpooled interval, pooled two-proportion z test."""
    pa, pb = wins_a / games_a, wins_b / games_b
    estimate = pb - pa
    half = Z95 * sqrt(pa * (1 - pa) / games_a + pb * (1 - pb) / games_b)
    pooled = (wins_a + wins_b) / (games_a + games_b)
    spread = sqrt(pooled * (1 - pooled) * (1 / games_a + 1 / games_b))
    p = 1.0 if spread == 0 else normal_p(estimate / spread)
    return Difference(estimate, estimate - half, estimate + half, p)


def mean_difference(a: FloatArray, b: FloatArray) -> Difference:
    """Difference of two means (Welch): normal interval and p-value (the samples are large)."""
    mean_a, mean_b = float(np.mean(a)), float(np.mean(b))
    var_a = float(np.var(a, ddof=1)) if len(a) > 1 else 0.0
    var_b = float(np.var(b, ddof=1)) if len(b) > 1 else 0.0
    spread = sqrt(var_a / len(a) + var_b / len(b))
    estimate = mean_b - mean_a
    if spread == 0:
        return Difference(estimate, estimate, estimate, 1.0 if estimate == 0 else 0.0)
    return Difference(estimate, estimate - Z95 * spread, estimate + Z95 * spread, normal_p(estimate / spread))


@dataclass(frozen=True)
class Summary:
    """Mean, median and 10th/90th percentiles of a sample, with its histogram."""

    mean: float
    median: float
    p10: float
    p90: float
    histogram: tuple[tuple[float, int], ...]  # (bin start, count)

    def to_json(self) -> dict[str, object]:
        return {
            "mean": self.mean,
            "median": self.median,
            "p10": self.p10,
            "p90": self.p90,
            "histogram": [[start, count] for start, count in self.histogram],
        }


MAX_BINS = 40


def summarise(values: FloatArray) -> Summary:
    """Summary of ``values``: one bin per integer while they span few values, else 40 equal bins."""
    if len(values) == 0:
        return Summary(0.0, 0.0, 0.0, 0.0, ())
    low, high = float(np.min(values)), float(np.max(values))
    integral = bool(np.all(values == np.round(values)))
    if integral and high - low + 1 <= MAX_BINS:
        edges = np.arange(low, high + 2)
    else:
        edges = np.linspace(low, high if high > low else low + 1, MAX_BINS + 1)
    counts, edges = np.histogram(values, bins=edges)
    return Summary(
        mean=float(np.mean(values)),
        median=float(np.median(values)),
        p10=float(np.percentile(values, 10)),
        p90=float(np.percentile(values, 90)),
        histogram=tuple((float(e), int(c)) for e, c in zip(edges[:-1], counts, strict=True)),
    )


@dataclass(frozen=True)
class Estimate:
    """A figure and its 95% interval."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}

    def overlaps(self, other: Estimate) -> bool:
        return self.low <= other.high and other.low <= self.high
