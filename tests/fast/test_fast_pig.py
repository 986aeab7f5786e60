"""The compiled Pig engine equals the rules engine: exact replays, policies, distributions.

The replays and distribution checks run on the equality harness (``gamebag.equality``)
with ``replays.PigKernelReplay``, over the option sets of ``tests/equality_sets.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from replays import PigKernelReplay, seatings_of

import gamebag
from equality_sets import PIG_NUMBA
from gamebag.agents.base import SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng
from gamebag.equality import ReplayLog, comparisons, holm_failures, play_rules, replay, welch_p
from gamebag.fast import engine_for
from gamebag.fast import pig as fast_pig
from gamebag.fast.rng import game_key, run_key
from gamebag.games.pig.rules import Phase, PigState

OPTION_SETS: list[dict[str, Any]] = [option_set.options for option_set in PIG_NUMBA]
REPLAY_GAMES = 1000


def label(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def replay_pig(options: dict[str, Any], games: int, seed: str) -> tuple[ReplayLog, PigKernelReplay]:
    """Rules-engine games fed choice by choice and roll by roll to the kernel, compared after every event."""
    game = gamebag.make("pig", **options)
    engine = PigKernelReplay(game, keep_rows=True)
    return replay(game, engine, seatings_of(game, PIG_NUMBA[0].seatings), games, seed), engine


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=label)
def test_exact_replay_of_rules_engine_games(options: dict[str, Any]) -> None:
    log, _ = replay_pig(options, REPLAY_GAMES, f"replay {options}")
    assert not log.problems, "\n".join(log.problems[:5])
    assert log.games == REPLAY_GAMES
    assert log.steps + log.games > 5 * REPLAY_GAMES and len(log.decisions) > REPLAY_GAMES // 2


@pytest.mark.parametrize("options", OPTION_SETS, ids=label)
def test_compiled_policies_choose_as_the_agents(options: dict[str, Any]) -> None:
    game = gamebag.make("pig", **options)
    decisions = replay_pig(options, 200, f"policies {options}")[0].decisions
    board = np.array([fast_pig.board_row(s) for s in decisions], dtype=np.int32)
    counters = np.zeros(len(decisions), dtype=np.uint64)
    keys = np.zeros(len(decisions), dtype=np.uint64)
    for name in ("heuristic", "optimal-score", "optimal-win"):
        agent = make_agent(name, game)
        tables = fast_pig.policy_tables(game, [name, name])
        chosen = fast_pig.policy_rows(fast_pig.policy_codes([name, name]), board, keys, counters, *tables)
        for row, state in enumerate(decisions):
            expected = game.action_index(agent.act(SeatView(game, state, state.seat), derive_rng(0)))
            assert chosen[row, state.seat] == expected, f"{name} at {state}"


def test_step_batch_views_equal_the_rules_engine() -> None:
    game = gamebag.make("pig", goal=30)
    expected = replay_pig({"goal": 30}, 30, "views")[1].rows
    states = []
    for row in expected:
        winner = None if row[7] < 0 else int(row[7])
        states.append(
            PigState(
                scores=(int(row[0]), int(row[1])),
                seat=int(row[2]),
                turn_total=int(row[3]),
                phase=list(Phase)[row[4]],
                last_roll=None if row[5] == 0 else int(row[5]),
                turns=int(row[6]),
                winner=winner,
            )
        )
    batch = fast_pig.PigStepBatch(game, len(states))
    batch.board[:] = expected
    observations = batch.observations()
    legal = batch.legal_mask()
    for k, state in enumerate(states):
        for player in range(2):
            assert np.allclose(observations[k, player], game.observation_tensor(state, player), atol=1e-6)
            allowed = [game.action_index(a) for a in game.legal_actions(state, player)]
            assert np.nonzero(legal[k, player])[0].tolist() == allowed


@pytest.mark.parametrize("agents", [("random", "heuristic"), ("optimal-win", "optimal-score")])
def test_step_batch_plays_the_whole_game_kernel_games(agents: tuple[str, str]) -> None:
    """Stepping with the compiled policies replays the whole-game kernel's games draw for draw."""
    game = gamebag.make("pig", goal=40)
    engine = engine_for(game, agents)
    assert engine is not None
    whole = engine.play(game, agents, "steps", 0, 64)
    batch = engine.step_batch(game, 16)
    batch.reset("steps", 0)
    scores: dict[int, list[int]] = {}
    rewards: dict[int, list[float]] = {}
    assert isinstance(batch, fast_pig.PigStepBatch)
    while len(scores) < 64:
        for k in np.nonzero(batch.done())[0]:
            index = int(batch.index[k])
            if index < 64 and index not in scores:
                scores[index] = [int(batch.board[k, 0]), int(batch.board[k, 1])]
        batch.reset_done()
        batch.step(batch.policy_actions(agents))
        for k in np.nonzero(batch.done())[0]:
            rewards.setdefault(int(batch.index[k]), batch.rewards()[k].tolist())
    for index in range(64):
        assert scores[index] == whole.scores[index].tolist()
        assert rewards[index] == whole.returns[index].tolist()


def test_illegal_step_changes_nothing() -> None:
    game = gamebag.make("pig")
    batch = fast_pig.PigStepBatch(game, 4)
    batch.reset(1)
    before = batch.board.copy()
    actions = np.zeros((4, 2), dtype=np.int64)
    actions[2, 0] = 5
    with pytest.raises(ValueError, match="env 2: seat 0 must hold"):
        batch.step(actions)
    assert (batch.board == before).all()


def test_results_do_not_depend_on_the_batch() -> None:
    game = gamebag.make("pig", goal=50)
    engine = engine_for(game, ["random", "heuristic"])
    assert engine is not None
    whole = engine.play(game, ["random", "heuristic"], 5, 0, 300)
    parts = [engine.play(game, ["random", "heuristic"], 5, a, b) for a, b in ((0, 7), (7, 200), (200, 300))]
    assert (np.concatenate([p.scores for p in parts]) == whole.scores).all()
    assert (np.concatenate([p.length for p in parts]) == whole.length).all()


@pytest.mark.slow
def test_distributions_agree_with_the_rules_engine() -> None:
    p_values: dict[str, float] = {}
    cases = [({}, ("heuristic", "random"), 1500), ({"goal": 30}, ("random", "random"), 3000)]
    cases.append(({"goal": 30}, ("optimal-win", "heuristic"), 3000))
    cases.append(({"goal": 40, "die_sides": 3}, ("random", "optimal-score"), 3000))
    for options, agents, games in cases:
        game = gamebag.make("pig", **options)
        engine = engine_for(game, agents)
        assert engine is not None
        fast = engine.play(game, agents, "distributions", 0, 40_000)
        rules = play_rules(game, seatings_of(game, [agents])[0], games, "distributions")
        p_values.update(comparisons(fast, rules, f"{options} {agents}"))
    assert not holm_failures(p_values, 0.001), holm_failures(p_values, 0.001)


def test_the_comparison_notices_a_different_policy() -> None:
    """The distribution checks have power: heuristic play is not mistaken for random play."""
    game = gamebag.make("pig", goal=30)
    engine = engine_for(game, ["heuristic", "heuristic"])
    assert engine is not None
    fast = engine.play(game, ["heuristic", "heuristic"], "power", 0, 20_000)
    rules = play_rules(game, seatings_of(game, [("random", "random")])[0], 1000, "power")
    assert holm_failures(comparisons(fast, rules, "different"), 0.001)


def test_playouts_from_rules_states() -> None:
    """From the first position a playout is the whole-game kernel's game; later it plays on as the rules do."""
    game = gamebag.make("pig", goal=40)
    agents = ["heuristic", "random"]
    engine = engine_for(game, agents)
    assert engine is not None
    whole = engine.play(game, agents, "playout", 0, 50)
    run = run_key("playout")
    for index in range(50):
        key = int(game_key(run, np.int64(index)))
        assert engine.playout(game, game.initial_state(), agents, key) == tuple(whole.returns[index])
    decisions = replay_pig({"goal": 40}, 3, "playout states")[0].decisions
    players = [make_agent(name, game) for name in agents]
    p_values = {}
    for k, state in enumerate(decisions[::5][:6]):
        fast = [engine.playout(game, state, agents, 1000 * k + i) for i in range(4000)]
        rules = []
        for i in range(600):
            rng, position = derive_rng("playout", k, i), state
            while not game.is_terminal(position):
                if game.node_kind(position) is NodeKind.CHANCE:
                    position = game.apply_chance(position, game.sample_chance(position, rng))
                else:
                    seat = position.seat
                    position = game.apply(position, {seat: players[seat].act(SeatView(game, position, seat), rng)})
            rules.append(game.returns(position))
        p_values[f"state {k}"] = welch_p(np.array([r[0] for r in fast]), np.array([r[0] for r in rules]))
    assert not holm_failures(p_values, 0.001), p_values
