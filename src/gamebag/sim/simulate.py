"""Batch simulation: many seeded games between named agents, with summary statistics.

Two engines play the games. The rules engine (``games/<id>``, the specification): game
``i`` of a run with seed ``S`` draws all its randomness from ``derive_rng(S, "game", i)``.
The fast engine (``gamebag.fast``, compiled kernels proven equal to the rules engine):
game ``i`` draws from the counter-based generator keyed by ``(S, i)``. Either way the
numbers are identical whatever the number of worker processes; the two engines draw
different random streams, so their figures agree statistically, not game by game.
``engine="auto"`` picks the fast engine when the game, its options and every agent have
kernels (and no records are kept), else the rules engine, and says why. ``learned`` seats
count as compiled where a policy ships and every other agent has a kernel: the games then
run on the compiled step batch with the network's moves in NumPy (``gamebag.sim.stepped``),
game ``i`` from the same ``(S, i)`` stream.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.core.errors import GamebagError
from gamebag.core.i18n import number
from gamebag.core.protocol import Game
from gamebag.core.rng import derive_rng
from gamebag.fast import BatchResult, engine_for
from gamebag.sim.play import play_game
from gamebag.sim.stats import wilson_interval
from gamebag.sim.stepped import STEPPED, compiled_route, play_whole_games
from gamebag.sim.translation import N_, _, say


@dataclass(frozen=True)
class SimulationSpec:
    """What to simulate."""

    game: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameSummary:
    """The part of one game's outcome the statistics need."""

    index: int
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    rounds: int
    record: dict[str, Any] | None
    ended_by: str | None = None  # why the game ended, where the game says (e.g. a round cap)


ENGINES = ("auto", "rules", "fast")
MAX_GAMES = 1_000_000  # one simulation's games; the rules engine keeps a summary of each in memory
# Games per unit of work on the fast engine (a few milliseconds each).
FAST_CHUNK = 20_000
# With a network in a seat: the step batch costs per step of the whole batch, and smaller pieces
# keep progress and Ctrl-C prompt.
STEPPED_CHUNK = 4_096


@dataclass(frozen=True)
class EngineChoice:
    """Which engine plays a simulation, and why the fast one does not (when it does not)."""

    engine: str  # "fast" or "rules"
    reason: str | None = None


def choose_engine(spec: SimulationSpec, requested: str = "auto", keep_records: bool = False) -> EngineChoice:
    """The engine ``requested`` ("auto", "rules" or "fast") resolves to for ``spec``.

    ``fast`` that cannot run is an error naming why; ``auto`` then falls back to the rules engine.
    """
    if requested not in ENGINES:
        raise GamebagError(
            _("--engine must be one of {choices}, not {given}", choices=", ".join(ENGINES), given=repr(requested))
        )
    if requested == "rules":
        return EngineChoice("rules")
    reason: str | None
    if keep_records:
        reason = "the fast engine keeps no game records"
    else:
        _route, reason = compiled_route(gamebag.make(spec.game, spec.players, **spec.options), spec.agents)
    if reason is None:
        return EngineChoice("fast")
    if requested == "fast":
        raise GamebagError(
            _("the fast engine cannot play this simulation: {reason}; use --engine rules or auto", reason=reason)
        )
    return EngineChoice("rules", reason)


@dataclass
class SimulationResult:
    spec: SimulationSpec
    win_share: list[float]
    win_interval: list[tuple[float, float]]
    mean_score: list[float]
    mean_rounds: float
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)
    engine: str = "rules"
    engine_reason: str | None = None  # why the fast engine did not play (where it did not)
    # Ctrl-C (or SIGTERM) stopped it: the figures cover the first ``games_played`` games.
    interrupted: bool = False
    games_played: int | None = None

    @property
    def played(self) -> int:
        return self.spec.games if self.games_played is None else self.games_played

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.spec.game,
            "players": self.spec.players,
            "options": self.spec.options,
            "games": self.spec.games,
            "seed": self.spec.seed,
            "agents": list(self.spec.agents),
            "win_share": self.win_share,
            "win_share_ci95": [list(ci) for ci in self.win_interval],
            "mean_score": self.mean_score,
            "mean_rounds": self.mean_rounds,
            "games_per_second": self.games_per_second,
            "seconds": self.seconds,
            "engine": self.engine,
            "interrupted": self.interrupted,
            "games_played": self.played,
            **self.extra,
        }


def validate_spec(spec: SimulationSpec) -> None:
    """Fail fast, before any worker starts, on a bad game, option or agent."""
    if not 1 <= spec.games <= MAX_GAMES:
        raise GamebagError(
            _("--games must be from 1 to {most}, not {given}", most=number(MAX_GAMES), given=number(spec.games))
        )
    game = gamebag.make(spec.game, spec.players, **spec.options)
    if len(spec.agents) != spec.players:
        raise GamebagError(
            _(
                "{agents} agent(s) given for {seats} seats; name one agent per seat (or one agent for every seat)",
                agents=len(spec.agents),
                seats=spec.players,
            )
        )
    for name in spec.agents:
        make_agent(name, game)


def _play_range(spec: SimulationSpec, start: int, stop: int, keep_records: bool) -> list[GameSummary]:
    game = gamebag.make(spec.game, spec.players, **spec.options)
    agents = [make_agent(name, game) for name in spec.agents]
    out = []
    for index in range(start, stop):
        played = play_game(game, agents, derive_rng(spec.seed, "game", index), keep_record=keep_records)
        out.append(
            GameSummary(
                index=index,
                returns=played.returns,
                scores=played.scores,
                rounds=played.rounds,
                record=played.record.to_json() if played.record is not None else None,
                ended_by=ended_by_reason(game, played.state),
            )
        )
    return out


def ended_by_reason(game: Game[Any, Any, Any], state: Any) -> str | None:
    """How a finished game ended: its ``termination()`` (a ``Termination`` value), else what its
    public view names, else ``None``. The fast engines name their games' endings the same way."""
    termination = game.termination(state)
    if termination is not None:
        return termination.value
    reason = game.public_view(state).get("ended_by")
    return reason if isinstance(reason, str) else None


def _chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(total, start + size)


def run_simulation(
    spec: SimulationSpec,
    workers: int = 1,
    record_dir: Path | None = None,
    progress: Callable[[int], None] | None = None,
    engine: str = "auto",
) -> SimulationResult:
    """Play ``spec.games`` games and summarise them; ``progress`` gets the count of games finished.

    ``engine`` is "auto", "rules" or "fast" (see the module docstring). A fast engine that
    fails when it runs (a broken compiler) hands the run to the rules engine, with the reason.
    """
    validate_spec(spec)
    choice = choose_engine(spec, engine, keep_records=record_dir is not None)
    if choice.engine == "fast":
        try:
            return _run_fast(spec, workers, progress)
        except Exception as error:  # any compiler or runtime failure: the rules engine gives the right answer
            if engine == "fast":
                raise GamebagError(f"the fast engine failed: {type(error).__name__}: {error}") from error
            failure = say(N_("the fast engine failed ({error})"), error=f"{type(error).__name__}: {error}")
            choice = EngineChoice("rules", failure)
    result = _run_rules(spec, workers, record_dir, progress)
    result.engine_reason = choice.reason
    return result


def _run_rules(
    spec: SimulationSpec, workers: int, record_dir: Path | None, progress: Callable[[int], None] | None
) -> SimulationResult:
    keep = record_dir is not None
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    summaries: list[GameSummary] = []
    chunk = max(1, min(200, spec.games // max(1, workers * 8) or 1))
    ranges = list(_chunks(spec.games, chunk))

    def collect(batch: Sequence[GameSummary]) -> None:
        summaries.extend(batch)
        if record_dir is not None:
            for summary in batch:
                path = record_dir / f"game-{summary.index:06d}.json"
                path.write_text(json.dumps(summary.record), encoding="utf-8")
        if progress is not None:
            progress(len(batch))

    interrupted = run_in_order(partial(_range_task, spec, keep), ranges, workers, collect)
    seconds = time.perf_counter() - started
    if not summaries:
        raise KeyboardInterrupt  # stopped before any game finished: nothing to report
    result = summarise(spec, summaries, seconds)
    result.interrupted, result.games_played = interrupted, len(summaries)
    return result


@dataclass
class _Totals:
    """Sums over a range of fast-engine games (per-game objects would cost more than the games)."""

    games: int
    wins: list[float]
    scores: list[float]
    rounds: int
    ended_by: dict[str, int]


def _play_fast_range(spec: SimulationSpec, start: int, stop: int) -> _Totals:
    game = gamebag.make(spec.game, spec.players, **spec.options)
    fast = engine_for(game, spec.agents)
    if fast is None:
        route, reason = compiled_route(game, spec.agents)
        if route != STEPPED:
            raise GamebagError(_("the fast engine cannot play this simulation: {reason}", reason=reason))
        return _play_stepped_range(game, spec, start, stop)
    result: BatchResult = fast.play(game, spec.agents, spec.seed, start, stop)
    reasons: dict[str, int] = {}
    for code, count in enumerate(np.bincount(result.ended_by, minlength=len(result.ended_by_names))):
        name = result.ended_by_names[code] if code < len(result.ended_by_names) else str(code)
        if count and name:
            reasons[name] = int(count)
    return _Totals(
        games=len(result),
        wins=[float(x) for x in result.returns.sum(axis=0)],
        scores=[float(x) for x in result.scores.sum(axis=0, dtype=np.int64)],
        rounds=int(result.length.sum(dtype=np.int64)),
        ended_by=reasons,
    )


def _play_stepped_range(game: Game[Any, Any, Any], spec: SimulationSpec, start: int, stop: int) -> _Totals:
    """``_play_fast_range`` with ``learned`` seats: the step batch, the network's moves in NumPy."""
    played = play_whole_games(game, spec.agents, spec.seed, start, stop)
    reasons: dict[str, int] = {}
    for name in played.ended_by:
        if name:
            reasons[name] = reasons.get(name, 0) + 1
    return _Totals(
        games=stop - start,
        wins=[float(x) for x in played.returns.sum(axis=0)],
        scores=[float(x) for x in played.scores.sum(axis=0)],
        rounds=int(played.length.sum()),
        ended_by=reasons,
    )


def _fast_task(spec: SimulationSpec, bounds: tuple[int, int]) -> _Totals:
    return _play_fast_range(spec, bounds[0], bounds[1])


def _range_task(spec: SimulationSpec, keep: bool, bounds: tuple[int, int]) -> list[GameSummary]:
    return _play_range(spec, bounds[0], bounds[1], keep)


def _ignore_interrupts() -> None:
    # Ctrl-C goes to the main process, which stops and keeps the games that finished.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_in_order(
    task: Callable[[Any], Any], items: Sequence[Any], workers: int, collect: Callable[[Any], None]
) -> bool:
    """Run ``task`` (picklable) on each item, in this process or in ``workers`` processes, handing the
    results to ``collect`` in order; ``True`` when Ctrl-C stopped it, keeping what finished before the
    first unfinished item (so the games kept are the first ones, as a shorter run would have played)."""
    if workers <= 1:
        try:
            for item in items:
                collect(task(item))
        except KeyboardInterrupt:
            return True
        return False
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    futures = [pool.submit(task, item) for item in items]
    collected = 0
    try:
        for future in futures:
            result = future.result()
            collected += 1
            collect(result)
    except KeyboardInterrupt:
        for future in futures[collected:]:
            if not future.done() or future.cancelled() or future.exception() is not None:
                break
            collect(future.result())
        pool.shutdown(wait=False, cancel_futures=True)
        return True
    pool.shutdown()
    return False


def _run_fast(spec: SimulationSpec, workers: int, progress: Callable[[int], None] | None) -> SimulationResult:
    started = time.perf_counter()
    game = gamebag.make(spec.game, spec.players, **spec.options)
    most = STEPPED_CHUNK if compiled_route(game, spec.agents)[0] == STEPPED else FAST_CHUNK
    chunk = max(1, min(most, -(-spec.games // max(1, workers * 4))))
    ranges = list(_chunks(spec.games, chunk))
    parts: list[_Totals] = []

    def collect(part: _Totals) -> None:
        parts.append(part)
        if progress is not None:
            progress(part.games)

    interrupted = run_in_order(partial(_fast_task, spec), ranges, workers, collect)
    seconds = time.perf_counter() - started
    n, seats = sum(part.games for part in parts), spec.players
    if n == 0:
        raise KeyboardInterrupt  # stopped before any game finished: nothing to report
    wins = [sum(part.wins[p] for part in parts) for p in range(seats)]
    reasons: dict[str, int] = {}
    for part in parts:
        for reason, count in part.ended_by.items():
            reasons[reason] = reasons.get(reason, 0) + count
    return SimulationResult(
        spec=spec,
        win_share=[w / n for w in wins],
        win_interval=[wilson_interval(w, n) for w in wins],
        mean_score=[sum(part.scores[p] for part in parts) / n for p in range(seats)],
        mean_rounds=sum(part.rounds for part in parts) / n,
        seconds=seconds,
        extra={"ended_by": dict(sorted(reasons.items()))} if reasons else {},
        engine="fast",
        interrupted=interrupted,
        games_played=n,
    )


def summarise(spec: SimulationSpec, summaries: Sequence[GameSummary], seconds: float) -> SimulationResult:
    ordered = sorted(summaries, key=lambda s: s.index)
    n = len(ordered)
    seats = spec.players
    wins = [sum(s.returns[p] for s in ordered) for p in range(seats)]
    reasons: dict[str, int] = {}
    for summary in ordered:
        if summary.ended_by is not None:
            reasons[summary.ended_by] = reasons.get(summary.ended_by, 0) + 1
    return SimulationResult(
        spec=spec,
        win_share=[w / n for w in wins],
        win_interval=[wilson_interval(w, n) for w in wins],
        mean_score=[sum(s.scores[p] for s in ordered) / n for p in range(seats)],
        mean_rounds=sum(s.rounds for s in ordered) / n,
        seconds=seconds,
        extra={"ended_by": dict(sorted(reasons.items()))} if reasons else {},
    )
