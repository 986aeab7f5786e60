"""What a tune optimises (``--goal``) and what must hold (``--limit``), over the figures of ``metrics``.

Goals, each minimised:
- ``fair``: the gap between the best and the worst seat's win share (``seat_gap``);
- ``length=R``: the distance of the mean game length from ``R`` rounds (``mean_rounds``);
- ``short``/``long``: the mean length itself, or its negation;
- ``change``: the distance of the design from the game's defaults (the smallest change that works);
- ``skill``: the largest ``skill_spread`` (ratings of a ladder of agents; a game of luck has none);
- ``drama``: the most ``lead_changes`` per game;
- ``cards``: the smallest ``card_spread`` (Eigen Kweek: the characters' worths closest together);
- ``min:METRIC`` / ``max:METRIC``: any metric of ``metrics.METRICS``.
Limits: ``METRIC<=X`` or ``METRIC>=X``; a trial that breaks one is infeasible and never recommended.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gamebag.core.errors import GamebagError
from gamebag.core.i18n import number
from gamebag.lab.stats import Estimate
from gamebag.lab.translation import _
from gamebag.lab.tune.metrics import CARD_SPREAD, CHANGE, metric_names

MAX_GOALS = 4
MAX_LIMITS = 10
GOAL_HELP = "fair, length=R, short, long, change, skill, drama, cards, min:METRIC or max:METRIC"


@dataclass(frozen=True)
class Goal:
    """One objective: ``metric`` transformed so that smaller is better."""

    text: str
    metric: str
    target: float | None = None  # length=R: minimise |metric - target|
    sign: float = 1.0  # -1 maximises the metric

    def value(self, metrics: Mapping[str, Estimate]) -> Estimate:
        """The objective (smaller is better) with its interval, from a trial's metrics."""
        figure = metrics[self.metric]
        if self.target is not None:
            low, high = figure.low - self.target, figure.high - self.target
            distance = abs(figure.value - self.target)
            nearest = 0.0 if low <= 0.0 <= high else min(abs(low), abs(high))
            return Estimate(distance, nearest, max(abs(low), abs(high)))
        if self.sign > 0:
            return figure
        return Estimate(-figure.value, -figure.high, -figure.low)


@dataclass(frozen=True)
class Limit:
    """``metric <= bound`` or ``metric >= bound``."""

    text: str
    metric: str
    at_most: bool
    bound: float

    def violation(self, metrics: Mapping[str, Estimate]) -> float:
        """How far the point estimate lies outside the limit (0 or less: the limit holds)."""
        value = metrics[self.metric].value
        if math.isnan(value):
            return math.inf
        return value - self.bound if self.at_most else self.bound - value


def _metric(name: str, where: str) -> str:
    if name not in metric_names():
        raise GamebagError(
            _(
                "{where}: {name} is not a metric; metrics: {metrics}",
                where=where,
                name=repr(name),
                metrics=", ".join(metric_names()),
            )
        )
    return name


def parse_goals(items: Sequence[str]) -> list[Goal]:
    if not items:
        raise GamebagError(_("give at least one --goal ({goals})", goals=GOAL_HELP))
    if len(items) > MAX_GOALS:
        raise GamebagError(_("at most {most} --goal values, not {count}", most=MAX_GOALS, count=len(items)))
    goals: list[Goal] = []
    for item in items:
        text = item.strip()
        name, sep, argument = text.partition("=")
        if text == "fair":
            goals.append(Goal(text, "seat_gap"))
        elif name == "length" and sep:
            try:
                target = float(argument)
            except ValueError:
                raise GamebagError(
                    _("--goal {given}: write length=R with R a number of rounds, e.g. length=12", given=repr(text))
                ) from None
            if not 0 < target <= 100_000:
                raise GamebagError(
                    _("--goal {given}: R must be from 0 to {most} rounds", given=repr(text), most=number(100_000))
                )
            goals.append(Goal(text, "mean_rounds", target=target))
        elif text == "change":
            goals.append(Goal(text, CHANGE))
        elif text == "skill":
            goals.append(Goal(text, "skill_spread", sign=-1.0))
        elif text == "drama":
            goals.append(Goal(text, "lead_changes", sign=-1.0))
        elif text == "cards":
            goals.append(Goal(text, CARD_SPREAD))
        elif text == "short":
            goals.append(Goal(text, "mean_rounds"))
        elif text == "long":
            goals.append(Goal(text, "mean_rounds", sign=-1.0))
        elif text.startswith(("min:", "max:")):
            goals.append(Goal(text, _metric(text[4:], f"--goal {text}"), sign=1.0 if text[:3] == "min" else -1.0))
        else:
            raise GamebagError(_("--goal {given} is not known; goals: {goals}", given=repr(text), goals=GOAL_HELP))
    if len({g.text for g in goals}) != len(goals):
        raise GamebagError(_("a --goal is given twice"))
    return goals


_LIMIT = re.compile(r"^\s*([a-z_]+)\s*(<=|>=)\s*(-?[0-9.eE+-]+)\s*$")


def parse_limits(items: Sequence[str]) -> list[Limit]:
    if len(items) > MAX_LIMITS:
        raise GamebagError(_("at most {most} --limit values, not {count}", most=MAX_LIMITS, count=len(items)))
    limits = []
    for item in items:
        match = _LIMIT.match(item)
        if match is None:
            raise GamebagError(
                _(
                    "--limit {given} must be written METRIC<=X or METRIC>=X, e.g. mean_rounds<=4.6",
                    given=repr(item),
                )
            )
        name, operator, written = match.groups()
        try:
            bound = float(written)
        except ValueError:
            raise GamebagError(
                _("--limit {given}: {value} is not a number", given=repr(item), value=repr(written))
            ) from None
        limits.append(Limit(item.replace(" ", ""), _metric(name, f"--limit {item}"), operator == "<=", bound))
    return limits
