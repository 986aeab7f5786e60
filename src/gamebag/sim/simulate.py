"""Batch simulation: many seeded games between named agents, with summary statistics.

Game ``i`` of a run with seed ``S`` draws all its randomness from
``derive_rng(S, "game", i)``, so the numbers are identical whatever the number of
worker processes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.core.errors import GamebagError
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game
from gamebag.sim.stats import wilson_interval


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


@dataclass
class SimulationResult:
    spec: SimulationSpec
    win_share: list[float]
    win_interval: list[tuple[float, float]]
    mean_score: list[float]
    mean_rounds: float
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def games_per_second(self) -> float:
        return self.spec.games / self.seconds if self.seconds > 0 else float("inf")

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
            **self.extra,
        }


def validate_spec(spec: SimulationSpec) -> None:
    """Fail fast, before any worker starts, on a bad game, option or agent."""
    if spec.games < 1:
        raise GamebagError("--games must be at least 1")
    game = gamebag.make(spec.game, spec.players, **spec.options)
    if len(spec.agents) != spec.players:
        raise GamebagError(
            f"{len(spec.agents)} agent(s) given for {spec.players} seats; name one agent per seat "
            "(or one agent for every seat)"
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
                ended_by=_ended_by(game.public_view(played.state)),
            )
        )
    return out


def _ended_by(view: dict[str, Any]) -> str | None:
    reason = view.get("ended_by")
    return reason if isinstance(reason, str) else None


def _chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(total, start + size)


def run_simulation(
    spec: SimulationSpec,
    workers: int = 1,
    record_dir: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``spec.games`` games and summarise them; ``progress`` gets the count of games finished."""
    validate_spec(spec)
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

    if workers <= 1:
        for start, stop in ranges:
            collect(_play_range(spec, start, stop, keep))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_play_range, spec, start, stop, keep) for start, stop in ranges]
            for future in futures:
                collect(future.result())
    seconds = time.perf_counter() - started
    return summarise(spec, summaries, seconds)


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
