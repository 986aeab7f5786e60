"""The JAX Eel family engine equals the rules engine (CPU; needs the ``jax`` extra).

As for the numba kernel, on the equality harness (``gamebag.equality``, adapter
``jax_replays.EelJaxReplay``): rules-engine games are replayed through the JAX ``resolve`` with
the same choices and draws, and every field of the position row, every seat's observation
(to float32 rounding), the seats to act and the returns are compared. The JAX draw is checked against the rules
engine's exact chance distribution, and whole random games run under ``jit`` and ``vmap``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from eel_helpers import make_game

from equality_sets import EEL_JAX, OptionSet
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import Rng, derive_rng
from gamebag.equality import replay
from gamebag.fast.eel.layout import MAX_SEATS, OVER, WINNER

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax_replays import EelJaxReplay  # noqa: E402

from gamebag.fast.jax.eel import EelJax  # noqa: E402  (needs jax, skipped above without it)

GAMES_EACH = 3


def uniform_legal(game: Any) -> list[list[Any]]:
    """One seating choosing uniformly among each seat's legal counts."""

    def choose(state: Any, seat: int, legal: Sequence[Any], rng: Rng) -> Any:
        return rng.choice(list(legal))

    return [[choose] * game.num_players]


@pytest.mark.parametrize("option_set", EEL_JAX, ids=OptionSet.label)
def test_resolve_replays_rules_engine_games_field_by_field(option_set: OptionSet) -> None:
    game = option_set.make()
    log = replay(game, EelJaxReplay(game), uniform_legal(game), GAMES_EACH, f"jax-eel {option_set.label()}")
    assert not log.problems, "\n".join(log.problems[:5])
    assert log.games == GAMES_EACH
    assert len(log.decisions) > 10 * GAMES_EACH


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
