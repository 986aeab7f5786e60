"""Vectorised environments over the compiled step kernels: spaces, masks, autoreset, seeding, opponents, SB3."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gamebag
from gamebag.fast.base import StepBatch
from gamebag.fast.registry import engine_for
from gamebag.interop.vector_env import BatchEnv, GamebagVectorEnv

KERNEL_CONFIGS = [("pig", 2), ("catch-a-dragon", 3), ("eel-harvest", 3), ("wriggle-roulette", 4)]
IDS = [f"{g}-{n}p" for g, n in KERNEL_CONFIGS]


def _legal_choice(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniformly random legal action per row of a boolean mask array."""
    return np.asarray((rng.random(masks.shape) * masks).argmax(axis=-1), dtype=np.int64)


@pytest.mark.parametrize(("game_id", "players"), KERNEL_CONFIGS, ids=IDS)
def test_vector_env_plays_whole_games_with_bounded_spaces_and_masks(game_id: str, players: int) -> None:
    vec = GamebagVectorEnv(game_id, 16, players, opponents="random")
    game = gamebag.make(game_id, players)
    assert vec.single_action_space.n == len(game.all_actions())
    assert vec.single_observation_space.shape == (len(game.observation_tensor(game.initial_state(), 0)),)
    assert vec.single_observation_space.low.min() == 0.0 and vec.single_observation_space.high.max() == 1.0
    observations, infos = vec.reset(seed=5)
    rng = np.random.default_rng(0)
    finished, total = 0, 0.0
    for _ in range(400):
        assert vec.observation_space.contains(observations)
        masks = vec.action_masks()
        assert masks.any(axis=1).all() and np.array_equal(masks, infos["action_mask"])
        observations, rewards, terminated, truncated, infos = vec.step(_legal_choice(masks, rng))
        assert not truncated.any() and ((rewards == 0) | terminated).all()
        finished += int(terminated.sum())
        total += float(rewards.sum())
        if terminated.any():
            assert infos["final_obs"].shape == observations.shape
    assert finished > 0 and 0.0 <= total <= finished
    with pytest.raises(ValueError, match="not legal"):
        acting = np.flatnonzero(infos["learner_acts"] & ~vec.action_masks().all(axis=1))
        if len(acting) == 0:
            raise ValueError("not legal (no restricted row to test)")
        bad = _legal_choice(vec.action_masks(), rng)
        bad[acting[0]] = int(np.flatnonzero(~vec.action_masks()[acting[0]])[0])
        vec.step(bad)


def test_env_k_is_game_k_of_the_seed_whatever_the_batch_size() -> None:
    def trajectory(num_envs: int) -> list[np.ndarray[Any, Any]]:
        env = BatchEnv("catch-a-dragon", num_envs, 2)
        observations, masks, _ = env.reset(seed=11)
        seen = [observations[:4].copy()]
        for step in range(60):
            # the same rule picks the action in env k whatever the batch: the first legal one after a shift
            shifted = np.roll(masks, -step, axis=2)
            actions = (shifted.argmax(axis=2) + step) % env.num_actions
            observations, _, done, masks, _ = env.step(actions)
            if done[:4].any():  # a restarted game takes the next unused index, which depends on the batch
                break
            seen.append(observations[:4].copy())
        return seen

    small, large = trajectory(4), trajectory(8)
    assert len(small) > 10
    assert len(small) == len(large) and all(np.array_equal(a, b) for a, b in zip(small, large, strict=True))


def test_batch_env_self_play_every_seat_and_state() -> None:
    env = BatchEnv("wriggle-roulette", 32, 4)
    observations, masks, to_act = env.reset(seed=0)
    assert observations.shape == (32, 4, env.observation_size)
    assert env.state().shape == (32, 4 * env.observation_size)
    rng = np.random.default_rng(1)
    wins = np.zeros(4)
    for _ in range(300):
        actions = np.where(to_act, _legal_choice(masks, rng), 0)
        heuristic = env.compiled_actions(["heuristic"] * 4)
        actions[:, 0] = heuristic[:, 0]  # seat 0: the compiled heuristic; the rest random
        observations, rewards, done, masks, to_act = env.step(actions)
        assert np.allclose(rewards.sum(axis=1), done.astype(float))
        wins += rewards.sum(axis=0)
    assert wins.sum() > 20 and wins[0] == wins.max()  # the heuristic seat wins most
    with pytest.raises(ValueError, match="no compiled policy 'grandmaster'"):
        env.compiled_actions(["grandmaster"] * 4)


def test_opponents_as_a_batched_policy_and_clear_errors() -> None:
    calls = []

    def first_legal(observations: np.ndarray[Any, Any], masks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        calls.append(len(observations))
        return np.asarray(masks.argmax(axis=1))

    vec = GamebagVectorEnv("eel-harvest", 8, 3, opponents=first_legal)
    vec.reset(seed=0)
    vec.step(_legal_choice(vec.action_masks(), np.random.default_rng(0)))
    assert calls and max(calls) <= 8
    with pytest.raises(ValueError, match="compiled"):
        vec.set_opponents("grandmaster")
    with pytest.raises(ValueError, match="num_envs"):
        GamebagVectorEnv("pig", 0)
    with pytest.raises(ValueError, match="seat must be"):
        GamebagVectorEnv("pig", 2, seat=2)
    if engine_for(gamebag.make("eigen-kweek"), []) is None:
        with pytest.raises(ValueError, match="no vectorised environment"):
            GamebagVectorEnv("eigen-kweek", 2)


@pytest.mark.slow
def test_maskable_ppo_learns_on_the_sb3_vector_env() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from gamebag.interop.sb3_vec_env import SB3VecEnv

    vec = SB3VecEnv(GamebagVectorEnv("eel-harvest", 32, 2, opponents="heuristic"), seed=0)
    model = MaskablePPO("MlpPolicy", vec, n_steps=8, batch_size=128, n_epochs=1, seed=0, device="cpu")
    model.learn(512)
    assert model.num_timesteps >= 512
    masks = np.stack(vec.env_method("action_masks"))
    assert masks.shape == (32, vec.action_space.n)


LEARNER_STEP_CASES: list[tuple[str, int, dict[str, Any], str, int]] = [
    ("wriggle-roulette", 4, {}, "random", 1),
    ("eel-harvest", 3, {}, "heuristic", 1),
    ("pig", 2, {}, "random", 1),
    ("pig", 2, {}, "optimal-win", 0),
    ("pig", 2, {"goal": 6}, "heuristic", 1),  # games the first rolls can win, restarted into an ended game
    ("catch-a-dragon", 2, {}, "random", 1),
    ("catch-a-dragon", 2, {"dice": 4}, "optimal-win", 0),
    ("catch-a-dragon", 3, {}, "heuristic", 1),
]


@pytest.mark.parametrize(
    ("game_id", "players", "options", "policy", "seat"),
    LEARNER_STEP_CASES,
    ids=[f"{g}-{n}p-{','.join(f'{k}={v}' for k, v in o.items())}-{p}-seat{s}" for g, n, o, p, s in LEARNER_STEP_CASES],
)
def test_compiled_learner_step_plays_the_same_games_as_the_default_steps(
    game_id: str, players: int, options: dict[str, Any], policy: str, seat: int
) -> None:
    game = gamebag.make(game_id, players, **options)
    engine = engine_for(game, [policy] * players)
    assert engine is not None
    fused, default = engine.step_batch(game, 16), engine.step_batch(game, 16)
    assert type(fused).learner_step is not StepBatch.learner_step  # the engine has a compiled one
    for batch in (fused, default):
        batch.reset(5)
    before_fused, before_default = fused.learner_view(seat), default.learner_view(seat)
    rng = np.random.default_rng(0)
    finished = rewarded = 0
    for _ in range(200):
        # Any action where the learner does not choose (it is ignored), a legal one where it does.
        chosen = np.where(
            before_fused.acting, _legal_choice(before_fused.masks, rng), rng.integers(0, fused.num_actions, 16)
        )
        after_fused = fused.learner_step(seat, policy, chosen, before_fused)
        after_default = StepBatch.learner_step(default, seat, policy, chosen, before_default)
        for mine, theirs in [
            (after_fused.rewards, after_default.rewards),
            (after_fused.done, after_default.done),
            (after_fused.view.observations, after_default.view.observations),
            (after_fused.view.masks, after_default.view.masks),
            (after_fused.view.acting, after_default.view.acting),
        ]:
            assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
            np.testing.assert_array_equal(mine, theirs)
        for name, array in fused.state_arrays().items():
            np.testing.assert_array_equal(array, default.state_arrays()[name])
        np.testing.assert_array_equal(fused.rewards(), default.rewards())
        finished += int(after_fused.done.sum())
        rewarded += int((after_fused.rewards > 0).sum())
        before_fused, before_default = after_fused.view, after_default.view
    assert finished > 0 and rewarded > 0  # restarts and the learner's rewards were compared too
    acting = np.flatnonzero(before_fused.acting)
    assert len(acting)
    state = {name: array.copy() for name, array in fused.state_arrays().items()}
    legal = _legal_choice(before_fused.masks, rng)
    wrong = [fused.num_actions, -1]
    restricted = np.flatnonzero(~before_fused.masks[acting[0]])
    if len(restricted):  # an action in range that the mask forbids (where masks restrict)
        wrong.append(int(restricted[0]))
    for action in wrong:
        bad = legal.copy()
        bad[acting[0]] = action
        with pytest.raises(ValueError, match=f"env {acting[0]}: action {action} is not legal"):
            fused.learner_step(seat, policy, bad, before_fused)
        for name, array in fused.state_arrays().items():
            np.testing.assert_array_equal(array, state[name])
