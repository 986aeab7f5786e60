"""The compiled Catch A Dragon engine equals the rules engine: exact replays, policies, distributions.

The replays and distribution checks run on the equality harness (``gamebag.equality``)
with ``replays.DragonKernelReplay``, over the option sets of ``tests/equality_sets.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from replays import DragonKernelReplay, seatings_of

import gamebag
from equality_sets import DRAGON_NUMBA, OptionSet
from gamebag.agents.base import SeatView
from gamebag.agents.heuristics import catch_a_dragon as heuristic_agent
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng
from gamebag.equality import ReplayLog, comparisons, holm_failures, play_rules, replay, welch_p
from gamebag.fast import dragon as fast_dragon
from gamebag.fast import engine_for
from gamebag.fast.rng import game_key, run_key

# (players, options, seat agents cycled over the replayed games)
OPTION_SETS: list[tuple[int, dict[str, Any], tuple[tuple[str, ...], ...]]] = [
    (option_set.players, option_set.options, option_set.seatings) for option_set in DRAGON_NUMBA
]
REPLAY_GAMES = 1000


def label(case: tuple[int, dict[str, Any], Any]) -> str:
    players, options, _ = case
    return f"{players}p " + (",".join(f"{k}={v}" for k, v in options.items()) or "defaults")


def replay_dragon(
    players: int, options: dict[str, Any], seatings: tuple[tuple[str, ...], ...], games: int, seed: str
) -> ReplayLog:
    """Rules-engine games fed choice by choice and roll by roll to the kernel, compared after every event."""
    game = OptionSet("catch-a-dragon", players, options).make()
    return replay(game, DragonKernelReplay(game), seatings_of(game, seatings), games, seed)


@pytest.mark.slow
@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
def test_exact_replay_of_rules_engine_games(case: tuple[int, dict[str, Any], tuple[tuple[str, ...], ...]]) -> None:
    players, options, seatings = case
    log = replay_dragon(players, options, seatings, REPLAY_GAMES, f"replay {label(case)}")
    assert not log.problems, "\n".join(log.problems[:5])
    assert log.games == REPLAY_GAMES and len(log.decisions) >= REPLAY_GAMES


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
def test_compiled_policies_choose_as_the_agents(case: tuple[int, dict[str, Any], tuple[tuple[str, ...], ...]]) -> None:
    players, options, seatings = case
    game = gamebag.make("catch-a-dragon", players, **options)
    decisions = replay_dragon(players, options, seatings, 150, f"policies {label(case)}").decisions
    rules = fast_dragon.rules_arrays(fast_dragon.rules_of(game))
    board = np.array([fast_dragon.board_row(s) for s in decisions], dtype=np.int32)
    keys = np.zeros(len(decisions), dtype=np.uint64)
    counters = np.zeros(len(decisions), dtype=np.uint64)
    names = ["heuristic", "optimal-score"] + (["optimal-win"] if players == 2 else [])
    for name in names:
        agent = make_agent(name, game)
        seats = [name] * players
        tables = fast_dragon.policy_tables(game, seats)
        chosen = fast_dragon.policy_rows(fast_dragon.policy_codes(seats), board, keys, counters, rules, tables)
        for row, state in enumerate(decisions):
            expected = game.action_index(agent.act(SeatView(game, state, state.seat), derive_rng(0)))
            assert chosen[row, state.seat] == expected, f"{name} at {state}"


@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("rule", ["any", "none-new"])
@pytest.mark.parametrize("cyclic", [True, False])
def test_heuristic_tables_are_the_agents_arithmetic(dice: int, rule: str, cyclic: bool) -> None:
    rules = fast_dragon.DragonRules(players=2, dice=dice, rounds=4, tiebreaks=10, duplicate_bust=rule, cyclic=cyclic)
    value, roll = fast_dragon.heuristic_tables(rules)
    for code in range(fast_dragon.SET_CODES):
        faces = fast_dragon.set_faces(code)
        if not faces or len(faces) > dice:
            continue
        points = heuristic_agent.set_points(faces, cyclic)
        estimate = heuristic_agent.roll_estimate(faces, cyclic, rule, dice)
        assert value[code] == max(points, estimate)
        assert roll[code] == (estimate > points)


def test_legal_masks_and_observations_equal_the_rules_engine() -> None:
    for players, options, seatings in OPTION_SETS:
        game = gamebag.make("catch-a-dragon", players, **options)
        decisions = replay_dragon(players, options, seatings, 20, "views").decisions
        batch = fast_dragon.DragonStepBatch(game, len(decisions))
        batch.board[:] = np.array([fast_dragon.board_row(s) for s in decisions], dtype=np.int32)
        legal = batch.legal_mask()
        observations = batch.observations()
        acting = batch.to_act()
        for k, state in enumerate(decisions):
            for player in range(players):
                allowed = [game.action_index(a) for a in game.legal_actions(state, player)]
                assert np.nonzero(legal[k, player])[0].tolist() == allowed
                assert acting[k, player] == (player in game.acting_players(state))
                assert np.allclose(observations[k, player], game.observation_tensor(state, player), atol=1e-6)


@pytest.mark.parametrize("agents", [("random", "heuristic"), ("optimal-win", "optimal-score")])
def test_step_batch_plays_the_whole_game_kernel_games(agents: tuple[str, str]) -> None:
    """Stepping with the compiled policies replays the whole-game kernel's games draw for draw."""
    game = gamebag.make("catch-a-dragon", 2, duplicate_bust="none-new")
    engine = engine_for(game, agents)
    assert engine is not None
    whole = engine.play(game, agents, "steps", 0, 64)
    batch = engine.step_batch(game, 16)
    assert isinstance(batch, fast_dragon.DragonStepBatch)
    batch.reset("steps", 0)
    results: dict[int, tuple[list[int], list[float]]] = {}
    while len([i for i in results if i < 64]) < 64:
        batch.step(batch.policy_actions(agents))
        rewards = batch.rewards()
        for k in np.nonzero(batch.done())[0]:
            results[int(batch.index[k])] = (batch.state_arrays()["scores"][k].tolist(), rewards[k].tolist())
        batch.reset_done()
    for index in range(64):
        assert results[index] == (whole.scores[index].tolist(), whole.returns[index].tolist())


def test_illegal_step_changes_nothing() -> None:
    game = gamebag.make("catch-a-dragon", 3)
    batch = fast_dragon.DragonStepBatch(game, 4)
    batch.reset(1)
    before = batch.board.copy()
    actions = np.zeros((4, 3), dtype=np.int64)  # "stop" is never legal while collecting
    with pytest.raises(ValueError, match="env 0: action 0 is not legal for seat 0"):
        batch.step(actions)
    assert (batch.board == before).all()


def test_results_do_not_depend_on_the_batch() -> None:
    game = gamebag.make("catch-a-dragon", 3, dice=5)
    engine = engine_for(game, ["random", "heuristic", "optimal-score"])
    assert engine is not None
    agents = ["random", "heuristic", "optimal-score"]
    whole = engine.play(game, agents, 5, 0, 300)
    parts = [engine.play(game, agents, 5, a, b) for a, b in ((0, 7), (7, 200), (200, 300))]
    assert (np.concatenate([p.scores for p in parts]) == whole.scores).all()
    assert (np.concatenate([p.returns for p in parts]) == whole.returns).all()


def test_optimal_win_is_offered_for_two_players_only() -> None:
    assert engine_for(gamebag.make("catch-a-dragon", 2), ["optimal-win", "random"]) is not None
    assert engine_for(gamebag.make("catch-a-dragon", 3), ["optimal-win", "random", "random"]) is None


@pytest.mark.slow
def test_distributions_agree_with_the_rules_engine() -> None:
    p_values: dict[str, float] = {}
    cases: list[tuple[int, dict[str, Any], tuple[str, ...], int]] = [
        (2, {}, ("heuristic", "random"), 2000),
        (2, {}, ("optimal-win", "optimal-score"), 2000),
        (3, {"duplicate_bust": "none-new", "dice": 5}, ("random", "heuristic", "optimal-score"), 1500),
        (4, {"max_tiebreak_rounds": 0, "rounds": 2, "cyclic": False}, ("random",) * 4, 1500),
    ]
    for players, options, agents, games in cases:
        game = gamebag.make("catch-a-dragon", players, **options)
        engine = engine_for(game, agents)
        assert engine is not None
        fast = engine.play(game, agents, "distributions", 0, 30_000)
        rules = play_rules(game, seatings_of(game, [agents])[0], games, "distributions")
        p_values.update(comparisons(fast, rules, f"{players}p {options} {agents}"))
    assert not holm_failures(p_values, 0.001), holm_failures(p_values, 0.001)


def test_the_comparison_notices_a_different_policy() -> None:
    """The distribution checks have power: heuristic play is not mistaken for random play."""
    game = gamebag.make("catch-a-dragon", 2)
    engine = engine_for(game, ["heuristic", "heuristic"])
    assert engine is not None
    fast = engine.play(game, ["heuristic", "heuristic"], "power", 0, 20_000)
    rules = play_rules(game, seatings_of(game, [("random", "random")])[0], 500, "power")
    assert holm_failures(comparisons(fast, rules, "different"), 0.001)


def test_playouts_from_rules_states() -> None:
    """From the first position a playout is the whole-game kernel's game; later it plays on as the rules do."""
    game = gamebag.make("catch-a-dragon", 2)
    agents = ["heuristic", "random"]
    engine = engine_for(game, agents)
    assert engine is not None
    whole = engine.play(game, agents, "playout", 0, 50)
    run = run_key("playout")
    for index in range(50):
        key = int(game_key(run, np.int64(index)))
        assert engine.playout(game, game.initial_state(), agents, key) == tuple(whole.returns[index])
    decisions = replay_dragon(2, {}, (("heuristic", "random"),), 3, "playout states").decisions
    p_values = {}
    for k, state in enumerate(decisions[::7][:6]):
        fast = [engine.playout(game, state, agents, 1000 * k + i) for i in range(4000)]
        players = [make_agent(name, game) for name in agents]
        rules = [play_from(game, state, players, derive_rng("playout", k, i)) for i in range(600)]
        p_values[f"state {k}"] = welch_p(np.array([r[0] for r in fast]), np.array([r[0] for r in rules]))
    assert not holm_failures(p_values, 0.001), p_values


def play_from(game: Any, state: Any, players: list[Any], rng: Any) -> tuple[float, ...]:
    while not game.is_terminal(state):
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            seat = game.acting_players(state)[0]
            state = game.apply(state, {seat: players[seat].act(SeatView(game, state, seat), rng)})
    return game.returns(state)


def test_ismcts_plays_out_in_the_compiled_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    game = gamebag.make("catch-a-dragon", 2)
    state = game.apply_chance(game.initial_state(), (1, 2, 4, 6))
    engine = engine_for(game, ["heuristic", "heuristic"])
    assert engine is not None
    calls = []
    original = engine.playout

    def counted(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(engine, "playout", counted)
    agent = make_agent("ismcts:iterations=200", game)
    first = agent.act(SeatView(game, state, 0), derive_rng(4))
    assert first in game.legal_actions(state, 0) and len(calls) == 200
    assert agent.act(SeatView(game, state, 0), derive_rng(4)) == first
    rules_agent = make_agent("ismcts:iterations=200,playouts=rules", game)
    assert rules_agent.act(SeatView(game, state, 0), derive_rng(4)) in game.legal_actions(state, 0)
    assert len(calls) == 400
