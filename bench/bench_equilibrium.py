"""How fast a tournament with the ``equilibrium`` agent plays: games per second, CPU seconds a game,
and how many rounds it solved (the agent's cost is solving each new round it meets).

    python bench/bench_equilibrium.py [GAME] [GAMES]

Plays GAMES (default 40) two-player games of ``equilibrium`` against ``heuristic`` (seats
rotated), through ``run_tournament`` on one process, as ``gamebag tournament`` does.
"""

from __future__ import annotations

import sys
import time

from gamebag.agents.equilibrium import solver
from gamebag.sim.tournament import TournamentSpec, run_tournament


def main() -> None:
    game = sys.argv[1] if len(sys.argv) > 1 else "wriggle-roulette"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    solves = [0]
    solve = solver.RoundSolver.solve

    def counted(self: solver.RoundSolver, *args: object, **kwargs: object) -> solver.RoundBatch:
        solves[0] += 1
        return solve(self, *args, **kwargs)  # type: ignore[arg-type]

    solver.RoundSolver.solve = counted  # type: ignore[method-assign]
    agents = ("equilibrium", "heuristic")
    spec = TournamentSpec(game=game, players=2, agents=agents, games=games, seed=0, auto_ladder=False)
    wall, cpu = time.perf_counter(), time.process_time()
    result = run_tournament(spec, workers=1, engine="rules")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"{game}: {result.games_played} games in {wall:.1f} s ({result.games_played / wall:.2f} games/s), "
        f"{cpu / result.games_played:.2f} CPU s a game, {solves[0]} rounds solved"
    )


if __name__ == "__main__":
    main()
