"""Statistics for comparing fast-engine games with rules-engine games of the dice games.

Each comparison gives a p-value (two-proportion z test for win shares, two-sample
Kolmogorov-Smirnov for score and length distributions, Welch's z for means);
``assert_agree`` applies Holm's correction to the whole family, so the chance of
a false alarm over all of a test's comparisons stays below ``family_alpha``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from gamebag.agents.registry import make_agent
from gamebag.core.protocol import Game
from gamebag.core.rng import derive_rng
from gamebag.fast.base import BatchResult
from gamebag.sim.play import PlayedGame, play_game


def two_proportion_p(hits_a: float, n_a: int, hits_b: float, n_b: int) -> float:
    """Two-sided p-value that two success rates are equal (pooled normal approximation)."""
    pooled = (hits_a + hits_b) / (n_a + n_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if spread == 0:
        return 1.0 if hits_a / n_a == hits_b / n_b else 0.0
    return math.erfc(abs(hits_a / n_a - hits_b / n_b) / spread / math.sqrt(2))


def welch_p(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    """Two-sided p-value that two means are equal (large samples: normal approximation)."""
    spread = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    if spread == 0:
        return 1.0 if a.mean() == b.mean() else 0.0
    return math.erfc(abs(a.mean() - b.mean()) / spread / math.sqrt(2))


def ks_p(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    """Two-sample Kolmogorov-Smirnov p-value (asymptotic; conservative for discrete data)."""
    values = np.union1d(a, b)
    cdf_a = np.searchsorted(np.sort(a), values, side="right") / a.size
    cdf_b = np.searchsorted(np.sort(b), values, side="right") / b.size
    distance = float(np.max(np.abs(cdf_a - cdf_b)))
    effective = a.size * b.size / (a.size + b.size)
    lam = (math.sqrt(effective) + 0.12 + 0.11 / math.sqrt(effective)) * distance
    if lam < 1e-3:
        return 1.0
    total = sum(2 * (-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return min(1.0, max(0.0, total))


def holm_failures(p_values: dict[str, float], family_alpha: float) -> list[str]:
    """The comparisons Holm's step-down procedure rejects at ``family_alpha``."""
    ordered = sorted(p_values.items(), key=lambda item: item[1])
    failed = []
    for rank, (name, p) in enumerate(ordered):
        if p > family_alpha / (len(ordered) - rank):
            break
        failed.append(f"{name}: p = {p:.2e}")
    return failed


def play_rules_games(game: Game, agents: Sequence[str], seed: str, games: int) -> list[PlayedGame]:
    """``games`` rules-engine games, seeded as ``gamebag simulate`` seeds them."""
    players = [make_agent(name, game) for name in agents]
    return [play_game(game, players, derive_rng(seed, "game", i), keep_record=False) for i in range(games)]


def comparisons(fast: BatchResult, rules: Sequence[PlayedGame], label: str) -> dict[str, float]:
    """p-values of every per-seat win share, score distribution and mean, and the game length."""
    seats = fast.scores.shape[1]
    rules_returns = np.array([g.returns for g in rules])
    rules_scores = np.array([g.scores for g in rules], dtype=np.float64)
    rules_length = np.array([g.rounds for g in rules], dtype=np.float64)
    result: dict[str, float] = {}
    for seat in range(seats):
        result[f"{label} seat {seat} win share"] = two_proportion_p(
            float(fast.returns[:, seat].sum()), len(fast), float(rules_returns[:, seat].sum()), len(rules)
        )
        fast_scores = fast.scores[:, seat].astype(np.float64)
        result[f"{label} seat {seat} score distribution"] = ks_p(fast_scores, rules_scores[:, seat])
        result[f"{label} seat {seat} mean score"] = welch_p(fast_scores, rules_scores[:, seat])
    fast_length = fast.length.astype(np.float64)
    result[f"{label} length distribution"] = ks_p(fast_length, rules_length)
    result[f"{label} mean length"] = welch_p(fast_length, rules_length)
    return result
