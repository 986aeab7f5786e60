"""The engine-equality harness, shipped for anyone who adds an engine to a gamebag game.

An engine is proven equal to the rules engine (``games/<id>``) in three ways, each a
function here that needs only ``gamebag.core`` and an adapter the engine's author writes:

* exact replay (:func:`replay`): rules-engine games, played by seeded choosers, are fed
  decision by decision and outcome by outcome to the engine through an
  :class:`EngineReplay`; after every step the engine's full state must equal the rules
  state (``expected``), its views (seats to act, legal actions, observations, compiled
  policies) must agree (``views``) and what the game conserves must hold (``conservation``);
* distributions (:func:`distribution_failures`): the engine's whole games and rules-engine
  games agree in every seat's win share and score (mean and distribution) and in game
  length, with Holm's correction over the whole family of comparisons;
* coverage (:func:`coverage_gaps`): every option an engine's kind is declared to play
  (``gamebag.core.engines``) with a non-default value is played, at such a value, by one of
  the engine's equality option sets; every other option the engine refuses.

A third party writes ``class MyReplay(EngineReplay)`` for their engine, then::

    log = replay(game, MyReplay(game), seatings, games=500, seed="mine")
    assert not log.problems, log.problems[:5]
    assert not distribution_failures({"mine": comparisons(engine_sample, log.sample())}, 0.001)
    assert not coverage_gaps(type(game), "numba", my_option_sets)
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from gamebag.core.engines import ENGINE_KINDS, declaration
from gamebag.core.errors import OptionError
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import Rng, derive_rng

AnyGame = Game[Any, Any, Any]
# A seat's choice at a rules-engine state: (state, seat, its legal actions, rng) -> action. Seeded
# agents become choosers through a one-line wrapper (the harness needs only the protocol, no agents).
Chooser = Callable[[Any, int, Sequence[Any], Rng], Any]
Row = npt.NDArray[Any] | Sequence[Any]  # an engine's full state: an array or a list of numbers
MAX_PROBLEMS = 5  # a replay stops collecting (and the game it is in stops) after this many problems
MAX_STEPS = 1_000_000


class EngineReplay(ABC):
    """One engine game driven through a rules-engine game: the adapter an engine's author writes.

    ``reset`` starts a game; ``decide`` and ``chance`` apply what happened at rules state
    ``before`` (``after`` is the rules state it led to); ``row`` is the engine's full state
    and ``expected(state)`` what it must equal. The rest has defaults: every state has an
    engine row (``comparable``), no view or conservation checks, a plain field diff.
    """

    field_names: Sequence[str] = ()

    @abstractmethod
    def reset(self) -> None:
        """Start an engine game."""

    @abstractmethod
    def decide(self, before: Any, moves: Mapping[int, Any], after: Any) -> None:
        """Apply the moves made at rules state ``before`` (which led to ``after``)."""

    @abstractmethod
    def chance(self, before: Any, outcome: Any, after: Any) -> None:
        """Apply the chance outcome drawn at ``before`` (which led to ``after``)."""

    @abstractmethod
    def row(self) -> Row:
        """The engine's full state now."""

    @abstractmethod
    def expected(self, state: Any) -> Row:
        """What the engine's row must equal at rules state ``state``."""

    def comparable(self, state: Any) -> bool:
        """Whether rules state ``state`` has an engine row (an engine may fold a chance node into a step)."""
        return True

    def views(self, state: Any) -> list[str]:
        """What the engine shows at ``state`` that differs from the rules engine (acting seats, legal
        actions, observations, policies); empty when all agree."""
        return []

    def conservation(self) -> str | None:
        """What the engine's current row breaks of what the game conserves, or ``None``."""
        return None

    def finish(self, state: Any) -> list[str]:
        """Checks at the end of a game (returns, length), against the terminal rules state."""
        return []

    def describe(self, expected: npt.NDArray[Any], got: npt.NDArray[Any]) -> str:
        """The fields where ``got`` differs from ``expected``."""
        names = list(self.field_names)
        diffs = np.flatnonzero(np.asarray(expected) != np.asarray(got))
        return "; ".join(
            f"{names[i] if i < len(names) else i}: rules {expected[i]}, engine {got[i]}" for i in diffs.tolist()
        )


@dataclass
class ReplayLog:
    """What a replay found: games, steps, problems, the decision states met, each game's result."""

    games: int = 0
    steps: int = 0
    problems: list[str] = field(default_factory=list)
    decisions: list[Any] = field(default_factory=list)
    returns: list[tuple[float, ...]] = field(default_factory=list)
    scores: list[tuple[float, ...]] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)

    def sample(self) -> Sample:
        """The replayed games as a rules-engine sample for :func:`comparisons`."""
        return Sample(np.array(self.returns, np.float64), np.array(self.scores, np.float64), np.array(self.lengths))


class SampleLike(Protocol):
    """Per-game arrays of whole games (``gamebag.fast.BatchResult`` is one)."""

    @property
    def returns(self) -> npt.NDArray[Any]: ...  # [games, players] win shares

    @property
    def scores(self) -> npt.NDArray[Any]: ...  # [games, players]

    @property
    def length(self) -> npt.NDArray[Any]: ...  # [games], the rules engine's round_number at the end


@dataclass(frozen=True)
class Sample:
    """Whole games' win shares, scores and lengths."""

    returns: npt.NDArray[Any]
    scores: npt.NDArray[Any]
    length: npt.NDArray[Any]


def _as_list(row: Any) -> list[Any]:
    return row.tolist() if isinstance(row, np.ndarray) else list(row)


def _check(engine: EngineReplay, state: Any, log: ReplayLog, where: str) -> None:
    """Compare the engine with rules state ``state`` (where it has a row): full state, conservation, views."""
    if not engine.comparable(state):
        return
    expected, got = engine.expected(state), engine.row()
    # Compared as Python lists: a row is short, and this runs after every step of every replayed game.
    if _as_list(expected) != _as_list(got):
        wanted, found = np.asarray(expected), np.asarray(got)
        detail = engine.describe(wanted, found) if wanted.shape == found.shape else f"shapes {wanted.shape}"
        log.problems.append(f"{where}: {detail}")
    broken = engine.conservation()
    if broken is not None:
        log.problems.append(f"{where}: {broken}")
    log.problems.extend(f"{where}: {problem}" for problem in engine.views(state))


def replay(
    game: AnyGame,
    engine: EngineReplay,
    seatings: Sequence[Sequence[Chooser]],
    games: int,
    seed: int | str,
    log: ReplayLog | None = None,
) -> ReplayLog:
    """Play ``games`` rules-engine games (game ``i``: seating ``i % len(seatings)``, generator
    ``derive_rng(seed, i)``) through ``engine``, checking everything after every step."""
    log = ReplayLog() if log is None else log
    for index in range(games):
        choosers = seatings[index % len(seatings)]
        rng = derive_rng(seed, index)
        state = game.initial_state()
        engine.reset()
        _check(engine, state, log, f"game {index} start")
        for step in range(MAX_STEPS):
            kind = game.node_kind(state)
            if kind is NodeKind.TERMINAL or len(log.problems) > MAX_PROBLEMS:
                break
            if kind is NodeKind.CHANCE:
                outcome = game.sample_chance(state, rng)
                after = game.apply_chance(state, outcome)
                engine.chance(state, outcome, after)
            else:
                log.decisions.append(state)
                legal = game.legal_actions_by_seat(state)
                moves = {seat: choosers[seat](state, seat, choices, rng) for seat, choices in legal.items()}
                after = game.apply_chosen(state, moves, legal)
                engine.decide(state, moves, after)
            state = after
            log.steps += 1
            _check(engine, state, log, f"game {index} step {step}")
        else:
            raise RuntimeError(f"{game.game_id} did not end within {MAX_STEPS} steps")
        if len(log.problems) > MAX_PROBLEMS:
            break
        log.problems.extend(f"game {index} end: {problem}" for problem in engine.finish(state))
        log.games += 1
        log.returns.append(game.returns(state))
        log.scores.append(game.scores(state))
        log.lengths.append(game.round_number(state))
    return log


def play_rules(game: AnyGame, seating: Sequence[Chooser], games: int, seed: int | str) -> Sample:
    """``games`` rules-engine games by ``seating`` (game ``i`` draws from ``derive_rng(seed, "game", i)``,
    as ``gamebag simulate`` seeds them), as a sample for :func:`comparisons`."""
    returns, scores, lengths = [], [], []
    for index in range(games):
        rng = derive_rng(seed, "game", index)
        state = game.initial_state()
        for _ in range(MAX_STEPS):
            kind = game.node_kind(state)
            if kind is NodeKind.TERMINAL:
                break
            if kind is NodeKind.CHANCE:
                state = game.advance_chance(state, rng)
            else:
                legal = game.legal_actions_by_seat(state)
                moves = {seat: seating[seat](state, seat, choices, rng) for seat, choices in legal.items()}
                state = game.apply_chosen(state, moves, legal)
        else:
            raise RuntimeError(f"{game.game_id} did not end within {MAX_STEPS} steps")
        returns.append(game.returns(state))
        scores.append(game.scores(state))
        lengths.append(game.round_number(state))
    return Sample(np.array(returns, np.float64), np.array(scores, np.float64), np.array(lengths))


# ---- statistics --------------------------------------------------------------------------------
def welch_p(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> float:
    """Two-sided p-value that two means are equal (large samples: normal approximation)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    spread = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    if spread == 0:
        return 1.0 if a.mean() == b.mean() else 0.0
    return math.erfc(abs(a.mean() - b.mean()) / spread / math.sqrt(2))


def ks_p(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> float:
    """Two-sample Kolmogorov-Smirnov p-value (asymptotic; conservative for discrete data)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    points = np.union1d(a, b)
    cdf_a = np.searchsorted(np.sort(a), points, side="right") / a.size
    cdf_b = np.searchsorted(np.sort(b), points, side="right") / b.size
    distance = float(np.max(np.abs(cdf_a - cdf_b)))
    effective = a.size * b.size / (a.size + b.size)
    lam = (math.sqrt(effective) + 0.12 + 0.11 / math.sqrt(effective)) * distance
    if lam < 1e-3:
        return 1.0
    total = math.fsum(2.0 * (-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return min(1.0, max(0.0, total))


def comparisons(engine: SampleLike, rules: SampleLike, label: str = "") -> dict[str, float]:
    """p-values of every seat's win share (Welch, ties shared), score distribution (KS) and mean
    score (Welch), and of the game length's distribution and mean."""
    prefix = f"{label} " if label else ""
    result: dict[str, float] = {}
    for seat in range(np.asarray(rules.returns).shape[1]):
        result[f"{prefix}seat {seat} win share"] = welch_p(engine.returns[:, seat], rules.returns[:, seat])
        result[f"{prefix}seat {seat} score distribution"] = ks_p(engine.scores[:, seat], rules.scores[:, seat])
        result[f"{prefix}seat {seat} mean score"] = welch_p(engine.scores[:, seat], rules.scores[:, seat])
    result[f"{prefix}length distribution"] = ks_p(engine.length, rules.length)
    result[f"{prefix}mean length"] = welch_p(engine.length, rules.length)
    return result


def holm_failures(p_values: Mapping[str, float], family_alpha: float) -> list[str]:
    """The comparisons Holm's step-down procedure rejects at family-wise error ``family_alpha``."""
    ordered = sorted(p_values.items(), key=lambda item: item[1])
    failed = []
    for rank, (name, p) in enumerate(ordered):
        if p > family_alpha / (len(ordered) - rank):
            break
        failed.append(f"{name}: p = {p:.2e}")
    return failed


def distribution_failures(p_values: Mapping[str, float], family_alpha: float) -> list[str]:
    """:func:`holm_failures` (the name a test reads: an empty list means the samples agree)."""
    return holm_failures(p_values, family_alpha)


# ---- coverage ----------------------------------------------------------------------------------
def coverage_gaps(
    game_class: type[AnyGame], engine: str, option_sets: Iterable[Mapping[str, Any]]
) -> list[str]:
    """The options ``engine`` is declared to play beyond their default that no option set of its
    equality tests gives a non-default value it plays (one line each; empty: fully covered)."""
    if engine not in ENGINE_KINDS:
        return [f"{engine!r} is not an engine kind (kinds: {', '.join(ENGINE_KINDS)})"]
    try:
        support = declaration(game_class)
    except ValueError as error:
        return [str(error)]
    sets = list(option_sets)
    gaps = []
    for spec in game_class.option_specs:
        if not support.plays_more_than_default(engine, spec.name):
            continue  # refused at any value but the default
        played = support.support(engine, spec.name)
        exercised = False
        for options in sets:
            if spec.name not in options:
                continue
            try:
                value = spec.coerce(options[spec.name])
            except OptionError:
                continue
            exercised = exercised or (value != spec.default and played.allows(value))
        if not exercised:
            gaps.append(
                f"{game_class.game_id}: {ENGINE_KINDS[engine]} is declared to play {spec.name}, but no "
                f"equality option set gives {spec.name} a value other than its default "
                f"(add one, or take {engine!r} out of {spec.name}'s row)"
            )
    return gaps
