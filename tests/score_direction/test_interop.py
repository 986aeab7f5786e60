"""The RL adapters in the game's score direction: the ``score`` reward (Gymnasium, PettingZoo) and
OpenSpiel's truncation, where the best score takes the win."""

from __future__ import annotations

from typing import Any

from gamebag.interop.gymnasium_env import GamebagEnv
from gamebag.interop.openspiel_game import load
from gamebag.interop.pettingzoo_env import parallel_env

TAKE_THREE = 2  # the index of "take 3 points" in Countdown's all_actions (1, 2, 3)
TAKE_ONE = 0


def _gymnasium_return(game_id: str, options: dict[str, Any]) -> float:
    env = GamebagEnv(game_id, 2, options, opponents="random", reward="score")
    env.reset(seed=3)
    total, done = 0.0, False
    while not done:
        _, reward, terminated, truncated, _ = env.step(TAKE_THREE)
        total += reward
        done = terminated or truncated
    return total


def test_the_gymnasium_score_reward_counts_points_against_the_seat_where_the_fewest_win(countdown: str) -> None:
    assert _gymnasium_return(countdown, {}) == -9.0  # 3 points in each of 3 rounds, each a loss
    assert _gymnasium_return(countdown, {"lowest_wins": False}) == 9.0


def _pettingzoo_returns(game_id: str, options: dict[str, Any]) -> dict[str, float]:
    env = parallel_env(game_id, 2, options, reward="score")
    env.reset(seed=1)
    totals: dict[str, float] = {}
    takes = {"player_0": TAKE_ONE, "player_1": TAKE_THREE}
    while env.agents:
        _, rewards, _, _, _ = env.step(dict(takes))  # the seat not choosing now is ignored
        for agent, reward in rewards.items():
            totals[agent] = totals.get(agent, 0.0) + reward
    return totals


def test_the_pettingzoo_score_reward_follows_the_direction(countdown: str) -> None:
    assert _pettingzoo_returns(countdown, {}) == {"player_0": -3.0, "player_1": -9.0}
    assert _pettingzoo_returns(countdown, {"lowest_wins": False}) == {"player_0": 3.0, "player_1": 9.0}


def _truncated_returns(game_id: str, **options: Any) -> list[float]:
    game = load(game_id, 2, max_game_length=2, **options)
    state = game.new_initial_state()
    state.apply_action(TAKE_ONE)  # seat 0 takes 1 point
    state.apply_action(TAKE_THREE)  # seat 1 takes 3: the length bound stops the game here
    assert state.is_terminal()
    return list(state.returns())


def test_openspiel_truncation_gives_the_win_to_the_best_score_in_the_games_direction(countdown: str) -> None:
    assert _truncated_returns(countdown) == [1.0, 0.0]
    assert _truncated_returns(countdown, lowest_wins=False) == [0.0, 1.0]
