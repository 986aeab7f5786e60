"""Tournaments, ratings, the balance lab's margins and the quality metrics in the game's direction.

Countdown's heuristic plays best, ``countdown-taker`` worst (3 points a turn), ``random`` between:
every figure derived from scores must say so, and say the opposite with ``lowest_wins=false``.
"""

from __future__ import annotations

from typing import Any

import pytest

import gamebag
from gamebag.core.rng import derive_rng
from gamebag.lab.api import balance
from gamebag.lab.quality import _from_traces, trace_game
from gamebag.lab.tune.metrics import measure_run
from gamebag.sim.tournament import TournamentSpec, run_tournament

from .conftest import TAKER
from .countdown import Scripted

FIELD = ("heuristic", "random", TAKER)


def _tournament(game_id: str, options: dict[str, Any]) -> Any:
    return run_tournament(TournamentSpec(game_id, 3, FIELD, 20, 5, options, auto_ladder=False), workers=1)


def test_three_player_standings_and_ratings_rank_the_fewest_points_first(countdown: str) -> None:
    result = _tournament(countdown, {})
    order = [rating.agent for rating in sorted(result.ratings, key=lambda r: -r.mu)]
    assert order == ["heuristic", "random", TAKER]
    random_ahead_of_taker = result.matrix[1][2]
    # Random never takes more than the taker: it finishes ahead (or level) in every game they share.
    assert random_ahead_of_taker is not None and random_ahead_of_taker.rate > 0.95
    # Most win (the control): the heuristic takes 3 a turn as the taker does; both rank above random.
    result = _tournament(countdown, {"lowest_wins": False})
    by_agent = {rating.agent: rating.mu for rating in result.ratings}
    assert min(by_agent["heuristic"], by_agent[TAKER]) > by_agent["random"]
    taker_ahead_of_random = result.matrix[2][1]
    assert taker_ahead_of_random is not None and taker_ahead_of_random.rate > 0.95




def test_balance_and_tune_measure_the_margin_between_first_and_second(countdown: str) -> None:
    # Fewest win: the heuristic takes 3 points in 3 rounds, each taker 9: it wins every game by 6
    # (the two takers' scores, the worst two, are level and do not count).
    result = balance(countdown, players=3, agents=["heuristic", TAKER, TAKER], games=12)
    cell = result.cells[0]
    assert cell.win_share == [1.0, 0.0, 0.0]
    assert cell.margin.mean == 6.0
    assert measure_run(result.runs[0])["winning_margin"].value == 6.0
    # Most win (the control): the taker's 9 over the best random score, game by game.
    result = balance(
        countdown, players=3, agents=[TAKER, "random", "random"], options={"lowest_wins": False}, games=40
    )
    rows = result.per_game.to_pydict()
    margins = []
    for scores in zip(rows["score_0"], rows["score_1"], rows["score_2"], strict=True):
        first, second = sorted(scores, reverse=True)[:2]
        if first > second:
            margins.append(first - second)
    assert margins and result.cells[0].margin.mean == pytest.approx(sum(margins) / len(margins))
    assert measure_run(result.runs[0])["winning_margin"].value == pytest.approx(sum(margins) / len(margins))


def _quality(game_id: str, **options: Any) -> Any:
    game = gamebag.make(game_id, 2, rounds=4, **options)
    # Round ends: (1, 2), (2, 4), (4, 5), (7, 6).
    agents = [Scripted([1, 1, 2, 3]), Scripted([2, 2, 1, 1])]
    trace = trace_game(game, agents, derive_rng(0, "trace"))
    return trace.winners, _from_traces([trace])


def test_the_leader_holds_the_best_score_in_the_games_direction(countdown: str) -> None:
    # Fewest win: seat 0 leads after rounds 1 to 3 (half-time included) and seat 1 wins: a comeback.
    winners, quality = _quality(countdown)
    assert winners == (1,)
    assert quality.comeback_rate.value == 1.0
    assert quality.lead_changes.value == 1.0
    assert quality.decisiveness.value == pytest.approx(1 / 7)  # 7 - 6, a share of the runner-up's 7
    # Most win (the control): seat 1 leads at half-time and seat 0 wins: a comeback too, one lead change.
    winners, quality = _quality(countdown, lowest_wins=False)
    assert winners == (0,)
    assert quality.comeback_rate.value == 1.0
    assert quality.lead_changes.value == 1.0
    assert quality.decisiveness.value == pytest.approx(1 / 7)
    # A leader at half-time who holds on is no comeback: seat 0 leads throughout where the fewest win.
    game = gamebag.make(countdown, 2, rounds=4)
    trace = trace_game(game, [Scripted([1, 1, 1, 1]), Scripted([3, 1, 1, 2])], derive_rng(0, "trace"))
    quality = _from_traces([trace])
    assert trace.winners == (0,)
    assert quality.comeback_rate.value == 0.0
    assert quality.lead_changes.value == 0.0
