"""The trade phase: sealed bids, the must-bid-one rule, ties, corners piling up."""

from __future__ import annotations

import pytest
from kweek_helpers import act, chance, draw, everyone, make, moves, play, position

from gamebag.core.errors import IllegalActionError, RecordError

# Round 1 of a two-player game up to the sealed bids: coins 1, 2, 3, 5 on corners 1-4, both
# dealt two cards (seat 0 keeps STEVEN, seat 1 FRANK), nobody plays in the deal window.
ROUND_1_TO_BIDS = [
    chance(1), chance(2), chance(3), chance(5),
    chance("STEVEN"), chance("KEUN"), chance("FRANK"), chance("CHANTAL"),
    moves(s0="choose:STEVEN", s1="choose:FRANK"),
    moves(s0="pass", s1="pass"),
]


def test_setup_puts_four_coins_on_the_table_and_ten_tokens_with_each_player() -> None:
    game, state = play(4, [chance(1), chance(2), chance(3), chance(5)])
    assert state.tokens == (10, 10, 10, 10) and state.pot == 76
    assert [sum(c) for c in state.corners] == [1, 1, 1, 1]
    assert sum(state.bag) == 31 and state.step == "deal" and state.round_no == 1
    view = game.observation(state, 0)
    assert view["corners"] == [1, 1, 1, 1]  # counts only: the coins lie face down


def test_a_player_with_tokens_must_bid_at_least_one() -> None:
    game, state = play(2, ROUND_1_TO_BIDS)
    assert state.step == "bid"  # round 1 has no growth phase
    assert game.legal_actions(state, 0) == tuple(f"bid:{n}" for n in range(1, 11))
    with pytest.raises(RecordError, match="bid:0"):
        play(2, [*ROUND_1_TO_BIDS, moves(s0="bid:0", s1="bid:2")])
    with pytest.raises(RecordError, match="bid:11"):
        play(2, [*ROUND_1_TO_BIDS, moves(s0="bid:11", s1="bid:2")])


def test_a_player_without_tokens_bids_nothing_and_takes_nothing() -> None:
    game = make(2)
    state = position(game, phase="trade", step="bid", tokens=(0, 5))
    assert game.legal_actions(state, 0) == ("bid:0",)
    state = act(game, state, s0="bid:0", s1="bid:1")
    state = everyone(game, state) if state.step == "window" else state
    assert state.trade is not None and state.trade.order == (1,)


def test_tied_bids_take_nothing_and_get_their_tokens_back() -> None:
    _, state = play(2, [*ROUND_1_TO_BIDS, moves(s0="bid:3", s1="bid:3"),
                        moves(s0="pass", s1="pass")])
    assert state.trade is not None and state.trade.order == ()
    assert state.tokens == (10, 10) and state.pot == 96
    # Nobody took a corner: every coin is still on the table.
    assert [sum(c) for c in state.corners] == [1, 1, 1, 1]


def test_highest_bid_chooses_first_and_pays_its_bid() -> None:
    game, state = play(2, [*ROUND_1_TO_BIDS, moves(s0="bid:2", s1="bid:4"),
                           moves(s0="pass", s1="pass")])
    assert state.step == "corner" and state.chooser == 1
    assert game.legal_actions(state, 1) == ("corner:1", "corner:2", "corner:3", "corner:4")
    state = act(game, state, s1="corner:4")
    assert state.chooser == 0 and game.legal_actions(state, 0) == ("corner:1", "corner:2", "corner:3")
    state = act(game, state, s0="corner:2")
    assert state.tokens == (8, 6) and state.pot == 96 + 6
    assert game.observation(state, 1)["you"]["coins"] == [5]
    assert game.observation(state, 0)["you"]["coins"] == [2]
    # The other player's coin values are hidden; only the count shows.
    assert game.observation(state, 0)["table"][1]["coins"] == 1
    assert "coin_values" not in game.observation(state, 0)["table"][1]


def test_corners_nobody_takes_keep_their_coins_and_coins_pile_up() -> None:
    game = make(2)
    state = position(game, phase="trade", step="bid", round_no=3,
                     corners=((1,), (2, 2), (3,), (5,)))
    state = act(game, state, s0="bid:2", s1="bid:5")
    state = everyone(game, state) if state.step == "window" else state
    state = act(game, state, s1="corner:2")
    state = act(game, state, s0="corner:4")
    assert [sum(c) for c in state.corners] == [1, 0, 1, 0]
    # Cultivate (everyone passes), hand in, then four coins refill corners 1-4 on top.
    state = everyone(game, state)  # cultivate window has no holders: this is the cultivate step
    assert state.step == "refill"
    state = draw(game, state, 1, 1, 2, 3)
    assert [sum(c) for c in state.corners] == [2, 1, 2, 1]
    assert state.round_no == 4


def test_the_bag_fills_what_it_can() -> None:
    game = make(2)
    state = position(game, phase="cultivate", step="cultivate", round_no=3,
                     coins=((1,) * 10 + (2,) * 10 + (3,) * 10 + (5,) * 3, ()),
                     corners=((), (), (), ()))
    assert sum(state.bag) == 2
    state = everyone(game, state)
    state = draw(game, state, 5, 5)
    assert [sum(c) for c in state.corners] == [1, 1, 0, 0]
    assert state.step == "deal" and state.round_no == 4
    empty = position(game, phase="cultivate", step="cultivate", round_no=3,
                     coins=((1,) * 10 + (2,) * 10 + (3,) * 10 + (5,) * 5, ()),
                     corners=((), (), (), ()))
    after = everyone(game, empty)
    assert after.step == "deal" and after.round_no == 4 and "coin bag is empty" in " ".join(after.last_log)


def test_bids_stay_sealed_during_the_trade_window() -> None:
    game = make(2)
    state = position(game, phase="trade", step="bid", held=("STEVEN", None))
    state = act(game, state, s0="bid:3", s1="bid:4")
    assert state.step == "window" and game.acting_players(state) == (0,)
    mine, theirs = game.observation(state, 0), game.observation(state, 1)
    assert mine["you"]["sealed_bid"] == 3 and theirs["you"]["sealed_bid"] == 4
    assert mine["trade"] is None
    assert theirs["table"][0]["hand_sealed"] is True


def test_a_fourth_corner_choice_with_one_corner_left_is_taken_automatically() -> None:
    game = make(4)
    state = position(game, phase="trade", step="bid", corners=((1,), (2,), (3,), (5,)))
    state = act(game, state, s0="bid:4", s1="bid:3", s2="bid:2", s3="bid:1")
    state = act(game, state, s0="corner:1")
    state = act(game, state, s1="corner:2")
    state = act(game, state, s2="corner:3")
    assert state.step == "cultivate" and sum(state.coins[3]) == 1
    with pytest.raises(IllegalActionError):
        game.apply(state, {0: "corner:4"})
