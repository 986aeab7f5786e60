"""The compiled Eigen Kweek engine is the rules engine: replayed games, decisions, tensors, distributions.

``kweek_replay.replay`` compares the full position after every step, every menu,
every observation tensor, conservation, and each heuristic decision with its random
draws. Here a few games per option set (the suite's share); ``bench/kweek_equality.py``
replays 1,000 games per option set.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kweek_replay import replay

import gamebag
from equality_sets import EQUALITY_SETS
from gamebag.core.engines import ANY
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng
from gamebag.fast.eigen_kweek import layout as L
from gamebag.fast.eigen_kweek.engine import EigenKweekEngine, parse_agent
from gamebag.fast.eigen_kweek.observe import OBSERVATION_SIZE
from gamebag.fast.registry import engine_for, unavailable_reason
from gamebag.games.eigen_kweek import components as C
from gamebag.games.eigen_kweek.nodes import Phase, Step
from gamebag.games.eigen_kweek.views import _SIZE

# Option sets the replays cover (bench/kweek_equality.py replays 1,000 games of each).
OPTION_SETS: list[dict[str, Any]] = [option_set.options for option_set in EQUALITY_SETS["numba"]["eigen-kweek"]]
AGENT_CHOICES = ("random", "heuristic", "heuristic:abstain={}")


def mixed_agents(players: int, *path: Any) -> list[str]:
    """Random, heuristic and abstaining seats (random seats reach the odd corners of the rules)."""
    rng = derive_rng("kweek-agents", *path)
    agents = []
    for _ in range(players):
        spec = rng.choice(AGENT_CHOICES)
        agents.append(spec.format(rng.choice(C.CARDS) + "+" + rng.choice(C.CARDS)))
    return agents


def test_layout_numbers_are_the_rules_engines() -> None:
    assert L.CARD_NAMES == C.CARDS
    assert tuple(Phase) == L.PHASE_NAMES
    assert tuple(Step) == L.STEP_NAMES
    assert L.PLANT_COSTS == C.PLANT_COSTS
    assert tuple(C.GROWTH[c] for c in C.PLANT_COSTS) == L.GROWTH
    assert (L.TOTAL_TOKENS, L.START_TOKENS, L.SACKS_TO_WIN, L.CORNERS) == (
        C.TOTAL_TOKENS, C.START_TOKENS, C.SACKS_TO_WIN, C.CORNERS,
    )  # fmt: skip
    assert (C.EMPTY, C.SACK, len(C.COIN_VALUES), len(C.CARDS)) == (L.EMPTY, L.SACK, L.VALUES, L.NCARDS)
    assert [C.CARD_PHASE[c] for c in C.CARDS] == [None if p < 0 else tuple(Phase)[p] for p in L.CARD_PHASE]
    assert [L.CARD_NAMES[c] for c in sorted(range(14), key=L.ALPHA_RANK.__getitem__)] == sorted(C.CARDS)
    assert OBSERVATION_SIZE == _SIZE
    assert all(C.ENGINES.table[spec.name] == {"numba": ANY} for spec in C.OPTION_SPECS)


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_replayed_games_match_step_by_step(index: int) -> None:
    """Two games per player count and option set; one of them compares observation tensors too."""
    checked = {"heuristic": 0, "random": 0, "decisions": 0}
    random_seats = 0
    for players in (2, 3, 4):
        game = gamebag.make("eigen-kweek", players, **OPTION_SETS[index])
        for number in range(2):
            agents = mixed_agents(players, index, number)
            random_seats += agents.count("random")
            done = replay(game, agents, index, number, observe=number == 0)
            for key in checked:
                checked[key] += done[key]
    assert checked["decisions"] > 100 and checked["heuristic"] > 50
    assert checked["random"] > 20 or random_seats == 0


def test_every_seat_holds_every_card_in_the_replayed_games() -> None:
    held: set[tuple[int, str]] = set()
    game = gamebag.make("eigen-kweek", 4)
    number = 0
    while len(held) < 4 * len(C.CARDS) and number < 40:
        replay(game, mixed_agents(4, "held", number), "held", number, observe=False, held=held)
        number += 1
    assert len(held) == 4 * len(C.CARDS), sorted(set((s, c) for s in range(4) for c in C.CARDS) - held)


def test_heuristic_games_match_the_rules_engine_in_distribution() -> None:
    """Mean rounds and seat 0's win share of compiled heuristic games against rules-engine ones."""
    from gamebag.agents.heuristics.eigen_kweek import EigenKweekHeuristic
    from gamebag.sim.play import play_game

    game = gamebag.make("eigen-kweek", 3)
    agents = [EigenKweekHeuristic() for _ in range(3)]
    rounds = [
        play_game(game, agents, derive_rng("kweek-dist", number), keep_record=False).rounds for number in range(60)
    ]
    fast = EigenKweekEngine().play(game, ["heuristic"] * 3, "kweek-dist", 0, 3000)
    rules_mean = float(np.mean(rounds))
    spread = float(np.std(fast.length)) / np.sqrt(len(rounds))
    assert abs(rules_mean - float(fast.length.mean())) < 4 * spread + 0.05
    assert np.allclose(fast.returns.sum(axis=1), 1.0)
    assert abs(fast.returns[:, 0].mean() - 1 / 3) < 0.04


def test_engine_is_chosen_and_refuses_what_it_does_not_know() -> None:
    game = gamebag.make("eigen-kweek", 4)
    assert engine_for(game, ["heuristic", "random", "heuristic:abstain=KEUN+JULITA", "heuristic"]) is not None
    assert "no compiled policy" in (unavailable_reason(game, ["ismcts"] * 4) or "")
    assert "not a character card" in (unavailable_reason(game, ["heuristic:abstain=BOB"] * 4) or "")
    assert parse_agent("heuristic:abstain=keun+den ollander") == (1, (1 << 1) | (1 << 13))
    assert isinstance(parse_agent("random:abstain=KEUN"), str)


def test_card_records_and_step_batch_play_the_same_games() -> None:
    game = gamebag.make("eigen-kweek", 4)
    agents = ["heuristic", "random", "heuristic:abstain=STEVEN", "heuristic"]
    result = EigenKweekEngine().play(game, agents, 7, 5, 13)
    chose = result.cards[:, :, 0]
    assert ((chose >= -1) & (chose < 14)).all() and (chose[:, 0] >= 0).all()  # round 1: everyone chooses
    assert not np.any(result.cards[:, :, 1, 2] & (1 << 5))  # the abstaining seat never plays STEVEN
    batch = EigenKweekEngine().step_batch(game, 8)
    batch.reset(7, first_index=5)
    finished = np.zeros(8, np.bool_)
    rewards = np.zeros((8, 4))
    for _ in range(5000):
        if finished.all():
            break
        batch.step(batch.policy_actions(agents))
        done = batch.done()
        rewards[done & ~finished] = batch.rewards()[done & ~finished]
        finished |= done
    assert finished.all()
    assert np.array_equal(rewards, result.returns)


def test_restarted_games_are_the_runs_next_games() -> None:
    """``reset_done`` returns the finished games, numbers their next games in env order after the
    batch's first ones, and each restarted game is the whole-game kernel's game of that number."""
    game = gamebag.make("eigen-kweek", 3)
    agents = ["heuristic", "random", "heuristic:abstain=KEUN"]
    batch = EigenKweekEngine().step_batch(game, 6)
    batch.reset("restarts", first_index=2)
    next_index = 8
    finished: dict[int, list[float]] = {}
    for _ in range(5000):
        batch.step(batch.policy_actions(agents))
        done, indices, rewards = batch.done(), batch.game_indices(), batch.rewards()
        for env in np.flatnonzero(done):
            finished[int(indices[env])] = rewards[env].tolist()
        restarted = batch.reset_done()
        assert np.array_equal(restarted, done) and not batch.done().any()
        count = int(done.sum())
        assert np.array_equal(batch.game_indices()[done], np.arange(next_index, next_index + count))
        assert np.array_equal(batch.game_indices()[~done], indices[~done])
        next_index += count
        if len(finished) >= 24:
            break
    assert max(finished) >= 14  # games that began with a restart
    played = EigenKweekEngine().play(game, agents, "restarts", 2, max(finished) + 1)
    for index, rewards in finished.items():
        assert rewards == pytest.approx(played.returns[index - 2].tolist())


def test_playout_from_a_rules_engine_position() -> None:
    game = gamebag.make("eigen-kweek", 3)
    state = game.initial_state()
    rng = derive_rng("kweek-playout")
    while game.node_kind(state) is NodeKind.CHANCE or state.round_no < 3:
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, {s: game.legal_actions(state, s)[0] for s in game.acting_players(state)})
    shares = EigenKweekEngine().playout(game, state, ["heuristic"] * 3, 11)
    assert shares is not None and abs(sum(shares) - 1.0) < 1e-9


def test_vector_env_runs_on_the_compiled_step_batch() -> None:
    from gamebag.fast.eigen_kweek.steps import KweekStepBatch
    from gamebag.interop.vector_env import BatchEnv

    env = BatchEnv("eigen-kweek", 2, 3)
    assert isinstance(env.batch, KweekStepBatch)


def test_step_checks_actions_as_the_menus_list_them() -> None:
    """``step``'s check (cultivation read off the board, no menu listed) accepts exactly the menu;
    a policy's own choices skip it only unchanged and only for the positions they were made in."""
    from gamebag.fast.eigen_kweek.steps import is_legal

    game = gamebag.make("eigen-kweek", 4)
    batch = EigenKweekEngine().step_batch(game, 32)
    batch.reset("legal-check")
    w = np.zeros(L.SCRATCH, np.int64)
    row = np.zeros(L.WIDTH, np.int32)
    checked = 0
    for _ in range(120):
        masks = batch.legal_mask()
        states = batch.state_arrays()["state"]
        for env in np.flatnonzero(states[:, L.STEP] == L.ST_CULTIVATE)[:4]:
            row[: L.RULES_WIDTH] = states[env]
            for seat in np.flatnonzero(masks[env].any(axis=1)):
                for action in range(-1, batch.num_actions + 1):
                    legal = 0 <= action < batch.num_actions and masks[env, seat, action]
                    assert is_legal(row, batch.cfg, batch.acts, batch.pays, seat, action, w) == legal
                    checked += 1
        batch.step(batch.policy_actions(["random"] * 4))
        batch.reset_done()
    assert checked > 10_000
    joint = batch.policy_actions(["random"] * 4)
    env, seat = np.argwhere(batch.to_act())[0]
    changed = joint.copy()
    changed[env, seat] = np.flatnonzero(~batch.legal_mask()[env, seat])[0]
    with pytest.raises(ValueError, match="is not legal"):
        batch.step(changed)
    batch.step(joint)
    masks, acting = batch.legal_mask(), batch.to_act()
    stale = acting & ~np.take_along_axis(masks, joint[:, :, None], axis=2)[:, :, 0]
    assert stale.any()
    with pytest.raises(ValueError, match="is not legal"):
        batch.step(joint)  # the same choices, for positions they were not made in
