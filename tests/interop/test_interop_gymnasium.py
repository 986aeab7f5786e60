"""Gymnasium adapter: registration, Gymnasium's own ``check_env`` for every game, and our checks."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gamebag
import gamebag.interop.gymnasium as gamebag_gymnasium
from conftest import configurations
from gamebag.core.errors import IllegalActionError, UnknownAgentError
from gamebag.interop.gymnasium_env import GamebagEnv, env_id

CONFIGS = configurations()
IDS = [f"{g}-{n}p" for g, n in CONFIGS]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # check_env warns that an unbounded Box is "probably too low/high": the games do
    # not declare bounds for their observation tensors.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_every_game_is_registered_under_the_gamebag_namespace() -> None:
    ids = gamebag_gymnasium.register_envs()
    assert ids == [f"gamebag/{game_id}-v0" for game_id in gamebag.game_ids()]
    assert set(ids) <= set(gymnasium.registry)
    assert env_id("wriggle-roulette") == "gamebag/wriggle-roulette-v0"


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_check_env_passes(game_id: str, players: int) -> None:
    environment = gymnasium.make(env_id(game_id), players=players)
    check_env(environment.unwrapped, skip_render_check=True)
    check_env(GamebagEnv(game_id, players, render_mode="ansi"))


def _play(environment: GamebagEnv, seed: int | None, policy_seed: int = 0) -> tuple[float, int, list[bytes]]:
    observation, info = environment.reset(seed=seed)
    rng = np.random.default_rng(seed if seed is not None else policy_seed)
    total, steps, seen = 0.0, 0, [observation.tobytes()]
    while True:
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) > 0 and np.array_equal(info["action_mask"], environment.action_masks())
        observation, reward, terminated, truncated, info = environment.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        seen.append(observation.tobytes())
        if terminated or truncated:
            return total, steps, seen


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_same_seed_same_episode_and_win_reward(game_id: str) -> None:
    players = gamebag.entry(game_id).game_class.default_players
    environment = GamebagEnv(game_id, players, opponents="random")
    first = _play(environment, seed=4)
    assert environment.table.game.is_terminal(environment.table.state)
    assert first[0] == environment.table.game.returns(environment.table.state)[0]
    assert _play(environment, seed=4) == first


@pytest.mark.parametrize("game_id", ["eel-harvest", "catch-a-dragon"])
def test_unseeded_resets_go_on_with_the_seeded_generator(game_id: str) -> None:
    runs = []
    for _ in range(2):
        environment = GamebagEnv(game_id, 2, opponents="random")
        runs.append([_play(environment, seed=5), *(_play(environment, None, episode) for episode in range(3))])
    assert runs[0] == runs[1]  # the first seed fixes every later episode
    assert len({tuple(seen) for _, _, seen in runs[0]}) > 1  # and the episodes differ


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_score_reward_adds_up_to_the_final_score(game_id: str) -> None:
    players = gamebag.entry(game_id).game_class.default_players
    environment = GamebagEnv(game_id, players, seat=players - 1, reward="score")
    total, _, _ = _play(environment, seed=9)
    assert total == pytest.approx(environment.table.game.scores(environment.table.state)[players - 1])


def test_opponents_by_spec_and_clear_errors() -> None:
    environment = GamebagEnv("wriggle-roulette", 3, opponents=["heuristic", "random"])
    assert sorted(environment.opponents) == [1, 2]
    assert environment.opponents[2].name == "random"
    assert environment.opponents[1].name != "random"
    with pytest.raises(ValueError, match="needs 2 opponent"):
        GamebagEnv("wriggle-roulette", 3, opponents=["random"])
    with pytest.raises(UnknownAgentError, match="available"):
        GamebagEnv("wriggle-roulette", 3, opponents="grandmaster")
    with pytest.raises(ValueError, match="seat must be"):
        GamebagEnv("wriggle-roulette", 3, seat=3)


def test_illegal_action_policies() -> None:
    lenient = GamebagEnv("catch-a-dragon", 2)
    _, info = lenient.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = lenient.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "not legal" in info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        lenient.step(0)

    strict = GamebagEnv("catch-a-dragon", 2, illegal_action="raise")
    strict.reset(seed=2)
    before = strict.table.state
    with pytest.raises(IllegalActionError, match="legal indices"):
        strict.step(illegal)
    assert strict.table.state == before


def test_learner_in_a_later_seat_waits_for_the_opponents() -> None:
    environment = GamebagEnv("catch-a-dragon", 3, seat=2)
    _, info = environment.reset(seed=0)
    assert environment.table.acting() == (2,)
    assert info["action_mask"].any()
