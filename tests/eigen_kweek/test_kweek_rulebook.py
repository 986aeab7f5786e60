"""The rulebook's words, rule by rule, against the engine.

Each row of ``RULES`` quotes the Eigen Kweek rulebook (eigen-kweek.txt) and names a
scenario that plays the rule out from a position built by hand and checks what
the words say happens. These are the places where an earlier reading departed
from the words (FLUPPE and sacks, the "Phase: All" cards in Hand In Characters,
RIA's "may", targets named on playing, LUCIEN and a hand CHANTAL emptied).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from kweek_helpers import E, S, act, board, draw, everyone, make, position, slot

from gamebag.games.eigen_kweek import EigenKweek, KweekState


def _close_window(game: EigenKweek, state: KweekState) -> KweekState:
    while state.step == "window":
        state = everyone(game, state)
    return state


# ---- FLUPPE -----------------------------------------------------------------------------------
def fluppe_counts_every_plant_card_sacks_included() -> None:
    game = make(2)
    state = position(game, phase="growth", step="window", window_step=1, held=("FLUPPE", None),
                     boards=(board(0, S, S, E), board(E, E, E, E)))
    pot = state.pot
    state = _close_window(game, game.apply(state, {0: "play:FLUPPE"}))
    # One growing card and two sacks: three plant cards on the board, 6 tokens (not 2).
    assert state.tokens[0] == 16 and state.pot == pot - 6


def fluppe_growing_only_is_an_option() -> None:
    game = make(2, fluppe_counts_sacks=False)
    state = position(game, phase="growth", step="window", window_step=1, held=("FLUPPE", None),
                     boards=(board(0, S, S, E), board(E, E, E, E)))
    state = _close_window(game, game.apply(state, {0: "play:FLUPPE"}))
    assert state.tokens[0] == 12


# ---- "Phase: All" cards in Hand In Characters ---------------------------------------------------
def _hand_in(held: tuple[str | None, ...]) -> tuple[EigenKweek, KweekState]:
    game = make(len(held))
    state = position(game, phase="cultivate", step="cultivate", held=held)
    state = everyone(game, state)  # everyone passes the cultivate action
    assert state.phase == "hand_in" and state.step == "window"
    return game, state


def ollander_takes_the_card_an_opponent_is_about_to_keep() -> None:
    game, state = _hand_in(("DEN OLLANDER", "STEVEN", None))
    assert game.acting_players(state) == (0, 1)
    assert game.legal_actions(state, 0) == ("pass", "take:1")
    assert game.legal_actions(state, 1) == ("pass",)  # STEVEN is no hand-in card
    state = act(game, state, s0="take:1", s1="pass")
    assert state.held == ("STEVEN", None, None)
    state = _close_window(game, state)
    assert state.step == "keep" and game.acting_players(state) == (0,)
    state = act(game, state, s0="keep")
    assert state.held == ("STEVEN", None, None) and state.kept == (True, False, False)


def julita_blocks_ollander_in_hand_in_and_the_card_comes_back() -> None:
    game, state = _hand_in(("DEN OLLANDER", "JULITA", "FRANK"))
    state = act(game, state, s0="take:2", s1="pass", s2="pass")
    assert state.held == ("FRANK", "JULITA", None)
    assert "block:DEN OLLANDER" in game.legal_actions(state, 1)
    state = act(game, state, s0="pass", s1="block:DEN OLLANDER")
    assert state.held == (None, None, "FRANK")
    state = _close_window(game, state)
    assert state.step == "keep" and game.acting_players(state) == (2,)


def nobody_holding_a_card_skips_the_hand_in_window() -> None:
    game = make(2)
    state = position(game, phase="cultivate", step="cultivate")
    state = everyone(game, state)
    assert state.step == "refill"


# ---- RIA: "you may blindly take a character card" ----------------------------------------------
def ria_may_take_no_card() -> None:
    game = make(3)
    state = position(game, phase="deal", step="window", window_step=1, held=("RIA", "KEUN", "FRANK"))
    state = _close_window(game, game.apply(state, {0: "play:RIA", 1: "pass", 2: "pass"}))
    assert state.step == "ria_choice" and game.legal_actions(state, 0) == ("ria:draw", "ria:skip")
    stack = state.stack
    state = act(game, state, s0="ria:skip")
    assert state.step == "ria_direction" and state.stack == stack
    state = act(game, state, s0="ria:left")
    # Everyone passes left; seat 0 took no card, so seat 1 receives none.
    assert state.held == ("FRANK", None, "KEUN")


def ria_draws_when_she_chooses_to() -> None:
    game = make(3)
    state = position(game, phase="deal", step="window", window_step=1, held=("RIA", "KEUN", "FRANK"))
    state = _close_window(game, game.apply(state, {0: "play:RIA", 1: "pass", 2: "pass"}))
    state = draw(game, act(game, state, s0="ria:draw"), "JOS")
    state = act(game, state, s0="ria:right")
    assert state.held == ("KEUN", "FRANK", "JOS")


# ---- targets are named when the card is played ---------------------------------------------------
def keun_names_its_target_on_playing_and_julita_answers_it() -> None:
    game = make(3)
    state = position(game, phase="growth", step="window", window_step=1, held=("KEUN", "JULITA", None),
                     boards=(board(E, E, E, E), board(E, 2, E, E), board(E, E, 4, E)))
    state = game.apply(state, {0: "play:KEUN", 1: "pass"})
    # The target is chosen now, in the open, before anyone may react.
    assert state.step == "keun" and game.acting_players(state) == (0,)
    state = act(game, state, s0="keun:1:4")
    assert state.step == "window" and state.window_step == 2
    assert any(p.card == "KEUN" and p.target == "keun:1:4" for p in state.plays)
    assert game.public_view(state)["plays"][0]["target"] == "keun:1:4"
    # Nothing has happened yet: the effect waits for the window to close.
    assert slot(state, 1, 4) == 2 and state.tokens[0] == 10
    # Seat 1, the target, answers with JULITA.
    state = _close_window(game, act(game, state, s1="block:KEUN"))
    assert slot(state, 1, 4) == 2 and state.tokens[0] == 10


def keun_target_takes_effect_when_the_window_closes() -> None:
    game = make(3)
    state = position(game, phase="growth", step="window", window_step=1, held=("KEUN", "JULITA", None),
                     boards=(board(E, E, E, E), board(E, 2, E, E), board(E, E, 4, E)))
    state = act(game, game.apply(state, {0: "play:KEUN", 1: "pass"}), s0="keun:2:6")
    state = _close_window(game, state)
    assert slot(state, 2, 6) == 0 and state.tokens[0] == 14


def bernard_names_the_blocked_player_on_playing() -> None:
    game = make(3)
    state = position(game, phase="cultivate", step="window", window_step=1, held=("BERNARD", "JULITA", "FRANK"))
    state = game.apply(state, {0: "play:BERNARD", 1: "pass", 2: "pass"})
    assert state.step == "bernard" and game.legal_actions(state, 0) == ("bernard:1", "bernard:2")
    state = act(game, state, s0="bernard:2")
    state = _close_window(game, state)
    assert state.step == "cultivate" and game.acting_players(state) == (0, 1)


# ---- LUCIEN and a hand emptied by CHANTAL -----------------------------------------------------------
def lucien_is_not_lowest_when_chantal_empties_a_lower_hand() -> None:
    game = make(3)
    state = position(game, phase="trade", step="window", window_step=1, held=("LUCIEN", "CHANTAL", None),
                     tokens=(8, 7, 9), bids=(2, 3, 1))
    state = _close_window(game, game.apply(state, {0: "play:LUCIEN", 1: "play:CHANTAL"}))
    assert state.trade is not None
    # Seat 2 bid 1 and CHANTAL took it: that bid counts 0, lower than LUCIEN's 1.
    assert state.trade.counts == (1, 3, 0)
    assert state.trade.lucien is None and state.step != "lucien_draw"


def lucien_emptied_by_chantal_is_the_lowest_bid() -> None:
    game = make(3)
    state = position(game, phase="trade", step="window", window_step=1, held=("LUCIEN", "CHANTAL", None),
                     tokens=(9, 7, 7), bids=(1, 3, 3))
    state = _close_window(game, game.apply(state, {0: "play:LUCIEN", 1: "play:CHANTAL"}))
    assert state.trade is not None and state.trade.counts == (0, 3, 2)
    assert state.trade.lucien == 0 and state.step == "lucien_draw"


def lucien_an_empty_hand_from_the_start_is_no_bid() -> None:
    game = make(3)
    state = position(game, phase="trade", step="window", window_step=1, held=("LUCIEN", None, None),
                     tokens=(8, 0, 7), bids=(2, 0, 3))
    state = _close_window(game, game.apply(state, {0: "play:LUCIEN"}))
    assert state.trade is not None and state.trade.lucien == 0


RULES: list[tuple[str, Callable[[], None]]] = [
    ("FLUPPE: When you play this character card, you immediately receive two weed tokens for each plant "
     "card on your player board.", fluppe_counts_every_plant_card_sacks_included),
    ("PLOUGH OVER: You may choose to plough over your plant card (by turning it over).",
     fluppe_counts_every_plant_card_sacks_included),
    ("FLUPPE (option fluppe_counts_sacks: false, growing cards only)", fluppe_growing_only_is_an_option),
    ("Playing a character card can take place at any moment during the phase in which the character "
     "card may be played. / DEN OLLANDER: you may take a character card of an opponent and use it.",
     ollander_takes_the_card_an_opponent_is_about_to_keep),
    ("Hand In Characters: You may also choose to keep your unplayed character card.",
     ollander_takes_the_card_an_opponent_is_about_to_keep),
    ("JULITA: you may block a character card of an opponent and undo its effect.",
     julita_blocks_ollander_in_hand_in_and_the_card_comes_back),
    ("Players hand in their character cards, even if they were not played.",
     nobody_holding_a_card_skips_the_hand_in_window),
    ("RIA: the stack of character cards is shuffled and you may blindly take a character card.",
     ria_may_take_no_card),
    ("RIA: You look at the card and pass it to the player to your left or right.", ria_draws_when_she_chooses_to),
    ("KEUN: When you play this character card, you may take all weed tokens from one plant card.",
     keun_names_its_target_on_playing_and_julita_answers_it),
    ("KEUN: This may be from your own plant card or from an opponent's.",
     keun_target_takes_effect_when_the_window_closes),
    ("BERNARD: When you play this character card, you may block an opponent for the entire cultivate phase.",
     bernard_names_the_blocked_player_on_playing),
    ("CHANTAL: Only after this is the bid counted. / LUCIEN: if you have bid the lowest",
     lucien_is_not_lowest_when_chantal_empties_a_lower_hand),
    ("LUCIEN: you may, if you have bid the lowest, blindly take one coin from the coin bag",
     lucien_emptied_by_chantal_is_the_lowest_bid),
    ("If you cannot bid anything because you have no weed tokens left in your collection, you also get no coins. "
     "/ LUCIEN: if no one has bid ... This does not count as the lowest bid.",
     lucien_an_empty_hand_from_the_start_is_no_bid),
]


@pytest.mark.parametrize(("quote", "scenario"), RULES, ids=[f"{i}-{s.__name__}" for i, (_, s) in enumerate(RULES)])
def test_the_rulebook_says(quote: str, scenario: Callable[[], None]) -> None:
    assert quote  # the words being checked, shown in the test's failure report
    scenario()
