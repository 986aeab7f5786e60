"""The search: an Optuna study over the dimensions, then the leaders re-measured and the pick confirmed.

Each trial plays one cell of ``games`` games (on the compiled engine where one plays it) and
records every metric with its interval. One goal uses TPE, several NSGA-II; a search space of no
more designs than trials is tried design by design instead (a grid, each design once). Limits are
Optuna constraints, so samplers steer away from infeasible designs. Noise is handled in three steps:
the leading trials (the best few, or the Pareto front) are played again with
``REMEASURE_FACTOR`` times the games at a seed none of the trials used, the best of those
re-measurements is recommended, and the recommendation is played once more at a fresh seed; it
is ``confirmed`` when that run meets every limit and each goal's interval overlaps the
re-measurement's. Ctrl-C (or SIGTERM, through the command) stops the search and keeps every
finished trial; with ``storage`` (an Optuna RDB URL) a later run of the same command resumes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from gamebag.core.errors import GamebagError, OptionError
from gamebag.core.i18n import number
from gamebag.core.rng import derive_seed
from gamebag.lab.cards import card_study
from gamebag.lab.cells import MAX_GAMES_PER_CELL, build_cells
from gamebag.lab.execute import Executor, check_executor, make_executor
from gamebag.lab.play import Block
from gamebag.lab.quality import DEFAULT_TRACE_GAMES, QUALITY_METRICS, check_quality_limits, measure_quality
from gamebag.lab.stats import Estimate
from gamebag.lab.study import DEFAULT_MAX_ROUNDS, check_limits, run_study
from gamebag.lab.translation import N_, Figure, _, joined, say, shown
from gamebag.lab.tune.goals import Goal, Limit
from gamebag.lab.tune.metrics import (
    CARD_SPREAD,
    CHANGE,
    SKILL_METRICS,
    Measurement,
    card_spread,
    measure_run,
)
from gamebag.lab.tune.space import Dimension, design_change, grid

MAX_TRIALS = 10_000
LEADERS = 3  # trials re-measured with one goal
MAX_FRONT = 8  # Pareto trials re-measured with several goals
REMEASURE_FACTOR = 4

Progress = Callable[[int, int], None]  # (trials finished, trials asked)


@dataclass(frozen=True)
class TuneSettings:
    """Everything a tune needs; ``tune`` checks it before playing."""

    game: str
    players: int
    dimensions: tuple[Dimension, ...]
    goals: tuple[Goal, ...]
    limits: tuple[Limit, ...] = ()
    trials: int = 50
    games: int = 2000
    seed: int = 0
    agents: tuple[str, ...] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    workers: int = 1
    executor: str = "local"
    address: str | None = None
    storage: str | None = None
    max_rounds: int = DEFAULT_MAX_ROUNDS
    metrics_games: int = DEFAULT_TRACE_GAMES  # traced games per trial where a quality metric is named

    def named_metrics(self) -> set[str]:
        return {g.metric for g in self.goals} | {lim.metric for lim in self.limits}

    def study_name(self) -> str:
        """A name that only the same question gets, so ``--storage`` resumes the same study."""
        key = json.dumps(
            [
                self.game,
                self.players,
                [d.describe() for d in self.dimensions],
                [g.text for g in self.goals],
                [lim.text for lim in self.limits],
                self.games,
                self.seed,
                list(self.agents or ()),
                sorted((k, str(v)) for k, v in self.options.items()),
                self.max_rounds,
                self.metrics_games,
            ]
        )
        return f"gamebag-tune-{self.game}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"


@dataclass
class TuneTrial:
    """One trial: what it tried and what it measured."""

    number: int
    params: dict[str, Any]
    measurement: Measurement | None
    objectives: list[float]
    violations: list[float]
    state: str  # complete, refused (the game refused the options), failed, interrupted
    reason: str = ""

    @property
    def feasible(self) -> bool:
        return self.state == "complete" and all(v <= 0 for v in self.violations)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "params": self.params,
            "state": self.state,
            "reason": self.reason,
            "feasible": self.feasible,
            "objectives": self.objectives,
            "violations": self.violations,
            "metrics": None if self.measurement is None else self.measurement.to_json()["metrics"],
        }


@dataclass
class Recommendation:
    """The recommended design: its trial, the re-measurement that chose it and the confirmation run."""

    params: dict[str, Any]
    trial: int
    remeasured: Measurement
    confirmation: Measurement | None
    confirmed: bool
    why: str

    def to_json(self, goals: Sequence[Goal], limits: Sequence[Limit]) -> dict[str, Any]:
        final = self.confirmation or self.remeasured
        return {
            "options": self.params,
            "trial": self.trial,
            "metrics": {name: e.to_json() for name, e in final.metrics.items()},
            "goals": {g.text: g.value(final.metrics).to_json() for g in goals},
            "limits": {lim.text: lim.violation(final.metrics) <= 0 for lim in limits},
            "confirmed": self.confirmed,
            "why": self.why,
            "remeasured": self.remeasured.to_json(),
            "confirmation": None if self.confirmation is None else self.confirmation.to_json(),
        }


@dataclass
class TuneResult:
    settings: TuneSettings
    trials: list[TuneTrial]
    best: Recommendation | None
    pareto: list[Recommendation]
    interrupted: bool
    seconds: float
    notes: list[str]

    def to_json(self) -> dict[str, Any]:
        s = self.settings
        return {
            "game": s.game,
            "players": s.players,
            "search": [d.describe() for d in s.dimensions],
            "goals": [g.text for g in s.goals],
            "limits": [lim.text for lim in s.limits],
            "games": s.games,
            "seed": s.seed,
            "best": None if self.best is None else self.best.to_json(s.goals, s.limits),
            "pareto": [r.to_json(s.goals, s.limits) for r in self.pareto],
            "trials": [t.to_json() for t in self.trials],
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "notes": self.notes,
        }


class _KeptOpen(Executor):
    """One executor (and its worker processes) for every trial; ``run_study`` closes it after each."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(None)
        self.inner = inner
        self.parallel = inner.parallel

    def submit(self, cell: Any, start: int, stop: int, engine: str, max_rounds: int) -> Future[Block]:
        return self.inner.submit(cell, start, stop, engine, max_rounds)

    def poll(self) -> None:
        self.inner.poll()

    def close(self, cancel: bool = False) -> None:
        """Kept open: the tune closes the real executor once, at its end."""


class _Interrupted(Exception):
    """Raised inside a trial when Ctrl-C stopped its games."""


def check_settings(settings: TuneSettings) -> list[str]:
    """Refuse settings out of bounds; return the notices of the agents chosen (such as a fallback to random)."""
    if not 1 <= settings.trials <= MAX_TRIALS:
        raise GamebagError(
            _("--trials must be from 1 to {most}, not {given}", most=number(MAX_TRIALS), given=settings.trials)
        )
    if not 1 <= settings.games <= MAX_GAMES_PER_CELL // REMEASURE_FACTOR:
        raise GamebagError(
            _(
                "--games must be from 1 to {most} per trial (the leaders are re-measured with {factor}x), not {given}",
                most=number(MAX_GAMES_PER_CELL // REMEASURE_FACTOR),
                factor=REMEASURE_FACTOR,
                given=settings.games,
            )
        )
    check_limits(settings.games, None, settings.max_rounds)
    check_quality_limits(settings.metrics_games)
    check_executor(settings.executor, settings.workers, settings.address)
    if not settings.dimensions or not settings.goals:
        raise GamebagError(_("a tune needs at least one --search and one --goal"))
    # The agents and fixed options, checked once at the game's defaults for the searched options.
    _cells, notices = build_cells(
        settings.game, (settings.players,), settings.agents, (), settings.options, settings.seed, learned=False
    )
    return notices


def measure(
    settings: TuneSettings, params: Mapping[str, Any], seed: int, games: int, executor: Executor
) -> Measurement:
    """Play ``games`` games of the design ``params`` (plus the fixed options) and measure them."""
    options = {**settings.options, **params}
    # Without named agents every trial plays the same default agent: a policy trained for the
    # default options would play only the trials that hit them, and mix agents into the comparison.
    cells, _notices = build_cells(settings.game, (settings.players,), settings.agents, (), options, seed, learned=False)
    study = run_study(cells, _KeptOpen(executor), games, None, settings.max_rounds)
    run = study.cells[0]
    if study.interrupted:
        raise _Interrupted
    metrics = measure_run(run)
    change = design_change(settings.game, settings.dimensions, params)
    metrics[CHANGE] = Estimate(change, change, change)
    named = settings.named_metrics()
    cell = cells[0]
    if named & set(QUALITY_METRICS):
        quality = measure_quality(
            cell.game,
            cell.players,
            dict(cell.options),
            cell.agents,
            cell.seed,
            settings.metrics_games,
            skill=bool(named & set(SKILL_METRICS)),
        )
        metrics.update(quality.estimates())
        missing = sorted(name for name in named & set(QUALITY_METRICS) if name not in metrics)
        if missing:
            raise GamebagError(
                _(
                    "{metrics} cannot be measured here: {why}",
                    metrics=", ".join(missing),
                    why="; ".join(shown(note) for note in quality.notes),
                )
            )
    if CARD_SPREAD in named:
        cards = card_study(
            settings.game,
            settings.players,
            games,
            seed,
            settings.workers,
            settings.executor,
            settings.address,
            dict(cell.options),
        )
        if cards.study.interrupted:
            raise _Interrupted
        metrics[CARD_SPREAD] = card_spread(
            [Estimate(r.difference.estimate, r.difference.low, r.difference.high) for r in cards.rows]
        )
    return Measurement(dict(params), run.games, cell.seed, run.engine, metrics)


def _import_optuna() -> Any:
    try:
        import optuna
    except ImportError:  # pragma: no cover - optuna is a dependency of gamebag
        raise GamebagError(_("gamebag tune needs Optuna: pip install optuna")) from None
    optuna.logging.set_verbosity(logging.WARNING)
    return optuna


def tune(settings: TuneSettings, progress: Progress | None = None) -> TuneResult:
    """Run the search described by ``settings`` (see the module docstring)."""
    agent_notices = check_settings(settings)
    optuna = _import_optuna()
    started = time.perf_counter()
    storage = None
    if settings.storage is not None:
        try:
            storage = optuna.storages.RDBStorage(settings.storage)
        except Exception as error:  # any storage failure is the user's URL or database
            raise GamebagError(
                _("--storage {given} cannot be opened: {error}", given=repr(settings.storage), error=error)
            ) from None
    several = len(settings.goals) > 1
    every_design = grid(settings.dimensions, settings.trials)
    sampler: Any
    if every_design is not None:
        sampler = optuna.samplers.GridSampler(every_design, seed=settings.seed)
    elif several:
        sampler = optuna.samplers.NSGAIISampler(seed=settings.seed)
    else:
        sampler = optuna.samplers.TPESampler(seed=settings.seed)
    study = optuna.create_study(
        study_name=settings.study_name(),
        storage=storage,
        sampler=sampler,
        directions=["minimize"] * len(settings.goals),
        load_if_exists=True,
    )
    executor = make_executor(settings.executor, settings.workers, settings.address, None)
    trials: dict[int, TuneTrial] = {}
    interrupted = False
    notes: list[str] = list(agent_notices)
    trial_seed = derive_seed(settings.seed, "tune", "trials")

    measured: dict[str, Measurement] = {}

    def objective(trial: Any) -> Sequence[float] | float:
        params = {d.name: d.suggest(trial) for d in settings.dimensions}
        key = json.dumps(params, sort_keys=True)
        try:
            # A design proposed again is not played again: at the trials' seed it would give the same games.
            measurement = measured.get(key) or measure(settings, params, trial_seed, settings.games, executor)
            measured[key] = measurement
        except OptionError as error:
            trial.set_user_attr("refused", str(error))
            raise optuna.TrialPruned(str(error)) from None
        goals = [g.value(measurement.metrics).value for g in settings.goals]
        violations = [lim.violation(measurement.metrics) for lim in settings.limits]
        # Limits are Optuna constraints (feasible when every value is 0 or less): the samplers steer by them.
        for limit, violation in zip(settings.limits, violations, strict=True):
            trial.set_constraint(limit.text, violation)
        trial.set_user_attr("measurement", measurement.to_json())
        return goals if several else goals[0]

    done = sum(1 for t in study.trials if t.state.is_finished())
    remaining = max(0, settings.trials - done)
    if every_design is not None:
        designs = math.prod(len(values) for values in every_design.values())
        remaining = max(0, min(settings.trials, designs) - done)
        notes.append(
            say(
                N_("the search space has {designs} design(s), no more than --trials: each is tried once"),
                designs=Figure(designs),
            )
        )
    if done:
        notes.append(say(N_("resumed: {done} trial(s) were already in the storage"), done=Figure(done)))

    def tick(_study: Any, _trial: Any) -> None:
        if progress is not None:
            progress(sum(1 for t in _study.trials if t.state.is_finished()), settings.trials)

    try:
        if remaining:
            study.optimize(objective, n_trials=remaining, callbacks=[tick], catch=())
    except (KeyboardInterrupt, _Interrupted):
        interrupted = True
    try:
        for frozen in study.trials:
            trials[frozen.number] = _read_trial(frozen, settings)
        ordered = [trials[k] for k in sorted(trials)]
        best: Recommendation | None = None
        pareto: list[Recommendation] = []
        feasible = [t for t in ordered if t.feasible]
        if not feasible:
            notes.append(say(N_("no finished trial met every limit; nothing is recommended")))
        elif interrupted:
            notes.append(say(N_("interrupted: the leaders were not re-measured or confirmed")))
            best = _unconfirmed(min(feasible, key=lambda t: sum(t.objectives)))
        else:
            best, pareto = _recommend(settings, feasible, executor, several)
    except (KeyboardInterrupt, _Interrupted):
        interrupted = True
        notes.append(say(N_("interrupted while re-measuring the leaders: nothing is recommended")))
        best, pareto = None, []
        ordered = [trials[k] for k in sorted(trials)]
    finally:
        executor.close(cancel=True)
    return TuneResult(settings, ordered, best, pareto, interrupted, time.perf_counter() - started, notes)


def _read_trial(frozen: Any, settings: TuneSettings) -> TuneTrial:
    state = frozen.state.name.lower()
    attrs = frozen.user_attrs
    measurement = None
    if "measurement" in attrs:
        data = attrs["measurement"]
        measurement = Measurement(
            data["options"],
            data["games"],
            data["seed"],
            data["engine"],
            {name: Estimate(**e) for name, e in data["metrics"].items()},
        )
    if "refused" in attrs:
        return TuneTrial(frozen.number, dict(frozen.params), None, [], [], "refused", attrs["refused"])
    if state != "complete" or measurement is None:
        return TuneTrial(
            frozen.number, dict(frozen.params), None, [], [], "interrupted" if state == "running" else state
        )
    objectives = [g.value(measurement.metrics).value for g in settings.goals]
    violations = [lim.violation(measurement.metrics) for lim in settings.limits]
    return TuneTrial(frozen.number, dict(frozen.params), measurement, objectives, violations, "complete")


def _unconfirmed(trial: TuneTrial) -> Recommendation:
    if trial.measurement is None:  # only complete trials are candidates
        raise GamebagError("internal: a candidate trial has no measurement")
    return Recommendation(
        trial.params, trial.number, trial.measurement, None, False, say(N_("not re-measured (interrupted)"))
    )


def _dominates(a: Sequence[float], b: Sequence[float]) -> bool:
    return all(x <= y for x, y in zip(a, b, strict=True)) and any(x < y for x, y in zip(a, b, strict=True))


def _recommend(
    settings: TuneSettings, feasible: list[TuneTrial], executor: Executor, several: bool
) -> tuple[Recommendation, list[Recommendation]]:
    """Re-measure the leaders at a fresh seed, pick the best of them, confirm it at another."""

    def slack(violations: Sequence[float]) -> float:
        # Among equal goals, the design furthest inside its limits (relative to each bound) first.
        return max(
            (v / max(abs(lim.bound), 1e-9) for v, lim in zip(violations, settings.limits, strict=True)), default=0.0
        )

    if several:
        front = [t for t in feasible if not any(_dominates(o.objectives, t.objectives) for o in feasible)]
        leaders = sorted(front, key=lambda t: (sum(t.objectives), slack(t.violations)))[:MAX_FRONT]
    else:
        leaders = sorted(feasible, key=lambda t: (t.objectives[0], slack(t.violations)))[:LEADERS]
    games = settings.games * REMEASURE_FACTOR
    again_seed = derive_seed(settings.seed, "tune", "remeasure")
    remeasured: list[tuple[TuneTrial, Measurement]] = []
    seen: set[str] = set()
    for trial in leaders:
        key = json.dumps(trial.params, sort_keys=True)
        if key in seen:  # the sampler may propose one design twice
            continue
        seen.add(key)
        remeasured.append((trial, measure(settings, trial.params, again_seed, games, executor)))

    def scores(m: Measurement) -> list[float]:
        return [g.value(m.metrics).value for g in settings.goals]

    def violations(m: Measurement) -> list[float]:
        return [lim.violation(m.metrics) for lim in settings.limits]

    valid = [(t, m) for t, m in remeasured if all(v <= 0 for v in violations(m))] or remeasured
    if several:
        kept = [(t, m) for t, m in valid if not any(_dominates(scores(o), scores(m)) for _t, o in valid)]
        spans = [
            (min(scores(m)[i] for _t, m in kept), max(scores(m)[i] for _t, m in kept))
            for i in range(len(settings.goals))
        ]

        def balance(m: Measurement) -> float:
            return sum((v - lo) / (hi - lo) if hi > lo else 0.0 for v, (lo, hi) in zip(scores(m), spans, strict=True))

        ranked = sorted(kept, key=lambda tm: (balance(tm[1]), slack(violations(tm[1]))))
    else:
        kept = valid
        ranked = sorted(valid, key=lambda tm: (scores(tm[1])[0], slack(violations(tm[1]))))
    # The best re-measured design is confirmed at a fresh seed; if it fails, the next in rank is tried,
    # so a design recommended as confirmed has passed at two seeds none of the trials used.
    confirm_seed = derive_seed(settings.seed, "tune", "confirm")
    best: Recommendation | None = None
    for trial, again in ranked:
        confirmation = measure(settings, trial.params, confirm_seed, games, executor)
        reasons: list[str] = [
            say(N_("limit {limit} broken at the fresh seed"), limit=lim.text)
            for lim in settings.limits
            if lim.violation(confirmation.metrics) > 0
        ]
        for goal in settings.goals:
            if not goal.value(confirmation.metrics).overlaps(goal.value(again.metrics)):
                reasons.append(say(N_("{goal} moved beyond its interval at the fresh seed"), goal=goal.text))
        confirmed = not reasons
        why: str = say(N_("every limit holds and every goal agrees at a fresh seed")) if confirmed else joined(reasons)
        candidate = Recommendation(trial.params, trial.number, again, confirmation, confirmed, why)
        if best is None:
            best = candidate
        if confirmed:
            if candidate is not best:
                candidate.why = say(
                    N_("{why} (trial {trial}, ranked higher, was not confirmed: {other})"),
                    why=candidate.why,
                    trial=best.trial,
                    other=best.why,
                )
            best = candidate
            break
    if best is None:  # leaders are never empty: feasible trials exist
        raise GamebagError("internal: no design was re-measured")
    pareto = (
        [
            Recommendation(t.params, t.number, m, None, False, say(N_("Pareto front after re-measurement")))
            for t, m in kept
        ]
        if several
        else []
    )
    return best, pareto
