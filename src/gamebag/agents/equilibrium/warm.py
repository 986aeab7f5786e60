"""Compile the equilibrium round solver's kernels ahead of use: ``python -m gamebag.agents.equilibrium.warm``.

The solver's numba kernels (:mod:`gamebag.agents.equilibrium.kernels`) compile at their first
call, about 15 CPU seconds, and keep the machine code in numba's on-disk cache. ``make`` runs
this once after installing, beside ``gamebag.fast.warm``, so neither the first equilibrium game
nor each test worker waits for the compiler. One solved round calls every kernel.
"""

from __future__ import annotations

import time

import gamebag
from gamebag.agents.equilibrium.agent import OPENING_SCORES, EquilibriumAgent
from gamebag.agents.equilibrium.solver import compiled_kernels


def main() -> None:
    started = time.perf_counter()
    agent = EquilibriumAgent(gamebag.make("wriggle-roulette", 2))
    agent.solver.solve([OPENING_SCORES], agent.continuation)
    state = "compiled" if compiled_kernels() is not None else "not compiled (the NumPy passes are used)"
    print(f"gamebag.agents.equilibrium.warm: round solver {state}, ready in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
