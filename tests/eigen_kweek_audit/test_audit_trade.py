"""Audit: the trade phase (sealed bids, choosing corners, ties, empty hands).

Rulebook "Trade" and its notes; rulings 2-3. Cards used here are never played unless said.
"""

from __future__ import annotations

import pytest
from audit_script import Script, opening, quiet_round

from gamebag.core.errors import IllegalActionError

DEAL3 = ("FRANK", "JOS", "BERNARD", "FLUPPE", "GRIET", "KEUN")
CHOSEN3 = ("FRANK", "BERNARD", "GRIET")


def _three(corners: tuple[int, int, int, int] = (1, 2, 3, 5)) -> Script:
    return opening(3, corners=corners, dealt=DEAL3, chosen=CHOSEN3).quiet_window()


def test_bids_are_sealed_together_and_must_be_one_to_all_tokens() -> None:
    script = _three()
    assert script.step == "bid" and script.acting() == (0, 1, 2)
    legal = script.legal(0)
    assert legal[0] == "bid:1" and legal[-1] == "bid:10" and len(legal) == 10
    for bad in ("bid:0", "bid:11"):
        with pytest.raises(IllegalActionError):
            script.game.apply(script.state, {0: bad, 1: "bid:1", 2: "bid:1"})
    # Everyone must bid at once.
    with pytest.raises(IllegalActionError):
        script.game.apply(script.state, {0: "bid:1", 1: "bid:1"})


def test_highest_bid_chooses_first_and_pays_its_bid_to_the_pot() -> None:
    script = _three(corners=(1, 2, 3, 5))
    pot = script.state.pot
    script.moves(s0="bid:2", s1="bid:7", s2="bid:4").quiet_window()
    # Seat 1 (7) chooses first, then seat 2 (4), then seat 0 (2).
    assert script.step == "corner" and script.acting() == (1,)
    assert script.legal(1) == ("corner:1", "corner:2", "corner:3", "corner:4")
    script.moves(s1="corner:4")
    assert script.acting() == (2,) and script.legal(2) == ("corner:1", "corner:2", "corner:3")
    script.moves(s2="corner:3")
    assert script.acting() == (0,)
    script.moves(s0="corner:1")
    assert script.coin_values(1) == [5] and script.coin_values(2) == [3] and script.coin_values(0) == [1]
    assert script.state.tokens == (8, 3, 6)
    assert script.state.pot == pot + 13
    # Corner 2 was not chosen: its coin stays on the table.
    assert script.corner_sizes() == [0, 1, 0, 0]
    script.replayed()


def test_four_players_all_choose_and_the_last_corner_goes_without_asking() -> None:
    script = opening(4, corners=(1, 2, 3, 5),
                     dealt=("FRANK", "JOS", "BERNARD", "FLUPPE", "GRIET", "KEUN", "RIA", "PASTOOR"),
                     chosen=("FRANK", "BERNARD", "GRIET", "RIA")).quiet_window()
    script.moves(s0="bid:1", s1="bid:2", s2="bid:3", s3="bid:4").quiet_window()
    script.moves(s3="corner:4").moves(s2="corner:3").moves(s1="corner:2")
    # Seat 0 has one corner left: it is taken for it.
    assert script.coin_values(0) == [1]
    assert script.corner_sizes() == [0, 0, 0, 0]
    assert script.state.phase == "cultivate"
    script.replayed()


def test_tied_bids_take_nothing_and_get_their_tokens_back() -> None:
    script = _three(corners=(1, 2, 3, 5))
    pot = script.state.pot
    script.moves(s0="bid:4", s1="bid:4", s2="bid:2").quiet_window()
    # Seats 0 and 1 tie at 4: only seat 2 chooses.
    assert script.acting() == (2,)
    script.moves(s2="corner:4")
    assert script.state.tokens == (10, 10, 8)
    assert script.state.pot == pot + 2
    assert script.coin_values(0) == [] and script.coin_values(1) == []
    assert script.state.phase == "cultivate"
    script.replayed()


def test_all_tied_means_nobody_takes_anything() -> None:
    script = _three()
    script.moves(s0="bid:3", s1="bid:3", s2="bid:3").quiet_window()
    assert script.state.phase == "cultivate" and script.state.tokens == (10, 10, 10)
    assert script.corner_sizes() == [1, 1, 1, 1]


def _broke_seat_one(players: int = 2) -> Script:
    """Round 1: seat 1 bids all ten tokens and wins; round 2 starts with seat 1 holding none."""
    if players == 2:
        script = opening(2, corners=(1, 2, 3, 5), dealt=DEAL3[:4], chosen=("FRANK", "BERNARD"))
        quiet_round(script, bids={0: 1, 1: 10}, corners=[(1, 4), (0, 1)],
                    cultivate={0: "pass", 1: "pass"}, refill=(1, 1, 1, 1))
    else:
        script = _three()
        quiet_round(script, bids={0: 1, 1: 10, 2: 5}, corners=[(1, 4), (2, 3), (0, 1)],
                    cultivate={0: "pass", 1: "pass", 2: "pass"}, refill=(1, 1, 1, 1))
    assert script.state.tokens[1] == 0 and script.state.round_no == 2
    return script


def test_a_player_without_tokens_bids_nothing_and_gets_nothing() -> None:
    script = _broke_seat_one()
    script.chance(*DEAL3[:4]).moves(s0="choose:FRANK", s1="choose:BERNARD")
    script.quiet_window().quiet_window()  # deal and growth windows
    assert script.step == "bid" and script.acting() == (0, 1)
    # The hand is still held forward: seat 1 takes part in the bid, with an empty hand.
    assert script.legal(1) == ("bid:0",)
    with pytest.raises(IllegalActionError):
        script.game.apply(script.state, {0: "bid:1", 1: "bid:1"})
    script.moves(s0="bid:1", s1="bid:0").quiet_window()
    assert script.acting() == (0,)
    script.moves(s0="corner:2")
    assert script.state.phase == "cultivate"
    assert script.coin_values(1) == [5]  # only what it took in round 1
    script.replayed()


def test_a_player_without_tokens_gets_no_coins_even_with_steven() -> None:
    script = _broke_seat_one()
    script.chance("FRANK", "JOS", "STEVEN", "FLUPPE").moves(s0="choose:FRANK", s1="choose:STEVEN")
    script.quiet_window().quiet_window()
    script.moves(s0="bid:1", s1="bid:0").moves(s0="pass", s1="play:STEVEN").moves(s0="pass")
    # Rulebook: "If you cannot bid anything because you have no weed tokens left in your
    # collection, you also get no coins." Seat 0 is the only one to choose a corner.
    assert script.state.trade.order == (0,)


def test_count_zero_after_chantal_takes_nothing() -> None:
    script = opening(3, dealt=("CHANTAL", "JOS", "BERNARD", "FLUPPE", "GRIET", "KEUN"),
                     chosen=("CHANTAL", "BERNARD", "GRIET")).quiet_window()
    script.moves(s0="bid:2", s1="bid:1", s2="bid:3")
    script.moves(s0="play:CHANTAL", s1="pass", s2="pass").moves(s1="pass", s2="pass")
    trade = script.state.trade
    assert trade.hands == (2, 0, 2)
    # Seat 1's hand is empty after CHANTAL: no corner; seats 0 and 2 tie at 2: no corner either.
    assert trade.order == ()
    assert script.state.tokens == (8 + 2 + 2, 9, 7 + 2)
