"""``Game.score_sign`` and the helpers of ``gamebag.core.results`` (orders, leaders, margins)."""

from __future__ import annotations

import pytest

import gamebag
from gamebag.core.protocol import Game
from gamebag.core.results import (
    best_first,
    competition_ranks,
    leaders,
    leaders_share,
    oriented,
    relative_margin,
    score_places,
    sole_leader,
    winner_margin,
)

from .countdown import Countdown


def test_a_game_declares_its_direction_and_options_may_flip_it() -> None:
    assert Game.lower_score_wins is False
    assert gamebag.make("pig", 2).score_sign() == 1  # the default: higher is better
    assert Countdown.lower_score_wins is True
    assert Countdown(2).score_sign() == -1
    assert Countdown(2, lowest_wins=False).score_sign() == 1


def test_oriented_scores_put_the_best_highest_in_either_direction() -> None:
    assert oriented([3, 9, 5], 1) == (3.0, 9.0, 5.0)
    assert oriented([3, 9, 5], -1) == (-3.0, -9.0, -5.0)
    with pytest.raises(ValueError, match="score sign"):
        oriented([1, 2], 0)


def test_competition_ranks_share_the_best_place_between_ties() -> None:
    assert competition_ranks([5.0, 7.0, 7.0, 1.0]) == [3, 1, 1, 4]
    assert competition_ranks([(1.0, -3.0), (0.0, -5.0), (0.0, -9.0)]) == [1, 2, 3]
    assert score_places([3, 9, 5, 3], -1) == [1, 4, 3, 1]
    assert score_places([3, 9, 5, 3], 1) == [3, 1, 2, 3]


def test_leaders_and_order_follow_the_direction() -> None:
    assert best_first([3, 9, 5], -1) == [0, 2, 1]
    assert best_first([3, 9, 5], 1) == [1, 2, 0]
    assert best_first([4, 2, 4], -1) == [1, 0, 2]  # ties keep seat order
    assert leaders([3, 9, 3], -1) == (0, 2)
    assert sole_leader([3, 9, 3], -1) is None
    assert sole_leader([3, 9, 5], -1) == 0
    assert sole_leader([3, 9, 5], 1) == 1
    assert leaders_share([3, 9, 3], -1) == (0.5, 0.0, 0.5)
    assert leaders_share([3, 9, 3], 1) == (0.0, 1.0, 0.0)
    assert leaders([], 1) == ()


def test_the_margin_runs_from_the_best_score_to_the_runner_up() -> None:
    # Lowest wins: 3 is first, 5 second; the two worst scores (9 and 5) do not matter.
    assert winner_margin([3, 9, 5], -1) == 2.0
    assert winner_margin([3, 9, 5], 1) == 4.0
    assert winner_margin([7], -1) is None
    assert relative_margin([3, 9, 5], 1) == pytest.approx(4 / 9)  # a share of the winner's score
    assert relative_margin([0, 4, 6], -1) == pytest.approx(1.0)  # a share of the runner-up's: finite at 0
    assert relative_margin([0, 0], -1) is None
