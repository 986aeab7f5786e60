"""Menus longer than any default game lists: the kernels hold every one of them, in the rules' order.

With ploughs at the options' 20 and all five coin values in play, a rich seat's cultivate menu
lists hundreds of payments; the kernels' scratch (``layout.MAX_LEGAL``) must hold the longest
one any configuration allows, and ``tables.kernel_tables`` would refuse one that it could not.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

import gamebag
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng
from gamebag.fast.eigen_kweek import layout as L
from gamebag.fast.eigen_kweek.policies import menu, random_choice
from gamebag.fast.eigen_kweek.steps import is_legal
from gamebag.fast.eigen_kweek.tables import kernel_tables, longest_cultivate_menu, row_from_state
from gamebag.games.eigen_kweek import components as C
from gamebag.games.eigen_kweek.nodes import Step

DEAREST = {f"plough_cost_{cost}": 20 for cost in C.PLANT_COSTS}
EVERY_VALUE = {f"coins_worth_{value}": 7 for value in C.COIN_VALUES}


def test_the_scratch_holds_the_longest_menu_of_any_configuration() -> None:
    """Payments depend on the prices and the coin values in play only: try every set of values."""
    longest = 0
    for size in range(1, len(C.COIN_VALUES) + 1):
        for values in itertools.combinations(C.COIN_VALUES, size):
            per_price = [len(C.minimal_payments(price, values)) for price in range(1, 21)]
            sow = [len(C.minimal_payments(cost, values)) for cost in C.PLANT_COSTS]
            longest = max(longest, 2 + sum(max(s, 1 + max(per_price)) for s in sow))
    assert 900 < longest <= L.MAX_LEGAL
    game = gamebag.make("eigen-kweek", 4, **DEAREST, **EVERY_VALUE)
    pays = kernel_tables(game)[2]
    rows = [int(pays[r, 0]) for r in range(L.PAY_ROWS)]
    assert longest_cultivate_menu(rows) == longest


def _rich_cultivate_position(game: Any) -> Any:
    """A cultivate step where seat 0 holds all 35 coins and has all four plant cards growing."""
    rng = derive_rng("kweek-long-menus")
    state = game.initial_state()
    while game.node_kind(state) is NodeKind.CHANCE or state.step is not Step.CULTIVATE:
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, {s: game.legal_actions(state, s)[0] for s in game.acting_players(state)})
    counts = [sum(column) for column in zip(*state.coins, *state.corners, state.bag, strict=True)]
    nobody = tuple(0 for _ in counts)
    laid = sum(max(slot, 0) for slot in state.boards[0])
    return state._replace(
        coins=(tuple(counts), *(nobody for _ in state.coins[1:])),
        corners=tuple(nobody for _ in state.corners),
        bag=nobody,
        boards=((1, 1, 1, 1), *state.boards[1:]),
        pot=state.pot + laid - 4,
    )


def test_a_cultivate_menu_of_hundreds_of_actions_matches_the_rules_engine() -> None:
    game = gamebag.make("eigen-kweek", 4, **DEAREST, **EVERY_VALUE)
    state = _rich_cultivate_position(game)
    names = list(game.all_actions())
    legal = list(game.legal_actions(state, 0))
    assert len(legal) > 2 * 160  # past the scratch's old size for two menus
    cfg, acts, pays = kernel_tables(game)
    row = np.zeros(L.WIDTH, np.int32)
    row[: L.RULES_WIDTH] = row_from_state(game, state)[: L.RULES_WIDTH]
    w = np.zeros(L.SCRATCH, np.int64)
    count = menu(row, cfg, acts, pays, 0, w, L.W_LEGAL)
    assert [names[a] for a in w[L.W_LEGAL : L.W_LEGAL + count]] == legal
    allowed = {names.index(name) for name in legal}
    assert all(is_legal(row, cfg, acts, pays, 0, a, w) == (a in allowed) for a in range(len(names)))
    key, counter = np.uint64(7), np.zeros(1, np.uint64)
    picks = {random_choice(row, cfg, acts, pays, 0, key, counter, w) for _ in range(3000)}
    assert picks <= allowed and len(picks) > len(allowed) // 2
