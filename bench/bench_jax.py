"""Random-playout speed of the JAX Eel family engine (``gamebag.fast.jax.eel``) on the default JAX device.

Plays ``--batch`` random four-player Wriggle Roulette games at once (every seat grabs
uniformly at random), ``jit``-compiled and ``vmap``-ed, and prints games per second after
a compiling run. On a CPU this is a correctness-scale figure; on a GPU it is the engine's
throughput. Run: ``.venv/bin/python bench/bench_jax.py [--batch N] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import time

import jax

import gamebag
from gamebag.fast.jax.eel import EelJax


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=1024, help="games per call")
    parser.add_argument("--repeats", type=int, default=3, help="timed calls after the compiling one")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    engine = EelJax(gamebag.make("wriggle-roulette", args.players))
    play = jax.jit(engine.random_games, static_argnums=1)
    started = time.perf_counter()
    play(jax.random.PRNGKey(0), args.batch).block_until_ready()
    print(f"device {jax.devices()[0]}; compile and first call {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    for repeat in range(args.repeats):
        play(jax.random.PRNGKey(repeat + 1), args.batch).block_until_ready()
    elapsed = time.perf_counter() - started
    print(f"wriggle-roulette {args.players}p batch {args.batch}: {args.batch * args.repeats / elapsed:,.0f} games/s")


if __name__ == "__main__":
    main()
