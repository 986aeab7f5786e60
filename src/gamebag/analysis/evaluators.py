"""What an evaluator answers for the analysis walk: the value of each choice, and of a position.

An evaluator values, for one seat, every legal action at a decision (``choices``) and the seat's
winning chance at a position (``value``). The walk (``run.py``) asks it only about the states
the record passes through; what a seat may know is the evaluator's duty: exact evaluators read
perfect-information games or a simultaneous grab valued against the equilibrium opponent, the
estimator samples the seat's information set.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from gamebag.analysis.figures import Estimate
from gamebag.core.protocol import Game

# Values within this of the best count as best (float noise of the solvers, far below any label).
TIE = 1e-12


@dataclass(frozen=True)
class Choices:
    """One seat's options at a decision: each action's value and loss, and the best action(s)."""

    values: dict[Hashable, Estimate]
    losses: dict[Hashable, Estimate]
    best: tuple[Any, ...]
    best_value: Estimate
    exact: bool
    points: dict[Hashable, float] | None = None  # exact expected points of the turn per action
    # Whether the figures are known to +-5 points (None: the evaluator does not say; the walk then
    # reads it off the intervals), and why not where they are not (``batched``).
    judged: bool | None = None
    undecided: str | None = None

    @classmethod
    def from_exact(cls, values: dict[Hashable, float], best: Sequence[Any] | None = None) -> Choices:
        """Exact values: the best are those within ``TIE`` of the highest unless ``best`` says otherwise."""
        top = max(values.values())
        chosen = tuple(a for a, v in values.items() if v >= top - TIE) if best is None else tuple(best)
        return cls(
            values={a: Estimate.exact(v) for a, v in values.items()},
            losses={a: Estimate.exact(max(0.0, top - v)) for a, v in values.items()},
            best=chosen,
            best_value=Estimate.exact(top),
            exact=True,
        )


class Evaluator(ABC):
    """Values decisions and positions of one configured game for the analysis."""

    method: str = ""  # the method in English words (``Analysis.method``), ``method_text`` filled in
    # The method's sentence as the catalogue's message (marked ``N_``) and its figures: said in each
    # reader's language (``words.method_words``).
    method_text: str = ""
    method_params: dict[str, Any] = {}  # noqa: RUF012 (a class default never changed: each sets its own)
    exact: bool = True
    playouts: int | None = None

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game

    def prepare(self, states: Sequence[Any]) -> None:
        """Get ready for a walk through ``states`` (every state of the record, in order), e.g. by
        solving at once what the walk will ask about; the default does nothing."""
        return None

    def expect_taken(self, event: int, seat: int, action: Any) -> None:
        """The walk says which action ``seat`` took at ``event`` before asking for its choices (an
        evaluator that judges the action taken to a set precision needs to know it); ignored by default."""
        return None

    @abstractmethod
    def choices(self, state: Any, seat: int, legal: Sequence[Any], event: int) -> Choices:
        """``seat``'s options at ``state`` (a decision node where it acts), judged from what it knows."""

    @abstractmethod
    def value(self, state: Any, seat: int, event: int) -> Estimate:
        """``seat``'s winning chance at ``state`` (a chance node: the expectation over its outcomes)."""

    def chance_change(self, before: Any, after: Any, seat: int, event: int) -> Estimate:
        """How much the chance event ``event`` (from ``before`` to ``after``) moved ``seat``'s winning chance."""
        return self.value(after, seat, event + 1) - self.value(before, seat, event)
