"""Analysing a record: the checks, the choice of evaluator, and the walk through the events.

The record must be a finished game that follows the rules (checked by replaying it, as
``gamebag replay`` does, before any analysis work). The walk then goes through the events once:
at each ``moves`` event every analysed seat with more than one legal action gets its choices
valued, at each ``chance`` event every analysed seat gets the change of its winning chance.

Which evaluator (``select_evaluator``): the exact two-player win solvers where a turn model has
one, the two-player Eel equilibrium where its tables apply, else playouts (with the exact
expected points of the turn where the game has a turn model). No game is named here: each
evaluator says which configurations it covers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import gamebag
from gamebag.agents.solvers.solutions import supports_score
from gamebag.analysis.batched import JUDGED_HALF_WIDTH, BatchedEvaluator, batched_sampler
from gamebag.analysis.eel import EelEquilibriumEvaluator, equilibrium_solvable
from gamebag.analysis.estimate import DEFAULT_PLAYOUTS as DEFAULT_PLAYOUTS
from gamebag.analysis.estimate import RolloutEvaluator
from gamebag.analysis.evaluators import Choices, Evaluator
from gamebag.analysis.figures import Analysis, DecisionReport, Estimate, SeatReport
from gamebag.analysis.translation import N_, _, ngettext
from gamebag.analysis.turns import TurnPoints, TurnWinEvaluator, win_solvable
from gamebag.analysis.words import decision_said
from gamebag.core.errors import GamebagError
from gamebag.core.protocol import Game
from gamebag.core.records import Record, apply_event, decode_moves, replay
from gamebag.core.rng import Rng

# Playouts per estimated value: the default keeps an estimated analysis of a whole game to a few
# seconds with compiled playouts (bench/bench_analysis.py); playouts on the rules engine (a game
# without a compiled engine) cost about a hundred times more, so their default is the minimum. The maximum bounds
# what a user can ask.
DEFAULT_RULES_PLAYOUTS = 10
MIN_PLAYOUTS = 10
MAX_PLAYOUTS = 5000
# Without --budget, a whole game's estimate is held to about GAME_STEPS events played out (a playout
# from an event plays about the events left after it: that is what it costs): the default per value
# is GAME_STEPS divided by the values the game asks for (each choice of each decision, two per chance
# event and seat), each weighted by the events left after it, at most DEFAULT_PLAYOUTS. Short games
# keep the full default; a long one (an Eigen Kweek game: about 1,300 values over 230 events) gets
# about 20 playouts per value and wider intervals, and stays within a few seconds
# (bench/bench_analysis.py).
GAME_STEPS = 2_500_000


class AnalysisError(GamebagError, ValueError):
    """A request the analysis refuses (a bad budget or seat, an unfinished record)."""


@dataclass(frozen=True)
class AnalysisSettings:
    """What the user controls: the seats analysed, the playouts per estimated value, the seed."""

    seats: tuple[int, ...] | None = None  # None: every seat
    playouts: int | None = None  # None: DEFAULT_PLAYOUTS, or DEFAULT_RULES_PLAYOUTS on the rules engine
    seed: int = 0
    # Without ``playouts``: judge each decision to +-5 points on batched compiled playouts where the
    # compiled engine offers them (``batched``); False keeps the fixed-count playouts (for comparison).
    batched: bool = True

    def check(self, game: Game[Any, Any, Any]) -> None:
        if self.playouts is not None and (
            isinstance(self.playouts, bool) or not MIN_PLAYOUTS <= self.playouts <= MAX_PLAYOUTS
        ):
            raise AnalysisError(
                _(
                    "--budget must be {low} to {high} playouts per estimated value, not {budget}",
                    low=MIN_PLAYOUTS, high=MAX_PLAYOUTS, budget=self.playouts,
                )
            )
        for seat in self.seats or ():
            if not 0 <= seat < game.num_players:
                raise AnalysisError(
                    _("--seat {seat} does not exist; seats are 0 to {last}", seat=seat, last=game.num_players - 1)
                )


# Translators: {method} is the sentence of the method that gave the win chances.
WITH_POINTS = N_("{method}; exact expected points of each turn (optimal-score)")


class WithPoints(Evaluator):
    """An evaluator's winning chances plus the exact expected points of the turn after each choice."""

    def __init__(self, inner: Evaluator, points: TurnPoints) -> None:
        super().__init__(inner.game)
        self.inner = inner
        self.turn_points = points
        self.exact = inner.exact
        self.playouts = inner.playouts
        self.method = WITH_POINTS.format(method=inner.method)
        self.method_text = WITH_POINTS
        self.method_params = {"method": {"text": inner.method_text, "params": inner.method_params}}

    def choices(self, state: Any, seat: int, legal: Sequence[Any], event: int) -> Choices:
        found = self.inner.choices(state, seat, legal, event)
        return replace(found, points=self.turn_points.points(state, seat, legal))

    def expect_taken(self, event: int, seat: int, action: Any) -> None:
        self.inner.expect_taken(event, seat, action)

    def value(self, state: Any, seat: int, event: int) -> Estimate:
        return self.inner.value(state, seat, event)

    def chance_change(self, before: Any, after: Any, seat: int, event: int) -> Estimate:
        return self.inner.chance_change(before, after, seat, event)


def select_evaluator(game: Game[Any, Any, Any], settings: AnalysisSettings, demand: int = 0) -> Evaluator:
    """The most exact evaluator that covers ``game``'s configuration; ``demand`` (the values a game
    asks for, each weighted by the events left after it) sets the default playouts per value of an
    estimate (``GAME_STEPS``)."""
    if win_solvable(game):
        return TurnWinEvaluator(game)
    if equilibrium_solvable(game):
        return EelEquilibriumEvaluator(game)
    if settings.playouts is None and settings.batched:
        sampler = batched_sampler(game)
        if not isinstance(sampler, str):
            judged: Evaluator = BatchedEvaluator(game, sampler, settings.seats, settings.seed)
            return WithPoints(judged, TurnPoints(game)) if supports_score(type(game)) else judged
    playouts = settings.playouts
    if playouts is None and demand > 0:
        playouts = max(MIN_PLAYOUTS, min(DEFAULT_PLAYOUTS, GAME_STEPS // demand))
    estimator = RolloutEvaluator(game, playouts, settings.seed)
    if settings.playouts is None and estimator.compiled is None:
        estimator = RolloutEvaluator(game, DEFAULT_RULES_PLAYOUTS, settings.seed)
    if supports_score(type(game)):
        return WithPoints(estimator, TurnPoints(game))
    return estimator


WARM_STEPS = 10_000  # a bound on the walk to the first decision of a warm-up (games end far sooner)


def warm_up(game: Game[Any, Any, Any]) -> None:
    """Load what an analysis of ``game``'s configuration needs (the solved tables, the compiled playout
    kernels) by valuing the choices of its first decision: a worker that did this analyses the
    configuration's next game without the cold start (``web.tables.analysis``)."""
    evaluator = select_evaluator(game, AnalysisSettings())
    state, rng = game.initial_state(), Rng(0)
    for _step in range(WARM_STEPS):
        if game.is_terminal(state):
            return
        acting = game.acting_players(state)
        if not acting:
            state = game.advance_chance(state, rng)
            continue
        by_seat = game.legal_actions_by_seat(state)
        for seat, legal in by_seat.items():
            if len(legal) > 1:
                evaluator.prepare([state])
                evaluator.choices(state, seat, legal, 0)
                return
        state = game.apply_chosen(state, {seat: legal[0] for seat, legal in by_seat.items()}, by_seat)


def finished_game(record: Record) -> tuple[Game[Any, Any, Any], Any]:
    """Replay ``record`` (a ``RecordError`` names the event that breaks a rule); refuse an unfinished game."""
    game, state = replay(record, gamebag.make)
    if not game.is_terminal(state):
        raise AnalysisError(
            ngettext(
                "the game is not over after its {n} event (round {round}); "
                "only a finished game can be analysed (`gamebag replay` shows where it stands)",
                "the game is not over after its {n} events (round {round}); "
                "only a finished game can be analysed (`gamebag replay` shows where it stands)",
                len(record.events),
                round=game.round_number(state),
            )
        )
    return game, state


def analyse_record(
    record: Record,
    settings: AnalysisSettings | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Analyse a finished game; ``progress(done, total)`` is told after each event."""
    settings = settings or AnalysisSettings()
    game, final = finished_game(record)
    settings.check(game)
    started = time.perf_counter()
    seats = settings.seats if settings.seats is not None else tuple(range(game.num_players))
    returns = game.returns(final)
    reports = {seat: SeatReport(seat, returns[seat]) for seat in seats}
    states = [game.initial_state()]
    for event in record.events:
        states.append(apply_event(game, states[-1], event))
    evaluator = select_evaluator(game, settings, _demand(game, record, states, seats))
    evaluator.prepare(states)
    total = len(record.events)
    for index, event in enumerate(record.events):
        state, after = states[index], states[index + 1]
        if "moves" in event:
            moves = decode_moves(game, event["moves"])
            for seat in game.acting_players(state):
                legal = game.legal_actions(state, seat)
                if seat in reports and len(legal) > 1:
                    evaluator.expect_taken(index, seat, moves[seat])
                    found = evaluator.choices(state, seat, legal, index)
                    reports[seat].decisions.append(_decision(game, state, index, seat, moves[seat], found))
        else:
            for seat in seats:
                reports[seat].luck_events.append((index, evaluator.chance_change(state, after, seat, index)))
        if progress is not None:
            progress(index + 1, total)
    return Analysis(
        game=game.game_id,
        players=game.num_players,
        options=dict(record.options),
        method=evaluator.method,
        method_text=(
            {"text": evaluator.method_text, "params": evaluator.method_params} if evaluator.method_text else None
        ),
        exact=evaluator.exact,
        playouts=evaluator.playouts,
        seconds=time.perf_counter() - started,
        seats=[reports[seat] for seat in seats],
    )


def _demand(game: Game[Any, Any, Any], record: Record, states: Sequence[Any], seats: Sequence[int]) -> int:
    """The values an estimate of this game asks for: each choice of each analysed decision, and two
    (the real outcome and one drawn again) per chance event and analysed seat, each weighted by the
    events left after it (what its playouts cost)."""
    demand, total = 0, len(record.events)
    for index, (event, state) in enumerate(zip(record.events, states, strict=False)):
        values = 2 * len(seats)
        if "moves" in event:
            legal = [len(game.legal_actions(state, seat)) for seat in game.acting_players(state) if seat in seats]
            values = sum(count for count in legal if count > 1)
        demand += values * (total - index)
    return demand


def _decision(
    game: Game[Any, Any, Any], state: Any, event: int, seat: int, action: Hashable, found: Choices
) -> DecisionReport:
    """The decision's figures, where it stands and its actions in the game's words (read off the seat's view)."""
    place, said = decision_said(game, state, seat, action, found.best)
    points = None
    if found.points is not None:
        best_points = max(found.points.values())
        taken = found.points[action]
        points = {"value": taken, "best_value": best_points, "loss": best_points - taken}
    return DecisionReport(
        event=event,
        seat=seat,
        action=game.action_to_json(action),
        best=[game.action_to_json(a) for a in found.best],
        value=found.values[action],
        best_value=found.best_value,
        loss=found.losses[action],
        exact=found.exact,
        points=points,
        judged=_judged(found, found.values[action], found.losses[action]),
        undecided=found.undecided,
        place=place,
        said=said,
    )


def _judged(found: Choices, value: Estimate, loss: Estimate) -> bool:
    """Whether the decision's value, best value and loss are known to +-5 points (95%): the evaluator's
    word where it gives one, else read off the intervals."""
    if found.judged is not None:
        return found.judged
    figures = (value, found.best_value, loss)
    return all((f.high - f.low) / 2 <= JUDGED_HALF_WIDTH for f in figures)
