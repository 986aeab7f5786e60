"""Whole-game speed of the JAX engines (``gamebag.fast.jax``) on the default JAX device.

For each case (four-player Wriggle Roulette with random grabs; Pig and two-player Catch A
Dragon with random and with heuristic play), plays ``--batches`` games at once,
``jit``-compiled and ``vmap``-ed, and prints games per second (wall clock, after a
compiling call) for every batch size, with the numba whole-game kernel of the same game
and agents on one core (``gamebag.fast``, 8192 games per call) and the ratio JAX/numba. On
a CPU these are correctness-scale figures; on a GPU they are the engines' throughput.

Run: ``.venv/bin/python bench/bench_jax.py [--batches 256,4096] [--repeats R] [--only pig]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax

import gamebag
from gamebag.fast import engine_for
from gamebag.fast.jax.dragon import DragonJax
from gamebag.fast.jax.eel import EelJax
from gamebag.fast.jax.pig import PigJax


@dataclass(frozen=True)
class Case:
    name: str
    game_id: str
    players: int
    agents: tuple[str, ...]

    def game(self) -> Any:
        return gamebag.make(self.game_id, self.players)

    def jax_games(self) -> Callable[[jax.Array, int], jax.Array]:
        """A function of (key, batch) playing ``batch`` whole games (``batch`` static)."""
        game = self.game()
        if self.game_id == "wriggle-roulette":
            return jax.jit(EelJax(game).random_games, static_argnums=1)
        engine = PigJax(game) if self.game_id == "pig" else DragonJax(game)
        return jax.jit(lambda key, batch: engine.play_games(key, batch, self.agents), static_argnums=1)


CASES = (
    Case("wriggle-roulette 4p random", "wriggle-roulette", 4, ("random",) * 4),
    Case("pig random", "pig", 2, ("random", "random")),
    Case("pig heuristic", "pig", 2, ("heuristic", "heuristic")),
    Case("catch-a-dragon 2p random", "catch-a-dragon", 2, ("random", "random")),
    Case("catch-a-dragon 2p heuristic", "catch-a-dragon", 2, ("heuristic", "heuristic")),
)


def jax_rate(case: Case, batch: int, repeats: int) -> tuple[float, float]:
    """(compile and first call in seconds, games per second over ``repeats`` timed calls)."""
    play = case.jax_games()
    started = time.perf_counter()
    play(jax.random.PRNGKey(0), batch).block_until_ready()
    compiled = time.perf_counter() - started
    started = time.perf_counter()
    for repeat in range(repeats):
        play(jax.random.PRNGKey(repeat + 1), batch).block_until_ready()
    return compiled, batch * repeats / (time.perf_counter() - started)


def numba_rate(case: Case, games: int = 8192) -> float:
    """Games per second of the numba whole-game kernel (one core, after a warming call)."""
    game = case.game()
    engine = engine_for(game, case.agents)
    if engine is None:
        raise RuntimeError(f"no compiled engine plays {case.name}")
    engine.play(game, case.agents, "warm", 0, 64)
    started = time.perf_counter()
    engine.play(game, case.agents, "bench", 0, games)
    return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batches", default="256,4096", help="comma-separated batch sizes (games per call)")
    parser.add_argument("--repeats", type=int, default=3, help="timed calls after the compiling one")
    parser.add_argument("--only", default="", help="run only the cases whose name contains this")
    args = parser.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    if any(b < 1 or b > 4_194_304 for b in batches) or not 1 <= args.repeats <= 100:
        parser.error("batch sizes must be 1 to 4,194,304 and --repeats 1 to 100")
    print(f"device {jax.devices()[0]}")
    print("| case | batch | compile + first call (s) | JAX games/s | numba games/s (1 core) | JAX / numba |")
    print("|---|---|---|---|---|---|")
    for case in CASES:
        if args.only not in case.name:
            continue
        reference = numba_rate(case)
        for batch in batches:
            compiled, rate = jax_rate(case, batch, args.repeats)
            print(
                f"| {case.name} | {batch} | {compiled:.1f} | {rate:,.0f} | {reference:,.0f} | {rate / reference:.2f} |"
            )


if __name__ == "__main__":
    main()
