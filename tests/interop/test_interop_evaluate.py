"""``gamebag.interop.evaluate``: the first games of every environment, every policy form, clear refusals."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from gamebag.agents.learned import POLICY_PACKAGE, load_policy, policy_name
from gamebag.core.rng import derive_seed
from gamebag.fast.base import StepBatch
from gamebag.interop import PolicyEvaluation, evaluate
from gamebag.interop.evaluation import play_first_games
from gamebag.interop.train import evaluate as train_evaluate

LONG = 20


class LengthBiasedBatch(StepBatch):
    """A toy two-seat game: game ``i`` lasts 1 step and seat 0 wins it, or lasts ``LONG`` steps
    and seat 1 wins it, by a hash of ``(seed, i)``; it logs which games each env played, in order."""

    num_players = 2
    num_actions = 2
    observation_size = 1

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs
        self.played: list[list[int]] = [[] for _ in range(num_envs)]

    def short(self, index: int) -> bool:
        return derive_seed(self.seed, index) % 2 == 0

    def _start(self, env: int, index: int) -> None:
        self.index[env] = index
        self.left[env] = 1 if self.short(index) else LONG
        self.played[env].append(index)

    def reset(self, seed: int, first_index: int = 0) -> None:
        self.seed = seed
        self.index = np.zeros(self.num_envs, np.int64)
        self.left = np.zeros(self.num_envs, np.int64)
        for env in range(self.num_envs):
            self._start(env, first_index + env)
        self.next_index = first_index + self.num_envs
        self._rewards = np.zeros((self.num_envs, 2))

    def reset_done(self) -> npt.NDArray[np.bool_]:
        done = self.done()
        for env in np.flatnonzero(done):
            self._start(int(env), self.next_index)
            self.next_index += 1
        return done

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        self._rewards[:] = 0.0
        for env in range(self.num_envs):
            if self.left[env] > 0:
                self.left[env] -= 1
                if self.left[env] == 0:
                    self._rewards[env, 0 if self.short(int(self.index[env])) else 1] = 1.0

    def to_act(self) -> npt.NDArray[np.bool_]:
        return np.repeat((self.left > 0)[:, None], 2, axis=1)

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        return np.repeat(self.to_act()[:, :, None], 2, axis=2)

    def observations(self) -> npt.NDArray[np.float32]:
        return np.zeros((self.num_envs, 2, 1), np.float32)

    def rewards(self) -> npt.NDArray[np.float64]:
        return self._rewards.copy()

    def done(self) -> npt.NDArray[np.bool_]:
        return self.left == 0

    def state_arrays(self) -> dict[str, npt.NDArray[Any]]:
        return {"game_index": self.index.copy()}

    def policy_actions(self, agents: Sequence[str]) -> npt.NDArray[np.int64]:
        return np.zeros((self.num_envs, 2), np.int64)


def first_action(observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    return np.asarray(masks.argmax(axis=1), dtype=np.int64)


def test_every_env_counts_exactly_its_first_games_however_long() -> None:
    """Stopping at the first 400 finished games of 200 envs would count almost only short games
    (won by seat 0); each env's first two games are counted instead, long ones included."""
    batch = LengthBiasedBatch(200)
    shares, steps = play_first_games(batch, 0, ["", "random"], first_action, 400, seed=11)
    counted = [index for games in batch.played for index in games[:2]]
    want = [1.0 if batch.short(index) else 0.0 for index in counted]
    assert shares.tolist() == want
    assert steps.tolist() == [1 if batch.short(index) else LONG for index in counted]
    assert 0.4 < shares.mean() < 0.6  # half the games are short, and they are not favoured
    # The biased count: the first 400 games to finish.
    finished: list[tuple[int, float]] = []
    for env, games in enumerate(batch.played):
        clock = 0
        for index in games:
            clock += 1 if batch.short(index) else LONG
            finished.append((clock * 1000 + env, 1.0 if batch.short(index) else 0.0))
    assert np.mean([share for _, share in sorted(finished)[:400]]) > 0.6


def test_uneven_quotas_and_seats() -> None:
    batch = LengthBiasedBatch(3)
    shares, _ = play_first_games(batch, 1, ["random", ""], first_action, 7, seed=2)
    assert len(shares) == 7
    assert [len(games) >= want for games, want in zip(batch.played, (3, 2, 2), strict=True)] == [True] * 3
    counted = [index for games, want in zip(batch.played, (3, 2, 2), strict=True) for index in games[:want]]
    assert shares.tolist() == [0.0 if batch.short(index) else 1.0 for index in counted]


@pytest.fixture(scope="module")
def pig_policy() -> Any:
    return load_policy(resources.files(POLICY_PACKAGE).joinpath(policy_name("pig", 2)))


def test_policy_forms_play_the_same_games(pig_policy: Any) -> None:
    """A NumpyPolicy, a one-observation function, a batched function and SB3-style models agree."""

    def one(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        return int(pig_policy.act(observation[None, :], mask[None, :])[0])

    class Maskable:
        def predict(self, observation: Any, action_masks: Any = None, deterministic: bool = False) -> Any:
            assert deterministic and action_masks is not None
            return pig_policy.act(observation, action_masks), None

    class Plain:
        def predict(self, observation: Any, deterministic: bool = False) -> Any:
            return pig_policy.act(observation, np.ones((len(observation), 2), np.bool_)), None

    base = evaluate(pig_policy, "pig", 2, "heuristic", 100, seed=4)
    assert isinstance(base, PolicyEvaluation) and base.engine == "compiled" and base.games == 100
    assert base.wins + base.ties + base.losses == 100 and 0.3 < base.win_share < 0.8
    assert base.low < base.win_share < base.high
    assert (base.seats == 0).sum() == 50 and len(base.seat_shares) == 2
    for form, batched in ((one, False), (pig_policy.act, True), (Maskable(), False), (Plain(), False)):
        other = evaluate(form, "pig", 2, "heuristic", 100, seed=4, batched=batched)
        assert np.array_equal(other.outcomes, base.outcomes)
    assert not np.array_equal(evaluate(pig_policy, "pig", 2, "heuristic", 100, seed=5).outcomes, base.outcomes)
    rules = evaluate(one, "pig", 2, "heuristic", 20, seed=4, engine="rules")
    assert rules.engine == "rules" and rules.games == 20 and "rules engine" in rules.summary()


def test_train_evaluate_is_this_count(pig_policy: Any) -> None:
    """``gamebag train``'s evaluation counts the same games (it once counted the first to finish)."""
    result = train_evaluate("pig", 2, pig_policy, "random", games=200, seed=3, envs=64)
    same = evaluate(pig_policy, "pig", 2, "random", 200, seed=3, envs=64)
    assert (result.games, result.win_share, result.low, result.high) == (200, same.win_share, same.low, same.high)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda p: evaluate(p, "pig", 2, "heuristic", 0), "games must be an integer from 1"),
        (lambda p: evaluate(p, "pig", 2, "heuristic", 10, envs=0), "envs must be an integer from 1"),
        (lambda p: evaluate(p, "pig", 2, "heuristic", 10, seed=1.5), "seed must be an integer"),
        (lambda p: evaluate(p, "pig", 2, "heuristic", 10, engine="gpu"), "engine must be one of auto, compiled, rules"),
        (lambda p: evaluate(p, "pig", 2, ["heuristic", "random"], 10), r"a list of 1 \(one per other seat\)"),
        (lambda p: evaluate(p, "pig", 2, "optimal-win", 10, engine="rules"), "plays the opponents heuristic, random"),
        (lambda p: evaluate(p, "pig", 2, "nobody", 10, engine="compiled"), "no compiled engine plays this"),
        (lambda p: evaluate(p, "pig", 2, "ismcts", 10, engine="compiled"), "no compiled engine"),
        (lambda p: evaluate(p, "eigen-kweek", 2, "heuristic", 10), "the policy takes 7 observation numbers"),
        (lambda p: evaluate(3, "pig", 2, "heuristic", 10), "policy must be a Stable-Baselines3 model"),
        (lambda p: evaluate(lambda o, m: 7, "pig", 2, "heuristic", 10), "action 7, which is not legal"),
        (lambda p: evaluate(lambda o, m: 0.5, "pig", 2, "heuristic", 10), "one integer action index"),
    ],
)
def test_refusals(pig_policy: Any, call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call(pig_policy)


def test_a_real_maskable_ppo_model_is_evaluated_with_its_masks() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from gamebag.interop.sb3_vec_env import SB3VecEnv
    from gamebag.interop.vector_env import GamebagVectorEnv

    vec = SB3VecEnv(GamebagVectorEnv("catch-a-dragon", 2, 2, opponents="random"))
    model = MaskablePPO("MlpPolicy", vec, n_steps=8, batch_size=16, n_epochs=1, seed=0, device="cpu")
    # Most of Catch A Dragon's collections are illegal at any roll: an unmasked untrained model picks them.
    result = evaluate(model, "catch-a-dragon", 2, "random", 2, seed=1)
    assert result.games == 2 and result.wins + result.ties + result.losses == 2
    with pytest.raises(ValueError, match="which is not legal"):
        evaluate(
            lambda observations, masks: model.predict(observations)[0], "catch-a-dragon", 2, "random", 2, batched=True
        )
