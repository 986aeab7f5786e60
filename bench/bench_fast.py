"""The compiled fast engine against the rules engine and plain Python, per game, as ratios.

For every game with a registered fast engine (default player count, plus four-player
Wriggle Roulette), in one run on one core, rates in games per CPU-second
(``time.process_time``):

* ``rules``: the rules engine as ``simulate`` plays it (``play_game``, random agents);
* ``plain``: a plain Python function of the same rules (``bench/plain_rules.py``), where one exists;
* ``fast N``: the whole-game kernel playing N games per call (N = 1, 1024, 8192);
* ``step N``: the step kernel over N games, compiled random policies choosing, counted in
  finished games (N = 1, 1024, 8192);
* heuristic play on the whole-game kernel (N = 8192) where the engine compiles it;
* ``vector 1024``: the Gymnasium ``GamebagVectorEnv`` over 1024 games (one learner seat choosing
  uniformly among its legal actions, the other seats the compiled ``random`` policy), counted
  in finished games;

then the ratios fast/rules, fast/plain and rules/plain; the kernels' compile time, cold
(an empty numba cache, in a fresh process) and cached (a second fresh process); and
``simulate --workers 2`` against ``--workers 1`` (rules engine and fast engine, wall clock; the
fast engine's 2,000,000 games as two runs of ``simulate``'s bound, 1,000,000 games).

Run: ``.venv/bin/python bench/bench_fast.py [--seconds S] [--skip-compile] [--skip-workers]``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import Game
from gamebag.core.rng import derive_rng
from gamebag.fast import FastEngine, engine_for
from gamebag.fast import registry as fast_registry
from gamebag.sim.play import play_game
from gamebag.sim.simulate import MAX_GAMES, SimulationSpec, run_simulation, validate_spec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plain_rules import PLAIN_GAMES
from smoke import smoke_or

SIZES = (1, 1024, 8192)


def rate(run: Callable[[], int], seconds: float) -> float:
    """Games per CPU-second: call ``run`` (which returns games played) for about ``seconds``."""
    games = 0
    started = time.process_time()
    while True:
        games += run()
        spent = time.process_time() - started
        if spent >= seconds:
            return games / spent


def rules_rate(game: Game[Any, Any, Any], seconds: float) -> float:
    agents = [make_agent("random", game) for _ in range(game.num_players)]
    counter = iter(range(10**9))

    def one() -> int:
        play_game(game, agents, derive_rng("bench", next(counter)), keep_record=False)
        return 1

    return rate(one, seconds)


def plain_rate(game: Game[Any, Any, Any], seconds: float) -> float | None:
    plain = PLAIN_GAMES.get(game.game_id)
    if plain is None:
        return None
    rng = random.Random(1)

    def one() -> int:
        plain(game.num_players, rng)
        return 1

    return rate(one, seconds)


def fast_rate(engine: FastEngine, game: Game[Any, Any, Any], agent: str, size: int, seconds: float) -> float:
    agents = [agent] * game.num_players
    engine.play(game, agents, "warm", 0, 2)
    start = iter(range(0, 10**12, size))

    def batch() -> int:
        first = next(start)
        engine.play(game, agents, "bench", first, first + size)
        return size

    return rate(batch, seconds)


def step_rate(engine: FastEngine, game: Game[Any, Any, Any], size: int, seconds: float) -> tuple[float, float]:
    """(finished games, env steps) per CPU-second of a step batch of ``size`` games."""
    envs = engine.step_batch(game, size)
    agents = ["random"] * game.num_players
    # Compile (or load from numba's cache) before the clock starts.
    envs.reset("warm-up")
    envs.step(envs.policy_actions(agents))
    envs.reset("bench")
    steps = 0

    def advance() -> int:
        nonlocal steps
        envs.step(envs.policy_actions(agents))
        steps += size
        return int(envs.reset_done().sum())

    started = time.process_time()
    games = rate(advance, seconds)
    return games, steps / (time.process_time() - started)


def vector_rate(game: Game[Any, Any, Any], size: int, seconds: float) -> float:
    """Finished games per CPU-second of ``GamebagVectorEnv`` with ``size`` games (learner: uniform legal)."""
    from gamebag.interop.vector_env import GamebagVectorEnv

    vec = GamebagVectorEnv(game.game_id, size, game.num_players, dict(game.options), opponents="random")
    vec.reset(seed=1)
    vec.step(vec.action_masks().argmax(axis=1))  # compile (or load) before the clock starts
    vec.reset(seed=2)
    # Uniform noise drawn before the clock: the learner's choice costs one product and an argmax.
    noise = np.random.default_rng(0).random((64, size, vec.env.num_actions))
    steps = iter(range(10**12))

    def advance() -> int:
        masks = vec.action_masks()
        _, _, done, _, _ = vec.step((noise[next(steps) % 64] * masks).argmax(axis=1))
        return int(done.sum())

    return rate(advance, seconds)


def compile_seconds(cache_dir: str) -> float:
    """Seconds a fresh process takes to import every engine and play one game on each."""
    script = (
        "import time; t = time.perf_counter()\n"
        "import gamebag\n"
        "from gamebag.fast import registry\n"
        "registry._load_engines()\n"
        "for game_id, engine in sorted(registry._ENGINES.items()):\n"
        "    game = gamebag.make(game_id)\n"
        "    engine.play(game, ['random'] * game.num_players, 0, 0, 1)\n"
        "    engine.step_batch(game, 2).reset(0)\n"
        "print(time.perf_counter() - t)\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def simulate_runs(game_id: str, players: int, games: int) -> list[SimulationSpec]:
    """``games`` random games as ``simulate`` runs of at most ``MAX_GAMES`` each (its bound), each
    checked against the bound as ``gamebag simulate`` checks it."""
    agents = ("random",) * players
    runs = []
    for start in range(0, games, MAX_GAMES):
        spec = SimulationSpec(game_id, players, agents, min(MAX_GAMES, games - start), seed=start)
        validate_spec(spec)
        runs.append(spec)
    return runs


def workers_speedup(game_id: str, players: int, games: int, engine: str) -> tuple[float, float]:
    """Wall seconds of ``simulate`` with one and with two workers, over ``games`` games in all (in runs
    within simulate's bound; a smoke run checks them at full size, then plays a few games of each)."""
    runs = [replace(spec, games=smoke_or(spec.games, 20)) for spec in simulate_runs(game_id, players, games)]
    run_simulation(SimulationSpec(game_id, players, runs[0].agents, 10, 0), 2, engine=engine)  # warm caches
    times = []
    for workers in (1, 2):
        started = time.perf_counter()
        for spec in runs:
            run_simulation(spec, workers, engine=engine)
        times.append(time.perf_counter() - started)
    return times[0], times[1]


def figure(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "-"
    value = a / b
    return f"{value:,.1f}x" if value >= 10 else f"{value:.2f}x"  # two decimals where targets are fractions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement")
    parser.add_argument("--skip-compile", action="store_true", help="skip the compile-time measurement")
    parser.add_argument("--skip-workers", action="store_true", help="skip the simulate --workers measurement")
    args = parser.parse_args()
    fast_registry._load_engines()
    configs = [("wriggle-roulette", 4)] + [
        (game_id, gamebag.entry(game_id).game_class.default_players) for game_id in sorted(fast_registry._ENGINES)
    ]
    seen = set()
    print(f"games per CPU-second (numpy {np.__version__}, python {sys.version.split()[0]})")
    header = ["game", "players", "rules", "plain"] + [f"fast {n}" for n in SIZES] + [f"step {n}" for n in SIZES]
    header += ["fast heuristic", "vector 1024", "fast/rules", "fast/plain", "rules/plain"]
    print(" | ".join(header))
    for game_id, players in configs:
        if (game_id, players) in seen:
            continue
        seen.add((game_id, players))
        game = gamebag.make(game_id, players)
        engine = engine_for(game, ["random"] * players)
        if engine is None:
            continue
        rules = rules_rate(game, args.seconds)
        plain = plain_rate(game, args.seconds)
        fast = {n: fast_rate(engine, game, "random", n, args.seconds) for n in SIZES}
        steps = {n: step_rate(engine, game, n, args.seconds) for n in SIZES}
        heuristic = None
        if "heuristic" in engine.policies(game) and engine_for(game, ["heuristic"] * players) is not None:
            heuristic = fast_rate(engine, game, "heuristic", SIZES[-1], args.seconds)
        vector = vector_rate(game, 1024, args.seconds)
        best = fast[SIZES[-1]]
        row = [game_id, str(players), figure(rules), figure(plain)]
        row += [figure(fast[n]) for n in SIZES] + [figure(steps[n][0]) for n in SIZES]
        row += [figure(heuristic), figure(vector), ratio(best, rules), ratio(best, plain), ratio(rules, plain)]
        print(" | ".join(row))
        print("    step kernel env-steps per CPU-second: " + ", ".join(f"N={n}: {steps[n][1]:,.0f}" for n in SIZES))
    if not args.skip_compile:
        with tempfile.TemporaryDirectory() as cache_dir:
            cold = compile_seconds(cache_dir)
            cached = compile_seconds(cache_dir)
        print(f"compile, every engine, fresh process: cold {cold:.1f} s, cached {cached:.1f} s")
    if not args.skip_workers:
        # Long runs on both engines (several seconds on one worker), so starting the pool counts little;
        # the fast engine's 2,000,000 games are two runs of simulate's bound (1,000,000 games a run).
        for engine_name, games in (("rules", 12_000), ("fast", 2_000_000)):
            one, two = workers_speedup("wriggle-roulette", 4, games, engine_name)
            runs = -(-games // MAX_GAMES)
            split = f" in {runs} runs of at most {MAX_GAMES:,}" if runs > 1 else ""
            print(
                f"simulate wriggle-roulette x{games:,}{split} on the {engine_name} engine: --workers 1 {one:.2f} s, "
                f"--workers 2 {two:.2f} s, speed-up {one / two:.2f}x (os.cpu_count() = {os.cpu_count()})"
            )


if __name__ == "__main__":
    main()
