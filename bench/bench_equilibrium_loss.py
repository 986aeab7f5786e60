"""Decision quality against the solved game: how much win chance each agent gives up per grab.

Run ``.venv/bin/python bench/bench_equilibrium_loss.py eel-harvest`` (or
``wriggle-roulette``; ``--positions N``, ``--agents a;b;c``).

Positions come from seeded two-player ``heuristic`` games (both seats still in
the round). At each, the ``equilibrium`` agent's solver gives the exact matrix
``Q[a0, a1]`` of the grab and its equilibrium ``(x, y)``; an agent that picks
count ``a`` for seat 0 loses ``x.Q.y - (Q.y)[a]`` of win probability against the
equilibrium opponent (likewise for seat 1). The mean over both seats and all
positions, with its standard error, is printed per agent.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.equilibrium.agent import EquilibriumAgent
from gamebag.agents.equilibrium.solver import EQUILIBRIUM, solve_matrix_games
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("eel-harvest", "wriggle-roulette"))
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--agents", default="random;heuristic;ismcts:iterations=300;ismcts;equilibrium")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    game = gamebag.make(args.game, 2)
    solved = EquilibriumAgent(game)
    heuristic = make_agent("heuristic", game)
    rng = make_rng(args.seed)
    spots: list[Any] = []
    while len(spots) < args.positions:
        state = game.initial_state()
        while not game.is_terminal(state) and len(spots) < args.positions:
            if game.node_kind(state) is NodeKind.CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                continue
            view = SeatView(game, state, 0)
            if all(view.observation["in_round"]) and rng.random() < 0.35:
                spots.append(state)
            state = game.apply(
                state, {p: heuristic.act(SeatView(game, state, p), rng) for p in game.acting_players(state)}
            )
    matrices = []
    for state in spots:
        obs = SeatView(game, state, 0).observation
        scores, reserves = obs["scores"], obs["reserves"]
        solution = solved.round_solution(scores[0], scores[1])
        q = solved.solver.both_q(
            solution, np.array([reserves[0]]), np.array([reserves[1]]), np.array([obs["centre_snakes"]])
        )
        x, y = solve_matrix_games(q[EQUILIBRIUM])
        matrices.append((q[EQUILIBRIUM, 0], x[0], y[0]))
    print(f"{args.game}: {len(spots)} positions, both seats; loss in win probability per decision")
    for spec in args.agents.split(";"):
        agent = make_agent(spec, game)
        losses = []
        started = time.perf_counter()
        for index, (state, (q, x, y)) in enumerate(zip(spots, matrices, strict=True)):
            value = float(x @ q @ y)
            count0 = agent.act(SeatView(game, state, 0), make_rng(index))
            count1 = agent.act(SeatView(game, state, 1), make_rng(index))
            losses.append(value - float((q @ y)[count0]))
            losses.append(float((x @ q)[count1]) - value)
        error = statistics.stdev(losses) / len(losses) ** 0.5
        print(
            f"  {spec:28s} mean loss {statistics.mean(losses):.4f} (standard error {error:.4f}), "
            f"{time.perf_counter() - started:.0f} s"
        )


if __name__ == "__main__":
    main()
