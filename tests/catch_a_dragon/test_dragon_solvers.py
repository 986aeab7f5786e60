"""Exact solvers on Catch A Dragon: known values, independent checks and Monte Carlo agreement."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.agents.solvers.rounds import outcome_breakdown, score_policy_choices
from gamebag.agents.solvers.solutions import score_solution, win_solution
from gamebag.agents.solvers.turn_graph import exact_expectimax
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game

Z99 = 2.5758  # two-sided 99% normal quantile


def engine_turn_value(options: dict[str, Any]) -> Fraction:
    """Expectimax straight over the game engine's states for one solo turn (no turn model)."""
    game = gamebag.make("catch-a-dragon", 1, **options)

    @cache
    def value(state: Any) -> Fraction:
        if state.round_no > 1 or game.node_kind(state) is NodeKind.TERMINAL:
            return Fraction(state.scores[0])
        if game.node_kind(state) is NodeKind.CHANCE:
            return sum((p * value(game.apply_chance(state, o)) for o, p in game.chance_outcomes(state)), Fraction(0))
        return max(value(game.apply(state, {0: a})) for a in game.legal_actions(state, 0))

    return value(game.initial_state())


@pytest.mark.parametrize(
    ("options", "exact"),
    [
        ({}, Fraction(1238297, 186624)),
        ({"duplicate_bust": "none-new"}, Fraction(219053, 31104)),
        ({"cyclic": False}, Fraction(32502205, 5038848)),
    ],
)
def test_optimal_expected_score_matches_an_engine_expectimax(options: dict[str, Any], exact: Fraction) -> None:
    solution = score_solution(gamebag.make("catch-a-dragon", 2, **options))
    assert solution.value == exact
    assert engine_turn_value(options) == exact


def test_faces_do_not_change_the_value() -> None:
    renamed = gamebag.make("catch-a-dragon", 2, faces="teal,gold,blue,red,pink,gray")
    assert score_solution(renamed).value == Fraction(1238297, 186624)


def test_hand_computed_decisions() -> None:
    solution = score_solution(gamebag.make("catch-a-dragon", 2))
    values = solution.node_values
    index = solution.graph.index
    # Three reds: stop for 9, or roll one die for 16 with chance 1/6: 8/3.
    assert values[index[("roll", (4, 4, 4))]] == Fraction(8, 3)
    assert solution.action_at(("decide", (4, 4, 4))) == "stop"
    # Gold-blue-red (6): one die busts on 2, 3, 4; green or purple make a chain of four (8);
    # gray adds a lone dragon (7): (8 + 8 + 7) / 6 = 23/6 < 6.
    assert values[index[("roll", (2, 3, 4))]] == Fraction(23, 6)
    assert solution.action_at(("decide", (2, 3, 4))) == "stop"
    # Four different colours rolled first: taking all four is the best collection.
    assert solution.action_at(("collect", (), (1, 2, 3, 4))) == (1, 2, 3, 4)
    assert sum(solution.distribution.values()) == 1
    assert solution.distribution[0] == solution.bust_probability()


def test_optimal_score_agent_monte_carlo_agrees_with_the_exact_value() -> None:
    game = gamebag.make("catch-a-dragon", 1)
    agent = make_agent("optimal-score", game)
    turns: list[float] = []
    for index in range(2500):
        result = play_game(game, [agent], derive_rng("dragon-score", index), keep_record=False)
        assert result.rounds == 4
        turns.append(result.scores[0] / 4)
    mean = sum(turns) / len(turns)
    spread = math.sqrt(sum((t - mean) ** 2 for t in turns) / (len(turns) - 1))
    exact = float(score_solution(game).value)
    assert abs(mean - exact) <= Z99 * spread / math.sqrt(len(turns))


def test_win_solution_is_consistent() -> None:
    game = gamebag.make("catch-a-dragon", 2)
    solution = win_solution(game)
    assert 0.4 < solution.value < 0.5  # the second player's information is worth something
    outcomes = solution.breakdown
    assert outcomes["share"] == pytest.approx(solution.value, abs=1e-12)
    assert outcomes["first_wins"] + outcomes["shared"] + outcomes["second_wins"] == pytest.approx(1.0)
    assert outcomes["first_wins"] + outcomes["shared"] / 2 == pytest.approx(solution.value, abs=1e-12)
    table = score_policy_choices(solution.graph, score_solution(game).choice)
    # Equal one-turn policies give equal turn distributions: a symmetric contest.
    assert outcome_breakdown(solution, table, table)["share"] == pytest.approx(0.5, abs=1e-9)
    # The win policy is at least as good as the score policy for either seat.
    assert outcome_breakdown(solution, None, table)["share"] >= solution.value
    assert outcome_breakdown(solution, table, None)["share"] <= solution.value


def test_last_turn_matches_an_exact_threshold_computation() -> None:
    """Seat 1's last turn: maximise P(points > d) + P(points = d) * (tie-break value)."""
    game = gamebag.make("catch-a-dragon", 2)
    solution = win_solution(game)
    level = solution.level(4, 1)
    tie_value = 1 - Fraction(solution.level(5, 0).start_values[0])  # seat 1's share of a tie-break
    for difference in (-3, 0, 4, 7, 9, 16, 30):
        exact = exact_expectimax(
            solution.graph,
            lambda p, d=difference: Fraction(int(p > d)) + (tie_value if p == d else Fraction(0)),
        )
        seat1 = exact.values[solution.graph.root]
        assert 1 - level.start_values[level.column(difference)] == pytest.approx(float(seat1), abs=1e-9)


def test_no_tie_breaks_means_shared_wins() -> None:
    solution = win_solution(gamebag.make("catch-a-dragon", 2, max_tiebreak_rounds=0))
    assert solution.breakdown["shared"] > 0.01
    assert solution.tiebreak_rounds == 0


def test_optimal_win_agents_monte_carlo_agree_with_the_exact_value() -> None:
    game = gamebag.make("catch-a-dragon", 2)
    agents = [make_agent("optimal-win", game), make_agent("optimal-win", game)]
    shares = [
        play_game(game, agents, derive_rng("dragon-win", index), keep_record=False).returns[0] for index in range(4000)
    ]
    mean = sum(shares) / len(shares)
    spread = math.sqrt(sum((s - mean) ** 2 for s in shares) / (len(shares) - 1))
    assert abs(mean - win_solution(game).value) <= Z99 * spread / math.sqrt(len(shares))


def test_optimal_win_beats_optimal_score_by_the_exact_margin() -> None:
    game = gamebag.make("catch-a-dragon", 2)
    agents = [make_agent("optimal-win", game), make_agent("optimal-score", game)]
    solution = win_solution(game)
    exact = outcome_breakdown(solution, None, score_policy_choices(solution.graph, score_solution(game).choice))
    shares = [
        play_game(game, agents, derive_rng("dragon-vs", index), keep_record=False).returns[0] for index in range(4000)
    ]
    mean = sum(shares) / len(shares)
    spread = math.sqrt(sum((s - mean) ** 2 for s in shares) / (len(shares) - 1))
    assert abs(mean - exact["share"]) <= Z99 * spread / math.sqrt(len(shares))
    assert exact["share"] > 0.54


def test_optimal_agents_need_two_players_for_the_win() -> None:
    from gamebag.core.errors import UnknownAgentError

    with pytest.raises(UnknownAgentError, match="2 players"):
        make_agent("optimal-win", gamebag.make("catch-a-dragon", 3))
    assert make_agent("optimal-score", gamebag.make("catch-a-dragon", 5)).name == "optimal-score"
