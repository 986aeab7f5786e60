"""Audit: FRANK, BERNARD, JOS (cultivate phase), JULITA and DEN OLLANDER (all phases)."""

from __future__ import annotations

import pytest
from audit_script import Script, garden, opening

from gamebag.core.errors import IllegalActionError


def _cultivate_round_one(players: int, cards: tuple[str, ...], corners: tuple[int, int, int, int]) -> Script:
    """Round 1: seat i chooses ``cards[i]``; seat 0 takes corner 1, seat 1 corner 2, seat 2 corner 3."""
    filler = ["RIA", "PASTOOR", "KEUN", "GRIET", "FLUPPE", "LUCIEN"]
    dealt: list[str] = []
    for card in cards:
        dealt += [card, filler.pop()]
    script = opening(players, corners=corners, dealt=tuple(dealt), chosen=cards).quiet_window()
    bids = {0: 3, 1: 2, 2: 1}
    script.moves(**{f"s{seat}": f"bid:{bids[seat]}" for seat in range(players)}).quiet_window()
    for seat in range(players):
        if script.step == "corner":
            script.moves(**{f"s{seat}": f"corner:{seat + 1}"})
    assert script.state.phase == "cultivate" and script.step == "window"
    return script


@pytest.mark.parametrize(("played", "sowable"), [
    (True, {"sow:2:3", "sow:4:3", "sow:6:3"}),  # half of 2, 4, 6 is 1, 2, 3: one 3 pays; half of 8 is 4
    (False, {"sow:2:3"}),
])
def test_frank_halves_the_sowing_price_for_his_player_only(played: bool, sowable: set[str]) -> None:
    script = _cultivate_round_one(2, ("FRANK", "JOS"), corners=(3, 3, 1, 1))
    script.moves(s0="play:FRANK" if played else "pass", s1="pass")
    if script.step == "window":
        script.moves(s1="pass")
    assert script.step == "cultivate"
    assert {a for a in script.legal(0) if a.startswith("sow")} == sowable
    assert {a for a in script.legal(1) if a.startswith("sow")} == {"sow:2:3"}
    if played:
        script.moves(s0="sow:6:3", s1="pass")
        assert script.slot(0, 6) == 0 and script.coin_values(0) == []
    script.replayed()


@pytest.mark.parametrize("played", [True, False])
def test_frank_halves_the_plough_over_price(played: bool) -> None:
    script = garden(("FRANK", "JOS", "BERNARD", "FLUPPE"), plough_cost_8=10).quiet_window().quiet_window()
    script.moves(s0="bid:2", s1="bid:1").quiet_window().moves(s0="corner:1").moves(s1="corner:3")
    script.moves(s0="play:FRANK" if played else "pass", s1="pass")
    if script.step == "window":
        script.moves(s1="pass")
    ploughs = {a for a in script.legal(0) if a.startswith("plough:8")}
    assert ploughs == ({"plough:8:5"} if played else {"plough:8:5+5"})


def test_bernard_blocks_one_chosen_opponent_for_the_whole_cultivate_phase() -> None:
    script = _cultivate_round_one(3, ("BERNARD", "FRANK", "JOS"), corners=(3, 3, 3, 1))
    script.moves(s0="play:BERNARD", s1="pass", s2="pass")
    assert script.step == "bernard" and script.acting() == (0,)
    assert set(script.legal(0)) == {"bernard:1", "bernard:2"}
    script.moves(s0="bernard:2").moves(s1="pass", s2="pass")
    assert script.step == "cultivate" and script.acting() == (0, 1)
    with pytest.raises(IllegalActionError):
        script.game.apply(script.state, {0: "pass", 1: "pass", 2: "sow:2:3"})
    script.moves(s0="pass", s1="sow:2:3")
    assert script.slot(2, 2) == -1 and script.slot(1, 2) == 0
    script.replayed()


def test_bernard_with_one_opponent_needs_no_target_choice() -> None:
    script = _cultivate_round_one(2, ("BERNARD", "FRANK"), corners=(3, 3, 3, 1))
    script.moves(s0="play:BERNARD", s1="pass").moves(s1="pass")
    assert script.step == "cultivate" and script.acting() == (0,)


def test_jos_harvests_all_own_plant_cards_at_once() -> None:
    script = garden(("JOS", "FRANK", "BERNARD", "FLUPPE")).quiet_window().quiet_window()
    script.moves(s0="bid:1", s1="bid:1").quiet_window()
    assert "harvest_all" not in script.legal(0)
    script.moves(s0="play:JOS", s1="pass").moves(s1="pass")
    assert "harvest_all" in script.legal(0) and "harvest_all" not in script.legal(1)
    tokens = script.state.tokens
    script.moves(s0="harvest_all", s1="pass")
    assert script.state.tokens == (tokens[0] + 2 + 3, tokens[1])
    assert script.slot(0, 2) == 0 and script.slot(0, 8) == 0
    assert script.slot(1, 4) == 2  # the opponent's cards are untouched
    script.replayed()


# ---- JULITA -------------------------------------------------------------------------------
def _two_trade(cards: tuple[str, str], bids: tuple[int, int]) -> Script:
    script = opening(2, dealt=(cards[0], "FRANK", cards[1], "JOS"), chosen=cards).quiet_window()
    return script.moves(s0=f"bid:{bids[0]}", s1=f"bid:{bids[1]}")


def test_julita_blocks_steven() -> None:
    script = _two_trade(("STEVEN", "JULITA"), (3, 4))
    assert script.legal(1) == ("pass",)  # nothing played yet: nothing to block
    script.moves(s0="play:STEVEN", s1="pass")
    assert script.legal(1) == ("pass", "block:STEVEN")
    script.moves(s1="block:STEVEN")
    trade = script.state.trade
    assert trade.counts == (3, 4) and trade.order == (1, 0)
    script.replayed()


def test_julita_blocking_chantal_undoes_it_for_the_other_players_too() -> None:
    script = opening(3, dealt=("CHANTAL", "FRANK", "JULITA", "JOS", "RIA", "KEUN"),
                     chosen=("CHANTAL", "JULITA", "RIA")).quiet_window()
    script.moves(s0="bid:2", s1="bid:4", s2="bid:3")
    script.moves(s0="play:CHANTAL", s1="pass", s2="pass").moves(s1="block:CHANTAL", s2="pass")
    script.moves(s2="pass")
    trade = script.state.trade
    assert trade.hands == (2, 4, 3) and trade.counts == (2, 4, 3)
    assert script.state.tokens == (8, 6, 7)
    script.replayed()


def test_julita_blocks_bernard() -> None:
    script = _cultivate_round_one(2, ("BERNARD", "JULITA"), corners=(3, 3, 3, 1))
    script.moves(s0="play:BERNARD", s1="pass").moves(s1="block:BERNARD")
    assert script.step == "cultivate" and script.acting() == (0, 1)


def test_julita_blocks_keun() -> None:
    script = garden(("KEUN", "FRANK", "JULITA", "JOS")).quiet_window()
    before = script.state.boards
    tokens = script.state.tokens
    script.moves(s0="play:KEUN", s1="pass").moves(s0="keun:1:4").moves(s1="block:KEUN")
    assert script.step == "bid" and script.state.boards == before and script.state.tokens == tokens


def test_julita_cannot_block_her_own_side_or_nothing() -> None:
    script = _two_trade(("JULITA", "STEVEN"), (3, 4))
    assert script.legal(0) == ("pass",)
    with pytest.raises(IllegalActionError):
        script.game.apply(script.state, {0: "block:STEVEN", 1: "pass"})


# ---- DEN OLLANDER -------------------------------------------------------------------------
def _ollander_table() -> Script:
    return opening(3, dealt=("DEN OLLANDER", "FRANK", "STEVEN", "JOS", "KEUN", "RIA"),
                   chosen=("DEN OLLANDER", "STEVEN", "KEUN"))


def test_den_ollander_takes_an_opponents_unplayed_card_and_uses_it() -> None:
    script = _ollander_table()
    assert set(script.legal(0)) == {"pass", "take:1", "take:2"}
    script.moves(s0="take:1", s1="pass", s2="pass")
    assert script.state.held == ("STEVEN", None, "KEUN")
    assert script.obs(0)["you"]["card"] == "STEVEN"
    assert script.game.public_view(script.state)["table"][1]["has_card"] is False
    script.moves(s0="pass", s2="pass")
    assert script.state.phase == "trade" and script.step == "bid"
    script.moves(s0="bid:3", s1="bid:4", s2="bid:1").moves(s0="play:STEVEN", s2="pass").moves(s2="pass")
    assert script.state.trade.counts == (5, 4, 1)
    script.replayed()


def test_den_ollander_cannot_take_a_played_card() -> None:
    script = opening(3, dealt=("DEN OLLANDER", "FRANK", "RIA", "JOS", "KEUN", "PASTOOR"),
                     chosen=("DEN OLLANDER", "RIA", "KEUN"))
    script.moves(s0="pass", s1="play:RIA", s2="pass")
    assert set(script.legal(0)) == {"pass", "take:2"}
    # Taking in the same step as the victim plays: nothing left to take.
    script2 = opening(3, dealt=("DEN OLLANDER", "FRANK", "RIA", "JOS", "KEUN", "PASTOOR"),
                      chosen=("DEN OLLANDER", "RIA", "KEUN"))
    script2.moves(s0="take:1", s1="play:RIA", s2="pass")
    assert script2.state.held == (None, None, "KEUN")
    assert [(p.seat, p.card, p.blocked) for p in script2.state.plays] == [
        (0, "DEN OLLANDER", False), (1, "RIA", False)]


def test_julita_blocking_den_ollander_gives_the_card_back() -> None:
    script = opening(3, dealt=("DEN OLLANDER", "FRANK", "JULITA", "JOS", "KEUN", "RIA"),
                     chosen=("DEN OLLANDER", "JULITA", "KEUN"))
    script.moves(s0="take:2", s1="pass", s2="pass")
    assert script.state.held == ("KEUN", "JULITA", None)
    script.moves(s0="pass", s1="block:DEN OLLANDER")
    assert script.state.held == (None, None, "KEUN")
    script.replayed()


def test_julita_blocking_den_ollander_undoes_the_play_of_the_taken_card() -> None:
    script = opening(3, dealt=("DEN OLLANDER", "FRANK", "STEVEN", "JOS", "JULITA", "RIA"),
                     chosen=("DEN OLLANDER", "STEVEN", "JULITA")).quiet_window()
    script.moves(s0="bid:3", s1="bid:4", s2="bid:2")
    script.moves(s0="take:1", s1="pass", s2="pass")
    script.moves(s0="play:STEVEN", s2="pass")
    script.moves(s2="block:DEN OLLANDER")
    # Seat 0's STEVEN is undone; the card is back with seat 1, unplayed, and it may play it.
    assert script.state.held == (None, "STEVEN", None)
    assert script.acting() == (1,) and "play:STEVEN" in script.legal(1)
    script.moves(s1="play:STEVEN")
    assert script.state.trade.counts == (3, 6, 2)
    script.replayed()
