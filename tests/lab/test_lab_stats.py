"""The lab's statistics: intervals, the fairness test on constructed cases, and cell comparisons."""

from __future__ import annotations

import numpy as np
import pytest

from gamebag.lab.stats import fairness_p, mean_difference, share_difference, summarise, wilson


def test_wilson_interval_known_value() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


def test_fairness_test_known_chi_square_values() -> None:
    assert fairness_p(np.array([2500.0, 2500.0, 2500.0, 2500.0])) == pytest.approx(1.0)
    # chi-square 8 with 3 degrees of freedom: p = 0.0460
    assert fairness_p(np.array([2600.0, 2400.0, 2500.0, 2500.0])) == pytest.approx(0.04601, abs=1e-4)
    # chi-square 3.841459 with 1 degree of freedom is the 5% point.
    wins = np.array([500.0 + 0.5 * 3.841459**0.5 * 1000**0.5, 500.0 - 0.5 * 3.841459**0.5 * 1000**0.5])
    assert fairness_p(wins) == pytest.approx(0.05, abs=1e-6)


def test_fairness_test_passes_fair_setups_and_flags_an_unfair_one() -> None:
    rng = np.random.default_rng(11)
    fair = [fairness_p(rng.multinomial(4000, [0.25] * 4).astype(float)) for _ in range(400)]
    false_alarms = np.mean(np.array(fair) < 0.05)
    assert 0.02 <= false_alarms <= 0.09, false_alarms  # about 5% by construction of a test at 5%
    unfair = [fairness_p(rng.multinomial(4000, [0.28, 0.24, 0.24, 0.24]).astype(float)) for _ in range(100)]
    assert np.mean(np.array(unfair) < 0.05) > 0.9


def test_share_difference_interval_and_p() -> None:
    same = share_difference(500, 1000, 500, 1000)
    assert same.estimate == 0 and same.p == pytest.approx(1.0)
    assert same.low == pytest.approx(-0.0438, abs=1e-3) and same.high == pytest.approx(0.0438, abs=1e-3)
    apart = share_difference(450, 1000, 550, 1000)
    assert apart.estimate == pytest.approx(0.1) and apart.p < 1e-4 and apart.low > 0


def test_mean_difference() -> None:
    a = np.array([1.0, 2.0, 3.0] * 100)
    b = a + 1.0
    d = mean_difference(a, b)
    assert d.estimate == pytest.approx(1.0) and d.low < 1.0 < d.high and d.p < 1e-10
    assert mean_difference(a, a.copy()).p == pytest.approx(1.0)


def test_summary_percentiles_and_histogram() -> None:
    values = np.arange(1, 11, dtype=float)
    summary = summarise(values)
    assert summary.mean == 5.5 and summary.median == 5.5
    assert summary.p10 == pytest.approx(1.9) and summary.p90 == pytest.approx(9.1)
    assert sum(count for _, count in summary.histogram) == 10
    assert len(summary.histogram) == 10  # one bin per integer
