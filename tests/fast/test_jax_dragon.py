"""The JAX Catch A Dragon engine equals the rules engine (CPU; needs the ``jax`` extra).

As for the numba kernel, on the equality harness (``gamebag.equality``, adapter
``jax_replays.DragonJaxReplay``): rules-engine games (every option, one to eight players) are
replayed through the JAX ``apply_roll`` and ``apply_action`` with the same rolls and
choices, and the whole row compared after every event, with the seat to act, the legal
actions, every seat's observation and the returns; the compiled heuristic is checked
against the heuristic agent; whole JAX games under ``jit`` and ``vmap`` agree in
distribution with rules-engine games (Holm-corrected); and stepping keeps the scores
honest (every point banked is the finished turn's points).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from replays import seatings_of

import gamebag
from equality_sets import DRAGON_JAX, rules_games_for_power
from gamebag.equality import comparisons, holm_failures, play_rules, replay
from gamebag.fast import dragon as fast_dragon
from gamebag.fast.base import BatchResult

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax_replays import DragonJaxReplay  # noqa: E402

from gamebag.fast.jax.dragon import DragonJax  # noqa: E402  (needs jax, skipped above without it)

# (players, options, seat agents cycled over the replayed games): every option at least once.
OPTION_SETS: list[tuple[int, dict[str, Any], tuple[tuple[str, ...], ...]]] = [
    (option_set.players, option_set.options, option_set.seatings) for option_set in DRAGON_JAX
]


def label(case: tuple[int, dict[str, Any], Any]) -> str:
    players, options, _ = case
    return f"{players}p " + (",".join(f"{k}={v}" for k, v in options.items()) or "defaults")


def replay_jax(case: tuple[int, dict[str, Any], tuple[tuple[str, ...], ...]], games: int, seed: str) -> int:
    """Replay rules-engine games through the JAX functions on the equality harness; returns the decisions."""
    players, options, seatings = case
    game = gamebag.make("catch-a-dragon", players, **options)
    log = replay(game, DragonJaxReplay(game), seatings_of(game, seatings), games, seed)
    assert not log.problems, "\n".join(log.problems[:5])
    assert log.games == games
    return len(log.decisions)


# The quick replays: two players at the defaults, and every option changed at once (each
# configuration compiles its own functions, which costs most of a quick replay's time).
QUICK = [OPTION_SETS[0], OPTION_SETS[6]]


@pytest.mark.parametrize("case", QUICK, ids=label)
def test_exact_replay_of_rules_engine_games(case: tuple[int, dict[str, Any], tuple[tuple[str, ...], ...]]) -> None:
    assert replay_jax(case, 3, f"jax replay {label(case)}") >= 3


@pytest.mark.slow
@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
def test_exact_replay_of_many_rules_engine_games(
    case: tuple[int, dict[str, Any], tuple[tuple[str, ...], ...]],
) -> None:
    assert replay_jax(case, 40, f"jax long replay {label(case)}") >= 40


def jax_results(engine: DragonJax, policies: tuple[str, ...], games: int, seed: int) -> BatchResult:
    """Whole JAX games as the batch result the distribution checks read."""
    play = jax.jit(engine.play_games, static_argnums=(1, 2))
    rows = np.asarray(play(jax.random.PRNGKey(seed), games, policies))
    assert (rows[:, fast_dragon.PHASE] == fast_dragon.OVER).all()
    returns = np.asarray(jax.vmap(engine.returns)(jnp.asarray(rows)), np.float64)
    n = engine.num_players
    scores = rows[:, fast_dragon.SCORES : fast_dragon.SCORES + n]
    return BatchResult.seat_zero_starts(0, scores, returns, rows[:, fast_dragon.ROUND])


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
    cases: list[tuple[int, dict[str, Any], tuple[str, ...], int]] = [
        (2, {}, ("heuristic", "random"), 1500),
        (3, {"duplicate_bust": "none-new", "dice": 5}, ("random", "heuristic", "heuristic"), 1000),
        (4, {"max_tiebreak_rounds": 0, "rounds": 2, "cyclic": False}, ("random",) * 4, 1000),
    ]
    for number, (players, options, agents, games) in enumerate(cases):
        game = gamebag.make("catch-a-dragon", players, **options)
        fast = jax_results(DragonJax(game), agents, JAX_GAMES, number)
        rules = play_rules(game, seatings_of(game, [agents])[0], rules_games(games), "jax distributions")
        p_values.update(comparisons(fast, rules, f"{players}p {options} {agents}"))
    assert not holm_failures(p_values, 0.001), holm_failures(p_values, 0.001)


def test_the_comparison_notices_a_different_policy() -> None:
    """The distribution checks have power: JAX heuristic play is not mistaken for random play."""
    game = gamebag.make("catch-a-dragon", 2)
    fast = jax_results(DragonJax(game), ("heuristic", "heuristic"), 4000, 7)
    rules = play_rules(game, seatings_of(game, [("random", "random")])[0], 300, "jax power")
    assert holm_failures(comparisons(fast, rules, "different"), 0.001)


def test_stepping_banks_exactly_each_turns_points() -> None:
    """Under ``jit`` and ``vmap``: scores grow only by finished turns' points, and the leaders win."""
    game = gamebag.make("catch-a-dragon", 3, dice=5, duplicate_bust="none-new")
    engine = DragonJax(game)
    batch = 24
    init = jax.jit(jax.vmap(engine.init))
    step = jax.jit(jax.vmap(engine.step))
    choose = jax.jit(jax.vmap(engine.random_actions))
    key = jax.random.PRNGKey(5)
    key, first = jax.random.split(key)
    rows = init(jax.random.split(first, batch))
    scores = slice(fast_dragon.SCORES, fast_dragon.SCORES + 3)
    for _ in range(engine.max_decisions):
        before = np.asarray(rows)
        if (before[:, fast_dragon.PHASE] == fast_dragon.OVER).all():
            break
        key, pick, chance = jax.random.split(key, 3)
        actions = choose(rows, jax.random.split(pick, batch))
        rows = step(rows, actions, jax.random.split(chance, batch))
        after = np.asarray(rows)
        gained = after[:, scores] - before[:, scores]
        # The rolls after a decision bank nothing (a bust scores 0), so the decision's seat
        # banks exactly the points of the turn the decision ended, and nobody else anything.
        for i in range(batch):
            expected = np.zeros(3, np.int64)
            seat = before[i, fast_dragon.SEAT]
            if before[i, fast_dragon.PHASE] != fast_dragon.OVER:
                expected[seat] = turn_points(engine, before[i], int(actions[i, seat]))
            assert (gained[i] == expected).all(), (before[i].tolist(), int(actions[i, seat]), gained[i].tolist())
        live = before[:, fast_dragon.PHASE] != fast_dragon.OVER
        assert (after[~live] == before[~live]).all()
    final = np.asarray(rows)
    assert (final[:, fast_dragon.PHASE] == fast_dragon.OVER).all()
    for i in range(batch):
        best = final[i, scores].max()
        leaders = sum(1 << p for p in range(3) if final[i, fast_dragon.SCORES + p] == best)
        assert final[i, fast_dragon.WINNERS] == leaders


def turn_points(engine: DragonJax, row: np.ndarray, action: int) -> int:
    """The points ``action`` banks at ``row``: a stop banks the set, a collection of the last dice the full set."""
    held = row[fast_dragon.COLLECTED : fast_dragon.COLLECTED + 6]
    if row[fast_dragon.PHASE] == fast_dragon.DECIDING:
        after = held if action == fast_dragon.STOP else None
    else:
        taken = held + engine.takes[action]
        after = taken if taken.sum() == engine.dice else None
    if after is None:
        return 0
    faces = tuple(face + 1 for face in range(6) for _ in range(int(after[face])))
    return int(engine.points[fast_dragon.set_code(faces)])


def test_a_policy_list_that_does_not_fit_is_refused() -> None:
    engine = DragonJax(gamebag.make("catch-a-dragon", 3))
    with pytest.raises(ValueError, match="one policy per seat"):
        engine.play_games(jax.random.PRNGKey(0), 2, ("random", "heuristic"))
