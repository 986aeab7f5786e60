"""PettingZoo adapters: PettingZoo's own API and seed tests for every game, plus our checks.

Our checks: the AEC and Parallel environments play the same game for the same
seed and choices; the win rewards are the game's returns; score rewards add up
to the final scores; a seat's pending choice never shows in another seat's
observation; illegal actions follow the chosen policy; ``max_steps`` truncates.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import gamebag
from conftest import configurations
from gamebag.core.errors import IllegalActionError, OptionError, UnknownGameError
from gamebag.interop.pettingzoo_env import GamebagAECEnv, GamebagParallelEnv, env, parallel_env

CONFIGS = configurations()
IDS = [f"{g}-{n}p" for g, n in CONFIGS]
CYCLES = 60


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # PettingZoo's tests warn that dictionary observations are not plain arrays; that is
    # the documented action-mask convention, not a fault.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_pettingzoo_api_tests_pass(game_id: str, players: int) -> None:
    api_test(env(game_id, players), num_cycles=CYCLES)
    parallel_api_test(parallel_env(game_id, players), num_cycles=CYCLES)
    seed_test(lambda: env(game_id, players), num_cycles=CYCLES)
    # Samples actions without the mask: illegal ones end the game under the "lose" policy.
    parallel_seed_test(lambda: parallel_env(game_id, players), num_cycles=CYCLES)


def _play_aec(aec: GamebagAECEnv, seed: int, pick: Any) -> tuple[list[Any], dict[str, float]]:
    """Play one game choosing ``pick(mask, rng)``; the choices made and each agent's total reward."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    choices: list[Any] = []
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter(100_000):
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        action = pick(observation["action_mask"], rng)
        choices.append((agent, action))
        aec.step(action)
    return choices, totals


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_aec_and_parallel_play_the_same_game(game_id: str, players: int) -> None:
    aec = env(game_id, players)
    choices, totals = _play_aec(aec, seed=11, pick=_random_legal)
    assert aec.table.game.is_terminal(aec.table.state)
    assert sum(totals.values()) == pytest.approx(1.0)
    assert totals == {f"player_{p}": r for p, r in enumerate(aec.table.game.returns(aec.table.state))}

    par = parallel_env(game_id, players)
    par.reset(seed=11)
    queue = list(choices)
    rewards = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        acting = {f"player_{seat}" for seat in par.table.acting()}
        actions = {}
        for agent in par.agents:
            if agent in acting:
                chooser, action = queue.pop(0)
                assert chooser == agent
                actions[agent] = action
            else:
                actions[agent] = 0  # ignored: this seat does not choose now
        _, step_rewards, _, _, _ = par.step(actions)
        for agent, value in step_rewards.items():
            rewards[agent] += value
    assert not queue
    assert rewards == totals
    assert par.table.state == aec.table.state


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_score_rewards_add_up_to_the_final_scores(game_id: str) -> None:
    players = gamebag.entry(game_id).game_class.default_players
    aec = env(game_id, players, reward="score")
    _, totals = _play_aec(aec, seed=3, pick=_random_legal)
    final = aec.table.game.scores(aec.table.state)
    assert [totals[f"player_{p}"] for p in range(players)] == pytest.approx(list(final))


def test_a_pending_choice_is_hidden_from_the_other_seats() -> None:
    # Two seats choose at once in the Eel games: the second seat's view must not
    # depend on what the first one has just chosen.
    views = []
    for first_choice in (1, 4):
        aec = env("wriggle-roulette", 3)
        aec.reset(seed=5)
        assert aec.agent_selection == "player_0"
        aec.step(first_choice)
        assert aec.agent_selection == "player_1"
        observation = aec.observe("player_1")
        views.append((observation["observation"].tobytes(), observation["action_mask"].tobytes()))
    assert views[0] == views[1]


def test_illegal_action_loses_under_lose_and_raises_under_raise() -> None:
    aec = env("catch-a-dragon", 2)
    aec.reset(seed=1)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    offender = aec.agent_selection
    aec.step(illegal)
    assert all(aec.terminations.values())
    assert aec.rewards[offender] == -1.0
    assert "not legal" in aec.infos[offender]["illegal_action"]

    strict = env("catch-a-dragon", 2, illegal_action="raise")
    strict.reset(seed=1)
    before = (strict.table.state, strict.agent_selection, strict.last(observe=False))
    with pytest.raises(IllegalActionError, match="legal indices"):
        strict.step(illegal)
    assert (strict.table.state, strict.agent_selection, strict.last(observe=False)) == before
    with pytest.raises(IllegalActionError, match="integer index"):
        strict.step(1.5)  # type: ignore[arg-type]


def test_stepping_before_reset_is_a_clear_error() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        env("pig", 2).step(0)
    with pytest.raises(RuntimeError, match="reset"):
        parallel_env("pig", 2).step({"player_0": 0})


def test_parallel_env_names_missing_and_unknown_agents() -> None:
    par = parallel_env("wriggle-roulette", 2)
    par.reset(seed=0)
    with pytest.raises(IllegalActionError, match="missing the action of player_1"):
        par.step({"player_0": 1})
    with pytest.raises(ValueError, match="unknown agent"):
        par.step({"player_0": 1, "player_1": 1, "player_7": 1})


def test_max_steps_truncates_the_episode() -> None:
    par = parallel_env("wriggle-roulette", 2, max_steps=2)
    par.reset(seed=0)
    steps = 0
    truncations: dict[str, bool] = {}
    while par.agents:
        _, _, terminations, truncations, _ = par.step({"player_0": 1, "player_1": 1})
        steps += 1
    assert steps == 2
    assert all(truncations.values()) and not any(terminations.values())


def test_bad_configuration_is_a_clear_error() -> None:
    with pytest.raises(UnknownGameError, match="known games"):
        GamebagParallelEnv("no-such-game")
    with pytest.raises(OptionError, match="rotate_start"):
        GamebagAECEnv("wriggle-roulette", 2, {"rotate_start": "sometimes"})
    with pytest.raises(ValueError, match="reward must be one of"):
        GamebagAECEnv("wriggle-roulette", 2, reward="money")
    with pytest.raises(ValueError, match="render_mode must be one of"):
        GamebagAECEnv("wriggle-roulette", 2, render_mode="svg")


def test_render_ansi_shows_the_table() -> None:
    aec = env("wriggle-roulette", 2, render_mode="ansi")
    aec.reset(seed=0)
    text = aec.render()
    assert isinstance(text, str) and "Snakes in the centre" in text and "[" not in text.split("\n")[0]
