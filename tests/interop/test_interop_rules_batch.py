"""The step batch over the rules engine (Eigen Kweek): seeding, masks, hidden information, bounds, training."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

import gamebag
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng
from gamebag.interop.rules_batch import MAX_RULES_ENVS, RulesBatch
from gamebag.interop.vector_env import BatchEnv, GamebagVectorEnv


@pytest.fixture(autouse=True)
def _no_compiled_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Eigen Kweek now has a compiled engine; these tests keep the rules-engine batch in use."""
    import gamebag.interop.vector_env as vector_env

    monkeypatch.setattr(vector_env, "engine_for", lambda game, agents: None)
    monkeypatch.setattr(vector_env, "unavailable_reason", lambda game, agents: "no compiled engine (test)")


def _legal_choice(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniformly random legal action per row of a boolean mask array (0 where nothing is legal)."""
    return np.asarray((rng.random(masks.shape) * masks).argmax(axis=-1), dtype=np.int64)


def _batch(num_envs: int, players: int = 2) -> RulesBatch:
    return RulesBatch(gamebag.make("eigen-kweek", players), num_envs)


def _play(batch: RulesBatch, seed: int, steps: int, choice_seed: int = 0) -> list[tuple[Any, ...]]:
    """Step a batch with random legal actions; every seat's observations, rewards and done flags."""
    rng = np.random.default_rng(choice_seed)
    batch.reset(seed)
    seen = []
    for _ in range(steps):
        batch.step(_legal_choice(batch.legal_mask(), rng))
        seen.append((batch.observations(), batch.rewards(), batch.done()))
        batch.reset_done()
    return seen


def test_same_seed_same_games_and_another_seed_other_games() -> None:
    first = _play(_batch(3), seed=7, steps=150)
    again = _play(_batch(3), seed=7, steps=150)
    other = _play(_batch(3), seed=8, steps=150)
    assert any(done.any() for _, _, done in first)  # games ended and restarted on the way
    for (obs_a, rew_a, done_a), (obs_b, rew_b, done_b) in zip(first, again, strict=True):
        assert np.array_equal(obs_a, obs_b) and np.array_equal(rew_a, rew_b) and np.array_equal(done_a, done_b)
    assert any(not np.array_equal(a[0], b[0]) for a, b in zip(first, other, strict=True))


def test_env_k_starts_game_k_of_the_seed_whatever_the_batch_size() -> None:
    small, large = _batch(2), _batch(5)
    small.reset(3)
    large.reset(3)
    assert small.states() == large.states()[:2]
    assert small.state_arrays()["game_index"].tolist() == [0, 1]
    small.reset(3, first_index=4)
    assert small.states()[0] == large.states()[4]


def test_masks_and_seats_to_act_are_the_rules_engines() -> None:
    batch = _batch(4)
    game = batch.game
    batch.reset(2)
    rng = np.random.default_rng(1)
    restarts = 0
    for _ in range(200):
        masks, acting = batch.legal_mask(), batch.to_act()
        for env, state in enumerate(batch.states()):
            assert game.node_kind(state) is NodeKind.DECISION
            assert np.flatnonzero(acting[env]).tolist() == sorted(game.acting_players(state))
            for seat in range(game.num_players):
                legal = sorted(batch.index_of[action] for action in game.legal_actions(state, seat))
                assert np.flatnonzero(masks[env, seat]).tolist() == legal
        batch.step(_legal_choice(masks, rng))
        finished = batch.done()
        for env in np.flatnonzero(finished):
            state = batch.states()[env]
            assert game.is_terminal(state)
            assert batch.rewards()[env].tolist() == list(game.returns(state))
        restarts += int(batch.reset_done().sum())
    assert restarts > 0


def test_a_seat_sees_its_own_observation_and_no_other_seats_secret() -> None:
    batch = _batch(3)
    game = batch.game
    batch.reset(5)
    rng = np.random.default_rng(2)
    resample_rng = make_rng(9)
    hidden_differs = 0
    for step in range(120):
        observations = batch.observations()
        for env, state in enumerate(batch.states()):
            for seat in range(game.num_players):
                own = np.asarray(game.observation_tensor(state, seat), dtype=np.float32)
                assert np.array_equal(observations[env, seat], own)
                if step % 10 == 0:
                    # A state that differs only in what this seat cannot know gives it the same observation.
                    other = game.resample_from_infostate(state, seat, resample_rng)
                    assert np.array_equal(np.asarray(game.observation_tensor(other, seat), dtype=np.float32), own)
                    hidden_differs += other != state
        assert np.array_equal(batch.seat_observations(1), observations[:, 1])
        batch.step(_legal_choice(batch.legal_mask(), rng))
        batch.reset_done()
    assert hidden_differs > 0  # the resampled states did hide something


def test_the_learners_vector_env_view_is_its_seats_observation() -> None:
    vec = GamebagVectorEnv("eigen-kweek", 3, 2, seat=1, opponents="heuristic", rules_engine=True)
    observations, _ = vec.reset(seed=4)
    batch = vec.env.batch
    assert isinstance(batch, RulesBatch)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        states = batch.states()
        expected = [batch.game.observation_tensor(state, 1) for state in states]
        assert np.array_equal(observations, np.asarray(expected, dtype=np.float32))
        observations, _, terminated, _, _ = vec.step(_legal_choice(vec.action_masks(), rng))
        finished += int(terminated.sum())
    assert finished > 0


def test_bounds_and_bad_actions_are_refused_and_change_nothing() -> None:
    game = gamebag.make("eigen-kweek", 2)
    for size in (0, MAX_RULES_ENVS + 1, True, 2.0):
        with pytest.raises(ValueError, match="rules-engine batch holds from 1 to"):
            RulesBatch(game, size)  # type: ignore[arg-type]
    batch = RulesBatch(game, 2)
    with pytest.raises(RuntimeError, match="reset"):
        batch.step(np.zeros((2, 2), dtype=np.int64))
    batch.reset(1)
    before = batch.states()
    masks = batch.legal_mask()
    env, seat = (int(i) for i in np.argwhere(batch.to_act())[0])
    actions = _legal_choice(masks, np.random.default_rng(0))
    actions[env, seat] = int(np.flatnonzero(~masks[env, seat])[0])
    with pytest.raises(ValueError, match="not legal; legal actions"):
        batch.step(actions)
    actions[env, seat] = batch.num_actions
    with pytest.raises(ValueError, match="not legal"):
        batch.step(actions)
    assert batch.states() == before
    with pytest.raises(ValueError, match="no opponent 'grandmaster'"):
        batch.policy_actions(["grandmaster", "random"])
    with pytest.raises(ValueError, match="no vectorised environment"):
        BatchEnv("eigen-kweek", 2, 2)


def test_opponents_choose_legal_actions_and_only_where_asked() -> None:
    batch = _batch(4)
    batch.reset(6)
    for _ in range(60):
        acting, masks = batch.to_act(), batch.legal_mask()
        chosen = batch.policy_actions(["heuristic", "random"])
        rows, seats = np.nonzero(acting)
        assert masks[rows, seats, chosen[rows, seats]].all()
        assert (chosen[~acting] == 0).all()
        only_first = np.zeros_like(acting)
        only_first[0] = acting[0]
        partial = batch.policy_actions_at(["heuristic", "heuristic"], only_first)
        assert (partial[1:] == 0).all()
        batch.step(chosen)
        batch.reset_done()


@pytest.mark.slow
def test_train_command_trains_eigen_kweek_on_the_rules_engine(tmp_path: Path) -> None:
    pytest.importorskip("optax")
    from gamebag.agents.learned import LearnedAgent, load_policy
    from gamebag.agents.registry import make_agent
    from gamebag.cli.app import app
    from gamebag.sim.play import play_game

    out = tmp_path / "kweek.npz"
    result = CliRunner().invoke(
        app,
        [
            "train",
            "eigen-kweek",
            "--players",
            "2",
            "--steps",
            "1000",
            "--envs",
            "8",
            "--hidden",
            "16",
            "--eval-games",
            "8",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "against heuristic: win share" in result.output and "against random: win share" in result.output
    policy = load_policy(out)
    assert policy.meta["game"] == "eigen-kweek" and policy.meta["steps"] >= 1000
    game = gamebag.make("eigen-kweek", 2)
    played = play_game(game, [LearnedAgent(game, policy), make_agent("heuristic", game)], make_rng(0))
    assert game.is_terminal(played.state)
    bad = CliRunner().invoke(app, ["train", "eigen-kweek", "--players", "2", "--league", "ismcts"])
    assert bad.exit_code == 2 and "league member 'ismcts'" in bad.stderr


@pytest.mark.slow
def test_training_on_the_rules_engine_is_reproducible_from_its_seed() -> None:
    pytest.importorskip("optax")
    from gamebag.interop.train import train

    def weights(seed: int) -> list[np.ndarray[Any, Any]]:
        policy = train(
            "eigen-kweek",
            2,
            steps=1_000,
            seed=seed,
            envs=8,
            hidden=(8,),
            league={"self": 1.0, "past": 1.0, "heuristic": 1.0, "random": 1.0},
        )
        return [array for layer in policy.layers for array in layer]

    first, again, other = weights(4), weights(4), weights(5)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
