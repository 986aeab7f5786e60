"""The compiled round-solver passes against the NumPy ones: the same grab matrices, equilibria as good."""

from __future__ import annotations

import numpy as np
import pytest

import gamebag
from gamebag.agents.equilibrium import solver
from gamebag.agents.equilibrium.agent import EquilibriumAgent
from gamebag.agents.equilibrium.solver import (
    CHECK_EVERY,
    DEFAULT_ITERATIONS,
    DEFAULT_TOLERANCE,
    SUPPORT_THRESHOLD,
    _regret_matching,
    exploitability_gap,
)

kernels = solver.compiled_kernels()
pytestmark = pytest.mark.skipif(kernels is None, reason="numba does not work here: the NumPy passes run")


def test_compiled_regret_matching_finds_equilibria_as_good_as_the_numpy_loop() -> None:
    """On random mixed 7 x 7 games: both are equilibria within the tolerance, their values differ by no
    more than their two gaps (a bound for any two near-equilibria), and nearly all strategies are the same."""
    payoffs = np.random.default_rng(5).random((300, 7, 7))
    assert kernels is not None
    x, y = kernels.regret_matching(payoffs, DEFAULT_ITERATIONS, DEFAULT_TOLERANCE, CHECK_EVERY, SUPPORT_THRESHOLD)
    reference_x, reference_y = _regret_matching(payoffs, DEFAULT_ITERATIONS, DEFAULT_TOLERANCE)
    gap = exploitability_gap(payoffs, x, y)
    reference_gap = exploitability_gap(payoffs, reference_x, reference_y)
    # A game still short of the tolerance after the last iteration keeps its averages, in both.
    assert np.array_equal(gap > DEFAULT_TOLERANCE, reference_gap > DEFAULT_TOLERANCE)
    assert (gap <= DEFAULT_TOLERANCE).mean() >= 0.95
    value = np.einsum("ni,nij,nj->n", x, payoffs, y)
    reference = np.einsum("ni,nij,nj->n", reference_x, payoffs, reference_y)
    assert np.all(np.abs(value - reference) <= gap + reference_gap + 1e-12)
    same = np.all(np.abs(x - reference_x) <= 1e-9, axis=1) & np.all(np.abs(y - reference_y) <= 1e-9, axis=1)
    assert same.mean() >= 0.99  # a few stop a check earlier or later: float sums in another order
    assert np.allclose(x.sum(axis=1), 1.0) and np.allclose(y.sum(axis=1), 1.0) and x.min() >= 0 and y.min() >= 0


@pytest.mark.parametrize("game_id", ["eel-harvest", "wriggle-roulette"])
def test_compiled_draw_values_are_the_numpy_ones(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The grab matrices of a solved round, summed pair by pair, equal the NumPy pass's to 1e-12, and the
    whole round solved both ways agrees within the matrix games' tolerance."""
    agent = EquilibriumAgent(gamebag.make(game_id, 2))
    round_solver = agent.solver
    compiled = round_solver.solve([(6, 9)], agent.continuation)
    r0, r1, c = (np.concatenate(parts) for parts in zip(*round_solver.layers[5:40:7], strict=True))
    fast = round_solver._draw_q(compiled, r0, r1, c)
    monkeypatch.setattr(solver, "compiled_kernels", lambda: None)
    assert np.abs(fast - round_solver._draw_q(compiled, r0, r1, c)).max() <= 1e-12
    reference = round_solver.solve([(6, 9)], agent.continuation)
    assert np.abs(compiled.both - reference.both).max() <= DEFAULT_TOLERANCE
