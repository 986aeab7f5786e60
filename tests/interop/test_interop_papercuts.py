"""What a researcher hits in the first hour: each check here is one of those papercuts, fixed.

Stable-Baselines3's ``make_vec_env`` (it passes ``render_mode="rgb_array"``) with sb3-contrib's
MaskablePPO, the 0-d arrays ``model.predict`` returns, pickling and deep copies, PettingZoo's
``aec_to_parallel``, flat observations with the mask, ``state()`` for centralised critics,
opponents given as policies or agent objects, and bounded observation spaces.
"""

from __future__ import annotations

import copy
import pickle
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel

import gamebag
from conftest import configurations
from gamebag.agents.base import Agent, SeatView
from gamebag.core.rng import Rng
from gamebag.games.catch_a_dragon.rules import OBSERVATION_SIZE
from gamebag.interop.gymnasium_env import GamebagEnv
from gamebag.interop.pettingzoo_env import env, parallel_env

CONFIGS = configurations()
IDS = [f"{g}-{n}p" for g, n in CONFIGS]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _random_legal(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.slow
def test_sb3_make_vec_env_and_maskable_ppo_learn() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    import gamebag.interop.gymnasium  # noqa: F401  (registers the ids make_vec_env looks up)

    vec = make_vec_env("gamebag/catch-a-dragon-v0", n_envs=2, seed=0, env_kwargs={"players": 2})
    assert vec.get_attr("render_mode") == ["rgb_array", "rgb_array"]
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    assert model.num_timesteps >= 64
    # A trained model plays the single environment directly: predict's 0-d array is an action.
    single = GamebagEnv("catch-a-dragon", 2, illegal_action="raise")
    observation, _ = single.reset(seed=1)
    done = False
    while not done:
        action, _ = model.predict(observation, action_masks=single.action_masks())
        assert isinstance(action, np.ndarray) and action.ndim == 0
        observation, _, terminated, truncated, _ = single.step(action)
        done = terminated or truncated
    assert single.table.game.is_terminal(single.table.state)


def test_zero_dimensional_array_actions_are_accepted() -> None:
    environment = GamebagEnv("pig", 2, illegal_action="raise")
    _, info = environment.reset(seed=0)
    index = np.array(int(np.flatnonzero(info["action_mask"])[0]))
    assert environment.action_space.contains(index)
    environment.step(index)
    aec = env("wriggle-roulette", 2, illegal_action="raise")
    aec.reset(seed=0)
    aec.step(np.array(3))
    with pytest.raises(Exception, match="integer index"):
        aec.step(np.array(1.5))


def test_rgb_array_rendering() -> None:
    environment = GamebagEnv("wriggle-roulette", 2, render_mode="rgb_array")
    environment.reset(seed=0)
    image = environment.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.min() < 128 < image.max()  # text drawn on a white ground


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_games_pickle_and_deep_copy(game_id: str) -> None:
    game = gamebag.make(game_id)
    for clone in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert type(clone) is type(game) and clone.num_players == game.num_players
        assert dict(clone.options) == dict(game.options)
        assert clone.initial_state() == game.initial_state()


def _finish(environment: GamebagEnv, rng: np.random.Generator, info: dict[str, Any]) -> list[bytes]:
    seen = []
    while True:
        observation, reward, terminated, truncated, info = environment.step(_random_legal(info["action_mask"], rng))
        seen.append(observation.tobytes() + bytes(str(reward), "ascii"))
        if terminated or truncated:
            return seen


def test_environments_pickle_and_deep_copy_mid_game() -> None:
    environment = GamebagEnv("eel-harvest", 3, opponents="heuristic")
    _, info = environment.reset(seed=4)
    _, _, terminated, _, info = environment.step(_random_legal(info["action_mask"], np.random.default_rng(0)))
    assert not terminated
    copies = [pickle.loads(pickle.dumps(environment)), copy.deepcopy(environment)]
    original = _finish(environment, np.random.default_rng(9), info)
    for clone in copies:  # the same game continues identically from the copy
        assert _finish(clone, np.random.default_rng(9), info) == original
    for table in (env("catch-a-dragon", 2), parallel_env("eel-harvest", 3)):
        table.reset(seed=0)
        clone = pickle.loads(pickle.dumps(table))
        assert clone.table.state == table.table.state
        assert copy.deepcopy(table).table.state == table.table.state


@pytest.mark.parametrize(("game_id", "players"), [("eel-harvest", 3), ("catch-a-dragon", 2), ("eigen-kweek", 3)])
def test_aec_to_parallel_works_in_the_cycle_order(game_id: str, players: int) -> None:
    api_test(env(game_id, players, agent_order="cycle"), num_cycles=30)
    converted = aec_to_parallel(env(game_id, players, agent_order="cycle", max_steps=300))
    parallel_api_test(converted, num_cycles=30)
    rng = np.random.default_rng(0)
    exited_seen = False
    for seed in range(3):
        observations, _ = converted.reset(seed=seed)
        while converted.agents:
            masks = {agent: observations[agent]["action_mask"] for agent in converted.agents}
            exited_seen |= any(not mask.any() for mask in masks.values())
            actions = {agent: _random_legal(mask, rng) if mask.any() else 0 for agent, mask in masks.items()}
            observations, _, terminations, truncations, _ = converted.step(actions)
        assert all(terminations.values()) or all(truncations.values())
    assert exited_seen  # seats that do not choose (exited, or waiting their turn) were stepped through


def test_flat_observations_carry_the_mask() -> None:
    for table in (env("wriggle-roulette", 3, observation_format="flat"),):
        api_test(table, num_cycles=30)
    flat = parallel_env("eel-harvest", 3, observation_format="flat")
    parallel_api_test(flat, num_cycles=30)
    plain = parallel_env("eel-harvest", 3)
    observations, infos = flat.reset(seed=3)
    reference, _ = plain.reset(seed=3)
    size = plain.table.observation_size
    for agent in flat.agents:
        vector = observations[agent]
        assert flat.observation_space(agent).contains(vector)
        assert np.array_equal(vector[:size], reference[agent]["observation"])
        assert np.array_equal(vector[size:], reference[agent]["action_mask"].astype(np.float32))
        assert np.array_equal(infos[agent]["action_mask"], reference[agent]["action_mask"])
    with pytest.raises(ValueError, match="observation_format must be one of"):
        parallel_env("eel-harvest", 3, observation_format="nested")


def test_state_for_centralised_critics_is_every_seat_observation() -> None:
    table = parallel_env("eel-harvest", 3)
    observations, _ = table.reset(seed=5)
    state = table.state()
    assert table.state_space.contains(state)
    expected = np.concatenate([observations[f"player_{seat}"]["observation"] for seat in range(3)])
    assert np.array_equal(state, expected)
    aec = env("catch-a-dragon", 2)
    aec.reset(seed=0)
    assert aec.state().shape == aec.state_space.shape


class _FirstLegal(Agent):
    name = "first-legal"

    def act(self, view: SeatView, rng: Rng) -> Any:
        return view.legal_actions[0]


def test_opponents_as_policies_and_agent_objects_for_self_play() -> None:
    calls: list[int] = []

    def policy(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        assert observation.shape == (OBSERVATION_SIZE,) and mask.shape == (76,)
        calls.append(1)
        return np.array(np.flatnonzero(mask)[-1])  # a 0-d array, as model.predict gives

    environment = GamebagEnv("catch-a-dragon", 3, opponents=[policy, _FirstLegal()])
    assert environment.opponents[2].name == "first-legal"
    _, info = environment.reset(seed=0)
    _finish(environment, np.random.default_rng(0), info)
    assert calls
    # Self-play: the learner's current policy is swapped in as every opponent between episodes.
    environment.set_opponents(policy)
    assert environment.opponents[1].name == environment.opponents[2].name == "policy policy"
    with pytest.raises(ValueError, match="an opponent is"):
        environment.set_opponents([3, 4])

    def cheater(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    bad = GamebagEnv("catch-a-dragon", 2, seat=1, opponents=cheater)
    with pytest.raises(ValueError, match="not legal"):
        bad.reset(seed=0)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_observation_spaces_are_bounded_and_hold_every_observation(game_id: str, players: int) -> None:
    environment = GamebagEnv(game_id, players, max_steps=200)
    space = environment.observation_space
    assert np.all(np.isfinite(space.low)) and np.all(np.isfinite(space.high))
    assert space.low.min() == 0.0 and space.high.max() == 1.0
    rng = np.random.default_rng(0)
    for seed in range(3):
        observation, info = environment.reset(seed=seed)
        assert space.contains(observation)
        done = False
        while not done:
            observation, _, terminated, truncated, info = environment.step(_random_legal(info["action_mask"], rng))
            assert space.contains(observation)
            done = terminated or truncated
