"""Growth, sowing, harvesting, ploughing over, keeping a character, and winning."""

from __future__ import annotations

import pytest
from kweek_helpers import E, S, act, board, draw, everyone, make, position, slot

from gamebag.core.errors import IllegalActionError, OptionError
from gamebag.games.eigen_kweek import EigenKweek, KweekState, phases
from gamebag.games.eigen_kweek.components import minimal_payments
from gamebag.games.eigen_kweek.state import Draft


def _growth(game: EigenKweek, state: KweekState) -> KweekState:
    """Run from the end of the deal window into the growth window."""
    d = Draft(state)
    phases.begin_growth(game.config, d)
    return d.freeze()


def test_plant_cards_grow_fill_and_stop_when_full() -> None:
    game = make(2)  # capacities 3 / 3 / 6 / 9, growth 1 / 1 / 2 / 3
    state = position(game, phase="deal", step="window", boards=(board(2, 1, 5, 7), board(3, 0, S, E)))
    grown = _growth(game, state)
    assert grown.boards == ((3, 2, 6, 9), (3, 1, S, E))  # the 6 and 8 cards stop at 6 and 9
    grown = _growth(game, grown)
    assert grown.boards == ((3, 3, 6, 9), (3, 2, S, E))
    again = _growth(game, grown)
    assert again.boards == ((3, 3, 6, 9), (3, 3, S, E))  # full cards receive nothing
    assert again.pot == grown.pot - 1


def test_growth_stops_when_the_pot_runs_dry_in_seat_order_cheapest_first() -> None:
    game = make(2)
    state = position(game, phase="deal", step="window", boards=(board(E, E, 0, 0), board(0, E, E, E)),
                     tokens=(60, 54))
    assert state.pot == 2
    grown = _growth(game, state)
    assert grown.boards == ((E, E, 2, 0), (0, E, E, E)) and grown.pot == 0


def test_round_one_has_no_growth_phase() -> None:
    game = make(2)
    state = position(game, round_no=1, phase="deal", step="window", held=(None, None))
    assert _growth(game, state).step == "bid"


def test_sow_one_card_of_each_cost_paying_without_superfluous_coins() -> None:
    game = make(2)
    state = position(game, phase="cultivate", step="cultivate", coins=((3, 3, 1), ()),
                     boards=(board(E, 0, E, E), board(E, E, E, E)))
    legal = game.legal_actions(state, 0)
    assert "sow:6:3+3" in legal and "sow:6:3+3+1" not in legal  # the 1 would be superfluous
    assert "sow:2:3" in legal and "sow:2:1" not in legal
    assert not any(a.startswith("sow:4") for a in legal)  # already has a 4 card
    assert "plough:4:3" in legal and "plough:4:1" not in legal  # plough-over cost of the 4 card is 2
    state = act(game, state, s0="sow:6:3+3", s1="pass")
    assert slot(state, 0, 6) == 0 and game.observation(state, 0)["you"]["coins"] == [1]
    assert state.bag_seen[game.config.values.index(3)] == 2  # everyone saw two 3s go into the bag


def test_minimal_payments_never_include_a_coin_that_could_be_left_out() -> None:
    values = (1, 2, 3, 5)
    for price in range(1, 9):
        for payment in minimal_payments(price, values):
            total = sum(n * v for n, v in zip(payment, values, strict=True))
            smallest = min(v for n, v in zip(payment, values, strict=True) if n)
            assert total >= price and total - smallest < price


def test_harvest_and_plough_over() -> None:
    game = make(2)
    state = position(game, phase="cultivate", step="cultivate", coins=((), (5,)),
                     boards=(board(3, E, E, E), board(E, E, E, 7)))
    assert "harvest:2" in game.legal_actions(state, 0)
    state = act(game, state, s0="harvest:2", s1="plough:8:5")
    assert state.tokens == (13, 17) and slot(state, 0, 2) == 0 and slot(state, 1, 8) == S
    assert state.bag_seen[game.config.values.index(5)] == 1
    # A sack grows no more and cannot be sown again.
    grown = _growth(game, state)
    assert slot(grown, 1, 8) == S and slot(grown, 0, 2) == 1


def test_an_empty_card_cannot_be_harvested_but_may_be_ploughed() -> None:
    game = make(2)
    state = position(game, phase="cultivate", step="cultivate", coins=((1,), ()),
                     boards=(board(0, E, E, E), board(E, E, E, E)))
    legal = game.legal_actions(state, 0)
    assert "harvest:2" not in legal and "plough:2:1" in legal
    with pytest.raises(IllegalActionError, match="harvest:2"):
        game.apply(state, {0: "harvest:2", 1: "pass"})


def test_four_sacks_win_and_end_the_game_at_once() -> None:
    game = make(3)
    state = position(game, phase="cultivate", step="cultivate", coins=((5,), (), ()), held=(None, "KEUN", None),
                     boards=(board(S, S, S, 2), board(S, S, S, 0), board(E, E, E, E)))
    state = act(game, state, s0="plough:8:5", s1="pass", s2="pass")
    assert game.is_terminal(state)
    assert game.winners(state) == (0,) and state.ended_by == "four_sacks"
    assert game.scores(state) == (4.0, 3.0, 0.0) and game.returns(state) == (1.0, 0.0, 0.0)
    assert game.public_view(state)["ended_by"] == "four_sacks"


def test_players_reaching_four_sacks_in_the_same_phase_share_the_win() -> None:
    game = make(3)
    state = position(game, phase="cultivate", step="cultivate", coins=((3, 1), (5,), ()),
                     boards=(board(S, S, S, 2), board(S, S, 0, S), board(E, E, E, E)))
    state = act(game, state, s0="plough:8:3+1", s1="plough:6:5", s2="pass")
    assert game.winners(state) == (0, 1)
    assert game.returns(state) == (0.5, 0.5, 0.0)


def test_keeping_an_unplayed_character_means_no_deal_next_round() -> None:
    game = make(2)
    state = position(game, phase="cultivate", step="cultivate", held=("JOS", "FRANK"))
    state = everyone(game, state)
    assert state.step == "window" and state.phase == "hand_in"
    state = everyone(game, state)
    assert state.step == "keep" and game.acting_players(state) == (0, 1)
    state = act(game, state, s0="keep", s1="hand_in")
    assert state.held == ("JOS", None) and state.kept == (True, False)
    assert "FRANK" in state.stack and "JOS" not in state.stack
    state = draw(game, state, 1, 2, 3, 5)
    # Only seat 1 is dealt two cards; seat 0 plays this round with the kept JOS.
    assert state.step == "deal"
    state = draw(game, state, "KEUN", "RIA")
    assert state.dealt == ((), ("KEUN", "RIA")) and state.step == "choose"
    assert game.acting_players(state) == (1,)
    state = act(game, state, s1="choose:KEUN")
    assert state.held == ("JOS", "KEUN") and "RIA" in state.stack
    assert game.public_view(state)["table"][0]["kept"] is True


def test_played_cards_go_back_to_the_stack_at_hand_in() -> None:
    game = make(2)
    state = position(game, phase="cultivate", step="window", held=("FRANK", None))
    state = act(game, state, s0="play:FRANK")
    state = everyone(game, state)
    assert state.step == "refill" and state.held == (None, None)
    assert len(state.stack) == 14 and state.plays == ()


def test_coin_counts_must_add_up_to_35() -> None:
    with pytest.raises(OptionError, match="35"):
        make(2, coins_worth_1=11)
    game = make(2, coins_worth_1=15, coins_worth_2=10, coins_worth_3=10, coins_worth_5=0)
    assert game.config.values == (1, 2, 3)
