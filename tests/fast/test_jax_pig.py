"""The JAX Pig engine equals the rules engine (CPU; needs the ``jax`` extra).

As for the numba kernel: rules-engine games are replayed through the JAX ``apply_roll`` and
``apply_action`` with the same choices and faces, and the whole row compared after every
event, with the seat to act, the legal actions, every seat's observation and the returns;
the compiled heuristic is checked against the heuristic agent; whole JAX games under ``jit``
and ``vmap`` agree in distribution with rules-engine games (Holm-corrected); and stepping
keeps the scores honest (a hold banks exactly the turn's total, a bust banks nothing).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from dice_agreement import comparisons, holm_failures, play_rules_games

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng
from gamebag.fast import pig as fast_pig
from gamebag.fast.base import BatchResult

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from gamebag.fast.jax.pig import PigJax  # noqa: E402  (needs jax, skipped above without it)

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"goal": 7},
    {"goal": 30, "die_sides": 2},
    {"goal": 60, "die_sides": 20},
]
SEATINGS = (("random", "random"), ("heuristic", "random"), ("optimal-win", "optimal-score"))


def label(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def replay(options: dict[str, Any], games: int, seed: str) -> int:
    """Replay rules-engine games through the JAX functions, checking everything; returns the events."""
    game = gamebag.make("pig", **options)
    engine = PigJax(game)
    apply_roll = jax.jit(engine.apply_roll)
    apply_action = jax.jit(engine.apply_action)
    views = jax.jit(lambda row: (engine.to_act(row), engine.legal_mask(row), engine.observe(row)))
    heuristic = jax.jit(engine.heuristic_actions)
    heuristic_agent = make_agent("heuristic", game)
    # The heuristic draws nothing: one key serves every call (made once: a key costs a dispatch).
    key = jax.random.PRNGKey(0)
    events = 0
    for index in range(games):
        agents = [make_agent(name, game) for name in SEATINGS[index % len(SEATINGS)]]
        rng = derive_rng(seed, index)
        state = game.initial_state()
        row = engine.start()
        while True:
            expected = np.array(fast_pig.board_row(state), np.int32)
            assert np.array_equal(np.asarray(row), expected), (
                f"game {index} event {events}: rules {expected.tolist()}, jax {np.asarray(row).tolist()} "
                f"(columns {fast_pig.FIELD_NAMES})"
            )
            acting, legal, observed = (np.asarray(a) for a in views(row))
            for player in range(2):
                assert acting[player] == (player in game.acting_players(state))
                allowed = [game.action_index(a) for a in game.legal_actions(state, player)]
                assert np.flatnonzero(legal[player]).tolist() == allowed
            wanted = np.array([game.observation_tensor(state, player) for player in range(2)], np.float32)
            assert np.allclose(observed, wanted, rtol=1e-6, atol=0.0), f"observations at {state}"
            if game.is_terminal(state):
                break
            if game.node_kind(state) is NodeKind.CHANCE:
                face = game.sample_chance(state, rng)
                state = game.apply_chance(state, face)
                row = apply_roll(row, face)
            else:
                seat = state.seat
                if index % 2 == 0:
                    wanted_action = heuristic_agent.act(SeatView(game, state, seat), rng)
                    assert int(np.asarray(heuristic(row, key))[seat]) == game.action_index(wanted_action)
                action = agents[seat].act(SeatView(game, state, seat), rng)
                state = game.apply(state, {seat: action})
                row = apply_action(row, game.action_index(action))
            events += 1
        assert np.allclose(np.asarray(engine.returns(row)), game.returns(state))
        assert int(engine.round_number(row)) == game.round_number(state)
    return events


@pytest.mark.parametrize("options", [OPTION_SETS[0], OPTION_SETS[2]], ids=label)
def test_exact_replay_of_rules_engine_games(options: dict[str, Any]) -> None:
    assert replay(options, 12, f"jax replay {label(options)}") > 12 * 3


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=label)
def test_exact_replay_of_many_rules_engine_games(options: dict[str, Any]) -> None:
    assert replay(options, 150, f"jax long replay {label(options)}") > 150 * 3


def jax_results(engine: PigJax, policies: tuple[str, str], games: int, seed: int) -> BatchResult:
    """Whole JAX games as the batch result the distribution checks read."""
    play = jax.jit(engine.play_games, static_argnums=(1, 2))
    rows = np.asarray(play(jax.random.PRNGKey(seed), games, policies))
    assert (rows[:, fast_pig.PHASE] == fast_pig.OVER).all()
    returns = np.zeros((games, 2))
    returns[np.arange(games), rows[:, fast_pig.WINNER]] = 1.0
    length = np.asarray(jax.vmap(engine.round_number)(jnp.asarray(rows)), np.int32)
    return BatchResult.seat_zero_starts(0, rows[:, fast_pig.SCORE0 : fast_pig.SCORE1 + 1], returns, length)


@pytest.mark.slow
def test_distributions_agree_with_the_rules_engine() -> None:
    p_values: dict[str, float] = {}
    cases: list[tuple[dict[str, Any], tuple[str, str], int]] = [
        ({}, ("heuristic", "random"), 800),
        ({"goal": 30}, ("random", "random"), 2000),
        ({"goal": 40, "die_sides": 3}, ("random", "heuristic"), 2000),
    ]
    for number, (options, agents, games) in enumerate(cases):
        game = gamebag.make("pig", **options)
        fast = jax_results(PigJax(game), agents, 20_000, number)
        rules = play_rules_games(game, agents, "jax distributions", games)
        p_values.update(comparisons(fast, rules, f"{options} {agents}"))
    assert not holm_failures(p_values, 0.001), holm_failures(p_values, 0.001)


def test_the_comparison_notices_a_different_policy() -> None:
    """The distribution checks have power: JAX heuristic play is not mistaken for random play."""
    game = gamebag.make("pig", goal=30)
    fast = jax_results(PigJax(game), ("heuristic", "heuristic"), 4000, 7)
    rules = play_rules_games(game, ("random", "random"), "jax power", 500)
    assert holm_failures(comparisons(fast, rules, "different"), 0.001)


def test_stepping_banks_exactly_the_turn_totals() -> None:
    """Under ``jit`` and ``vmap``: a hold banks the running total, a roll banks nothing unless it wins."""
    game = gamebag.make("pig", goal=50)
    engine = PigJax(game)
    batch = 32
    init = jax.jit(jax.vmap(engine.init))
    step = jax.jit(jax.vmap(engine.step))
    choose = jax.jit(jax.vmap(engine.random_actions))
    key = jax.random.PRNGKey(3)
    key, first = jax.random.split(key)
    rows = init(jax.random.split(first, batch))
    for _ in range(2000):
        before = np.asarray(rows)
        if (before[:, fast_pig.PHASE] == fast_pig.OVER).all():
            break
        key, pick, chance = jax.random.split(key, 3)
        actions = choose(rows, jax.random.split(pick, batch))
        rows = step(rows, actions, jax.random.split(chance, batch))
        after = np.asarray(rows)
        moves = np.asarray(actions)[np.arange(batch), before[:, fast_pig.SEAT]]
        live = before[:, fast_pig.PHASE] == fast_pig.DECIDING
        gained = after[:, :2].sum(axis=1) - before[:, :2].sum(axis=1)
        # The rolls after a decision bank nothing unless they reach the goal and end the game.
        going_on = live & (after[:, fast_pig.PHASE] != fast_pig.OVER)
        held = going_on & (moves == fast_pig.HOLD)
        assert (gained[held] == before[held, fast_pig.TOTAL]).all()
        assert (gained[going_on & (moves == fast_pig.ROLL)] == 0).all()
        ended = live & ~going_on
        assert (gained[ended] >= np.where(moves[ended] == fast_pig.HOLD, before[ended, fast_pig.TOTAL], 1)).all()
        assert (after[~live] == before[~live]).all()
        assert (after[live, fast_pig.TURNS] >= before[live, fast_pig.TURNS]).all()
    final = np.asarray(rows)
    assert (final[:, fast_pig.PHASE] == fast_pig.OVER).all()
    winners = final[:, fast_pig.WINNER]
    assert (final[np.arange(batch), winners] >= 50).all()
    assert (final[np.arange(batch), 1 - winners] < 50).all()


def test_a_policy_list_that_does_not_fit_is_refused() -> None:
    engine = PigJax(gamebag.make("pig"))
    with pytest.raises(ValueError, match="one policy per seat"):
        engine.play_games(jax.random.PRNGKey(0), 2, ("random", "optimal-win"))
