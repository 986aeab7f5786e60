"""The Eel family kernel equals the rules engine: exact replay and matching distributions.

On the equality harness (``gamebag.equality``), for every option set of
``tests/equality_sets.py`` (``EEL_NUMBA``): 1,000 rules-engine games (uniformly random
choices, as the ``random`` agent plays) are replayed through the kernel's ``resolve`` with
the same choices and draws (``replays.EelKernelReplay``); the full state, the draw sizes,
every seat's observation tensor and the token count must agree after every grab. The same
games then serve as the rules-engine sample for the distribution tests against 20,000
kernel games of the ``random`` policy: per-seat win share and mean score (Welch), per-seat
final score and game length (two-sample Kolmogorov-Smirnov) and mean length, Holm-corrected
within each option set at 0.01 / (number of option sets), so the family-wise error over
the whole file stays below 1%.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from eel_helpers import OPTION_SETS, make_game, option_set_id
from replays import EelKernelReplay, random_counts

from gamebag.equality import ReplayLog, Sample, comparisons, holm_failures, replay
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
    return replay(game, EelKernelReplay(game), random_counts(game), RULES_GAMES, f"fast-eel-replay-{index}")


def fast_sample(index: int, threshold_shift: int = 0) -> Sample:
    game = make_game(OPTION_SETS[index])
    n = game.num_players
    if threshold_shift == 0:
        engine = engine_for(game, ["random"] * n)
        assert engine is not None
        result = engine.play(game, ["random"] * n, f"fast-eel-sample-{index}", 0, FAST_GAMES)
        return Sample(result.returns, result.scores, result.length)
    # A deliberately wrong rule (the outbreak threshold moved), to show the tests can fail.
    cfg = kernel_config(game)
    cfg[C_THRESHOLD] += threshold_shift
    scores = np.zeros((FAST_GAMES, n), np.int32)
    returns = np.zeros((FAST_GAMES, n), np.float64)
    length = np.zeros(FAST_GAMES, np.int32)
    ended = np.zeros(FAST_GAMES, np.int8)
    batch.play_games(cfg, np.zeros(n, np.int64), run_key("wrong"), np.int64(0), scores, returns, length, ended)
    return Sample(returns, scores, length)


def rejected_comparisons(index: int, threshold_shift: int = 0) -> list[str]:
    p_values = comparisons(fast_sample(index, threshold_shift), rules_games(index).sample())
    return holm_failures(p_values, FAMILY_ALPHA / len(OPTION_SETS))


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(OPTION_SETS)), ids=[option_set_id(o) for o in OPTION_SETS])
def test_kernel_replays_rules_games_and_matches_their_distributions(index: int) -> None:
    log = rules_games(index)
    assert not log.problems, "\n".join(log.problems[:5])
    assert log.games == RULES_GAMES
    assert log.steps >= 2 * RULES_GAMES
    rejected = rejected_comparisons(index)
    assert not rejected, f"fast and rules-engine games differ: {', '.join(rejected)}"


@pytest.mark.slow
def test_distribution_tests_catch_a_wrong_rule() -> None:
    rejected = rejected_comparisons(2, threshold_shift=-2)
    assert rejected, "a kernel with the wrong outbreak threshold passed the distribution tests"
