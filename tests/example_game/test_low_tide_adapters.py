"""Low Tide, a plugin game where the lowest score wins, through the three RL adapters.

Gymnasium and PettingZoo pass their own API checkers; OpenSpiel plays it and resamples its hidden
hands. Rewards and truncations follow the game's score direction: a ``score`` reward is the points
a seat avoided (taking points is negative), and a game OpenSpiel cuts short goes to the lowest total.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from types import ModuleType

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from low_tide_support import GAME_ID, low_tide_loaded
from pettingzoo.test import api_test, parallel_api_test

from gamebag.interop.gymnasium_env import GamebagEnv
from gamebag.interop.openspiel_game import load
from gamebag.interop.pettingzoo_env import env, parallel_env


@pytest.fixture(scope="module")
def low_tide() -> Iterator[ModuleType]:
    """The plugin module, loaded in this process for this module's tests and forgotten after them."""
    with low_tide_loaded() as module:
        yield module


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # The checkers warn about unbounded observation spaces and dict observations: conventions, not faults.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _play_gymnasium(environment: GamebagEnv, seed: int) -> float:
    """One episode with uniformly random legal choices; the agent's total reward."""
    _, info = environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = environment.step(action)
        total += float(reward)
        if terminated or truncated:
            return total


def test_gymnasium_checks_it_and_win_rewards_are_the_returns(low_tide: ModuleType) -> None:
    check_env(GamebagEnv(GAME_ID, 3, options={"rounds": 1}))
    environment = GamebagEnv(GAME_ID, 3, seat=1)
    total = _play_gymnasium(environment, seed=4)
    game, state = environment.table.game, environment.table.state
    assert game.is_terminal(state) and total == pytest.approx(game.returns(state)[1])


def test_gymnasium_score_rewards_count_points_taken_against_the_seat(low_tide: ModuleType) -> None:
    for seed in range(3):
        environment = GamebagEnv(GAME_ID, 3, seat=0, reward="score")
        total = _play_gymnasium(environment, seed)
        taken = environment.table.game.scores(environment.table.state)[0]
        assert taken > 0 and total == pytest.approx(-taken)  # every point taken is a point lost


def test_pettingzoo_api_tests_pass(low_tide: ModuleType) -> None:
    api_test(env(GAME_ID, 3), num_cycles=60)
    parallel_api_test(parallel_env(GAME_ID, 3), num_cycles=60)


def test_pettingzoo_score_rewards_count_points_taken_against_each_seat(low_tide: ModuleType) -> None:
    aec = env(GAME_ID, 2, reward="score")
    aec.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for _agent in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        for name, reward in aec.rewards.items():
            totals[name] += reward
        action = None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        aec.step(action)
    final = aec.table.game.scores(aec.table.state)
    assert [totals[name] for name in aec.possible_agents] == pytest.approx([-points for points in final])


def test_openspiel_plays_it_and_resamples_hidden_hands(low_tide: ModuleType) -> None:
    game = load(GAME_ID, 3, rounds=1)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    resampled = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, rng.random)
        assert other.observation_string(player) == state.observation_string(player)
        resampled += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert resampled > 0 and sum(state.returns()) == pytest.approx(1.0)


def test_openspiel_gives_a_game_cut_short_to_the_lowest_total(low_tide: ModuleType) -> None:
    checked = 0
    for seed in range(20):
        game = load(GAME_ID, 2, max_game_length=4)
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        track = state.track  # the gamebag position behind the OpenSpiel state
        assert not track.config.game.is_terminal(track.state)  # cut short after 4 decisions
        scores = list(track.config.game.scores(track.state))
        if scores[0] == scores[1]:
            continue
        lowest = scores.index(min(scores))
        assert state.returns()[lowest] == 1.0, (scores, state.returns())
        checked += 1
    assert checked >= 3


def test_vector_training_and_evaluation_default_to_agents_that_exist(low_tide: ModuleType) -> None:
    """Low Tide has no heuristic: the rules-engine batch offers random only, the default league
    gives the heuristic's share to random, and ``evaluate`` without opponents plays random."""
    from gamebag.interop.evaluation import evaluate
    from gamebag.interop.ppo import DEFAULT_LEAGUE, default_league
    from gamebag.interop.vector_env import step_batch

    _, compiled = step_batch(GAME_ID, 3, None, 2, rules_engine=True)
    assert compiled == ("random",)
    league = default_league(compiled)
    assert "heuristic" not in league and league["random"] == pytest.approx(
        DEFAULT_LEAGUE["random"] + DEFAULT_LEAGUE["heuristic"]
    )
    assert sum(league.values()) == pytest.approx(sum(DEFAULT_LEAGUE.values()))
    assert default_league(("heuristic", "random")) == dict(DEFAULT_LEAGUE)

    def first_legal(observation: object, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[0])

    result = evaluate(first_legal, GAME_ID, 3, games=6, envs=2, options={"rounds": 1})
    assert result.games == 6
