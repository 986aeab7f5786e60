"""Audit: growth, sowing, harvesting and ploughing over (rulebook "Growth" and "Cultivate").

Most records use the option ``coins_worth_5=35`` (every coin worth 5) so that the coin values
drawn never matter; the payment rule is checked with the default coins.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from audit_script import EMPTY, FIVES, SACK, Script, garden, opening, quiet_round

from gamebag.core.errors import IllegalActionError

TIE = {0: 1, 1: 1}  # tied bids: nobody takes a corner, nobody pays
PASS = {0: "pass", 1: "pass"}


def test_sowing_pays_the_cost_into_the_bag_and_lays_an_empty_card() -> None:
    script = opening(2, corners=(2, 1, 5, 1), dealt=("FRANK", "JOS", "BERNARD", "FLUPPE"),
                     chosen=("FRANK", "BERNARD")).quiet_window()
    script.moves(s0="bid:3", s1="bid:2").quiet_window().moves(s0="corner:3").moves(s1="corner:1")
    script.quiet_window()
    assert script.step == "cultivate" and script.acting() == (0, 1)
    # Seat 0 holds a 5: it may sow the 2 or the 4 card (no change is given), not the 6 or 8.
    assert set(script.legal(0)) == {"pass", "sow:2:5", "sow:4:5"}
    assert set(script.legal(1)) == {"pass", "sow:2:2"}
    bag = sum(script.state.bag)
    script.moves(s0="sow:4:5", s1="sow:2:2")
    assert script.slot(0, 4) == 0 and script.slot(1, 2) == 0
    assert script.coin_values(0) == [] and script.coin_values(1) == []
    assert sum(script.state.bag) == bag + 2  # paid coins go back into the coin bag (rulings 1)
    assert sorted(script.game.public_view(script.state)["bag"]["known_values"]) == [2, 5]
    script.replayed()


def test_a_payment_may_not_hold_a_coin_that_could_be_left_out() -> None:
    script = opening(2, corners=(2, 2, 1, 1), dealt=("FRANK", "JOS", "BERNARD", "FLUPPE"),
                     chosen=("FRANK", "BERNARD")).quiet_window()
    quiet_round(script, bids={0: 2, 1: 1}, corners=[(0, 1), (1, 3)], cultivate=PASS, refill=(2, 3, 3, 1))
    # Seat 0 now takes corner 2 (coins 2 and 3): it holds 2, 2, 3.
    quiet_round(script, bids={0: 2, 1: 1}, corners=[(0, 2), (1, 3)], cultivate=PASS, refill=(1, 1, 1, 1))
    assert script.coin_values(0) == [2, 2, 3]
    script.chance("FRANK", "JOS", "BERNARD", "FLUPPE").moves(s0="choose:FRANK", s1="choose:BERNARD")
    script.quiet_window().quiet_window().moves(s0="bid:1", s1="bid:1").quiet_window().quiet_window()
    legal = set(script.legal(0))
    assert {"sow:4:2+2", "sow:6:3+2+2", "sow:2:2", "sow:2:3"} <= legal
    assert "sow:6:3+3" not in legal  # only one 3
    with pytest.raises(IllegalActionError):  # 3+2 already pays 4: the other 2 could be left out
        script.game.apply(script.state, {0: "sow:4:3+2+2", 1: "pass"})
    with pytest.raises(IllegalActionError):  # short of the price
        script.game.apply(script.state, {0: "sow:8:3+2+2", 1: "pass"})


def _quiet(script: Script, rounds: int, cultivate: dict[int, str] | None = None) -> None:
    for _ in range(rounds):
        quiet_round(script, bids=TIE, corners=[], cultivate=cultivate or PASS, refill=(5, 5, 5, 5))


def test_plants_grow_one_one_two_three_from_the_pot_until_full() -> None:
    script = garden()
    boards = []
    pots = []
    for _ in range(4):  # rounds 3, 4, 5 and 6
        script.chance("FRANK", "JOS", "BERNARD", "FLUPPE").moves(s0="choose:FRANK", s1="choose:BERNARD")
        script.quiet_window().quiet_window()  # deal window; growth happened, growth window
        boards.append(script.state.boards)
        pots.append(script.state.pot)
        script.moves(s0="bid:1", s1="bid:1").quiet_window().quiet_window()
        script.moves(s0="pass", s1="pass").quiet_window().everyone("hand_in").chance(5, 5, 5, 5)
    # Round 2 ended with seat 0: 2 card 1 token, 8 card new; seat 1: 4 card 1, 6 card new.
    assert boards == [
        ((2, EMPTY, EMPTY, 3), (EMPTY, 2, 2, EMPTY)),
        ((3, EMPTY, EMPTY, 6), (EMPTY, 3, 4, EMPTY)),
        ((3, EMPTY, EMPTY, 9), (EMPTY, 3, 6, EMPTY)),  # full: 3 / 3 / 6 / 9 (defaults)
        ((3, EMPTY, EMPTY, 9), (EMPTY, 3, 6, EMPTY)),  # a full card receives nothing
    ]
    assert [a - b for a, b in itertools.pairwise(pots)] == [1 + 3 + 1 + 2, 3 + 2, 0]
    script.replayed()


def test_a_full_card_grows_again_once_emptied_and_harvest_takes_all_its_tokens() -> None:
    script = garden()
    _quiet(script, 3)  # rounds 3-5: everything full at the end of round 5's growth
    script.chance("FRANK", "JOS", "BERNARD", "FLUPPE").moves(s0="choose:FRANK", s1="choose:BERNARD")
    script.quiet_window().quiet_window().moves(s0="bid:1", s1="bid:1").quiet_window().quiet_window()
    assert {"harvest:2", "harvest:8"} <= set(script.legal(0))
    tokens = script.state.tokens
    script.moves(s0="harvest:8", s1="harvest:4")
    assert script.state.tokens == (tokens[0] + 9, tokens[1] + 3)
    assert script.slot(0, 8) == 0 and script.slot(1, 4) == 0 and script.slot(0, 2) == 3
    script.quiet_window().everyone("hand_in").chance(5, 5, 5, 5)
    script.chance("FRANK", "JOS", "BERNARD", "FLUPPE").moves(s0="choose:FRANK", s1="choose:BERNARD")
    script.quiet_window()
    assert script.slot(0, 8) == 3 and script.slot(1, 4) == 1 and script.slot(0, 2) == 3
    script.replayed()


def test_harvest_needs_tokens_but_not_a_full_card() -> None:
    script = garden(("FRANK", "JOS", "BERNARD", "FLUPPE"))
    script.quiet_window().quiet_window().moves(s0="bid:1", s1="bid:1").quiet_window().quiet_window()
    # Round 3: seat 0's 2 card holds 2 of 3, its 8 card 3 of 9.
    assert {"harvest:2", "harvest:8"} <= set(script.legal(0))
    assert "harvest:4" not in script.legal(0)  # not seat 0's card
    script.moves(s0="harvest:2", s1="pass")
    assert script.state.tokens[0] == 6 + 2 and script.slot(0, 2) == 0


def test_one_card_of_each_cost_and_plough_over_makes_a_sack_that_no_longer_grows() -> None:
    script = garden(("FRANK", "JOS", "BERNARD", "FLUPPE"))
    script.quiet_window().quiet_window().moves(s0="bid:2", s1="bid:1").quiet_window()
    script.moves(s0="corner:1").moves(s1="corner:3").quiet_window()
    assert script.coin_values(0) == [5, 5]
    legal = set(script.legal(0))
    # The 2 and 8 cards are on the board already: they can't be sown again.
    assert not any(a.startswith(("sow:2:", "sow:8:")) for a in legal)
    assert {"sow:4:5", "sow:6:5+5", "plough:2:5", "plough:8:5", "harvest:2", "harvest:8"} <= legal
    tokens = script.state.tokens[0]
    script.moves(s0="plough:2:5", s1="pass")
    assert script.slot(0, 2) == SACK
    assert script.state.tokens[0] == tokens + 2  # the tokens on it go to the collection
    assert script.coin_values(0) == [5]
    assert script.game.public_view(script.state)["table"][0]["sacks"] == 1
    script.quiet_window().everyone("hand_in").chance(5, 5, 5, 5)
    script.chance("FRANK", "JOS", "BERNARD", "FLUPPE").moves(s0="choose:FRANK", s1="choose:BERNARD")
    script.quiet_window()
    assert script.slot(0, 2) == SACK  # no growth on a sack
    script.quiet_window().moves(s0="bid:1", s1="bid:1").quiet_window().quiet_window()
    legal = set(script.legal(0))
    assert not any(a.startswith(("sow:2:", "harvest:2", "plough:2:")) for a in legal)
    script.replayed()


def test_plough_over_costs_the_plough_price_and_needs_no_tokens_on_the_card() -> None:
    script = garden(("KEUN", "JOS", "BERNARD", "FLUPPE"), plough_cost_8=6)
    script.quiet_window()
    script.moves(s0="play:KEUN", s1="pass")
    assert script.step == "keun"
    script.moves(s0="keun:0:8").moves(s1="pass")  # empty seat 0's own 8 card
    assert script.slot(0, 8) == 0
    script.moves(s0="bid:2", s1="bid:1").quiet_window().moves(s0="corner:1").moves(s1="corner:3")
    script.quiet_window()
    legal = set(script.legal(0))
    # Plough-over price of the 8 card set to 6 by option: one 5 is not enough.
    assert "plough:8:5+5" in legal and "plough:8:5" not in legal
    script.moves(s0="plough:8:5+5", s1="pass")
    assert script.slot(0, 8) == SACK and script.coin_values(0) == []
    script.replayed()


def test_capacity_options_change_when_a_card_is_full() -> None:
    script = garden(capacity_8=4)
    script.chance("FRANK", "JOS", "BERNARD", "FLUPPE").moves(s0="choose:FRANK", s1="choose:BERNARD")
    script.quiet_window().quiet_window()
    assert script.slot(0, 8) == 3
    script.moves(s0="bid:1", s1="bid:1").quiet_window().quiet_window().moves(s0="pass", s1="pass")
    script.quiet_window().everyone("hand_in").chance(5, 5, 5, 5)
    script.chance("FRANK", "JOS", "BERNARD", "FLUPPE").moves(s0="choose:FRANK", s1="choose:BERNARD")
    script.quiet_window()
    assert script.slot(0, 8) == 4  # grows 3 but holds only 4


def test_the_cultivate_phase_is_one_action_for_everyone_at_once() -> None:
    script = garden(("FRANK", "JOS", "BERNARD", "FLUPPE"))
    script.quiet_window().quiet_window().moves(s0="bid:1", s1="bid:1").quiet_window().quiet_window()
    assert script.acting() == (0, 1)
    script.moves(s0="harvest:2", s1="harvest:6")
    # After one action each the phase is over (hand in characters, its window first).
    assert script.state.phase == "hand_in" and script.step == "window"
    script.quiet_window()
    assert script.state.phase == "hand_in" and script.step == "keep"


def test_growth_uses_the_fives_option_consistently() -> None:
    # Sanity for the records above: the option really makes every coin worth 5.
    script = Script(2, **FIVES)
    assert list(script.game.chance_outcomes(script.state)) == [(5, Fraction(1))]
