"""Search speed: ISMCTS iterations per second per game, and seconds per bot move at the default budget.

Run ``.venv/bin/python bench/bench_search.py`` (add ``--quick`` for fewer positions).
For each registered game (two players) it takes decision positions from a few
seeded heuristic games, then

* runs ``ismcts:iterations=N`` there and reports iterations per second;
* times ``ismcts`` (the default budget) and ``heuristic`` moves there;
* for the two-player Eel games, times the ``equilibrium`` agent: the first move of
  a round (which solves the round) and a move later in the same round (cached).

Figures are wall-clock on one core of whatever machine runs it; the goal is a
default-budget move under one second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.ismcts import DEFAULT_ITERATIONS, IsmctsAgent, settings_from_params
from gamebag.agents.registry import available_agents, make_agent
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import make_rng
from gamebag.fast import FastEngine, engine_for

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smoke import smoke_or

# The search timed at its default budget (a smoke run, bench/smoke.py, times a tiny one).
DEFAULT_SEARCH = smoke_or("ismcts", "ismcts:iterations=5")


def positions(game: Game[Any, Any, Any], count: int, seed: int = 1) -> list[tuple[Any, int]]:
    """Decision positions (state, acting seat with a real choice) from seeded heuristic games."""
    heuristic = make_agent("heuristic", game)
    rng = make_rng(seed)
    found: list[tuple[Any, int]] = []
    while len(found) < count:
        state = game.initial_state()
        step = 0
        while not game.is_terminal(state) and len(found) < count:
            if game.node_kind(state) is NodeKind.CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                continue
            moves = {}
            for player in game.acting_players(state):
                view = SeatView(game, state, player)
                if step % 3 == 0 and len(view.legal_actions) > 1 and len(found) < count:
                    found.append((state, player))
                moves[player] = heuristic.act(view, rng)
            step += 1
            state = game.apply(state, moves)
    return found


def time_moves(agent: Any, game: Game[Any, Any, Any], spots: list[tuple[Any, int]]) -> list[float]:
    seconds = []
    for index, (state, player) in enumerate(spots):
        view = SeatView(game, state, player)
        started = time.perf_counter()
        agent.act(view, make_rng(index))
        seconds.append(time.perf_counter() - started)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions")
    parser.add_argument("--iterations", type=int, default=200, help="iterations for the speed figure")
    args = parser.parse_args()
    count = 4 if args.quick else 10
    print(f"{'game':18s} {'iter/s':>8s} {'ismcts move (default) mean/max s':>34s} {'heuristic ms':>13s}")
    for game_id in gamebag.game_ids():
        game = gamebag.make(game_id, 2)
        spots = positions(game, count)
        probe = IsmctsAgent(game, settings_from_params(game, {"iterations": str(args.iterations)}))
        started = time.perf_counter()
        for index, (state, player) in enumerate(spots):
            probe.search(SeatView(game, state, player), make_rng(index))
        rate = args.iterations * len(spots) / (time.perf_counter() - started)
        default = time_moves(make_agent(DEFAULT_SEARCH, game), game, spots)
        heuristic = time_moves(make_agent("heuristic", game), game, spots)
        print(
            f"{game_id:18s} {rate:8.0f} {statistics.mean(default):22.3f} / {max(default):6.3f}"
            f"   {1000 * statistics.mean(heuristic):10.2f}"
        )
    print(f"(default budget: iterations={DEFAULT_ITERATIONS}, capped at the default time limit)")
    print("ISMCTS playouts in the compiled engine (playouts=auto) vs the rules engine (playouts=rules),")
    print("iterations per CPU-second of this process, after one warm-up move:")
    for game_id in gamebag.game_ids():
        game = gamebag.make(game_id, 2)
        engine = engine_for(game, ["heuristic"] * 2)
        if engine is None or type(engine).playout is FastEngine.playout:
            continue  # no compiled playouts for this game
        spots = positions(game, count)
        rates = []
        for playout in ("auto", "rules"):
            params = {"iterations": str(args.iterations), "playouts": playout}
            probe = IsmctsAgent(game, settings_from_params(game, params))
            probe.search(SeatView(game, *spots[0]), make_rng(0))
            started = time.process_time()
            for index, (state, player) in enumerate(spots):
                probe.search(SeatView(game, state, player), make_rng(index))
            rates.append(args.iterations * len(spots) / (time.process_time() - started))
        print(f"{game_id:18s} compiled {rates[0]:8.0f}   rules {rates[1]:8.0f}   ratio {rates[0] / rates[1]:5.1f}")
    for game_id in gamebag.game_ids():
        if "equilibrium" not in available_agents(game_id):
            continue
        game = gamebag.make(game_id, 2)
        agent = make_agent("equilibrium", game)
        state = game.initial_state()
        view = SeatView(game, state, 0)
        started = time.perf_counter()
        agent.act(view, make_rng(0))
        first = time.perf_counter() - started
        started = time.perf_counter()
        agent.act(SeatView(game, state, 1), make_rng(1))
        cached = time.perf_counter() - started
        print(
            f"equilibrium {game_id:18s} first move of a round {first:.3f} s (solves the round), "
            f"a later move {1000 * cached:.1f} ms"
        )


if __name__ == "__main__":
    main()
