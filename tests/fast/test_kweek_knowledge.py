"""Whole Eigen Kweek games play the same with and without knowledge tracking.

The kernels keep who knows which card (``KNOW``, ``STACK_KNOWN``) as the rules engine
does, for observations; whole games without a ``learned`` seat turn it off
(``C_TRACK_KNOWLEDGE``). No rule and no compiled random or heuristic decision may read
it, so every game must end in the same position but for those fields.
"""

from __future__ import annotations

import numpy as np
import pytest

from equality_sets import EQUALITY_SETS
from gamebag.fast.eigen_kweek import layout as L
from gamebag.fast.eigen_kweek.batch import play_out
from gamebag.fast.eigen_kweek.engine import EigenKweekEngine
from gamebag.fast.eigen_kweek.learned import Net
from gamebag.fast.eigen_kweek.tables import kernel_tables, row_from_state
from gamebag.fast.rng import game_key

KNOWLEDGE = np.zeros(L.WIDTH, np.bool_)
KNOWLEDGE[L.KNOW : L.KNOW + 16] = True
KNOWLEDGE[L.STACK_KNOWN : L.STACK_KNOWN + L.MAX_SEATS * L.PLACES] = True
LINEUPS = (
    ("random", "heuristic", "heuristic:abstain=JULITA+RIA", "random"),
    ("heuristic", "heuristic:abstain=DEN OLLANDER", "random", "heuristic:abstain=PASTOOR+KEUN"),
)


@pytest.mark.parametrize("option_set", EQUALITY_SETS["numba"]["eigen-kweek"], ids=lambda s: s.label())
def test_games_end_alike_with_and_without_knowledge(option_set) -> None:  # type: ignore[no-untyped-def]
    game = option_set.make()
    cfg, acts, pays = kernel_tables(game)
    assert cfg[L.C_TRACK_KNOWLEDGE] == 1  # what every step-by-step comparison with the rules engine runs
    quiet = cfg.copy()
    quiet[L.C_TRACK_KNOWLEDGE] = 0
    engine = EigenKweekEngine()
    net = Net.none()
    start = row_from_state(game, game.initial_state())
    knowledge_differed = 0
    for index in range(40):
        lineup = LINEUPS[index % 2][: game.num_players]
        codes, masks = engine._agents(lineup)
        key = np.uint64(game_key(np.uint64(11), np.int64(index)))
        kept, dropped = start.copy(), start.copy()
        assert play_out(kept, cfg, acts, pays, codes, masks, key, net.values, net.shape)
        assert play_out(dropped, quiet, acts, pays, codes, masks, key, net.values, net.shape)
        rules = slice(0, L.RULES_WIDTH)
        assert np.array_equal(kept[rules][~KNOWLEDGE[rules]], dropped[rules][~KNOWLEDGE[rules]]), index
        assert not dropped[KNOWLEDGE].any()
        knowledge_differed += int(kept[KNOWLEDGE].any())
    # The switch is not vacuous: with tracking on, games end with someone knowing something.
    assert knowledge_differed > 0
