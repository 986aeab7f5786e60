"""A study's results: per-cell figures, comparisons with the first cell, warnings, per-game rows.

``BalanceResult.to_json()`` has the keys the command's ``--json`` prints (``game``,
``cells``, ``comparisons``, ``warnings``, ...). ``BalanceResult.per_game`` is an
Arrow table with one row per game (``.to_pandas()``, ``polars.from_arrow``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from gamebag.lab.cells import Cell
from gamebag.lab.quality import Quality
from gamebag.lab.stats import (
    Difference,
    Summary,
    fairness_p,
    mean_difference,
    share_difference,
    summarise,
    wilson,
    winning_margins,
)
from gamebag.lab.study import CellRun


@dataclass
class CellResult:
    """The figures of one cell."""

    cell: Cell
    engine: str
    games: int
    requested: int
    stopped_early: bool
    win_share: list[float]
    win_share_ci: list[tuple[float, float]]
    fairness_p: float
    shared_win_rate: float
    no_winner: int
    scores: list[Summary]
    margin: Summary
    length: Summary
    ended_by: dict[str, int]
    alike_rate: float | None  # share of simultaneous decisions where every seat chose alike
    quality: Quality | None = None  # game-quality metrics (``balance --metrics``)
    # A population cell: each agent's win share over the seats it was drawn into, with its interval.
    agent_shares: dict[str, tuple[float, tuple[float, float], int]] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "cell": self.cell.index,
            "label": self.cell.label,
            "options": dict(self.cell.options),
            "players": self.cell.players,
            "agents": list(self.cell.agents),
            "engine": self.engine,
            "games": self.games,
            "requested": self.requested,
            "stopped_early": self.stopped_early,
            "win_share": self.win_share,
            "win_share_ci": [list(ci) for ci in self.win_share_ci],
            "fairness_p": self.fairness_p,
            "shared_win_rate": self.shared_win_rate,
            "no_winner": self.no_winner,
            "scores": [s.to_json() for s in self.scores],
            "winning_margin": self.margin.to_json(),
            "length": self.length.to_json(),
            "ended_by": self.ended_by,
            "alike_rate": self.alike_rate,
            **({"quality": self.quality.to_json()} if self.quality is not None else {}),
            **(
                {
                    "population": list(self.cell.agents),
                    "agent_shares": {
                        agent: {"share": share, "ci95": list(ci), "seats": seats}
                        for agent, (share, ci, seats) in self.agent_shares.items()
                    },
                }
                if self.agent_shares is not None
                else {}
            ),
        }


@dataclass
class Comparison:
    """One cell against the first cell: each common seat's share and the length, ``cell - first``."""

    cell: int
    against: int
    seats: list[Difference]
    length: Difference

    def to_json(self) -> dict[str, Any]:
        return {
            "cell": self.cell,
            "against": self.against,
            "win_share": [d.to_json() for d in self.seats],
            "length": self.length.to_json(),
        }


@dataclass
class BalanceResult:
    """Everything a study found (see the module docstring)."""

    game: str
    seed: int
    cells: list[CellResult]
    comparisons: list[Comparison]
    warnings: list[str]
    notices: list[str]
    interrupted: bool
    seconds: float
    runs: list[CellRun] = field(repr=False, default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "cells": [c.to_json() for c in self.cells],
            "comparisons": [c.to_json() for c in self.comparisons],
            "warnings": self.warnings,
            "notices": self.notices,
            "interrupted": self.interrupted,
            "seconds": self.seconds,
        }

    @property
    def per_game(self) -> pa.Table:
        """One row per game: cell, seed index, players, seats' scores and shares, winners, length, end."""
        return per_game_table(self.runs)


def analyse_cell(run: CellRun) -> CellResult:
    games = run.games
    n = run.cell.players
    returns = run.column("returns").reshape(games, n)
    scores = run.column("scores").reshape(games, n)
    wins = returns.sum(axis=0)
    winners = (returns > 0).sum(axis=1)
    margin = winning_margins(scores, returns, run.cell.score_sign())
    ended: dict[str, int] = {}
    for reason in run.ended_by():
        key = reason or "game end"
        ended[key] = ended.get(key, 0) + 1
    joint = run.column("joint")
    measured = joint >= 0
    total_joint = int(joint[measured].sum()) if np.any(measured) else 0
    alike = run.column("alike")
    agent_shares = None
    if run.cell.population and games:
        seats = np.concatenate([b.seats for b in run.blocks if b.seats is not None])
        agent_shares = {}
        for index, agent in enumerate(run.cell.agents):
            taken = seats == index
            count = int(taken.sum())
            won = float(returns[taken].sum())
            agent_shares[agent] = (won / count if count else 0.0, wilson(won, count), count)
    return CellResult(
        cell=run.cell,
        engine=run.engine,
        games=games,
        requested=run.requested,
        stopped_early=run.stopped_early,
        win_share=[float(w / games) if games else 0.0 for w in wins],
        win_share_ci=[wilson(float(w), games) for w in wins],
        fairness_p=fairness_p(wins),
        shared_win_rate=float(np.mean(winners > 1)) if games else 0.0,
        no_winner=int(np.sum(winners == 0)),
        scores=[summarise(scores[:, seat]) for seat in range(n)],
        margin=summarise(margin),
        length=summarise(run.column("length").astype(np.float64)),
        ended_by=dict(sorted(ended.items())),
        alike_rate=float(alike[measured].sum() / total_joint) if total_joint else None,
        agent_shares=agent_shares,
    )


def compare(first: CellRun, other: CellRun) -> Comparison:
    a, b = first.cell.players, other.cell.players
    wins_a = first.column("returns").reshape(first.games, a).sum(axis=0)
    wins_b = other.column("returns").reshape(other.games, b).sum(axis=0)
    seats = [share_difference(float(wins_a[s]), first.games, float(wins_b[s]), other.games) for s in range(min(a, b))]
    length = mean_difference(first.column("length").astype(np.float64), other.column("length").astype(np.float64))
    return Comparison(other.cell.index, first.cell.index, seats, length)


def compare_cells(runs: list[CellRun]) -> list[Comparison]:
    """Each cell against the first cell with its player count (the first cell of all where it is alone)."""
    if not runs:
        return []
    firsts: dict[int, CellRun] = {}
    for run in runs:
        firsts.setdefault(run.cell.players, run)
    out = []
    for run in runs[1:]:
        reference = firsts[run.cell.players]
        out.append(compare(runs[0] if reference is run else reference, run))
    return out


def _option_types(runs: list[CellRun]) -> dict[str, pa.DataType]:
    """One typed column per option any cell gives (``option_<name>``): bool, int64, string or list<string>."""
    types: dict[str, pa.DataType] = {}
    for run in runs:
        for name, value in run.cell.options.items():
            if isinstance(value, bool):
                kind = pa.bool_()
            elif isinstance(value, int):
                kind = pa.int64()
            elif isinstance(value, list | tuple):
                kind = pa.list_(pa.string())
            else:
                kind = pa.string()
            types.setdefault(name, kind)
    return types


def per_game_table(runs: list[CellRun]) -> pa.Table:
    width = max((run.cell.players for run in runs), default=0)
    option_types = _option_types(runs)
    parts: list[pa.Table] = []
    for run in runs:
        games, n = run.games, run.cell.players
        returns = run.column("returns").reshape(games, n)
        scores = run.column("scores").reshape(games, n)
        won = returns > 0
        offsets = np.concatenate([[0], np.cumsum(won.sum(axis=1))]).astype(np.int32)
        seats = np.nonzero(won)[1].astype(np.int8)
        arrays: dict[str, pa.Array] = {
            "cell": pa.array(np.full(games, run.cell.index, np.int32)),
            "game_index": pa.array(
                np.concatenate([b.start + np.arange(len(b)) for b in run.blocks]) if games else np.zeros(0, np.int64)
            ),
            "players": pa.array(np.full(games, n, np.int8)),
            "options": pa.array([json.dumps(dict(run.cell.options), sort_keys=True)] * games, pa.string()),
            # The same options as typed columns (null where a cell does not give the option), so a
            # notebook filters and groups by them without parsing JSON.
            **{
                f"option_{name}": pa.array([run.cell.options.get(name)] * games, kind)
                for name, kind in option_types.items()
            },
            "agents": pa.array([",".join(run.cell.agents)] * games, pa.string()),
        }
        for seat in range(width):
            arrays[f"score_{seat}"] = pa.array(
                scores[:, seat] if seat < n else np.full(games, np.nan), mask=None if seat < n else np.ones(games, bool)
            )
        for seat in range(width):
            arrays[f"share_{seat}"] = pa.array(
                returns[:, seat] if seat < n else np.full(games, np.nan),
                mask=None if seat < n else np.ones(games, bool),
            )
        arrays["winners"] = pa.ListArray.from_arrays(pa.array(offsets), pa.array(seats, pa.int8()))
        arrays["length"] = pa.array(run.column("length").astype(np.int32))
        arrays["ended_by"] = pa.array([r or "game end" for r in run.ended_by()], pa.string())
        parts.append(pa.table(arrays))
    if not parts:
        return pa.table({"cell": pa.array([], pa.int32())})
    return pa.concat_tables(parts)
