"""Audit: conservation (116 weed tokens, 35 coins, 14 cards) along random games, and options."""

from __future__ import annotations

import pytest
from audit_script import check_conservation

import gamebag
from gamebag.core.errors import GamebagError
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng

CARDS = ("RIA", "KEUN", "FLUPPE", "GRIET", "PASTOOR", "STEVEN", "CHANTAL", "LUCIEN", "STEFAAN",
         "FRANK", "BERNARD", "JOS", "JULITA", "DEN OLLANDER")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", [{}, {"coin_visibility": "open", "stefaan_order": "first"}])
def test_random_games_conserve_tokens_coins_and_cards(players: int, options: dict[str, str]) -> None:
    game = gamebag.make("eigen-kweek", players, **options)
    rng = make_rng(players)
    state = game.initial_state()
    for _ in range(5000):
        check_conservation(game, state)
        cards = [*state.stack, *(c for c in state.held if c), *(c for h in state.dealt for c in h),
                 *(p.card for p in state.plays), *([state.ria_card] if state.ria_card else [])]
        assert sorted(cards) == sorted(CARDS)
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            break
        if kind is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
            continue
        moves = {}
        for seat in game.acting_players(state):
            legal = game.legal_actions(state, seat)
            moves[seat] = legal[rng.randrange(len(legal))]
        state = game.apply(state, moves)
    assert game.node_kind(state) is NodeKind.TERMINAL


def test_coin_options_must_add_up_to_35() -> None:
    with pytest.raises(GamebagError, match="35"):
        gamebag.make("eigen-kweek", 2, coins_worth_1=11)
    game = gamebag.make("eigen-kweek", 2, coins_worth_1=15, coins_worth_2=15, coins_worth_3=5, coins_worth_5=0)
    state = game.initial_state()
    assert sum(state.bag) == 35 and sorted(v for v, _ in game.chance_outcomes(state)) == [1, 2, 3]
