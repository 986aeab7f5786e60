"""The Eel family fast engine: batches, step batches, tokens, policies and the registry."""

from __future__ import annotations

import numpy as np
import pytest
from eel_helpers import check_tokens

import gamebag
from gamebag.fast import engine_for, unavailable_reason
from gamebag.fast.eel import batch, kernel, layout, policies
from gamebag.fast.eel.engine import kernel_config


def test_registry_picks_the_kernel_only_for_compiled_agents_and_known_options() -> None:
    game = gamebag.make("wriggle-roulette", 4)
    assert engine_for(game, ["random", "heuristic", "random", "heuristic"]) is not None
    assert engine_for(game, ["random", "ismcts", "random", "random"]) is None
    reason = unavailable_reason(game, ["random", "ismcts:iterations=5", "random", "random"])
    assert reason is not None and "ismcts" in reason
    harvest = gamebag.make("eel-harvest", 3, draw="dice", lone_player_grabs=2, max_grab=8, target=40)
    assert engine_for(harvest, ["heuristic"] * 3) is not None
    # Outbreak chances too big to count exactly in 64 bits: the heuristic stays on the rules engine.
    huge = gamebag.make("wriggle-roulette", 8, eels=200, snakes=100, max_grab=10)
    assert engine_for(huge, ["random"] * 8) is not None
    reason = unavailable_reason(huge, ["heuristic"] * 8)
    assert reason is not None and "exactly" in reason
    crowded = gamebag.make("eel-harvest", 8, outbreak_scores_reserve=True)
    assert engine_for(crowded, ["heuristic"] * 8) is None
    assert engine_for(gamebag.make("eel-harvest", 8), ["heuristic"] * 8) is not None


def test_games_do_not_depend_on_how_the_run_is_split() -> None:
    game = gamebag.make("eel-harvest", 5, rotate_start=True)
    engine = engine_for(game, ["heuristic"] * 5)
    assert engine is not None
    agents = ["heuristic", "random", "heuristic", "random", "random"]
    whole = engine.play(game, agents, 7, 0, 300)
    first, second = engine.play(game, agents, 7, 0, 120), engine.play(game, agents, 7, 120, 300)
    assert np.array_equal(whole.scores, np.concatenate([first.scores, second.scores]))
    assert np.array_equal(whole.returns, np.concatenate([first.returns, second.returns]))
    assert np.array_equal(whole.length, np.concatenate([first.length, second.length]))
    other = engine.play(game, agents, 8, 0, 300)
    assert not np.array_equal(whole.scores, other.scores)
    assert np.allclose(whole.returns.sum(axis=1), 1.0)
    assert (whole.scores.max(axis=1) >= 20).all()


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [("wriggle-roulette", 4, {}), ("eel-harvest", 3, {"draw": "dice", "lone_player_grabs": 1})],
)
def test_step_batch_driven_by_compiled_policies_plays_the_whole_game_kernels_games(
    game_id: str, players: int, options: dict[str, object]
) -> None:
    game = gamebag.make(game_id, players, **options)
    engine = engine_for(game, ["heuristic"] * players)
    assert engine is not None
    agents = ["heuristic", "random", "heuristic"][:players] + ["random"] * (players - 3)
    envs = engine.step_batch(game, 64)
    envs.reset("steps", first_index=0)
    finished: dict[int, tuple[list[int], list[float]]] = {}
    for _ in range(3000):
        envs.step(envs.policy_actions(agents))
        rewards = envs.rewards()
        state = envs.state_arrays()
        for k in np.flatnonzero(envs.done()):
            index = int(state["game_index"][k])
            finished[index] = (state["scores"][k].tolist(), rewards[k].tolist())
        envs.reset_done()
        if len(finished) >= 200:
            break
    played = engine.play(game, agents, "steps", 0, max(finished) + 1)
    for index, (scores, rewards) in finished.items():
        assert scores == played.scores[index].tolist()
        assert rewards == pytest.approx(played.returns[index].tolist())


def test_tokens_are_conserved_on_every_step_of_a_step_batch() -> None:
    for game_id, players, options in (
        ("wriggle-roulette", 6, {"rotate_start": True}),
        ("eel-harvest", 2, {"lone_player_grabs": 0}),
        ("eel-harvest", 4, {"draw": "dice"}),
    ):
        game = gamebag.make(game_id, players, **options)
        cfg = kernel_config(game)
        engine = engine_for(game, ["random"] * players)
        assert engine is not None
        envs = engine.step_batch(game, 128)
        envs.reset(11)
        for _ in range(400):
            envs.step(envs.policy_actions(["random"] * players))
            for row in envs._states:  # type: ignore[attr-defined]
                check_tokens(row, cfg)
            envs.reset_done()


def test_step_batch_views_and_rewards() -> None:
    game = gamebag.make("wriggle-roulette", 3)
    engine = engine_for(game, ["random"] * 3)
    assert engine is not None
    envs = engine.step_batch(game, 32)
    envs.reset(3)
    assert envs.to_act().all() and envs.legal_mask().all()
    assert envs.legal_mask().shape == (32, 3, 5)
    obs = envs.observations()
    assert obs.shape == (32, 3, envs.observation_size) and obs.dtype == np.float32
    total = np.zeros(3)
    for _ in range(2000):
        before = envs.done()
        envs.step(envs.policy_actions(["heuristic", "random", "random"]))
        rewards = envs.rewards()
        newly = envs.done() & ~before
        assert np.allclose(rewards[newly].sum(axis=1), 1.0)
        assert not rewards[~newly].any()
        assert not envs.to_act()[envs.done()].any()
        total += rewards.sum(axis=0)
        envs.reset_done()
    assert total.sum() > 100
    assert total[0] > total[1] and total[0] > total[2]  # the heuristic beats random seats


def test_bad_actions_are_refused_and_change_nothing() -> None:
    game = gamebag.make("wriggle-roulette", 4)
    engine = engine_for(game, ["random"] * 4)
    assert engine is not None
    envs = engine.step_batch(game, 4)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros((4, 4), np.int64))
    envs.reset(0)
    before = envs.state_arrays()
    with pytest.raises(ValueError, match="0 to 4"):
        envs.step(np.full((4, 4), 5, np.int64))
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros((4, 3), np.int64))
    with pytest.raises(ValueError, match="compiled policy"):
        envs.policy_actions(["random", "ismcts", "random", "random"])
    after = envs.state_arrays()
    assert all(np.array_equal(before[name], after[name]) for name in before)
    with pytest.raises(ValueError, match="num_envs"):
        engine.step_batch(game, 0)


def test_every_kernel_is_cached_on_disk() -> None:
    """numba's cache=True on every kernel, so compiled code is reused across processes."""
    modules = (kernel, policies, batch)
    dispatchers = [value for module in modules for value in vars(module).values() if hasattr(value, "_cache")]
    assert len(dispatchers) >= 10
    for dispatcher in dispatchers:
        assert type(dispatcher._cache).__name__ != "NullCache", dispatcher
        # Stamped with every kernel source, so a change in a called module recompiles the caller.
        assert type(dispatcher._cache._impl._locator).__name__.startswith("Stamped"), dispatcher


def test_the_cache_stamp_covers_every_kernel_source() -> None:
    from gamebag.fast import cache

    stamp = cache.sources_stamp()
    assert len(stamp) == 64
    assert cache._is_kernel_source(kernel.__file__) and cache._is_kernel_source(cache.__file__)
    assert not cache._is_kernel_source(gamebag.__file__)


def test_a_game_that_never_ends_is_an_error_not_a_result() -> None:
    game = gamebag.make("wriggle-roulette", 2)
    cfg = kernel_config(game)
    cfg[layout.C_TARGET] = 10_000_000  # nobody can ever win
    out = np.zeros((1, 2), np.int32), np.zeros((1, 2)), np.zeros(1, np.int32), np.zeros(1, np.int8)
    batch.play_games(cfg, np.zeros(2, np.int64), np.uint64(1), np.int64(0), *out)
    assert out[3][0] == layout.END_STEP_CAP


def test_playouts_from_rules_states_follow_the_rules_engine() -> None:
    """Compiled playouts (for search) from a mid-game state, pending draws included, against
    rules-engine playouts of the same policy: same win shares within sampling error."""
    from scipy import stats

    from gamebag.agents.registry import make_agent
    from gamebag.core.rng import derive_rng
    from gamebag.sim.play import play_game

    game = gamebag.make("wriggle-roulette", 3)
    engine = engine_for(game, ["heuristic"] * 3)
    assert engine is not None
    state = game.apply(game.initial_state(), {0: 4, 1: 1, 2: 2})
    state = game.apply_chance(state, ("EEEE", "E", "ES"))
    state = game.apply(state, {0: 3, 1: 2, 2: 4})  # a chance node: the draws are pending
    compiled = np.array([engine.playout(game, state, ["heuristic"] * 3, seed) for seed in range(3000)])
    assert np.allclose(compiled.sum(axis=1), 1.0)
    agents = [make_agent("heuristic", game) for _ in range(3)]

    class FromState:
        def initial_state(self) -> object:
            return state

        def __getattr__(self, name: str) -> object:
            return getattr(game, name)

    rules = np.array(
        [play_game(FromState(), agents, derive_rng("playout", k), keep_record=False).returns for k in range(600)]  # type: ignore[arg-type]
    )
    for seat in range(3):
        assert stats.ttest_ind(compiled[:, seat], rules[:, seat], equal_var=False).pvalue > 0.01 / 3
    assert engine.playout(game, state, ["heuristic"] * 3, 5) == engine.playout(game, state, ["heuristic"] * 3, 5)
    assert engine.playout(gamebag.make("pig"), object(), ["random"] * 2, 1) is None


def test_ismcts_plays_out_on_the_fast_engine_and_stays_reproducible() -> None:
    from gamebag.agents.base import SeatView
    from gamebag.agents.ismcts import SearchSettings, _Search
    from gamebag.agents.registry import make_agent
    from gamebag.core.rng import make_rng

    game = gamebag.make("wriggle-roulette", 3)
    state = game.initial_state()
    assert _Search(game, 0, SearchSettings()).compiled is not None
    assert _Search(game, 0, SearchSettings(playouts="rules")).compiled is None
    fast = make_agent("ismcts:iterations=200", game)
    first = fast.act(SeatView(game, state, 0), make_rng(9))
    assert first == fast.act(SeatView(game, state, 0), make_rng(9))
    rules = make_agent("ismcts:iterations=200,playouts=rules", game)
    assert rules.act(SeatView(game, state, 0), make_rng(9)) in range(5)
