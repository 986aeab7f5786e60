"""Audit: STEVEN, CHANTAL, LUCIEN and STEFAAN (trade phase), played while the hands are closed."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from audit_script import Script, opening, quiet_round

FILLER = ("FRANK", "JOS", "BERNARD", "FLUPPE", "GRIET", "KEUN", "RIA", "PASTOOR")


def _table(players: int, cards: tuple[str, ...], **options: Any) -> Script:
    """Round 1, dealt so that seat i chooses ``cards[i]``; stops at the sealed bids."""
    dealt: list[str] = []
    filler = [c for c in FILLER if c not in cards]
    for card in cards:
        dealt += [card, filler.pop()]
    return opening(players, corners=(1, 2, 3, 5), dealt=tuple(dealt), chosen=cards, **options).quiet_window()


def _trade_window(script: Script, bids: tuple[int, ...], plays: dict[int, str]) -> Script:
    """Seal ``bids``; seats in ``plays`` play their card in the first step; the window closes."""
    script.moves(**{f"s{seat}": f"bid:{bid}" for seat, bid in enumerate(bids)})
    assert script.step == "window" and script.state.phase == "trade"
    script.moves(**{f"s{seat}": plays.get(seat, "pass") for seat in script.acting()})
    if script.step == "window" and script.state.phase == "trade":
        script.quiet_window()
    return script


def test_steven_adds_two_to_the_count_without_paying_them() -> None:
    script = _table(2, ("STEVEN", "FRANK"))
    pot = script.state.pot
    _trade_window(script, (3, 4), {0: "play:STEVEN"})
    trade = script.state.trade
    assert trade.counts == (5, 4) and trade.order == (0, 1)
    script.moves(s0="corner:4").moves(s1="corner:3")
    assert script.state.tokens == (7, 6) and script.state.pot == pot + 7
    script.replayed()


def test_steven_can_make_a_tie() -> None:
    script = _table(2, ("STEVEN", "FRANK"))
    _trade_window(script, (2, 4), {0: "play:STEVEN"})
    assert script.state.trade.order == () and script.state.tokens == (10, 10)


def test_chantal_takes_one_token_from_every_other_hand_before_counting() -> None:
    script = _table(3, ("CHANTAL", "FRANK", "JOS"))
    pot = script.state.pot
    _trade_window(script, (1, 5, 4), {0: "play:CHANTAL"})
    trade = script.state.trade
    assert trade.hands == (1, 4, 3) and trade.counts == (1, 4, 3) and trade.order == (1, 2, 0)
    # Seat 0 keeps its own bid (1, paid for its corner) and adds the two tokens to its collection.
    assert script.state.tokens == (9 + 2, 5, 6)
    assert script.state.pot == pot + 1 + 4 + 3
    script.replayed()


def test_chantal_counts_after_taking_so_she_can_cause_a_tie() -> None:
    script = _table(2, ("CHANTAL", "FRANK"))
    _trade_window(script, (3, 4), {0: "play:CHANTAL"})
    # Seat 1's hand of 4 counts 3 after CHANTAL: a tie with seat 0's 3, nobody takes a corner.
    assert script.state.trade.order == ()
    assert script.state.tokens == (7 + 3 + 1, 6 + 3)


def test_lucien_with_the_lowest_bid_draws_a_coin_from_the_bag() -> None:
    script = _table(3, ("LUCIEN", "FRANK", "JOS"))
    _trade_window(script, (1, 5, 3), {0: "play:LUCIEN"})
    assert script.step == "lucien_draw"
    outcomes = dict(script.game.chance_outcomes(script.state))
    # The bag holds the 31 coins not on the table (corners hold 1, 2, 3, 5).
    assert outcomes == {1: Fraction(9, 31), 2: Fraction(9, 31), 3: Fraction(9, 31), 5: Fraction(4, 31)}
    script.chance(3)
    assert script.coin_values(0) == [3] and sum(script.state.bag) == 30
    # LUCIEN still chooses a corner, last (lowest bid).
    script.moves(s1="corner:4").moves(s2="corner:3").moves(s0="corner:1")
    assert script.coin_values(0) == [1, 3]
    script.replayed()


@pytest.mark.parametrize("bids", [(1, 1, 5), (2, 1, 5)])
def test_lucien_gets_nothing_when_tied_for_lowest_or_not_lowest(bids: tuple[int, int, int]) -> None:
    script = _table(3, ("LUCIEN", "FRANK", "JOS"))
    _trade_window(script, bids, {0: "play:LUCIEN"})
    assert script.step != "lucien_draw" and script.state.trade.lucien is None
    assert sum(script.state.bag) == 31


def test_lucien_compares_counts_including_steven() -> None:
    script = _table(3, ("LUCIEN", "STEVEN", "JOS"))
    _trade_window(script, (2, 1, 4), {0: "play:LUCIEN", 1: "play:STEVEN"})
    # Seat 1's 1 counts 3 with STEVEN: seat 0's 2 is the lowest count.
    assert script.step == "lucien_draw"


def test_lucien_is_lowest_when_the_only_lower_hand_is_empty() -> None:
    script = _table(3, ("FRANK", "JOS", "GRIET"))
    # Round 1: seat 1 bids all its tokens and wins; it starts round 2 with none.
    quiet_round(script, bids={0: 1, 1: 10, 2: 5}, corners=[(1, 4), (2, 3), (0, 1)],
                cultivate={0: "pass", 1: "pass", 2: "pass"}, refill=(1, 1, 1, 1))
    assert script.state.tokens[1] == 0
    script.chance("LUCIEN", "KEUN", "FRANK", "JOS", "GRIET", "RIA")
    script.moves(s0="choose:LUCIEN", s1="choose:FRANK", s2="choose:GRIET").quiet_window().quiet_window()
    _trade_window(script, (1, 0, 3), {0: "play:LUCIEN"})
    # Rulebook, LUCIEN: "if no one has bid ... This does not count as the lowest bid."
    # Seat 1 could not bid: seat 0's 1 is the lowest bid, so LUCIEN draws a coin.
    assert script.step == "lucien_draw"


def test_stefaan_wins_a_tie_and_the_others_of_that_count_get_their_bid_back() -> None:
    script = _table(3, ("STEFAAN", "FRANK", "JOS"))
    pot = script.state.pot
    _trade_window(script, (3, 3, 5), {0: "play:STEFAAN"})
    # Default (stefaan_order: first): STEFAAN wins the tie and chooses first, before the 5.
    assert script.state.trade.order == (0, 2)
    assert script.state.tokens == (7, 10, 5) and script.state.pot == pot + 8
    script.replayed()


def test_stefaan_tie_option_puts_him_in_the_tie_place() -> None:
    script = _table(3, ("STEFAAN", "FRANK", "JOS"), stefaan_order="tie")
    _trade_window(script, (3, 3, 5), {0: "play:STEFAAN"})
    assert script.state.trade.order == (2, 0)


def test_stefaan_without_a_tie_changes_nothing() -> None:
    script = _table(3, ("STEFAAN", "FRANK", "JOS"))
    _trade_window(script, (2, 3, 5), {0: "play:STEFAAN"})
    assert script.state.trade.order == (2, 1, 0)


def test_stefaan_in_a_three_way_tie_is_the_only_one_to_choose() -> None:
    script = _table(3, ("STEFAAN", "FRANK", "JOS"))
    _trade_window(script, (4, 4, 4), {0: "play:STEFAAN"})
    assert script.state.trade.order == (0,) and script.state.tokens == (6, 10, 10)
