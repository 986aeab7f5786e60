"""The baseline table of docs/interop.md: compiled agents against each other, per game.

For each configuration and each pair (row agent, column agent), the row agent plays every
seat in turn against column agents in all the other seats, ``--games`` games in all, on the
compiled engines (``gamebag.interop.vector_env.BatchEnv``, seeded ``--seed``). Prints a
Markdown table of the row agent's win share with a 95% interval (an equal player gets
1/players). Run: ``.venv/bin/python bench/baseline_table.py [--games N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from gamebag.interop.vector_env import BatchEnv

CONFIGS = [("eel-harvest", 2), ("wriggle-roulette", 4), ("catch-a-dragon", 2), ("pig", 2)]


def win_share(game_id: str, players: int, row: str, column: str, games: int, seed: int) -> tuple[float, float]:
    """(mean, 95% half-width) of the row agent's win share."""
    shares: list[float] = []
    per_seat = math.ceil(games / players)
    for seat in range(players):
        env = BatchEnv(game_id, min(512, per_seat), players)
        env.reset(seed * 1_000_003 + seat)
        specs = [column] * players
        specs[seat] = row
        got: list[float] = []
        while len(got) < per_seat:
            _, rewards, done, _, _ = env.step(env.compiled_actions(specs))
            got.extend(rewards[done, seat].tolist())
        shares.extend(got[:per_seat])
    values = np.asarray(shares)
    return float(values.mean()), 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4000, help="games per pair")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for game_id, players in CONFIGS:
        agents = list(BatchEnv(game_id, 1, players).compiled)
        print(f"\n{game_id}, {players} players (row agent's win share; an equal player gets {1 / players:.3f})\n")
        print("| row \\ others | " + " | ".join(agents) + " |")
        print("|---|" + "---|" * len(agents))
        for row in agents:
            cells = []
            for column in agents:
                mean, half = win_share(game_id, players, row, column, args.games, args.seed)
                cells.append(f"{mean:.3f} ± {half:.3f}")
            print(f"| {row} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
