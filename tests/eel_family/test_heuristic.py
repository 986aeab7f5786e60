"""The Eel family heuristic is a decent opponent and sees only its observation."""

from __future__ import annotations

import pytest

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.heuristics.eel_family import outbreak_probability
from gamebag.agents.registry import make_agent
from gamebag.core.rng import derive_rng, make_rng
from gamebag.sim.play import play_game
from gamebag.sim.stats import wilson_interval


def test_outbreak_probability_is_exact_hypergeometric() -> None:
    # 2 draws from 3 eels + 1 snake, at least 1 snake: 1 - (3/4 * 2/3) = 1/2.
    assert outbreak_probability(2, 3, 1, 1, dice=False) == pytest.approx(0.5)
    # At least 2 snakes from 2 draws with a D4: 1/16.
    assert outbreak_probability(2, 0, 0, 2, dice=True) == pytest.approx(1 / 16)
    assert outbreak_probability(1, 5, 0, 1, dice=False) == 0.0
    assert outbreak_probability(3, 5, 5, 0, dice=False) == 1.0


@pytest.mark.parametrize("game_id", ["wriggle-roulette", "eel-harvest"])
def test_heuristic_beats_random_head_to_head(game_id: str) -> None:
    game = gamebag.make(game_id, 2)
    heuristic, random = make_agent("heuristic", game), make_agent("random", game)
    games, wins = 300, 0.0
    for index in range(games):
        seat = index % 2  # alternate seats
        agents = [heuristic, random] if seat == 0 else [random, heuristic]
        wins += play_game(game, agents, derive_rng(1, index), keep_record=False).returns[seat]
    low, _ = wilson_interval(wins, games)
    assert low > 0.5, f"heuristic won {wins / games:.3f} of games"


def test_heuristic_takes_a_winning_exit() -> None:
    game = gamebag.make("wriggle-roulette", 3)
    state = game.initial_state()._replace(scores=(15, 0, 0), reserves=(5, 0, 0), bag_eels=46)
    action = make_agent("heuristic", game).act(SeatView(game, state, 0), make_rng(0))
    assert action == 0


@pytest.mark.parametrize("players", [3, 4, 6])
def test_heuristic_weighs_the_tie_risk_when_outbreaks_pay_the_reserve(players: int) -> None:
    """Under outbreak_scores_reserve the bots once all grabbed 1, tied, and lost at every outbreak."""
    game = gamebag.make("eel-harvest", players, outbreak_scores_reserve=True)
    agents = [make_agent("heuristic", game) for _ in range(players)]
    rounds: list[int] = []
    everyone_lost = 0
    for index in range(30):
        rng = derive_rng(5, index)
        state = game.initial_state()
        while not state.over:
            if state.pending is not None:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                last = state.last
                if last is not None and last.outbreak:
                    drew = {p for p, count in enumerate(last.counts) if count > 0}
                    everyone_lost += len(drew) >= 2 and set(last.losers) == drew
                continue
            moves = {p: agents[p].act(SeatView(game, state, p), rng) for p in game.acting_players(state)}
            state = game.apply(state, moves)
        rounds.append(state.round_no)
    mean_rounds = sum(rounds) / len(rounds)
    # Before the fix: about 100 rounds (3-4 players) and 760 (6 players); without outbreaks that
    # hit everyone a game takes about 5 rounds, as without the option.
    assert mean_rounds < 12, mean_rounds
    # Before the fix nearly every round ended in an outbreak that took every drawer's eels; now
    # most rounds end by exits (measured: 0.2-0.45 of rounds end with every drawer losing).
    assert everyone_lost / sum(rounds) < 0.6, (everyone_lost, sum(rounds))
