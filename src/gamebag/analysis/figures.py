"""The figures of an analysis: values with intervals, labels, accuracy and luck, and their JSON.

Definitions (``docs/analysis.md`` sets them beside lichess's and GNU Backgammon's):

* a decision's **loss** is the winning chance of the best action minus that of the action taken
  (0 to 1; a seat's winning chance counts a shared win as its share);
* its **label**, after lichess's judgements of a drop in winning chances (0.1, 0.2 and 0.3 on
  lichess's -1..1 scale, i.e. 5, 10 and 15 percentage points of winning chance): an
  ``inaccuracy`` from a loss of ``INACCURACY`` (0.05), a ``mistake`` from ``MISTAKE`` (0.10),
  a ``blunder`` from ``BLUNDER`` (0.15); an estimated loss is labelled only when its interval
  lies wholly above zero (noise alone never earns a label);
* a decision's **accuracy** is lichess's move accuracy of the loss in percentage points,
  ``103.1668 * exp(-0.04354 * 100 * loss) - 3.1669`` clipped to 0..100; a seat's accuracy is the
  mean over its decisions that had a choice (lichess also weights by volatility; we do not);
* an estimated decision is **too close to judge** (``too_wide``) where its loss may be nothing and its
  interval is wider than ``UNDECIDED_HALF_WIDTH`` (5% win chance) either side: the words say it is
  too close to judge at the budget rather than give a wide number;
* a seat's **luck** is the sum over chance events of its winning chance just after the event
  minus its expected winning chance just before it (GNU Backgammon's luck of a roll).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.15
LABELS = ("inaccuracy", "mistake", "blunder")
# A decision whose estimated loss interval reaches zero and is wider than this either side (5% win
# chance) is too close to judge at the budget: more playouts might show it was no loss at all, or a
# mistake. Below this width a loss that may be zero is known to be small: the choice is about as good.
UNDECIDED_HALF_WIDTH = 0.05
# The 95% normal interval of a mean of playouts.
Z95 = 1.959964


@dataclass(frozen=True)
class Estimate:
    """A winning chance (or a difference of two) with its 95% interval; exact values have ``low == high``."""

    mean: float
    low: float
    high: float

    @classmethod
    def exact(cls, value: float) -> Estimate:
        return cls(value, value, value)

    @classmethod
    def of_samples(cls, samples: Sequence[float]) -> Estimate:
        """The mean of ``samples`` with its normal 95% interval."""
        count = len(samples)
        mean = math.fsum(samples) / count
        if count < 2:
            return cls(mean, mean, mean)
        variance = math.fsum((s - mean) ** 2 for s in samples) / (count - 1)
        half = Z95 * math.sqrt(variance / count)
        return cls(mean, mean - half, mean + half)

    @property
    def is_exact(self) -> bool:
        return self.low == self.high

    def __sub__(self, other: Estimate) -> Estimate:
        """The difference of two independent estimates (half-widths add in quadrature)."""
        half = math.hypot((self.high - self.low) / 2, (other.high - other.low) / 2)
        mean = self.mean - other.mean
        return Estimate(mean, mean - half, mean + half)


def label(loss: Estimate) -> str | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or ``None`` for a loss of winning chance."""
    if not loss.is_exact and loss.low <= 0.0:
        return None  # not told apart from noise
    if loss.mean >= BLUNDER:
        return "blunder"
    if loss.mean >= MISTAKE:
        return "mistake"
    if loss.mean >= INACCURACY:
        return "inaccuracy"
    return None


def too_wide(loss: Estimate, exact: bool) -> bool:
    """Whether an estimated loss is too uncertain to judge: it may be nothing and spreads wider than
    ``UNDECIDED_HALF_WIDTH`` either side."""
    return not exact and loss.low <= 0.0 and (loss.high - loss.low) / 2 > UNDECIDED_HALF_WIDTH


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of a move whose winning chance dropped by ``loss`` (0..1), in percent."""
    drop = 100.0 * max(0.0, loss)
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


@dataclass
class DecisionReport:
    """One seat's choice at one event of the record."""

    event: int
    seat: int
    action: Any  # JSON encoding
    best: list[Any]  # the best action(s): several when tied, or the support of a mixed best
    value: Estimate  # the seat's winning chance after the action taken
    best_value: Estimate
    loss: Estimate
    exact: bool
    points: dict[str, float] | None = None  # exact expected points of the turn, where a turn model exists
    judged: bool = True  # value, best value and loss known to +-5 points (95%)
    undecided: str | None = None  # why the figures could not be judged within the budget (no interval shown)
    place: dict[str, Any] | None = None  # where it stands (round, grab or turn, phase), language-neutral
    said: dict[str, Any] | None = None  # the place, the action and the best in the game's words (``words``)

    @property
    def label(self) -> str | None:
        return None if self.undecided is not None else label(self.loss)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "event": self.event,
            "seat": self.seat,
            "action": self.action,
            "best": self.best,
            "value": _round(self.value.mean),
            "best_value": _round(self.best_value.mean),
            "loss": _round(self.loss.mean),
            "label": self.label,
            "exact": self.exact,
            "judged": self.judged,
        }
        if self.place is not None:
            data["place"] = self.place
        if self.said is not None:
            data["said"] = self.said
        if self.undecided is not None:
            data["undecided"] = self.undecided  # the figures above are a guess: no interval is given
        elif not self.exact:
            data["value_interval"] = [_round(self.value.low), _round(self.value.high)]
            data["best_value_interval"] = [_round(self.best_value.low), _round(self.best_value.high)]
            data["loss_interval"] = [_round(self.loss.low), _round(self.loss.high)]
        if self.points is not None:
            data["points"] = {key: _round(value) for key, value in self.points.items()}
        return data


@dataclass
class SeatReport:
    """A seat's figures over the whole game."""

    seat: int
    result: float  # its share of the win
    decisions: list[DecisionReport] = field(default_factory=list)
    luck_events: list[tuple[int, Estimate]] = field(default_factory=list)  # (event, change of winning chance)

    @property
    def accuracy(self) -> float | None:
        """The mean move accuracy over the decisions that could be judged (an undecided one counts for nothing)."""
        judged = [d for d in self.decisions if d.undecided is None]
        if not judged:
            return None
        return math.fsum(move_accuracy(d.loss.mean) for d in judged) / len(judged)

    @property
    def luck(self) -> Estimate:
        mean = math.fsum(change.mean for _, change in self.luck_events)
        half = math.sqrt(math.fsum(((c.high - c.low) / 2) ** 2 for _, c in self.luck_events))
        return Estimate(mean, mean - half, mean + half)

    def count(self, name: str) -> int:
        return sum(1 for d in self.decisions if d.label == name)

    def to_json(self) -> dict[str, Any]:
        accuracy = self.accuracy
        luck = self.luck
        data: dict[str, Any] = {
            "seat": self.seat,
            "result": _round(self.result),
            "accuracy": None if accuracy is None else round(accuracy, 1),
            "luck": _round(luck.mean),
            "inaccuracies": self.count("inaccuracy"),
            "mistakes": self.count("mistake"),
            "blunders": self.count("blunder"),
            "decisions": len(self.decisions),
            "undecided": sum(1 for d in self.decisions if d.undecided is not None),
            "chance_events": len(self.luck_events),
        }
        if not luck.is_exact:
            data["luck_interval"] = [_round(luck.low), _round(luck.high)]
        return data


@dataclass
class Analysis:
    """A whole game's analysis."""

    game: str
    players: int
    options: dict[str, Any]
    method: str  # how the values were had, in words
    exact: bool  # every winning chance exact
    playouts: int | None  # playouts per estimated value (None: nothing estimated)
    seconds: float
    seats: list[SeatReport]
    # ``method`` as the catalogue's message and its figures ({"text", "params"}), said in each reader's
    # language (``words.method_words``); None where the evaluator has none.
    method_text: dict[str, Any] | None = None

    @property
    def decisions(self) -> list[DecisionReport]:
        return sorted((d for s in self.seats for d in s.decisions), key=lambda d: (d.event, d.seat))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "method": self.method,
            "exact": self.exact,
            "playouts": self.playouts,
            "seconds": round(self.seconds, 3),
            "seats": [seat.to_json() for seat in self.seats],
            "decisions": [d.to_json() for d in self.decisions],
            **({"method_text": self.method_text} if self.method_text else {}),
        }


def _round(value: float) -> float:
    """Twelve decimals: exact values keep far more than the 1e-9 they are checked to, and JSON stays short."""
    return round(float(value), 12)
