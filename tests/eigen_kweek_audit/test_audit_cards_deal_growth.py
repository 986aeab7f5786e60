"""Audit: RIA (deal phase) and KEUN, FLUPPE, GRIET, PASTOOR (growth phase)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from audit_script import SACK, Script, garden, opening, quiet_round


def _ria_opening() -> Script:
    script = opening(3, dealt=("RIA", "KEUN", "JULITA", "STEVEN", "FRANK", "JOS"),
                     chosen=("RIA", "STEVEN", "FRANK"))
    assert "play:RIA" in script.legal(0)
    script.moves(s0="play:RIA", s1="pass", s2="pass").moves(s1="pass", s2="pass")
    # "you may blindly take a character card": taking one is RIA's player's choice.
    assert script.step == "ria_choice" and script.legal(0) == ("ria:draw", "ria:skip")
    return script.moves(s0="ria:draw")


@pytest.mark.parametrize(("direction", "held"), [
    ("left", ("FRANK", "LUCIEN", "STEVEN")),  # left is seat + 1: 0 -> 1 -> 2 -> 0
    ("right", ("STEVEN", "FRANK", "LUCIEN")),
])
def test_ria_draws_from_the_whole_stack_and_everyone_passes_one_way(direction: str, held: tuple[str, ...]) -> None:
    script = _ria_opening()
    assert script.step == "ria_draw"
    outcomes = dict(script.game.chance_outcomes(script.state))
    # The stack is shuffled: every card not held or played, the returned ones too, equally likely.
    assert len(outcomes) == 11 and {"KEUN", "JULITA", "JOS"} <= set(outcomes)
    assert set(outcomes.values()) == {Fraction(1, 11)}
    script.chance("LUCIEN")
    assert script.step == "ria_direction" and script.acting() == (0,)
    assert script.obs(0)["you"]["ria_card"] == "LUCIEN"
    assert script.obs(1)["you"]["ria_card"] is None and script.obs(2)["you"]["ria_card"] is None
    script.moves(s0=f"ria:{direction}")
    assert script.state.held == held
    for seat in range(3):
        assert script.obs(seat)["you"]["card"] == held[seat]
    assert script.state.phase == "trade"  # round 1: no growth
    script.replayed()


def test_ria_cannot_be_played_outside_the_deal_phase() -> None:
    script = opening(2, dealt=("RIA", "KEUN", "FRANK", "JOS"), chosen=("RIA", "FRANK")).everyone("pass")
    script.moves(s0="bid:1", s1="bid:2")
    assert script.legal(0) == ("pass",)


def test_keun_takes_all_tokens_of_any_plant_card_own_or_opponent() -> None:
    script = garden(("KEUN", "JOS", "BERNARD", "FLUPPE")).quiet_window()
    assert script.state.phase == "growth"
    # "When you play this character card, you may take...": the target is named on playing.
    script.moves(s0="play:KEUN", s1="pass")
    assert script.step == "keun" and script.acting() == (0,)
    assert set(script.legal(0)) == {"keun:0:2", "keun:0:8", "keun:1:4", "keun:1:6"}
    tokens = script.state.tokens
    script.moves(s0="keun:1:6").moves(s1="pass")
    assert script.state.tokens == (tokens[0] + 2, tokens[1])
    assert script.slot(1, 6) == 0 and script.slot(1, 4) == 2
    assert script.step == "bid"
    script.replayed()


@pytest.mark.parametrize(("counts_sacks", "gain"), [(False, 2), (True, 4)])
def test_fluppe_pays_two_tokens_per_plant_card(counts_sacks: bool, gain: int) -> None:
    script = garden(("FLUPPE", "JOS", "BERNARD", "GRIET"), fluppe_counts_sacks=counts_sacks).quiet_window()
    pot, tokens = script.state.pot, script.state.tokens[0]
    script.moves(s0="play:FLUPPE", s1="pass").moves(s1="pass")
    # Two growing plant cards on seat 0's board: 4 tokens from the pot.
    assert script.state.tokens[0] == tokens + 4 and script.state.pot == pot - 4
    # Round 3: seat 0 ploughs over its 2 card; round 4: FLUPPE again with one plant and one sack.
    script.moves(s0="bid:2", s1="bid:1").quiet_window().moves(s0="corner:1").moves(s1="corner:3")
    script.quiet_window().moves(s0="plough:2:5", s1="pass").quiet_window().everyone("hand_in").chance(5, 5, 5, 5)
    assert script.slot(0, 2) == SACK
    script.chance("FLUPPE", "JOS", "BERNARD", "GRIET").moves(s0="choose:FLUPPE", s1="choose:BERNARD")
    script.quiet_window()
    tokens = script.state.tokens[0]
    script.moves(s0="play:FLUPPE", s1="pass").moves(s1="pass")
    assert script.state.tokens[0] == tokens + gain
    script.replayed()


def test_griet_fills_one_own_plant_card_to_full_from_the_pot() -> None:
    script = garden(("GRIET", "JOS", "BERNARD", "FLUPPE")).quiet_window()
    pot = script.state.pot
    script.moves(s0="play:GRIET", s1="pass")
    assert script.step == "griet" and set(script.legal(0)) == {"griet:2", "griet:8"}
    script.moves(s0="griet:8").moves(s1="pass")
    assert script.slot(0, 8) == 9 and script.state.pot == pot - 6
    script.replayed()


def _pastoor_table(**options: object) -> Script:
    """Three players; after round 1 seat 1 holds a 5 and seat 2 a 3; round 2 deals PASTOOR to seat 0."""
    script = opening(3, corners=(1, 2, 3, 5), dealt=("FRANK", "JOS", "BERNARD", "FLUPPE", "GRIET", "KEUN"),
                     chosen=("FRANK", "BERNARD", "GRIET"), **options)
    quiet_round(script, bids={0: 1, 1: 9, 2: 5}, corners=[(1, 4), (2, 3), (0, 2)],
                cultivate={0: "pass", 1: "pass", 2: "pass"}, refill=(1, 1, 1, 1))
    assert script.coin_values(0) == [2] and script.coin_values(1) == [5] and script.coin_values(2) == [3]
    script.chance("PASTOOR", "JOS", "BERNARD", "FLUPPE", "GRIET", "KEUN")
    script.moves(s0="choose:PASTOOR", s1="choose:BERNARD", s2="choose:GRIET").quiet_window()
    script.moves(s0="play:PASTOOR", s1="pass", s2="pass")
    return script


def test_pastoor_takes_a_coin_from_a_chosen_opponent() -> None:
    script = _pastoor_table()
    assert script.step == "rob" and set(script.legal(0)) == {"rob:1", "rob:2"}
    script.moves(s0="rob:1").moves(s1="pass", s2="pass")
    # Coins in a collection lie face down: the coin taken is a blind draw from seat 1's coins.
    assert script.step == "rob_draw" and script.game.chance_outcomes(script.state) == [(5, Fraction(1))]
    script.chance(5)
    assert script.coin_values(0) == [2, 5] and script.coin_values(1) == []
    # Seat 2 saw a coin change hands, not its value.
    assert "5" not in " ".join(script.obs(2)["you"]["notes"])
    script.replayed()


def test_pastoor_with_open_coins_chooses_the_value() -> None:
    script = _pastoor_table(coin_visibility="open")
    assert set(script.legal(0)) == {"rob:1:5", "rob:2:3"}
    script.moves(s0="rob:2:3").moves(s1="pass", s2="pass")
    assert script.coin_values(0) == [2, 3] and script.coin_values(2) == []


def test_ria_a_player_without_a_card_passes_nothing() -> None:
    script = opening(3, dealt=("RIA", "KEUN", "DEN OLLANDER", "STEVEN", "GRIET", "JOS"),
                     chosen=("RIA", "DEN OLLANDER", "GRIET"))
    script.moves(s0="play:RIA", s1="take:2", s2="pass")
    assert script.state.held == (None, "GRIET", None)
    script.moves(s1="pass").moves(s0="ria:draw").chance("LUCIEN").moves(s0="ria:left")
    # Seat 0's drawn card goes to seat 1, seat 1's GRIET to seat 2, seat 2 had nothing to pass.
    assert script.state.held == (None, "LUCIEN", "GRIET")


def test_growth_cards_with_nothing_to_act_on_do_nothing() -> None:
    script = opening(2, dealt=("PASTOOR", "KEUN", "GRIET", "FRANK"), chosen=("PASTOOR", "GRIET"))
    quiet_round(script, bids={0: 1, 1: 1}, corners=[], cultivate={0: "pass", 1: "pass"}, refill=(1, 1, 1, 1))
    script.chance("PASTOOR", "KEUN", "GRIET", "FRANK").moves(s0="choose:PASTOOR", s1="choose:GRIET")
    script.quiet_window()
    # Nobody holds coins or plant cards: PASTOOR and GRIET find nothing; on to the bids.
    script.moves(s0="play:PASTOOR", s1="play:GRIET")
    assert script.step == "bid" and script.state.coins == ((0, 0, 0, 0), (0, 0, 0, 0))
    script.replayed()
