"""The compiled Eel heuristic makes the rules-side heuristic's decisions, position by position."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from eel_helpers import OPTION_SETS, expected_row, make_game, option_set_id

from gamebag.agents.base import SeatView
from gamebag.agents.heuristics.eel_family import EelHeuristic
from gamebag.agents.heuristics.eel_family import outbreak_probability as rules_probability
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng
from gamebag.fast.eel.engine import kernel_config
from gamebag.fast.eel.policies import heuristic_choice, outbreak_probability, ratio_correctly_rounded


def test_outbreak_probability_is_bit_for_bit_the_rules_heuristics() -> None:
    checked = 0
    long_division = 0
    for draws in range(1, 23):
        for snakes in range(0, 18):
            for eels in range(0, 52, 3):
                for needed in range(-1, 12):
                    for dice in (False, True):
                        want = rules_probability(draws, eels, snakes, needed, dice)
                        got = outbreak_probability(draws, eels, snakes, needed, dice)
                        assert got == want, (draws, eels, snakes, needed, dice, got, want)
                        checked += 1
                if comb(eels + snakes, min(draws, eels + snakes)) >= 2**53:
                    long_division += 1
    assert checked > 100_000
    assert long_division > 0  # the exact long-division path was exercised


def test_correctly_rounded_ratio_matches_python_division() -> None:
    rng = derive_rng("ratio")
    for _ in range(20_000):
        b = rng.randrange(2**53, 2**64)
        a = rng.randrange(0, b + 1)
        assert ratio_correctly_rounded(np.uint64(a), np.uint64(b)) == a / b, (a, b)
    # Halfway cases round to even, as Python does.
    for b in (2**60 + 1, 3 * 2**58 + 7, 2**63 + 12345):
        for a in (b // 3, b // 2, b - 1, 1):
            assert ratio_correctly_rounded(np.uint64(a), np.uint64(b)) == a / b


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(OPTION_SETS)), ids=[option_set_id(o) for o in OPTION_SETS])
def test_heuristic_decisions_match_in_played_positions(index: int) -> None:
    """Positions from games where heuristic and random seats meet (rich, realistic positions)."""
    game = make_game(OPTION_SETS[index])
    cfg = kernel_config(game)
    agent = EelHeuristic(game.game_id)
    positions = 0
    for number in range(60):
        rng = derive_rng("fast-eel-heuristic", index, number)
        state = game.initial_state()
        random_seats = {seat for seat in range(game.num_players) if rng.random() < 0.3}
        while game.node_kind(state) is not NodeKind.TERMINAL:
            if game.node_kind(state) is NodeKind.CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                continue
            row = expected_row(game, state)
            moves = {}
            for seat in game.acting_players(state):
                want = agent.act(SeatView(game, state, seat), rng)
                got = heuristic_choice(row, cfg, seat)
                assert got == want, f"game {number}, seat {seat}: kernel {got}, rules {want}\n{state}"
                positions += 1
                moves[seat] = rng.randrange(game.max_grab + 1) if seat in random_seats else want
            state = game.apply(state, moves)
    assert positions >= 1000


def test_heuristic_decisions_match_in_random_positions() -> None:
    """Odd positions too: empty bags, scores past the target, lone players, crowded centres."""
    positions = 0
    for index, option_set in enumerate(OPTION_SETS):
        game = make_game(option_set)
        cfg = kernel_config(game)
        agent = EelHeuristic(game.game_id)
        n = game.num_players
        rng = derive_rng("fast-eel-random-positions", index)
        for _ in range(400):
            in_round = tuple(rng.random() < 0.7 for _ in range(n))
            if not any(in_round):
                continue
            state = game.initial_state()._replace(
                scores=tuple(rng.randrange(26) for _ in range(n)),
                reserves=tuple(rng.randrange(15) if inside else 0 for inside in in_round),
                in_round=in_round,
                bag_eels=rng.randrange(52),
                bag_snakes=rng.randrange(18),
                centre=rng.randrange(game.threshold),
            )
            row = expected_row(game, state)
            for seat in game.acting_players(state):
                want = agent.act(SeatView(game, state, seat), rng)
                assert heuristic_choice(row, cfg, seat) == want, (state, seat)
                positions += 1
    assert positions > 5000
