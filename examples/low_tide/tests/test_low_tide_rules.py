"""Low Tide's rules as known answers, its hidden information, and the shipped conformance suite."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import gamebag
from gamebag import plugins, testing
from gamebag.core import registry
from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError, OptionError
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng

LOW_TIDE_FILE = Path(__file__).resolve().parents[1] / "low_tide.py"


@pytest.fixture(scope="module")
def low_tide() -> Iterator[ModuleType]:
    """The game, loaded as a user loads it (``plugins.load_file``, which runs the conformance suite
    first), and forgotten after these tests so that tests of other games never see it."""
    loaded_here = "low-tide" not in registry.game_ids()
    if loaded_here:
        assert plugins.load_file(LOW_TIDE_FILE) == ("low-tide",)
    yield sys.modules[registry.entry("low-tide").game_class.__module__]
    if loaded_here:
        registry.unregister("low-tide")
        plugins._loaded_files.pop(str(LOW_TIDE_FILE), None)
        plugins._checked.discard("low-tide")


def deal(game: Any, cards: list[int], state: Any = None) -> Any:
    """The state after dealing ``cards`` (in dealing order; the last one turned up), from the start
    of the game or of the round at ``state``."""
    state = game.initial_state() if state is None else state
    for card in cards:
        assert game.node_kind(state) is NodeKind.CHANCE
        state = game.apply_chance(state, card)
    return state


def cards_of_each_value(module: ModuleType, state: Any) -> Counter[int]:
    """Every card's whereabouts counted by value: deck, hands, tide and discards."""
    counts: Counter[int] = Counter()
    for value, count in enumerate(state.deck, 1):
        counts[value] += count
    for hand in state.hands:
        counts.update(hand)
    counts.update(state.discards)
    if state.tide:
        counts[state.tide] += 1
    return counts


def test_a_two_player_round_scores_as_the_rules_say(low_tide: ModuleType) -> None:
    game = gamebag.make("low-tide", 2, rounds=1, hand_size=2)
    # Chance: a full deck of 60 cards, 5 of each value.
    assert list(game.chance_outcomes(game.initial_state())) == [(v, Fraction(1, 12)) for v in range(1, 13)]
    # Dealt one at a time from seat 0: seat 0 gets 5 and 3, seat 1 gets 9 and 7; then the tide, 6.
    state = deal(game, [5, 9, 3, 7])
    assert state.hands == ((3, 5), (7, 9)) and state.phase == "turn-up"
    assert dict(game.chance_outcomes(state))[5] == Fraction(4, 56)  # one 5 is in a hand
    state = game.apply_chance(state, 6)
    assert game.acting_players(state) == (0,) and list(game.legal_actions(state, 0)) == [3, 5]
    state = game.apply(state, {0: 5})  # under the tide: 5 is the new tide, nothing taken
    assert (state.tide, state.scores, state.discards, game.acting_players(state)) == (5, (0, 0), (6,), (1,))
    state = game.apply(state, {1: 7})  # over the tide: seat 1 takes its 5 points; a new tide is turned up
    assert (state.scores, state.discards, game.node_kind(state)) == ((0, 5), (6, 5, 7), NodeKind.CHANCE)
    state = game.apply_chance(state, 12)
    state = game.apply(state, {0: 3})
    assert state.tide == 3
    state = game.apply(state, {1: 9})  # the round's last card: 3 more points, no turn-up
    assert game.is_terminal(state) and state.scores == (0, 8)
    assert game.winners(state) == (0,) and game.returns(state) == (1.0, 0.0)  # the lowest total wins
    assert game.scores(state) == (0.0, 8.0)


def test_an_equal_card_takes_the_tide(low_tide: ModuleType) -> None:
    game = gamebag.make("low-tide", 2, rounds=1, hand_size=2)
    state = game.apply(deal(game, [4, 1, 8, 2, 4]), {0: 4})
    assert state.scores == (4, 0) and state.tide == 0 and game.node_kind(state) is NodeKind.CHANCE


def test_rounds_start_with_the_next_seat_a_full_deck_and_the_scores_kept(low_tide: ModuleType) -> None:
    game = gamebag.make("low-tide", 3, rounds=2, hand_size=2)
    state = deal(game, [1, 2, 3, 1, 2, 3, 12])  # hands 1 1, 2 2, 3 3; the tide is 12
    state = game.apply(state, {0: 1})  # under 12
    state = game.apply_chance(game.apply(state, {1: 2}), 10)  # takes 1; 10 turned up
    state = game.apply(state, {2: 3})  # under 10
    state = game.apply(state, {0: 1})  # under 3
    state = game.apply_chance(game.apply(state, {1: 2}), 10)  # takes 1; 10 turned up
    state = game.apply(state, {2: 3})  # under 10: the round's last card
    assert state.round == 2 and state.phase == "deal" and state.deck == low_tide.FULL_DECK
    assert state.hands == ((), (), ()) and state.scores == (0, 2, 0)
    state = deal(game, [7, 8, 9, 7, 8, 9, 6], state)
    assert state.hands == ((9, 9), (7, 7), (8, 8))  # round 2 deals from seat 1 first
    assert game.acting_players(state) == (1,) and game.round_number(state) == 2


def test_a_tie_for_the_lowest_total_shares_the_win(low_tide: ModuleType) -> None:
    game = gamebag.make("low-tide", 3, rounds=1, hand_size=2)
    state = deal(game, [5, 5, 5, 6, 6, 6, 4])  # every hand is 5 and 6; the tide is 4
    for seat, card, turned_up in ((0, 5, 4), (1, 5, 4), (2, 5, 2), (0, 6, 2), (1, 6, 3)):
        state = game.apply_chance(game.apply(state, {seat: card}), turned_up)  # every play takes the tide
    state = game.apply(state, {2: 6})
    assert game.is_terminal(state) and state.scores == (6, 6, 7)
    assert game.winners(state) == (0, 1) and game.returns(state) == (0.5, 0.5, 0.0)


def test_a_card_not_in_hand_and_an_impossible_draw_are_refused(low_tide: ModuleType) -> None:
    game = gamebag.make("low-tide", 2, rounds=1, hand_size=2)
    state = deal(game, [5, 9, 3, 7, 6])
    with pytest.raises(IllegalActionError, match=r"seat 0 must play a card of their hand \(3, 5\), not 9"):
        game.apply(state, {0: 9})
    state = deal(game, [1, 1, 1, 1, 1])  # all five 1s are out
    played = game.apply(state, {0: 1})
    with pytest.raises(IllegalChanceOutcomeError):
        game.apply_chance(played, 1)


def test_options_are_bounded_and_named(low_tide: ModuleType) -> None:
    with pytest.raises(OptionError, match="hand_size"):
        gamebag.make("low-tide", 6, hand_size=6)
    with pytest.raises(OptionError, match="rounds"):
        gamebag.make("low-tide", 2, rounds=0)
    testing.check_option_errors(gamebag.entry("low-tide").game_class)


def test_a_resample_deals_only_unseen_cards_to_the_other_seats(low_tide: ModuleType) -> None:
    game = gamebag.make("low-tide", 4, rounds=2, hand_size=4)
    rng = make_rng(11)
    checked = 0
    for state in testing.random_playout(game, make_rng(3)):
        if game.node_kind(state) is not NodeKind.DECISION:
            continue
        for seat in range(game.num_players):
            other = game.resample_from_infostate(state, seat, rng)
            assert other.hands[seat] == state.hands[seat]
            assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
            assert (other.tide, other.discards, other.scores) == (state.tide, state.discards, state.scores)
            assert cards_of_each_value(low_tide, other) == cards_of_each_value(low_tide, state)
            assert game.observation(other, seat) == game.observation(state, seat)
            assert game.observation_tensor(other, seat) == game.observation_tensor(state, seat)
            assert list(game.legal_actions(other, seat)) == list(game.legal_actions(state, seat))
            checked += 1
    assert checked > 20


def test_the_tensor_lies_in_zero_to_one_and_keeps_its_length(low_tide: ModuleType) -> None:
    lengths = set()
    for players, options in ((2, {"rounds": 1, "hand_size": 2}), (6, {"rounds": 6, "hand_size": 5})):
        game = gamebag.make("low-tide", players, **options)
        for state in testing.random_playout(game, make_rng(players)):
            for seat in range(players):
                tensor = game.observation_tensor(state, seat)
                assert all(0.0 <= x <= 1.0 for x in tensor), tensor
                lengths.add(len(tensor))
            json.dumps(game.public_view(state))
    assert len(lengths) == 1  # one layout for every configuration


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("options", [{}, {"rounds": 1, "hand_size": 2}, {"rounds": 6, "hand_size": 5}])
def test_the_conformance_suite_passes(low_tide: ModuleType, players: int, options: dict[str, int]) -> None:
    testing.check_game(gamebag.make("low-tide", players, **options), factory=gamebag.make)


def test_it_declares_that_the_lowest_score_wins_and_has_no_heuristic(low_tide: ModuleType) -> None:
    assert low_tide.LowTide.lower_score_wins is True
    text = gamebag.entry("low-tide").rules_text()
    assert "lowest total wins" in text
    from gamebag.agents.registry import make_agent
    from gamebag.core.errors import GamebagError

    with pytest.raises(GamebagError):
        make_agent("heuristic", gamebag.make("low-tide"))  # the example ships no heuristic of its own


def test_the_terminal_tells_every_play_once(low_tide: ModuleType) -> None:
    """``narrate`` between consecutive views of one seat: one line per card played, none for deals."""
    game = gamebag.make("low-tide", 2, rounds=3, hand_size=2)
    entry = gamebag.entry("low-tide")
    for seed in range(5):
        lines: list[str] = []
        before = None
        for state in testing.random_playout(game, make_rng(seed)):
            view = game.observation(state, 0)
            lines += entry.narrate(before, view)
            before = view
            entry.render_view(view)  # renders every position
        assert len(lines) == 2 * 2 * 3 and all(line.startswith("seat ") for line in lines)


def test_a_play_equal_to_the_last_one_is_still_told(low_tide: ModuleType) -> None:
    game = gamebag.make("low-tide", 2, rounds=2, hand_size=2)
    narrate = gamebag.entry("low-tide").narrate
    state = deal(game, [5, 3, 5, 3, 4])  # seat 0 holds 5 5, seat 1 holds 3 3; the tide is 4
    state = game.apply_chance(game.apply(state, {0: 5}), 4)  # takes 4
    state = game.apply(state, {1: 3})  # under
    state = game.apply_chance(game.apply(state, {0: 5}), 4)  # takes 3
    state = game.apply(state, {1: 3})  # under: the round's last play
    before = game.observation(state, 0)
    state = deal(game, [3, 5, 3, 5, 4], state)  # round 2 deals from seat 1 first
    state = game.apply(state, {1: 3})  # the very same play as the last one, in a new round
    assert narrate(before, game.observation(state, 0)) == ["seat 1 slips 3 under the tide."]
