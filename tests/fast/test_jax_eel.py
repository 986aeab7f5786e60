"""The JAX Eel family engine equals the rules engine (CPU; needs the ``jax`` extra).

As for the numba kernel: rules-engine games are replayed through the JAX ``resolve`` with
the same choices and draws, and every field of the position row, every seat's observation
(to float32 rounding), the seats to act and the returns are compared. The JAX draw is checked against the rules
engine's exact chance distribution, and whole random games run under ``jit`` and ``vmap``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from eel_helpers import describe_difference, expected_row, make_game, option_set_id

from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng
from gamebag.fast.eel.layout import MAX_SEATS, OVER, WINNER

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from gamebag.fast.jax.eel import EelJax  # noqa: E402  (needs jax, skipped above without it)

# Every option, each at least once, on several player counts.
OPTION_SETS: list[tuple[str, int, dict[str, Any]]] = [
    ("wriggle-roulette", 4, {}),
    ("eel-harvest", 3, {"outbreak_scores_reserve": True, "lone_player_grabs": 2}),
    ("eel-harvest", 4, {"draw": "dice", "lone_player_grabs": 1, "outbreak_scores_reserve": True, "rotate_start": True}),
    ("wriggle-roulette", 4, {"eels": 30, "snakes": 12, "target": 15, "max_grab": 3, "outbreak_snakes": 8}),
]
GAMES_EACH = 3


@pytest.mark.parametrize("option_set", OPTION_SETS, ids=[option_set_id(o) for o in OPTION_SETS])
def test_resolve_replays_rules_engine_games_field_by_field(option_set: tuple[str, int, dict[str, Any]]) -> None:
    game = make_game(option_set)
    engine = EelJax(game)
    resolve = jax.jit(engine.resolve)
    observe = jax.jit(engine.observe)
    to_act = jax.jit(engine.to_act)
    legal_mask = jax.jit(engine.legal_mask)
    n = game.num_players
    grabs = 0
    for number in range(GAMES_EACH):
        rng = derive_rng("jax-eel", option_set_id(option_set), number)
        state = game.initial_state()
        row = engine.init()
        while True:
            expected = expected_row(game, state)
            got = np.asarray(row)
            assert np.array_equal(expected, got), describe_difference(expected, got)
            if game.node_kind(state) is NodeKind.TERMINAL:
                break
            acting = game.acting_players(state)
            assert np.flatnonzero(np.asarray(to_act(row))).tolist() == list(acting)
            views = np.asarray(observe(row))
            # Equal up to float32 rounding (JAX divides in float32; the rules engine in float64).
            wanted = np.array([game.observation_tensor(state, seat) for seat in range(n)], np.float32)
            assert np.allclose(views, wanted, rtol=1e-6, atol=0.0), f"observations at {state}"
            moves = {p: rng.choice(list(game.legal_actions(state, p))) for p in acting}
            counts = np.full(n, -1, np.int32)
            for seat, count in moves.items():
                counts[seat] = count
            assert np.asarray(legal_mask(row))[list(acting)].sum() == sum(
                len(game.legal_actions(state, p)) for p in acting
            )
            state = game.apply(state, moves)
            eels = np.zeros(n, np.int32)
            snakes = np.zeros(n, np.int32)
            if game.node_kind(state) is NodeKind.CHANCE:
                outcome = game.sample_chance(state, rng)
                state = game.apply_chance(state, outcome)
                for seat, tokens in enumerate(outcome):
                    snakes[seat] = tokens.count("S")
                    eels[seat] = len(tokens) - snakes[seat]
            row = resolve(row, jnp.asarray(counts), jnp.asarray(eels), jnp.asarray(snakes))
            grabs += 1
        assert np.allclose(np.asarray(engine.returns(row)), game.returns(state))
    assert grabs > 10 * GAMES_EACH


@pytest.mark.parametrize("draw", ["bag", "dice"])
def test_draws_follow_the_rules_engine_distribution(draw: str) -> None:
    game = make_game(("eel-harvest", 3, {"draw": draw}))
    engine = EelJax(game)
    state = game.initial_state()
    rng = derive_rng("jax-eel-draw", draw)
    row = engine.init()
    sample = jax.jit(jax.vmap(engine.draw, in_axes=(None, None, 0)))
    resolve = jax.jit(engine.resolve)
    # A few grabs in, so that the bag is no longer full and a seat may have exited.
    for _ in range(3):
        moves = {p: rng.choice([1, 2, 3]) for p in game.acting_players(state)}
        counts = np.full(3, -1, np.int32)
        for seat, count in moves.items():
            counts[seat] = count
        state = game.apply(state, moves)
        outcome = game.sample_chance(state, rng)
        exact = {tuple(t.count("S") for t in o): float(p) for o, p in game.chance_outcomes(state)}
        samples = 3000
        keys = jax.random.split(jax.random.PRNGKey(len(exact)), samples)
        eels, snakes = sample(row, jnp.asarray(counts), keys)
        drawn = np.asarray(eels) + np.asarray(snakes)
        assert (drawn == np.maximum(counts, 0)).all()
        seen = Counter(map(tuple, np.asarray(snakes).tolist()))
        merged: Counter[tuple[int, ...]] = Counter()
        for key, probability in exact.items():
            merged[key] += probability
        distance = 0.5 * sum(abs(seen[key] / samples - merged[key]) for key in set(seen) | set(merged))
        assert distance < 0.05, (draw, distance)
        state = game.apply_chance(state, outcome)
        e = np.array([len(t) - t.count("S") for t in outcome], np.int32)
        k = np.array([t.count("S") for t in outcome], np.int32)
        row = resolve(row, jnp.asarray(counts), jnp.asarray(e), jnp.asarray(k))
        if game.node_kind(state) is NodeKind.TERMINAL:
            break


@pytest.mark.slow
def test_whole_games_under_jit_and_vmap_end_with_winners() -> None:
    game = make_game(("wriggle-roulette", 4, {}))
    engine = EelJax(game)
    step = jax.jit(jax.vmap(engine.step))
    choose = jax.jit(jax.vmap(engine.random_actions))
    rows = jnp.stack([engine.init()] * 16)
    key = jax.random.PRNGKey(0)
    for _ in range(400):
        key, pick, chance = jax.random.split(key, 3)
        rows = step(rows, choose(rows, jax.random.split(pick, 16)), jax.random.split(chance, 16))
        if bool((rows[:, OVER] == 1).all()):
            break
    final = np.asarray(rows)
    assert (final[:, OVER] == 1).all()
    assert (final[:, WINNER : WINNER + MAX_SEATS].sum(axis=1) >= 1).all()
