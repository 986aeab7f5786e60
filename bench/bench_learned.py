"""``simulate`` and ``tournament`` with ``learned`` seats: the compiled step batch against the rules engine.

In the Eel family and Catch A Dragon ``engine="auto"`` plays a run with a ``learned`` seat on
the compiled step batch, the network's moves in NumPy (``gamebag.sim.stepped``), where every
other agent is compiled; ``engine="rules"`` plays it on the rules engine. For each configuration
below, in one run on one core (one worker), games per CPU-second (``time.process_time``) of
``run_simulation`` (or ``run_tournament``) on each engine, and the ratio. The first fast call of
each configuration (the compiled kernels loading from numba's cache, the policy read) is not timed.

Run: ``.venv/bin/python bench/bench_learned.py [--games G] [--rules-games R]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TypeVar

from gamebag.sim.simulate import SimulationSpec, run_simulation
from gamebag.sim.tournament import TournamentSpec, run_tournament

SIMULATIONS = [
    ("eel-harvest", ("learned", "heuristic")),
    ("wriggle-roulette", ("learned", "heuristic", "heuristic", "heuristic")),
    ("wriggle-roulette", ("learned",) + ("heuristic",) * 6),
    ("catch-a-dragon", ("learned", "heuristic", "heuristic")),
]
TOURNAMENT = ("wriggle-roulette", 4, ("learned", "heuristic", "random"))
T = TypeVar("T")


def cpu_seconds(run: Callable[[], T]) -> tuple[float, T]:
    """The CPU time of ``run()`` and what it returned."""
    started = time.process_time()
    result = run()
    return time.process_time() - started, result


def simulate_rates(game_id: str, agents: tuple[str, ...], games: int, rules_games: int) -> tuple[float, float]:
    """Games per CPU-second of ``run_simulation`` on the compiled step batch and on the rules engine."""
    n = len(agents)
    run_simulation(SimulationSpec(game_id, n, agents, 50, 1))  # load the kernels and the policy
    fast_time, fast = cpu_seconds(lambda: run_simulation(SimulationSpec(game_id, n, agents, games, 1)))
    rules_spec = SimulationSpec(game_id, n, agents, rules_games, 1)
    rules_time, rules = cpu_seconds(lambda: run_simulation(rules_spec, engine="rules"))
    assert fast.engine == "fast" and rules.engine == "rules"
    return games / fast_time, rules_games / rules_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games of each compiled simulation")
    parser.add_argument("--rules-games", type=int, default=1_000, help="games of each rules-engine simulation")
    args = parser.parse_args()
    print(f"{'configuration':<58} {'compiled':>10} {'rules':>8} {'ratio':>7}   (games per CPU-second)")
    for game_id, agents in SIMULATIONS:
        label = f"simulate {game_id}, {','.join(dict.fromkeys(agents))} ({len(agents)})"
        fast_rate, rules_rate = simulate_rates(game_id, agents, args.games, args.rules_games)
        print(f"{label:<58} {fast_rate:>10,.0f} {rules_rate:>8,.0f} {fast_rate / rules_rate:>6.1f}x")
    game_id, players, field = TOURNAMENT
    per_mix = max(1, args.rules_games // 10)
    spec = TournamentSpec(game_id, players, field, per_mix * 10, 1, auto_ladder=False)
    rules_spec = TournamentSpec(game_id, players, field, per_mix, 1, auto_ladder=False)
    run_tournament(TournamentSpec(game_id, players, field, 10, 1, auto_ladder=False))
    fast_time, fast = cpu_seconds(lambda: run_tournament(spec))
    rules_time, rules = cpu_seconds(lambda: run_tournament(rules_spec, engine="rules"))
    assert fast.engine == "fast" and rules.engine == "rules"
    fast_rate = fast.games_played / fast_time
    rules_rate = rules.games_played / rules_time
    label = f"tournament {game_id}, {','.join(field)} ({players})"
    print(f"{label:<58} {fast_rate:>10,.0f} {rules_rate:>8,.0f} {fast_rate / rules_rate:>6.1f}x")


if __name__ == "__main__":
    main()
