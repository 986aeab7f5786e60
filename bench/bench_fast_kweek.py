"""Eigen Kweek's compiled engine against its rules engine, measured in one run, as ratios.

Prints games per CPU-second (this process's own CPU time, so other work on a shared
machine counts less) for 4-player games: the rules engine with heuristic seats, the
whole-game kernel with heuristic and with random seats, and the step batch at
N = 1024 (heuristic policy actions, then ``step`` and ``reset_done``), in games' worth
of steps (steps per CPU-second over the mean steps of a game), each against the
issue's target. Compilation is done before timing, and the step batch is stepped to a
steady state first (every env past its first restart), so the games finished in the
timed window measure a game's mean length without the bias of the first games (none
finishes in the first hundred steps). A last line gives the learner's path that training
and the vector env take: ``learner_step`` (one compiled call: a learner seat choosing a
uniform legal action, heuristic opponents, restarts, the learner's observation and mask).

Run: ``.venv/bin/python bench/bench_fast_kweek.py`` (about a minute; ``--seconds`` per figure).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import numpy as np

import gamebag
from gamebag.agents.heuristics.eigen_kweek import EigenKweekHeuristic
from gamebag.core.rng import derive_rng
from gamebag.fast.eigen_kweek.engine import EigenKweekEngine
from gamebag.sim.play import play_game

TARGETS = {"heuristic": 20_000.0, "random": 50_000.0, "steps": 20_000.0}


def timed(run: object, seconds: float) -> float:
    """Units per CPU-second of ``run()`` (it returns how many units it did), repeated for ``seconds``."""
    done = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        done += run()  # type: ignore[operator]
    return done / (time.process_time() - began)


def _whole_games(engine: EigenKweekEngine, game: object, agent: str) -> object:
    """A callable playing the next 2,000 games of a run with ``agent`` in every seat."""
    start = [0]

    def whole() -> int:
        engine.play(game, [agent] * 4, 1, start[0], start[0] + 2000)  # type: ignore[arg-type]
        start[0] += 2000
        return 2000

    return whole


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per figure (default 5)")
    args = parser.parse_args()
    if not 0.1 <= args.seconds <= 600:
        parser.error(f"--seconds must be 0.1 to 600, not {args.seconds}")
    game = gamebag.make("eigen-kweek", 4)
    engine = EigenKweekEngine()
    engine.play(game, ["heuristic"] * 4, 0, 0, 2)  # compile before timing
    engine.play(game, ["random"] * 4, 0, 0, 2)
    agents = [EigenKweekHeuristic() for _ in range(4)]
    count = [0]

    def rules() -> int:
        count[0] += 1
        play_game(game, agents, derive_rng("bench-kweek", count[0]), keep_record=False)
        return 1

    figures = {"rules": timed(rules, args.seconds)}
    for agent in ("heuristic", "random"):
        figures[agent] = timed(_whole_games(engine, game, agent), args.seconds)
    batch = engine.step_batch(game, 1024)
    batch.reset(2)
    for _ in range(400):  # compiled, and past every env's first game: a steady state of restarts
        batch.step(batch.policy_actions(["heuristic"] * 4))
        batch.reset_done()
    finished = [0, 0]

    def steps() -> int:
        batch.step(batch.policy_actions(["heuristic"] * 4))
        finished[0] += int(batch.done().sum())
        batch.reset_done()
        finished[1] += 1024
        return 1024

    step_rate = timed(steps, args.seconds)
    steps_per_game = finished[1] / max(1, finished[0])
    figures["steps"] = step_rate / steps_per_game
    learner = engine.step_batch(game, 1024)
    learner.reset(3)
    view = learner.learner_view(0)
    noise = np.random.default_rng(0).random((64, 1024, learner.num_actions)).astype(np.float32)
    for number in range(400):
        view = learner.learner_step(0, "heuristic", (noise[number % 64] * view.masks).argmax(axis=1), view).view
    count = [0]

    def learner_steps() -> int:
        nonlocal view
        chosen = (noise[count[0] % 64] * view.masks).argmax(axis=1)
        view = learner.learner_step(0, "heuristic", chosen, view).view
        count[0] += 1
        return 1024

    learner_rate = timed(learner_steps, args.seconds)
    print("Eigen Kweek, 4 players, games per CPU-second (one run):")
    print(f"  rules engine, heuristic:     {figures['rules']:>10,.1f}")
    for name, label in (
        ("heuristic", "kernel, heuristic"),
        ("random", "kernel, random"),
        ("steps", "step batch N=1024"),
    ):
        value = figures[name]
        verdict = "met" if value >= TARGETS[name] else "NOT met"
        print(
            f"  {label + ':':<28} {value:>10,.0f}   x{value / figures['rules']:,.0f} the rules engine; "
            f"target {TARGETS[name]:,.0f}: {verdict} ({value / TARGETS[name]:.2f})"
        )
    print(f"  (step batch: {step_rate:,.0f} env-steps per CPU-second, {steps_per_game:.1f} steps a game)")
    print(
        f"  learner_step N=1024 (one learner seat, heuristic opponents, its view built): "
        f"{learner_rate / steps_per_game:,.0f} games' worth ({learner_rate:,.0f} env-steps per CPU-second)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
