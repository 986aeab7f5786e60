"""Building the continuation table ``W`` of a two-player Eel configuration, and measuring exploitability.

``W[s0, s1]`` is seat 0's chance to win a game whose next round starts at scores
``(s0, s1)``, both below 20, when both seats play the solved strategy. A round
from ``(s0, s1)`` ends at scores no lower on either side, so the table is filled
one anti-diagonal ``s0 + s1`` at a time, from 38 down to 0, every pair of a
diagonal solved in one batch. A round can end where it started (nobody scored),
so ``W[s0, s1]`` appears in its own round: it is the fixed point of
``x = V(x)``, found with two solves and a secant step (``V`` is piecewise linear
in ``x`` with slope below one, the chance of a round that changes nothing).

Three tracks run side by side: the equilibrium, seat 0 best-responding to seat
1's equilibrium strategy in every round, and seat 1 best-responding. The gap
between them at ``(0, 0)`` is the exploitability of the solved strategy in the
whole game.

Run ``python -m gamebag.agents.equilibrium.build`` to regenerate
``tables.json`` (a few minutes per configuration; ``--checkpoints DIR
--time-limit S`` splits a build into resumable runs).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gamebag.agents.equilibrium.model import FloatArray, RoundRules
from gamebag.agents.equilibrium.solver import BEST_RESPONSE_0, BEST_RESPONSE_1, EQUILIBRIUM, RoundSolver
from gamebag.agents.equilibrium.tables import TABLES_FILE, TABLES_FORMAT, read_tables

TRACKS = 3
ABOUT = (
    "tables[key][s0][s1]: seat 0's chance to win when a two-player round starts at scores (s0, s1) and both "
    "seats play the solved equilibrium. exploitability[key]: seat 0's value from the start, each seat's "
    "best-response gain and their mean, and the seconds the build took. Regenerate with "
    "python -m gamebag.agents.equilibrium.build; do not edit by hand."
)
# The configurations whose tables ship with gamebag; other option sets reuse the closest one.
SHIPPED = (
    RoundRules("eel-harvest"),
    RoundRules("eel-harvest", outbreak_scores_reserve=True),
    RoundRules("eel-harvest", dice=True),
    RoundRules("eel-harvest", dice=True, outbreak_scores_reserve=True),
    RoundRules("wriggle-roulette"),
)


@dataclass(frozen=True)
class Continuation:
    """The tables of one configuration and what they say about exploitability."""

    rules: RoundRules
    values: FloatArray  # [track, s0, s1]
    seconds: float

    @property
    def game_value(self) -> float:
        """Seat 0's chance to win from the start under the equilibrium."""
        return float(self.values[EQUILIBRIUM, 0, 0])

    @property
    def best_response_gains(self) -> tuple[float, float]:
        """What seat 0, then seat 1, gains from the start by best-responding to the other's strategy."""
        value = self.values[:, 0, 0]
        return float(value[BEST_RESPONSE_0] - value[EQUILIBRIUM]), float(value[EQUILIBRIUM] - value[BEST_RESPONSE_1])

    @property
    def exploitability(self) -> float:
        """Mean best-response gain of the two seats (zero at an exact equilibrium)."""
        gain0, gain1 = self.best_response_gains
        return (gain0 + gain1) / 2


def _diagonal(total: int, target: int) -> list[tuple[int, int]]:
    return [(s0, total - s0) for s0 in range(target) if 0 <= total - s0 < target]


def _guess(values: FloatArray, s0: int, s1: int) -> FloatArray:
    """A starting point for ``W[s0, s1]`` from the neighbours already solved."""
    target = values.shape[1]
    if s0 + 1 < target and s1 + 1 < target:
        guess: FloatArray = values[:, s0 + 1, s1] + values[:, s0, s1 + 1] - values[:, s0 + 1, s1 + 1]
        return np.clip(guess, 0.0, 1.0)
    return np.full(values.shape[0], 0.5)


def build_continuation(
    rules: RoundRules,
    progress: Callable[[int, float], None] | None = None,
    tracks: int = TRACKS,
    checkpoint: Path | None = None,
    time_limit: float | None = None,
) -> Continuation | None:
    """Solve every round start of ``rules``; ``progress(diagonal, seconds)`` after each diagonal.

    With a ``checkpoint`` file the work done so far is saved after each
    diagonal and picked up again by the next call; with a ``time_limit``
    (seconds) the call stops after the diagonal that passes it and returns
    ``None`` until the table is complete.
    """
    started = time.perf_counter()
    solver = RoundSolver(rules)
    target = rules.target
    values = np.full((tracks, target, target), 0.5)
    next_total, spent = 2 * target - 2, 0.0
    if checkpoint is not None and checkpoint.exists():
        saved = np.load(checkpoint)
        values, next_total, spent = saved["values"], int(saved["next_total"]), float(saved["seconds"])
    for total in range(next_total, -1, -1):
        pairs = _diagonal(total, target)
        x0 = np.stack([_guess(values, s0, s1) for s0, s1 in pairs])  # [pair, track]
        v0 = _solve_at(solver, values, pairs, x0)
        x1 = v0
        v1 = _solve_at(solver, values, pairs, x1)
        slope_gap = (v1 - x1) - (v0 - x0)
        safe = np.abs(slope_gap) > 1e-12
        step = np.where(safe, (v1 - x1) * (x1 - x0) / np.where(safe, slope_gap, 1.0), 0.0)
        fixed = np.where(safe, x1 - step, v1)
        for index, (s0, s1) in enumerate(pairs):
            values[:, s0, s1] = fixed[index]
        elapsed = spent + time.perf_counter() - started
        if progress is not None:
            progress(total, elapsed)
        if checkpoint is not None:
            np.savez(checkpoint, values=values, next_total=total - 1, seconds=elapsed)
        if time_limit is not None and time.perf_counter() - started > time_limit and total > 0:
            return None
    return Continuation(rules, values, spent + time.perf_counter() - started)


def _solve_at(solver: RoundSolver, values: FloatArray, pairs: list[tuple[int, int]], guess: FloatArray) -> FloatArray:
    for index, (s0, s1) in enumerate(pairs):
        values[:, s0, s1] = guess[index]
    roots: FloatArray = solver.solve(pairs, values).roots
    return roots


def summary(result: Continuation) -> dict[str, float]:
    """The figures ``tables.json`` records for one configuration."""
    gain0, gain1 = result.best_response_gains
    return {
        "value": round(result.game_value, 6),
        "seat0_gain": float(f"{gain0:.3e}"),
        "seat1_gain": float(f"{gain1:.3e}"),
        "exploitability": float(f"{result.exploitability:.3e}"),
        "seconds": round(result.seconds),
    }


def render_tables(tables: dict[str, list[list[float]]], figures: dict[str, dict[str, float]]) -> str:
    """The text of ``tables.json``: one row of a table per line, six decimals."""
    rows_by_key = []
    for key, rows in tables.items():
        lines = ",\n".join("      [" + ", ".join(f"{v:.6f}" for v in row) + "]" for row in rows)
        rows_by_key.append(f'    "{key}": [\n{lines}\n    ]')
    figures_by_key = [f'    "{key}": {json.dumps(values)}' for key, values in figures.items()]
    return (
        "{\n"
        f'  "format": "{TABLES_FORMAT}",\n'
        f'  "about": {json.dumps(ABOUT)},\n'
        '  "tables": {\n' + ",\n".join(rows_by_key) + "\n  },\n"
        '  "exploitability": {\n' + ",\n".join(figures_by_key) + "\n  }\n"
        "}\n"
    )


def _existing(path: Path) -> tuple[dict[str, list[list[float]]], dict[str, dict[str, float]]]:
    if not path.exists():
        return {}, {}
    shipped = read_tables(path.read_text(encoding="utf-8"))
    return (
        {key: [list(row) for row in rows] for key, rows in shipped.tables.items()},
        {key: dict(values) for key, values in shipped.exploitability.items()},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Build the continuation tables of the equilibrium agent.")
    parser.add_argument("--only", help="build only this configuration key (the others already built are kept)")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(TABLES_FILE))
    parser.add_argument("--checkpoints", type=Path, help="folder for work in progress (resumable builds)")
    parser.add_argument("--time-limit", type=float, help="stop after about this many seconds (needs --checkpoints)")
    args = parser.parse_args()
    known = [rules.key for rules in SHIPPED]
    if args.only and args.only not in known:
        parser.error(f"unknown configuration {args.only!r}; known: {', '.join(known)}")
    if args.time_limit is not None and args.checkpoints is None:
        parser.error("--time-limit needs --checkpoints, or the work done would be lost")
    if args.checkpoints is not None:
        args.checkpoints.mkdir(parents=True, exist_ok=True)
    tables, figures = _existing(args.out)
    for rules in SHIPPED:
        if args.only and rules.key != args.only:
            continue
        print(f"building {rules.key} ...", flush=True)
        checkpoint = args.checkpoints / f"{rules.key}.npz" if args.checkpoints else None
        result = build_continuation(
            rules,
            lambda d, s: print(f"  diagonal {d:2d} done at {s:6.1f} s", flush=True),
            checkpoint=checkpoint,
            time_limit=args.time_limit,
        )
        if result is None:
            print(f"stopped after {args.time_limit} s; run again to continue from {checkpoint}", flush=True)
            return
        tables[rules.key] = [[float(v) for v in row] for row in result.values[EQUILIBRIUM]]
        figures[rules.key] = summary(result)
        print(f"{rules.key}: {figures[rules.key]}", flush=True)
        ordered = [k for k in known if k in tables]
        args.out.write_text(
            render_tables({k: tables[k] for k in ordered}, {k: figures[k] for k in ordered}), encoding="utf-8"
        )


if __name__ == "__main__":
    main()
