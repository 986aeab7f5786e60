"""The Eel family kernel equals the rules engine: exact replay and matching distributions.

For every option set, 1,000 rules-engine games (uniformly random choices, as the ``random``
agent plays) are replayed through the kernel's ``resolve`` with the same choices and draws;
the full state, every seat's observation tensor and the token count must agree after every
grab. The same games then serve as the rules-engine sample for the distribution tests
against 20,000 kernel games of the ``random`` policy: per-seat win share (Welch t-test),
per-seat final score and game length (two-sample Kolmogorov-Smirnov), Holm-corrected
within each option set at 0.01 / (number of option sets), so the family-wise error over
the whole file stays below 1%.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from eel_helpers import OPTION_SETS, ReplayLog, make_game, option_set_id, replay_game
from scipy import stats

from gamebag.core.rng import derive_rng
from gamebag.fast import engine_for
from gamebag.fast.eel import batch
from gamebag.fast.eel.engine import kernel_config
from gamebag.fast.eel.layout import C_THRESHOLD
from gamebag.fast.rng import run_key

RULES_GAMES = 1000
FAST_GAMES = 20_000
FAMILY_ALPHA = 0.01


@cache
def rules_games(index: int) -> ReplayLog:
    game = make_game(OPTION_SETS[index])
    log = ReplayLog()
    for number in range(RULES_GAMES):
        rng = derive_rng("fast-eel-replay", index, number)
        replay_game(game, lambda state, seat, rng=rng: rng.randrange(game.max_grab + 1), rng, log)
    return log


def holm_rejects(p_values: list[float], alpha: float) -> list[int]:
    """Indices of the hypotheses Holm's step-down procedure rejects at family-wise ``alpha``."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected = []
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (len(p_values) - rank):
            break
        rejected.append(i)
    return rejected


def distribution_tests(
    rules_returns: np.ndarray[Any, Any],
    rules_scores: np.ndarray[Any, Any],
    rules_lengths: np.ndarray[Any, Any],
    fast_returns: np.ndarray[Any, Any],
    fast_scores: np.ndarray[Any, Any],
    fast_lengths: np.ndarray[Any, Any],
) -> list[tuple[str, float]]:
    """(name, p-value) of every comparison between the two samples."""
    results = []
    for seat in range(rules_returns.shape[1]):
        test = stats.ttest_ind(rules_returns[:, seat], fast_returns[:, seat], equal_var=False)
        results.append((f"win share of seat {seat}", float(test.pvalue)))
        ks = stats.ks_2samp(rules_scores[:, seat], fast_scores[:, seat])
        results.append((f"final score of seat {seat}", float(ks.pvalue)))
    ks = stats.ks_2samp(rules_lengths, fast_lengths)
    results.append(("game length", float(ks.pvalue)))
    return results


def fast_sample(index: int, threshold_shift: int = 0) -> tuple[np.ndarray[Any, Any], ...]:
    game = make_game(OPTION_SETS[index])
    n = game.num_players
    if threshold_shift == 0:
        engine = engine_for(game, ["random"] * n)
        assert engine is not None
        result = engine.play(game, ["random"] * n, f"fast-eel-sample-{index}", 0, FAST_GAMES)
        return result.returns, result.scores, result.length
    # A deliberately wrong rule (the outbreak threshold moved), to show the tests can fail.
    cfg = kernel_config(game)
    cfg[C_THRESHOLD] += threshold_shift
    scores = np.zeros((FAST_GAMES, n), np.int32)
    returns = np.zeros((FAST_GAMES, n), np.float64)
    length = np.zeros(FAST_GAMES, np.int32)
    ended = np.zeros(FAST_GAMES, np.int8)
    batch.play_games(cfg, np.zeros(n, np.int64), run_key("wrong"), np.int64(0), scores, returns, length, ended)
    return returns, scores, length


def rejected_comparisons(index: int, threshold_shift: int = 0) -> list[str]:
    log = rules_games(index)
    fast_returns, fast_scores, fast_lengths = fast_sample(index, threshold_shift)
    results = distribution_tests(
        np.array(log.returns),
        np.array(log.scores),
        np.array(log.lengths),
        fast_returns,
        fast_scores,
        fast_lengths,
    )
    rejected = holm_rejects([p for _, p in results], FAMILY_ALPHA / len(OPTION_SETS))
    return [f"{results[i][0]} (p = {results[i][1]:.2e})" for i in rejected]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(OPTION_SETS)), ids=[option_set_id(o) for o in OPTION_SETS])
def test_kernel_replays_rules_games_and_matches_their_distributions(index: int) -> None:
    log = rules_games(index)
    assert log.games == RULES_GAMES
    assert log.steps >= 2 * RULES_GAMES
    assert not log.mismatches, "\n".join(log.mismatches[:5])
    rejected = rejected_comparisons(index)
    assert not rejected, f"fast and rules-engine games differ: {', '.join(rejected)}"


@pytest.mark.slow
def test_distribution_tests_catch_a_wrong_rule() -> None:
    rejected = rejected_comparisons(2, threshold_shift=-2)
    assert rejected, "a kernel with the wrong outbreak threshold passed the distribution tests"
