"""Each of the fourteen character cards, from positions built by hand.

Every card has its own test; JULITA is tested blocking each of the other
thirteen (the effect happens without the block and not with it), and DEN
OLLANDER taking a card, using it, having the take undone, and finding nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from kweek_helpers import E, S, act, board, draw, everyone, make, position, slot

from gamebag.core.errors import IllegalActionError
from gamebag.games.eigen_kweek import EigenKweek, KweekState


def _close_window(game: EigenKweek, state: KweekState) -> KweekState:
    while state.step == "window":
        state = everyone(game, state)
    return state


def _window(
    game: EigenKweek, state: KweekState, first: str, block: str | None, target: str | None = None
) -> KweekState:
    """Seat 0 does ``first`` (naming ``target`` if asked); seat 1 (JULITA) then blocks ``block``
    or passes; the window closes."""
    step1 = {seat: "pass" for seat in game.acting_players(state)}
    step1[0] = first
    state = game.apply(state, step1)
    if target is not None:
        assert game.acting_players(state) == (0,) and target in game.legal_actions(state, 0)
        state = act(game, state, s0=target)
    if block is not None:
        step2 = {seat: "pass" for seat in game.acting_players(state)}
        step2[1] = f"block:{block}"
        state = game.apply(state, step2)
    return _close_window(game, state)


# ---- the scenarios: a position where seat 0 can use the card and seat 1 holds JULITA --------
def ria(block: bool) -> Any:
    game = make(3)
    state = position(game, phase="deal", step="window", window_step=1, held=("RIA", "JULITA", "KEUN"))
    state = _window(game, state, "play:RIA", "RIA" if block else None)
    if not block:
        assert state.step == "ria_choice" and state.chooser == 0
        assert game.legal_actions(state, 0) == ("ria:draw", "ria:skip")
        state = act(game, state, s0="ria:draw")
        assert state.step == "ria_draw"
        state = draw(game, state, "JOS")
        assert state.step == "ria_direction" and game.acting_players(state) == (0,)
        assert game.observation(state, 0)["you"]["ria_card"] == "JOS"
        assert game.observation(state, 1)["you"]["ria_card"] is None
        state = act(game, state, s0="ria:left")
    return state.held


def keun(block: bool) -> Any:
    game = make(3)
    state = position(
        game, phase="growth", step="window", window_step=1, held=("KEUN", "JULITA", None),
        boards=(board(E, E, E, E), board(E, E, E, E), board(E, E, 4, E)),
    )
    state = _window(game, state, "play:KEUN", "KEUN" if block else None)
    return state.tokens[0], slot(state, 2, 6)


def fluppe(block: bool) -> Any:
    game = make(3)
    state = position(
        game, phase="growth", step="window", window_step=1, held=("FLUPPE", "JULITA", None),
        boards=(board(0, 2, E, S), board(E, E, E, E), board(E, E, E, E)),
    )
    return _window(game, state, "play:FLUPPE", "FLUPPE" if block else None).tokens[0]


def griet(block: bool) -> Any:
    game = make(3)
    state = position(
        game, phase="growth", step="window", window_step=1, held=("GRIET", "JULITA", None),
        boards=(board(E, E, E, 1), board(E, E, E, E), board(E, E, E, E)),
    )
    return slot(_window(game, state, "play:GRIET", "GRIET" if block else None), 0, 8)


def pastoor(block: bool) -> Any:
    game = make(3)
    state = position(
        game, phase="growth", step="window", window_step=1, held=("PASTOOR", "JULITA", None),
        coins=((), (), (5,)),
    )
    state = _window(game, state, "play:PASTOOR", "PASTOOR" if block else None)
    if not block:
        assert state.step == "rob_draw" and game.chance_outcomes(state) == [(5, Fraction(1))]
        state = draw(game, state, 5)
    return state.coins


def _trade(card: str, bids: tuple[int, int, int]) -> tuple[EigenKweek, KweekState]:
    game = make(3)
    state = position(
        game, phase="trade", step="window", window_step=1, held=(card, "JULITA", None),
        tokens=(10 - bids[0], 10 - bids[1], 10 - bids[2]), bids=bids,
        corners=((2,), (1,), (3,), (1,)),
    )
    return game, state


def steven(block: bool) -> Any:
    game, state = _trade("STEVEN", (3, 4, 1))
    state = _window(game, state, "play:STEVEN", "STEVEN" if block else None)
    assert state.trade is not None
    return state.trade.counts, state.trade.order


def chantal(block: bool) -> Any:
    game, state = _trade("CHANTAL", (3, 5, 1))
    state = _window(game, state, "play:CHANTAL", "CHANTAL" if block else None)
    assert state.trade is not None
    return state.tokens[0], state.trade.hands, state.trade.order


def lucien(block: bool) -> Any:
    game, state = _trade("LUCIEN", (1, 4, 2))
    state = _window(game, state, "play:LUCIEN", "LUCIEN" if block else None)
    if not block:
        assert state.step == "lucien_draw" and state.chooser == 0
        state = draw(game, state, 5)
    assert state.trade is not None
    return state.trade.lucien, sum(state.coins[0]), sum(state.bag)


def stefaan(block: bool) -> Any:
    game, state = _trade("STEFAAN", (2, 4, 2))
    state = _window(game, state, "play:STEFAAN", "STEFAAN" if block else None)
    assert state.trade is not None
    return state.trade.order, state.tokens


def _cultivate(card: str, **fields: Any) -> tuple[EigenKweek, KweekState]:
    game = make(3)
    state = position(game, phase="cultivate", step="window", window_step=1, held=(card, "JULITA", None),
                     **fields)
    return game, state


def frank(block: bool) -> Any:
    game, state = _cultivate("FRANK", coins=((2, 2), (), ()))
    state = _window(game, state, "play:FRANK", "FRANK" if block else None)
    assert state.step == "cultivate"
    return "sow:8:2+2" in game.legal_actions(state, 0)


def bernard(block: bool) -> Any:
    game, state = _cultivate("BERNARD")
    state = _window(game, state, "play:BERNARD", "BERNARD" if block else None, target="bernard:2")
    assert state.step == "cultivate"
    return game.acting_players(state)


def jos(block: bool) -> Any:
    game, state = _cultivate("JOS", boards=(board(2, 1, E, E), board(E, E, E, E), board(E, E, E, E)))
    state = _window(game, state, "play:JOS", "JOS" if block else None)
    return "harvest_all" in game.legal_actions(state, 0)


def ollander(block: bool) -> Any:
    game = make(3)
    state = position(game, phase="growth", step="window", window_step=1,
                     held=("DEN OLLANDER", "JULITA", "KEUN"))
    state = game.apply(state, {0: "take:2", 1: "pass", 2: "pass"})
    assert state.held == ("KEUN", "JULITA", None)
    if block:
        state = game.apply(state, {0: "pass", 1: "block:DEN OLLANDER"})
    return _close_window(game, state).held


SCENARIOS: dict[str, Callable[[bool], Any]] = {
    "RIA": ria, "KEUN": keun, "FLUPPE": fluppe, "GRIET": griet, "PASTOOR": pastoor,
    "STEVEN": steven, "CHANTAL": chantal, "LUCIEN": lucien, "STEFAAN": stefaan,
    "FRANK": frank, "BERNARD": bernard, "JOS": jos, "DEN OLLANDER": ollander,
}
# What each card does when not blocked, and the situation when JULITA blocks it.
EXPECTED: dict[str, tuple[Any, Any]] = {
    # RIA draws JOS and everything passes left: seat 0 gets seat 2's KEUN, seat 1 gets JOS.
    "RIA": (("KEUN", "JOS", "JULITA"), (None, None, "KEUN")),
    "KEUN": ((14, 0), (10, 4)),
    "FLUPPE": (16, 10),  # two growing cards and a sack: three plant cards on the board
    "GRIET": (9, 1),
    "PASTOOR": ((((0, 0, 0, 1)), (0, 0, 0, 0), (0, 0, 0, 0)), ((0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 1))),
    "STEVEN": (((5, 4, 1), (0, 1, 2)), ((3, 4, 1), (1, 0, 2))),
    # One token from each other hand; the hand of 1 is emptied and counts 0 (no corner).
    "CHANTAL": ((9, (3, 4, 0), (1, 0)), (7, (3, 5, 1), (1, 0, 2))),
    "LUCIEN": ((0, 1, 30), (None, 0, 31)),
    # STEFAAN wins the tie at 2 and, by default, chooses before the 4.
    "STEFAAN": (((0, 1), (8, 6, 10)), ((1,), (10, 6, 10))),
    "FRANK": (True, False),
    "BERNARD": ((0, 1), (0, 1, 2)),
    "JOS": (True, False),
    "DEN OLLANDER": (("KEUN", "JULITA", None), (None, None, "KEUN")),
}


@pytest.mark.parametrize("card", list(SCENARIOS))
def test_each_card_works_and_julita_blocks_it(card: str) -> None:
    works, blocked = EXPECTED[card]
    assert SCENARIOS[card](False) == works
    assert SCENARIOS[card](True) == blocked


def test_julita_may_block_only_cards_of_opponents_in_the_same_window() -> None:
    game = make(3)
    state = position(game, phase="growth", step="window", window_step=1, held=("KEUN", "JULITA", "FLUPPE"))
    assert game.legal_actions(state, 1) == ("pass",)  # nothing revealed yet
    state = game.apply(state, {0: "play:KEUN", 1: "pass", 2: "pass"})
    assert game.legal_actions(state, 1) == ("pass", "block:KEUN")
    assert state.window_step == 2 and game.acting_players(state) == (1, 2)
    with pytest.raises(IllegalActionError):
        game.apply(state, {1: "block:FLUPPE", 2: "pass"})


def test_julita_blocking_ollander_undoes_a_card_already_played_with_it() -> None:
    game = make(3)
    state = position(game, phase="growth", step="window", window_step=1,
                     held=("DEN OLLANDER", "JULITA", "FLUPPE"),
                     boards=(board(0, 0, E, E), board(E, E, E, E), board(0, E, E, E)))
    state = game.apply(state, {0: "take:2", 1: "pass", 2: "pass"})
    # Seat 0 plays the FLUPPE it took while seat 1 blocks DEN OLLANDER, in the same step.
    state = game.apply(state, {0: "play:FLUPPE", 1: "block:DEN OLLANDER"})
    assert [p.card for p in state.plays] == ["DEN OLLANDER", "JULITA"]
    assert state.held == (None, None, "FLUPPE")
    # The owner has its card back and may still play it in this window.
    state = act(game, state, s2="play:FLUPPE")
    state = _close_window(game, state)
    assert state.tokens == (10, 10, 12)


def test_ollander_takes_a_card_and_uses_it_in_a_later_step() -> None:
    game = make(3)
    state = position(game, phase="growth", step="window", window_step=1,
                     held=("DEN OLLANDER", "KEUN", None),
                     boards=(board(E, E, E, E), board(E, E, E, E), board(E, E, 3, E)))
    state = game.apply(state, {0: "take:1", 1: "pass"})
    assert state.held == ("KEUN", None, None)
    obs0, obs1, obs2 = (game.observation(state, p) for p in range(3))
    assert obs0["you"]["card"] == "KEUN"
    assert obs1["you"]["known_cards"] == {"0": "KEUN"}  # the victim knows what was taken
    assert obs2["you"]["known_cards"] == {}  # a bystander does not
    state = act(game, state, s0="play:KEUN")
    state = _close_window(game, state)
    assert state.tokens[0] == 13 and slot(state, 2, 6) == 0


def test_ollander_finds_nothing_when_the_victim_plays_in_the_same_step() -> None:
    game = make(2)
    state = position(game, phase="growth", step="window", window_step=1, held=("DEN OLLANDER", "FLUPPE"),
                     boards=(board(E, E, E, E), board(0, E, E, E)))
    state = game.apply(state, {0: "take:1", 1: "play:FLUPPE"})
    state = _close_window(game, state)
    assert state.held == (None, None) and state.tokens == (10, 12)
    assert any("no unplayed card left" in line for line in state.log)


def test_ollander_needs_an_opponent_holding_a_card() -> None:
    game = make(3)
    state = position(game, phase="growth", step="window", window_step=1, held=("DEN OLLANDER", None, "JOS"))
    assert game.legal_actions(state, 0) == ("pass", "take:2")


def test_ria_right_and_what_passers_know() -> None:
    game = make(4)
    state = position(game, phase="deal", step="window", window_step=1,
                     held=("FRANK", "RIA", "KEUN", "STEVEN"))
    state = game.apply(state, {0: "pass", 1: "play:RIA", 2: "pass", 3: "pass"})
    state = _close_window(game, state)
    state = draw(game, act(game, state, s1="ria:draw"), "JOS")
    state = act(game, state, s1="ria:right")
    # Right is seat - 1: seat 1 passes the drawn JOS to seat 0, seat 0 passes FRANK to seat 3,
    # seat 3 STEVEN to seat 2 and seat 2 KEUN to seat 1.
    assert state.held == ("JOS", "KEUN", "STEVEN", "FRANK")
    assert game.observation(state, 1)["you"]["known_cards"] == {"0": "JOS"}
    assert game.observation(state, 0)["you"]["known_cards"] == {"3": "FRANK"}
    assert game.observation(state, 3)["you"]["known_cards"] == {"2": "STEVEN"}
    assert game.observation(state, 2)["you"]["known_cards"] == {"1": "KEUN"}


def test_keun_may_take_from_any_plant_card_including_ones_own() -> None:
    game = make(2)
    state = position(game, phase="growth", step="window", window_step=1, held=("KEUN", None),
                     boards=(board(2, E, E, E), board(E, 1, 3, S)))
    state = _close_window(game, game.apply(state, {0: "play:KEUN"}))
    assert state.step == "keun"
    assert game.legal_actions(state, 0) == ("keun:0:2", "keun:1:4", "keun:1:6")
    state = act(game, state, s0="keun:0:2")
    assert state.tokens[0] == 12 and slot(state, 0, 2) == 0


def test_fluppe_counts_sacks_with_the_option_and_stops_at_an_empty_pot() -> None:
    game = make(2, fluppe_counts_sacks=True)
    state = position(game, phase="growth", step="window", window_step=1, held=("FLUPPE", None),
                     boards=(board(0, S, S, E), board(E, E, E, E)))
    state = _close_window(game, game.apply(state, {0: "play:FLUPPE"}))
    assert state.tokens[0] == 16
    dry = position(game, phase="growth", step="window", window_step=1, held=("FLUPPE", None),
                   boards=(board(0, S, S, E), board(E, E, E, E)), tokens=(10, 103))
    assert dry.pot == 3
    dry = _close_window(game, game.apply(dry, {0: "play:FLUPPE"}))
    assert dry.tokens[0] == 13 and dry.pot == 0


def test_griet_fills_only_own_cards_that_are_not_full() -> None:
    game = make(2)
    state = position(game, phase="growth", step="window", window_step=1, held=("GRIET", None),
                     boards=(board(3, 0, 2, E), board(0, E, E, E)))
    state = _close_window(game, game.apply(state, {0: "play:GRIET"}))
    assert game.legal_actions(state, 0) == ("griet:4", "griet:6")  # the 2 card is full (3)
    state = act(game, state, s0="griet:6")
    assert slot(state, 0, 6) == 6


def test_pastoor_with_open_coins_chooses_the_coin() -> None:
    game = make(3, coin_visibility="open")
    state = position(game, phase="growth", step="window", window_step=1, held=("PASTOOR", None, None),
                     coins=((), (1, 5), (3,)))
    state = _close_window(game, game.apply(state, {0: "play:PASTOOR"}))
    assert game.legal_actions(state, 0) == ("rob:1:1", "rob:1:5", "rob:2:3")
    state = act(game, state, s0="rob:1:5")
    assert sum(state.coins[0]) == 1 and state.coins[0][game.config.values.index(5)] == 1


def test_pastoor_with_secret_coins_draws_one_of_the_victims_coins_at_random() -> None:
    game = make(3)
    state = position(game, phase="growth", step="window", window_step=1, held=("PASTOOR", None, None),
                     coins=((), (1, 1, 5), (3,)))
    state = _close_window(game, game.apply(state, {0: "play:PASTOOR"}))
    assert game.legal_actions(state, 0) == ("rob:1", "rob:2")
    state = act(game, state, s0="rob:1")
    assert game.chance_outcomes(state) == [(1, Fraction(2, 3)), (5, Fraction(1, 3))]
    state = draw(game, state, 1)
    assert game.observation(state, 0)["you"]["coins"] == [1]


def test_stefaan_first_by_default_and_in_the_tie_place_as_an_option() -> None:
    for options, order in (({}, (0, 1)), ({"stefaan_order": "tie"}, (1, 0))):
        game = make(3, **options)
        state = position(game, phase="trade", step="window", window_step=1, held=("STEFAAN", None, None),
                         tokens=(8, 6, 8), bids=(2, 4, 2))
        state = _close_window(game, game.apply(state, {0: "play:STEFAAN"}))
        assert state.trade is not None and state.trade.order == order


def test_lucien_gets_nothing_when_tied_for_lowest_but_an_empty_hand_is_no_bid() -> None:
    for bids, lowest in (((1, 1, 3), False), ((2, 3, 0), True), ((2, 0, 0), False)):
        game = make(3)
        tokens = tuple(10 - b if b else 0 for b in bids)
        state = position(game, phase="trade", step="window", window_step=1, held=("LUCIEN", None, None),
                         tokens=tokens, bids=bids)
        state = _close_window(game, game.apply(state, {0: "play:LUCIEN"}))
        assert state.trade is not None and state.trade.lucien == (0 if lowest else None)
        assert (state.step == "lucien_draw") == lowest


def test_frank_halves_plough_costs_rounding_up() -> None:
    game = make(2, plough_cost_8=5)
    state = position(game, phase="cultivate", step="window", window_step=1, held=("FRANK", None),
                     boards=(board(E, E, E, 4), board(E, E, E, E)), coins=((3,), ()))
    state = _close_window(game, game.apply(state, {0: "play:FRANK"}))
    assert "plough:8:3" in game.legal_actions(state, 0)  # half of 5 is 3
    state = act(game, state, s0="plough:8:3", s1="pass")
    assert slot(state, 0, 8) == S and state.tokens[0] == 14


def test_jos_harvests_every_card_at_once() -> None:
    game = make(2)
    state = position(game, phase="cultivate", step="window", window_step=1, held=("JOS", None),
                     boards=(board(2, 3, 0, S), board(E, E, E, E)))
    state = _close_window(game, game.apply(state, {0: "play:JOS"}))
    state = act(game, state, s0="harvest_all", s1="pass")
    assert state.tokens[0] == 15 and state.boards[0] == (0, 0, 0, S)


def test_bernard_with_two_players_blocks_the_only_opponent_automatically() -> None:
    game = make(2)
    state = position(game, phase="cultivate", step="window", window_step=1, held=("BERNARD", None))
    state = _close_window(game, game.apply(state, {0: "play:BERNARD"}))
    assert state.step == "cultivate" and state.bernard_target == 1
    assert game.acting_players(state) == (0,)
    with pytest.raises(IllegalActionError):
        game.apply(state, {0: "pass", 1: "pass"})
