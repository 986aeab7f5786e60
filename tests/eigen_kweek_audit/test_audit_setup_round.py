"""Audit: preparation, dealing characters, the round's phases, keeping a card, refilling corners.

Rulebook "Preparation", "Deal Characters", "Hand In Characters" and the end of a round;
rulings 6 (a short bag fills what it can).
"""

from __future__ import annotations

import pytest
from audit_script import TOTAL_TOKENS, Script, opening, quiet_round

from gamebag.core.errors import GamebagError, IllegalActionError, RecordError
from gamebag.core.protocol import NodeKind


@pytest.mark.parametrize("players", [2, 3, 4])
def test_preparation_lays_four_blind_coins_and_gives_ten_tokens(players: int) -> None:
    script = Script(players)
    assert script.kind() is NodeKind.CHANCE
    script.chance(3, 1, 5, 2)
    state = script.state
    # One coin on each corner, in order from corner 1 to corner 4.
    assert [script.values_in(corner) for corner in state.corners] == [[3], [1], [5], [2]]
    assert sum(state.bag) == 31
    assert state.tokens == (10,) * players
    assert state.pot == TOTAL_TOKENS - 10 * players
    # The characters are then dealt: a chance event drawing from all 14 cards.
    assert script.step == "deal" and len(script.game.chance_outcomes(state)) == 14


@pytest.mark.parametrize("players", [1, 5])
def test_only_two_to_four_players(players: int) -> None:
    import gamebag

    with pytest.raises(GamebagError):
        gamebag.make("eigen-kweek", players)


def test_each_player_is_dealt_two_and_chooses_one_of_them() -> None:
    script = opening(3).chance("RIA", "KEUN", "STEVEN", "FRANK", "JOS", "JULITA")
    state = script.state
    assert [sorted(hand) for hand in state.dealt] == [["KEUN", "RIA"], ["FRANK", "STEVEN"], ["JOS", "JULITA"]]
    assert script.step == "choose" and script.acting() == (0, 1, 2)
    assert script.legal(0) == ("choose:KEUN", "choose:RIA")
    with pytest.raises(IllegalActionError):
        script.game.apply(state, {0: "choose:STEVEN", 1: "choose:FRANK", 2: "choose:JOS"})
    script.moves(s0="choose:RIA", s1="choose:FRANK", s2="choose:JULITA")
    state = script.state
    assert state.held == ("RIA", "FRANK", "JULITA")
    # The other cards go back on the stack: 14 less the three chosen.
    assert len(state.stack) == 11
    assert {"KEUN", "STEVEN", "JOS"} <= set(state.stack)


def test_a_record_choosing_an_undealt_card_is_rejected() -> None:
    script = opening(2).chance("RIA", "KEUN", "STEVEN", "FRANK")
    record = script.record()
    record.events.append({"moves": {"0": "choose:JOS", "1": "choose:FRANK"}})
    import gamebag
    from gamebag.core.records import replay

    with pytest.raises(RecordError):
        replay(record, gamebag.make)


def test_round_one_skips_growth_and_round_two_has_it() -> None:
    script = opening(2, dealt=("RIA", "KEUN", "STEVEN", "FRANK"), chosen=("KEUN", "STEVEN"))
    assert script.state.phase == "deal" and script.step == "window"
    script.everyone("pass")
    # No plant cards in round 1: straight on to the trade phase.
    assert script.state.phase == "trade" and script.step == "bid"
    script.moves(s0="bid:1", s1="bid:2").quiet_window()
    script.moves(s1="corner:1").moves(s0="corner:2")
    script.quiet_window().moves(s0="pass", s1="pass")
    assert script.state.phase == "hand_in" and script.step == "window"  # JULITA, DEN OLLANDER
    script.quiet_window().moves(s0="hand_in", s1="hand_in").chance(1, 1, 1, 1)
    assert script.state.round_no == 2
    script.chance("RIA", "KEUN", "STEVEN", "FRANK").moves(s0="choose:KEUN", s1="choose:STEVEN")
    script.everyone("pass")
    assert script.state.phase == "growth" and script.step == "window"
    script.replayed()


def test_corners_refill_in_order_and_pile_up() -> None:
    script = opening(2, corners=(2, 1, 5, 1), dealt=("RIA", "KEUN", "STEVEN", "FRANK"), chosen=("KEUN", "STEVEN"))
    script.everyone("pass").moves(s0="bid:3", s1="bid:2").quiet_window()
    script.moves(s0="corner:3").moves(s1="corner:1")
    script.quiet_window().moves(s0="pass", s1="pass").quiet_window().everyone("hand_in")
    assert script.step == "refill"
    script.chance(3, 3, 1, 2)
    corners = [script.values_in(c) for c in script.state.corners]
    # Corners 2 and 4 were not taken: they keep their coin and get another on top.
    assert corners == [[3], [1, 3], [1], [1, 2]]
    assert sum(script.state.bag) == 35 - 6 - 2  # the two taken coins are in collections
    # Taking a corner takes all its coins.
    quiet_round(script, bids={0: 4, 1: 1}, corners=[(0, 2), (1, 4)], cultivate={0: "pass", 1: "pass"},
                refill=(2, 2, 2, 2))
    assert script.coin_values(0) == [1, 3, 5]
    assert script.coin_values(1) == [1, 2, 2]
    script.replayed()


def _tie_round(script: Script, refill: tuple[int, ...]) -> None:
    quiet_round(script, bids={0: 1, 1: 1}, corners=[], cultivate={0: "pass", 1: "pass"}, refill=refill)


def test_a_short_bag_fills_what_it_can_corner_one_first() -> None:
    # Nobody ever takes a corner (every bid ties), so the bag drains four coins a round.
    script = opening(2, corners=(1, 1, 1, 1))
    values = [1] * 6 + [2] * 10 + [3] * 10 + [5] * 5  # the 31 coins left in the bag
    for _ in range(7):
        _tie_round(script, tuple(values[:4]))
        del values[:4]
    assert sum(script.state.bag) == 3 and [sum(c) for c in script.state.corners] == [8] * 4
    # Round 8: only three coins are left; they go on corners 1, 2 and 3.
    _tie_round(script, tuple(values))
    assert sum(script.state.bag) == 0
    assert [sum(c) for c in script.state.corners] == [9, 9, 9, 8]
    assert script.state.round_no == 9 and script.step == "deal"
    # Round 9: the bag is empty; the game goes on with no refill.
    _tie_round(script, ())
    assert script.state.round_no == 10 and script.step == "deal"
    assert [sum(c) for c in script.state.corners] == [9, 9, 9, 8]
    script.replayed()


def test_keeping_an_unplayed_card_means_no_new_cards_next_round() -> None:
    script = opening(2, dealt=("RIA", "KEUN", "STEVEN", "FRANK"), chosen=("KEUN", "STEVEN"))
    script.everyone("pass").moves(s0="bid:2", s1="bid:1").quiet_window()
    script.moves(s0="corner:1").moves(s1="corner:2").quiet_window().moves(s0="pass", s1="pass")
    script.quiet_window()
    assert script.step == "keep" and script.acting() == (0, 1)
    assert set(script.legal(0)) == {"keep", "hand_in"}
    script.moves(s0="keep", s1="hand_in").chance(1, 2, 3, 1)
    state = script.state
    assert state.held == ("KEUN", None) and state.kept == (True, False)
    # Only seat 1 is dealt: two chance events, then only seat 1 chooses.
    assert "KEUN" not in state.stack and len(state.stack) == 13
    script.chance("JOS", "RIA")
    assert script.step == "choose" and script.acting() == (1,)
    script.moves(s1="choose:JOS")
    assert script.state.held == ("KEUN", "JOS")
    # Seat 0 may play the kept card in this round's growth window.
    script.everyone("pass")
    assert script.state.phase == "growth" and "play:KEUN" in script.legal(0)
    script.replayed()


def test_handed_in_cards_all_go_back_to_the_stack() -> None:
    script = opening(2, dealt=("RIA", "KEUN", "STEVEN", "FRANK"), chosen=("KEUN", "STEVEN"))
    script.everyone("pass").moves(s0="bid:2", s1="bid:1").moves(s0="pass", s1="play:STEVEN")
    script.moves(s0="pass")
    script.moves(s1="corner:1").moves(s0="corner:2").quiet_window().moves(s0="pass", s1="pass")
    # Seat 1 played STEVEN: only seat 0 still holds a card and decides.
    assert script.acting() == (0,)
    script.quiet_window()
    assert script.acting() == (0,)
    script.moves(s0="hand_in").chance(1, 2, 3, 1)
    assert len(script.state.stack) == 14 and script.state.kept == (False, False)
    script.replayed()
