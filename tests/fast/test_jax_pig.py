"""The JAX Pig engine equals the rules engine (CPU; needs the ``jax`` extra).

As for the numba kernel, on the equality harness (``gamebag.equality``, adapter
``jax_replays.PigJaxReplay``): rules-engine games are replayed through the JAX ``apply_roll``
and ``apply_action`` with the same choices and faces, and the whole row compared after every
event, with the seat to act, the legal actions, every seat's observation and the returns;
the compiled heuristic is checked against the heuristic agent; whole JAX games under ``jit``
and ``vmap`` agree in distribution with rules-engine games (Holm-corrected); and stepping
keeps the scores honest (a hold banks exactly the turn's total, a bust banks nothing).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from replays import seatings_of

import gamebag
from equality_sets import PIG_JAX, rules_games_for_power
from gamebag.equality import comparisons, holm_failures, play_rules, replay
from gamebag.fast import pig as fast_pig
from gamebag.fast.base import BatchResult

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax_replays import PigJaxReplay  # noqa: E402

from gamebag.fast.jax.pig import PigJax  # noqa: E402  (needs jax, skipped above without it)

OPTION_SETS: list[dict[str, Any]] = [option_set.options for option_set in PIG_JAX]
SEATINGS = PIG_JAX[0].seatings


def label(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def replay_jax(options: dict[str, Any], games: int, seed: str) -> int:
    """Replay rules-engine games through the JAX functions on the equality harness; returns the events."""
    game = gamebag.make("pig", **options)
    log = replay(game, PigJaxReplay(game), seatings_of(game, SEATINGS), games, seed)
    assert not log.problems, "\n".join(log.problems[:5])
    assert log.games == games
    return log.steps


@pytest.mark.parametrize("options", [OPTION_SETS[0], OPTION_SETS[2]], ids=label)
def test_exact_replay_of_rules_engine_games(options: dict[str, Any]) -> None:
    assert replay_jax(options, 12, f"jax replay {label(options)}") > 12 * 3


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=label)
def test_exact_replay_of_many_rules_engine_games(options: dict[str, Any]) -> None:
    assert replay_jax(options, 150, f"jax long replay {label(options)}") > 150 * 3


def jax_results(engine: PigJax, policies: tuple[str, str], games: int, seed: int) -> BatchResult:
    """Whole JAX games as the batch result the distribution checks read."""
    play = jax.jit(engine.play_games, static_argnums=(1, 2))
    rows = np.asarray(play(jax.random.PRNGKey(seed), games, policies))
    assert (rows[:, fast_pig.PHASE] == fast_pig.OVER).all()
    returns = np.zeros((games, 2))
    returns[np.arange(games), rows[:, fast_pig.WINNER]] = 1.0
    length = np.asarray(jax.vmap(engine.round_number)(jnp.asarray(rows)), np.int32)
    return BatchResult.seat_zero_starts(0, rows[:, fast_pig.SCORE0 : fast_pig.SCORE1 + 1], returns, length)


# JAX games per case. The tests were designed with 20,000 JAX games beside the rules-engine games
# below; compiling a case's program costs the same at any width but playing costs in proportion
# to it, so fewer JAX games and a few more (cheap) rules-engine games keep each comparison's power
# (equality_sets.rules_games_for_power).
JAX_GAMES = 5000


def rules_games(designed: int) -> int:
    """The rules-engine games that keep the power the case was designed with (beside 20,000 JAX games)."""
    return rules_games_for_power(20_000, designed, JAX_GAMES)


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
        fast = jax_results(PigJax(game), agents, JAX_GAMES, number)
        rules = play_rules(game, seatings_of(game, [agents])[0], rules_games(games), "jax distributions")
        p_values.update(comparisons(fast, rules, f"{options} {agents}"))
    assert not holm_failures(p_values, 0.001), holm_failures(p_values, 0.001)


def test_the_comparison_notices_a_different_policy() -> None:
    """The distribution checks have power: JAX heuristic play is not mistaken for random play."""
    game = gamebag.make("pig", goal=30)
    fast = jax_results(PigJax(game), ("heuristic", "heuristic"), 4000, 7)
    rules = play_rules(game, seatings_of(game, [("random", "random")])[0], 500, "jax power")
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
