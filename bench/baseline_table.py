"""The baseline table of docs/interop.md: every agent against every other, per game.

For each configuration and each pair (row agent, column agent), the row agent plays every
seat in turn (game ``k`` puts it in seat ``k mod players``) against column agents in all
the other seats. A cell is the row agent's win share (ties share the win) with a 95% Wilson
interval over games; an equal player gets 1/players.

The field of each configuration: the agents with compiled policies (``random``,
``heuristic``, and ``optimal-score`` / ``optimal-win`` in the dice games), ``ismcts`` at its
default budget (1,000 iterations, named so that no time cap can change a game),
``equilibrium`` where it exists (two-player Eel games), and ``learned`` where a policy ships
for the configuration (a row says so where none does; a fresh run fills it once one ships).

* Cells whose agents are all compiled play ``--games`` games on the compiled engines
  (``gamebag.interop.vector_env.BatchEnv``, seeded from ``--seed`` and the seat).
* Every other cell plays ``--search-games`` games on the rules engine (``play_game``; game
  ``k`` seeded by ``derive_rng(seed, "baseline", game, players, row, column, k)``), spread
  over ``--workers`` processes (the figures do not depend on it).
* With two players the cell (column, row) is the same games as (row, column), so it is
  played once and shown as its complement. An agent against copies of itself gets exactly
  1/players by symmetry; that diagonal is played only for compiled agents (as a check).

Prints one Markdown table per configuration and, on standard error, the seconds each took.
Run: ``.venv/bin/python bench/baseline_table.py [--games N] [--search-games M] [--seed S]
[--workers W] [--only GAME] [--with AGENT]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.core.errors import UnknownAgentError
from gamebag.core.rng import derive_rng
from gamebag.interop.vector_env import BatchEnv
from gamebag.sim.play import play_game
from gamebag.sim.stats import wilson_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smoke import smoke_or

CONFIGS = [("eel-harvest", 2), ("wriggle-roulette", 4), ("wriggle-roulette", 2), ("catch-a-dragon", 2), ("pig", 2)]
# The default budget, without the wall-clock cap (a smoke run, bench/smoke.py, searches a tiny one).
SEARCH = smoke_or("ismcts:iterations=1000", "ismcts:iterations=10")
RULES_ONLY = (SEARCH, "equilibrium", "learned")
CHUNK = 20  # rules-engine games per unit of work


@dataclass(frozen=True)
class Cell:
    """The row agent's total win share over ``games`` games."""

    wins: float
    games: int

    def text(self) -> str:
        low, high = wilson_interval(self.wins, self.games)
        return f"{self.wins / self.games:.3f} ({low:.3f}-{high:.3f})"

    def complement(self) -> Cell:
        return Cell(self.games - self.wins, self.games)


def compiled_cell(game_id: str, players: int, row: str, column: str, games: int, seed: int) -> Cell:
    """The row agent's win share on the compiled engine."""
    wins = 0.0
    played = 0
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
        wins += float(np.sum(got[:per_seat]))
        played += per_seat
    return Cell(wins, played)


def rules_games(game_id: str, players: int, row: str, column: str, seed: int, start: int, stop: int) -> float:
    """The row agent's total win share in rules-engine games ``start .. stop - 1``."""
    game = gamebag.make(game_id, players)
    row_agent = make_agent(row, game)
    column_agents = [make_agent(column, game) for _ in range(players - 1)]
    wins = 0.0
    for k in range(start, stop):
        seat = k % players
        agents = [*column_agents]
        agents.insert(seat, row_agent)
        rng = derive_rng(seed, "baseline", game_id, players, row, column, k)
        wins += play_game(game, agents, rng, keep_record=False).returns[seat]
    return wins


def rules_cells(
    game_id: str, players: int, pairs: list[tuple[str, str]], games: int, seed: int, workers: int
) -> dict[tuple[str, str], Cell]:
    """Every listed (row, column) cell on the rules engine, chunks spread over ``workers`` processes."""
    jobs = [(pair, start, min(games, start + CHUNK)) for pair in pairs for start in range(0, games, CHUNK)]
    wins = dict.fromkeys(pairs, 0.0)
    if workers <= 1:
        for (row, column), start, stop in jobs:
            wins[(row, column)] += rules_games(game_id, players, row, column, seed, start, stop)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [
                (pair, pool.submit(rules_games, game_id, players, *pair, seed, start, stop))
                for pair, start, stop in jobs
            ]
            for pair, future in futures:
                wins[pair] += future.result()
    return {pair: Cell(total, games) for pair, total in wins.items()}


def field(game_id: str, players: int) -> tuple[list[str], list[str]]:
    """(the agents that play, the agents that have no policy here) for one configuration."""
    compiled = list(BatchEnv(game_id, 1, players).compiled)
    game = gamebag.make(game_id, players)
    agents, missing = compiled, []
    for name in RULES_ONLY:
        try:
            make_agent(name, game)
        except UnknownAgentError:
            missing.append(name)
            continue
        agents.append(name)
    return agents, missing


def table(game_id: str, players: int, args: argparse.Namespace) -> list[str]:
    agents, missing = field(game_id, players)
    compiled = set(BatchEnv(game_id, 1, players).compiled)
    cells: dict[tuple[str, str], Cell] = {}
    wanted: list[tuple[str, str]] = []
    for i, row in enumerate(agents):
        for j, column in enumerate(agents):
            if args.with_agent and args.with_agent not in (row.split(":")[0], column.split(":")[0]):
                continue
            if row in compiled and column in compiled:
                cells[(row, column)] = compiled_cell(game_id, players, row, column, args.games, args.seed)
            elif i != j and (players > 2 or i < j):
                wanted.append((row, column))
    cells.update(rules_cells(game_id, players, wanted, args.search_games, args.seed, args.workers))
    if players == 2:
        for row, column in wanted:
            cells[(column, row)] = cells[(row, column)].complement()
    names = [name.split(":")[0] for name in agents]
    lines = [
        f"**{game_id}, {players} players** (row agent's win share, 95% Wilson interval; an equal player "
        f"gets {1 / players:.3f})",
        "",
        "| row \\ others | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(agents),
    ]
    for row, name in zip(agents, names, strict=True):
        texts = [
            cells[(row, column)].text()
            if (row, column) in cells
            else f"{1 / players:.3f} (itself)"
            if row == column and args.with_agent in ("", row.split(":")[0])
            else ""
            for column in agents
        ]
        lines.append(f"| {name} | " + " | ".join(texts) + " |")
    for name in missing:
        if name == "learned":
            lines.append("| learned | " + " | ".join(["no policy ships yet"] * len(agents)) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per cell on the compiled engines")
    parser.add_argument("--search-games", type=int, default=400, help="games per cell on the rules engine")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1, help="processes for the rules-engine cells")
    parser.add_argument("--only", default="", help="only the configurations whose game id is this")
    parser.add_argument(
        "--with",
        dest="with_agent",
        default="",
        help="play only the cells of this agent's row and column (each cell has its own seed, so they "
        "are the same figures as in a full run); the others show as blank",
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 1_000_000 or not 1 <= args.search_games <= 100_000 or not 1 <= args.workers <= 64:
        parser.error("--games must be 1 to 1,000,000, --search-games 1 to 100,000 and --workers 1 to 64")
    configs = [(g, n) for g, n in CONFIGS if args.only in ("", g)]
    if not configs:
        parser.error(f"--only must be one of {', '.join(sorted({g for g, _ in CONFIGS}))}")
    for game_id, players in configs:
        started = time.perf_counter()
        print("\n" + "\n".join(table(game_id, players, args)), flush=True)
        print(f"{game_id} {players}p: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
