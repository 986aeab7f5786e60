"""Learned policies: NumPy weights round-trip, the shipped ones play legal moves, training improves a policy,
and ``gamebag train`` runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import gamebag
from gamebag.agents.learned import (
    LearnedAgent,
    NumpyPolicy,
    layout_mismatch,
    load_policy,
    observation_layout,
    save_policy,
    shipped_policies,
)
from gamebag.agents.random_agent import RandomAgent
from gamebag.agents.registry import available_agents, make_agent
from gamebag.cli.app import app
from gamebag.core.errors import UnknownAgentError
from gamebag.core.rng import make_rng
from gamebag.games.catch_a_dragon.rules import OBSERVATION_SIZE
from gamebag.sim.play import play_game


def _random_policy(game_id: str, players: int, seed: int) -> NumpyPolicy:
    game = gamebag.make(game_id, players)
    size = len(game.observation_tensor(game.initial_state(), 0))
    actions = len(game.all_actions())
    rng = np.random.default_rng(seed)
    shapes = [(size, 16), (16, actions)]
    layers = tuple((rng.normal(size=s).astype(np.float32), rng.normal(size=s[1]).astype(np.float32)) for s in shapes)
    return NumpyPolicy(layers, {"game": game_id, "players": players})


def test_policy_files_round_trip(tmp_path: Path) -> None:
    policy = _random_policy("catch-a-dragon", 2, 0)
    path = tmp_path / "policy.npz"
    save_policy(path, policy)
    again = load_policy(path)
    assert again.meta == policy.meta
    observations = np.random.default_rng(1).random((5, OBSERVATION_SIZE)).astype(np.float32)
    assert np.array_equal(again.scores(observations), policy.scores(observations))
    masks = np.zeros((5, 76), dtype=np.bool_)
    masks[:, [3, 7]] = True
    assert set(again.act(observations, masks).tolist()) <= {3, 7}
    sampled = again.act(observations, masks, np.random.default_rng(0))
    assert set(sampled.tolist()) <= {3, 7}


@pytest.mark.parametrize(("game_id", "players"), [("catch-a-dragon", 2), ("wriggle-roulette", 4), ("pig", 2)])
def test_learned_agent_plays_whole_games_with_legal_moves(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    agents = [LearnedAgent(game, _random_policy(game_id, players, seed)) for seed in range(players - 1)]
    agents.append(LearnedAgent(game, _random_policy(game_id, players, 9), sample=True))
    result = play_game(game, agents, make_rng(3))  # game.apply refuses any illegal move
    assert game.is_terminal(result.state) and sum(result.returns) == pytest.approx(1.0)


@pytest.mark.slow
def test_train_command_writes_a_policy_and_evaluates_it(tmp_path: Path) -> None:
    pytest.importorskip("optax")
    out = tmp_path / "pig.npz"
    result = CliRunner().invoke(
        app, ["train", "pig", "--steps", "1000", "--envs", "16", "--eval-games", "40", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "win share" in result.output and out.exists()
    policy = load_policy(out)
    assert policy.meta["game"] == "pig" and policy.meta["steps"] >= 1000
    assert policy.meta["observation"] == {"version": 1, "size": 7} and "imitate" not in policy.meta
    # Play it through the rules engine against the random agent.
    game = gamebag.make("pig", 2)
    play_game(game, [LearnedAgent(game, policy), RandomAgent()], make_rng(0))
    bad = CliRunner().invoke(app, ["train", "pig", "--steps", "10"])
    assert bad.exit_code == 2 and "steps must be" in bad.stderr


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--hidden", "2048"], "from 1 to 1024"),
        (["--hidden", "64,x"], "comma-separated layer sizes"),
        (["--league", "heuristic=0"], "weight from 0 to 1,000"),
        (["--league", "bogus"], "neither 'self', 'past' nor a compiled policy"),
        (["--envs", "5000"], "from 1 to 4096"),
        (["--eval-games", "100000000"], "from 0 to 100,000"),
        (["--learning-rate", "5"], "learning rate must be from 1e-6 to 0.1"),
        (["--value-warmup", "20000"], "value warm-up must be an integer from 0 to 10,000"),
        (["--init", "missing.npz"], "not a policy written by gamebag train"),
        (["--init", "SHIPPED_CATCH_A_DRAGON"], "give the same --hidden sizes"),
        (["--imitate", "bogus"], "the teacher 'bogus' to imitate is not a compiled policy"),
        (["--imitate", "optimal-win=500"], "the weight must be from 0 to 100"),
        (["--imitate", "optimal-win=x"], "the weight after '=' must be a number"),
    ],
)
def test_train_refuses_each_unbounded_request_and_writes_nothing(tmp_path: Path, extra: list[str], named: str) -> None:
    pytest.importorskip("optax")
    out = tmp_path / "refused.npz"
    if "SHIPPED_CATCH_A_DRAGON" in extra:
        # A policy of another game: its layers cannot start a Pig network.
        other = tmp_path / "dragon.npz"
        save_policy(other, _random_policy("catch-a-dragon", 2, 0))
        extra = [str(other) if item == "SHIPPED_CATCH_A_DRAGON" else item for item in extra]
    elif "missing.npz" in extra:
        extra = [str(tmp_path / item) if item == "missing.npz" else item for item in extra]
    result = CliRunner().invoke(app, ["train", "pig", "--steps", "1000", "--out", str(out), *extra])
    assert result.exit_code == 2, result.output
    assert named in result.stderr
    assert not out.exists()


SHIPPED = sorted(shipped_policies())


def test_some_learned_policy_ships() -> None:
    assert ("pig", 2) in SHIPPED


@pytest.mark.parametrize(("game_id", "players"), SHIPPED)
def test_shipped_policies_play_whole_games_with_legal_moves(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    assert "learned" in available_agents(game_id)
    learned = make_agent("learned", game)
    assert isinstance(learned, LearnedAgent) and learned.policy.meta["game"] == game_id
    for seed in range(2):
        agents = [make_agent("random", game) for _ in range(players)]
        agents[seed % players] = learned
        agents[(seed + 1) % players] = make_agent("learned:sample=true", game)
        result = play_game(game, agents, make_rng(seed))  # game.apply refuses any illegal move
        assert game.is_terminal(result.state)


def test_learned_refuses_configurations_without_weights() -> None:
    game_id, players = SHIPPED[0]
    missing = sorted(
        {
            (g, n)
            for g, _ in SHIPPED
            for n in range(gamebag.entry(g).game_class.min_players, gamebag.entry(g).game_class.max_players + 1)
            if (g, n) not in SHIPPED
        }
    )
    assert missing  # Eigen Kweek with 4 players at least
    for other_game, other in missing:
        with pytest.raises(UnknownAgentError, match="no learned policy ships"):
            make_agent("learned", gamebag.make(other_game, other))
    with pytest.raises(UnknownAgentError, match="sample must be true or false"):
        make_agent("learned:sample=maybe", gamebag.make(game_id, players))
    unshipped = [g for g in gamebag.game_ids() if all(g != shipped for shipped, _ in SHIPPED)]
    for game_id in unshipped:
        assert "learned" not in available_agents(game_id)


def test_a_warm_start_begins_from_the_given_policy_and_keeps_it_through_the_value_warmup() -> None:
    pytest.importorskip("optax")
    from gamebag.interop.ppo import PPOConfig, PPOLearner

    start = _random_policy("pig", 2, 4)
    config = PPOConfig(hidden=(16,), rollout=16, minibatch=64, value_warmup=2)
    learner = PPOLearner("pig", 2, envs=16, seed=1, config=config, init=start)
    observations = np.random.default_rng(2).random((8, 7)).astype(np.float32)
    assert np.array_equal(learner.policy().scores(observations), start.scores(observations))
    for _ in range(2):  # value warm-up: the policy stays as it was, the value network learns
        value_before = learner.numpy_layers("v")[0][0].copy()
        learner.learn(learner.rollout())
        assert np.array_equal(learner.policy().scores(observations), start.scores(observations))
        assert not np.array_equal(learner.numpy_layers("v")[0][0], value_before)
    learner.learn(learner.rollout())
    assert not np.array_equal(learner.policy().scores(observations), start.scores(observations))


def test_a_warm_start_records_where_it_came_from() -> None:
    pytest.importorskip("optax")
    from gamebag.interop.train import train

    start = _random_policy("pig", 2, 4)
    policy = train("pig", 2, steps=1_000, envs=16, hidden=(16,), init=start, learning_rate=1e-4, value_warmup=1)
    assert policy.meta["init"] == dict(start.meta)
    assert policy.meta["learning_rate"] == 1e-4 and policy.meta["value_warmup"] == 1


def test_a_warm_start_from_another_player_count_keeps_each_action_it_knows_by_name() -> None:
    from gamebag.interop.ppo import _other_count, _start_from

    # Eigen Kweek names seats in its actions: four players add take:3, rob:3, ... to three's.
    start = _random_policy("eigen-kweek", 3, 1)
    three, four = (list(gamebag.make("eigen-kweek", n).all_actions()) for n in (3, 4))
    rng = np.random.default_rng(2)
    fresh = [
        (rng.normal(size=start.layers[0][0].shape).astype(np.float32), np.zeros(16, np.float32)),
        (rng.normal(size=(16, len(four))).astype(np.float32), rng.normal(size=len(four)).astype(np.float32)),
    ]
    assert _other_count(start, "eigen-kweek", 4) and not _other_count(start, "eigen-kweek", 3)
    assert not _other_count(start, "catch-a-dragon", 4)
    layers = _start_from(start, fresh, four)
    assert np.array_equal(layers[0][0], start.layers[0][0])  # the hidden layers are the start's
    (weights, bias), (start_weights, start_bias), (fresh_weights, fresh_bias) = layers[-1], start.layers[-1], fresh[-1]
    new = [column for column, action in enumerate(four) if action not in three]
    assert [four[column] for column in new] == [
        "take:3",
        "keun:3:2",
        "keun:3:4",
        "keun:3:6",
        "keun:3:8",
        "rob:3",
        "bernard:3",
    ]
    for column, action in enumerate(four):
        source = (
            (fresh_weights[:, column], fresh_bias[column])
            if column in new
            else (start_weights[:, three.index(action)], start_bias[three.index(action)])
        )
        assert np.array_equal(weights[:, column], source[0]) and bias[column] == source[1], action
    with pytest.raises(ValueError, match="give the same --hidden sizes"):
        _start_from(start, fresh)  # without the actions to match, other shapes are refused as before


def test_imitation_learns_the_teachers_choices_at_the_learners_decisions() -> None:
    pytest.importorskip("optax")
    from gamebag.interop.ppo import PPOConfig, PPOLearner

    config = PPOConfig(hidden=(32,), rollout=32, minibatch=128, teacher="optimal-win", imitation=50.0)
    learner = PPOLearner("pig", 2, envs=32, seed=5, config=config)
    data = learner.rollout()
    rows = np.arange(len(data["act"]))
    assert len(rows) > 100 and data["mask"][rows, data["teach"]].all()  # the teacher's choices are legal
    # The labels are what the compiled optimal-win plays in those positions: in Pig it holds
    # at some decisions and rolls at others.
    assert 0 < data["teach"].mean() < 1

    def agreement() -> float:
        return float((learner.policy().act(data["obs"], data["mask"]) == data["teach"]).mean())

    before = agreement()
    for _ in range(15):
        learner.learn(data)
    assert agreement() > max(0.9, before + 0.1), before


def test_imitation_is_recorded_with_the_policy() -> None:
    pytest.importorskip("optax")
    from gamebag.interop.train import train

    policy = train("pig", 2, steps=1_000, envs=16, hidden=(16,), imitate=("optimal-win", 2.0))
    assert policy.meta["imitate"] == {"teacher": "optimal-win", "weight": 2.0}


def test_policies_of_another_observation_layout_are_refused(tmp_path: Path) -> None:
    game = gamebag.make("catch-a-dragon", 2)
    assert observation_layout(game) == {"version": 2, "size": OBSERVATION_SIZE}
    shipped = make_agent("learned", game)
    assert isinstance(shipped, LearnedAgent) and shipped.policy.meta["observation"] == observation_layout(game)
    # A policy of layout 1 (29 features, no layout recorded, as files were written before).
    rng = np.random.default_rng(0)
    old = NumpyPolicy(((rng.normal(size=(29, 76)).astype(np.float32), np.zeros(76, np.float32)),), {})
    message = layout_mismatch(old, game)
    assert message is not None and "layout 1 (29 features)" in message and f"layout 2 ({OBSERVATION_SIZE}" in message
    assert layout_mismatch(_random_policy("catch-a-dragon", 2, 0), game) is not None  # no layout recorded: 1
    assert layout_mismatch(shipped.policy, game) is None
    weights, bias = shipped.policy.layers[-1]
    narrower = NumpyPolicy((*shipped.policy.layers[:-1], (weights[:, :70], bias[:70])), shipped.policy.meta)
    assert layout_mismatch(narrower, game) == (
        "the catch-a-dragon policy chooses among 70 actions, but this game has 76: train a new one with gamebag train"
    )
    path = tmp_path / "old.npz"
    save_policy(path, old)
    result = CliRunner().invoke(app, ["train", "catch-a-dragon", "--steps", "1000", "--init", str(path)])
    assert result.exit_code == 2 and "trained on observation layout 1" in result.stderr


@pytest.mark.slow
def test_a_short_training_run_improves_on_its_starting_policy() -> None:
    pytest.importorskip("optax")
    from gamebag.interop.ppo import PPOConfig, PPOLearner
    from gamebag.interop.train import evaluate

    learner = PPOLearner("pig", 2, envs=64, seed=3, config=PPOConfig(rollout=32, minibatch=256))
    before = evaluate("pig", 2, learner.policy(), "heuristic", games=1_000)
    learner.train(40_000)
    after = evaluate("pig", 2, learner.policy(), "heuristic", games=1_000)
    assert after.low > before.high, (before, after)
