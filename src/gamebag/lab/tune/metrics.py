"""What one cell of games measures, each figure with its 95% interval.

A tune compares designs by these figures; each carries an interval so that a trial's
advantage can be told from noise, and the goals and limits (``goals``) name them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.core.traits import Termination
from gamebag.lab.quality import QUALITY_METRICS
from gamebag.lab.stats import Estimate, fairness_p, wilson, winning_margins
from gamebag.lab.study import CellRun
from gamebag.sim.stats import Z95


@dataclass
class Measurement:
    """The figures of one configuration, measured on ``games`` games at ``seed``."""

    options: dict[str, Any]
    games: int
    seed: int
    engine: str
    metrics: dict[str, Estimate] = field(default_factory=dict)
    interrupted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options,
            "games": self.games,
            "seed": self.seed,
            "engine": self.engine,
            "metrics": {name: estimate.to_json() for name, estimate in self.metrics.items()},
        }


def _mean(values: npt.NDArray[np.float64]) -> Estimate:
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan)
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Estimate(mean, mean - half, mean + half)


def _rate(flags: npt.NDArray[np.bool_]) -> Estimate:
    n = len(flags)
    hits = float(flags.sum())
    low, high = wilson(hits, n)
    return Estimate(hits / n if n else math.nan, low, high)


def seat_gap(returns: npt.NDArray[np.float64]) -> Estimate:
    """The best seat's win share minus the worst seat's, with the interval of that difference.

    The two seats' shares come from one multinomial sample, so the variance of their difference
    is ``(p_i + p_j - (p_i - p_j)^2) / n``. The seats are picked after looking (the largest and
    smallest), which biases a small gap upwards; re-measuring the leaders at fresh seeds (the
    search does) removes that bias from the recommendation.
    """
    games = returns.shape[0]
    if games == 0 or returns.shape[1] < 2:
        return Estimate(0.0, 0.0, 0.0)
    shares = returns.mean(axis=0)
    best, worst = int(np.argmax(shares)), int(np.argmin(shares))
    # Shared wins split a game's point, so use each game's difference directly for the variance.
    difference = returns[:, best] - returns[:, worst]
    gap = float(difference.mean())
    half = Z95 * float(difference.std(ddof=1)) / math.sqrt(games) if games > 1 else math.inf
    return Estimate(gap, max(0.0, gap - half), gap + half)


def _fairness(returns: npt.NDArray[np.float64]) -> Estimate:
    p = fairness_p(returns.sum(axis=0))
    return Estimate(p, p, p)


def _margin(scores: npt.NDArray[np.float64], returns: npt.NDArray[np.float64], sign: int) -> Estimate:
    """The mean lead of the best score over the runner-up's in games with one winner, in the
    game's score direction (``sign``: a lowest-score-wins game measures from the lowest score)."""
    margins = winning_margins(scores, returns, sign)
    if len(margins) == 0:
        return Estimate(0.0, 0.0, 0.0)
    return _mean(margins)


def _capped(reason: str) -> bool:
    # Caps are named "... cap" or "..._cap" by the engines and the lab; the tie-break rounds
    # running out is an end the rules themselves define.
    return reason.replace("_", " ").endswith("cap") and reason != Termination.TIEBREAK_CAP.value


MetricFunction = Callable[[CellRun], Estimate]


def _returns(run: CellRun) -> npt.NDArray[np.float64]:
    return run.column("returns").reshape(run.games, run.cell.players).astype(np.float64)


def _scores(run: CellRun) -> npt.NDArray[np.float64]:
    return run.column("scores").reshape(run.games, run.cell.players).astype(np.float64)


# name -> (how it is measured, what it means). Every goal and limit names one of these.
METRICS: dict[str, tuple[MetricFunction, str]] = {
    "seat_gap": (lambda run: seat_gap(_returns(run)), "best seat's win share minus the worst seat's"),
    "fairness_p": (
        lambda run: _fairness(_returns(run)),
        "p-value of the chi-square test that every seat wins equally (no interval)",
    ),
    "mean_rounds": (lambda run: _mean(run.column("length").astype(np.float64)), "mean game length in rounds"),
    "shared_rate": (lambda run: _rate((_returns(run) > 0).sum(axis=1) > 1), "share of games won by several seats"),
    "capped_rate": (
        lambda run: _rate(np.array([_capped(reason) for reason in run.ended_by()], dtype=bool)),
        "share of games stopped by a safety cap on rounds or steps rather than by the rules' end",
    ),
    "winning_margin": (
        lambda run: _margin(_scores(run), _returns(run), run.cell.score_sign()),
        "mean points between first and second (in the game's score direction)",
    ),
}


# Not measured by games: how far a design lies from the game's defaults (``space.design_change``).
CHANGE = "change"
CHANGE_DOC = (
    "distance from the game's defaults: per searched option |value - default| / (HI - LO) for a range, "
    "1 for a listed value other than the default; summed"
)


def measure_run(run: CellRun) -> dict[str, Estimate]:
    """Every metric of a played cell."""
    return {name: function(run) for name, (function, _doc) in METRICS.items()}


# Measured only when a goal or limit names them: the quality metrics (traced games and a ladder,
# ``gamebag.lab.quality``) and Eigen Kweek's card spread (a card study, ``gamebag.lab.cards``).
CARD_SPREAD = "card_spread"
CARD_SPREAD_DOC = "largest minus smallest card worth (seat 0's win share with the card minus without it)"
SKILL_METRICS = ("skill_spread", "upset_rate")


def metric_names() -> tuple[str, ...]:
    return (*METRICS, CHANGE, *QUALITY_METRICS, CARD_SPREAD)


def card_spread(worths: list[Estimate]) -> Estimate:
    """The spread of the cards' worths; the interval runs from the two extremes' facing bounds to their far ones."""
    high = max(worths, key=lambda e: e.value)
    low = min(worths, key=lambda e: e.value)
    spread = high.value - low.value
    return Estimate(spread, max(0.0, high.low - low.high), high.high - low.low)
