"""The analysis and the coach in players' words: each decision located (round, grab or turn, phase)
and named in the game's words, win chances and losses in %, luck in a unit said once, the method
kept out of the first line, and estimates too wide to judge said to be so instead of a wide number."""

from __future__ import annotations

import re
from typing import Any

import pytest

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.registry import heuristic_for
from gamebag.analysis import AnalysisSettings, analyse_record
from gamebag.analysis.coach import words as coach_words
from gamebag.analysis.evaluators import Choices
from gamebag.analysis.figures import DecisionReport, Estimate
from gamebag.analysis.words import (
    LUCK_UNIT,
    action_said,
    decision_sentence,
    headline,
    how_computed,
    is_undecided,
    seat_words,
)
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng, derive_rng
from gamebag.sim.play import play_game

NAMES = ["Anna", "Ben", "Cas"]
UNDECIDED = "too close to judge at this budget"
# What the old words showed players, never to be seen again: method details, units players
# misread, actions in record codes.
JARGON = re.compile(r"playouts|information set|percentage points|winning chance|\bpoints\)|estimate:|exact:")


def analysed(game_id: str, players: int, seed: int, **options: Any) -> dict[str, Any]:
    game = gamebag.make(game_id, players, **options)
    record = play_game(game, [heuristic_for(game)] * players, derive_rng(seed, "words", game_id)).record
    assert record is not None
    return analyse_record(record, AnalysisSettings(playouts=40)).to_json()


# game, players, options, a place's keys, the start of a sentence's place, words an action must use
CASES = [
    (
        "pig",
        2,
        {"goal": 30},
        {"round", "turn_total"},
        r"^Round \d+, with \d+ in the turn: ",
        ("roll the die", "hold: bank"),
    ),
    (
        "catch-a-dragon",
        2,
        {},
        {"round", "phase", "rolled", "dice_left"},
        r"^Round \d+, (collecting from a roll of \d dic?e|stop or roll with \d dic?e left): ",
        ("collect ", "stop and score", "roll the "),
    ),
    ("eel-harvest", 2, {}, {"round", "grab"}, r"^Round \d+, grab \d+: ", ("grab ", "exit: score")),
    ("wriggle-roulette", 3, {}, {"round", "grab"}, r"^Round \d+, grab \d+: ", ("grab ", "exit: score")),
]


@pytest.mark.parametrize(("game_id", "players", "options", "keys", "place", "actions"), CASES)
def test_each_decision_is_located_and_named_in_the_games_words(
    game_id: str, players: int, options: dict[str, Any], keys: set[str], place: str, actions: tuple[str, ...]
) -> None:
    analysis = analysed(game_id, players, 3, **options)
    assert analysis["decisions"]
    for decision in analysis["decisions"]:
        assert set(decision["place"]) == keys and decision["place"]["round"] >= 1
        sentence = decision_sentence(decision, NAMES)
        assert re.match(place, sentence), sentence
        assert NAMES[decision["seat"]] in sentence and sentence.endswith(".")
        assert decision["said"]["action"].startswith(actions), decision["said"]
        assert not JARGON.search(sentence), sentence
        assert "[" not in sentence  # the terminal's colour markup is taken out
        if not is_undecided(decision) and decision["loss"] >= 0.005:
            assert f"lost about {100 * decision['loss']:.0f}% win chance" in sentence or "lost about 0." in sentence
    first = headline(analysis, NAMES)
    assert "played most accurately" in first and "% win chance" in first and not JARGON.search(first)
    assert "Method: " in how_computed(analysis)[-1]  # the method, for the fold only


def test_eigen_kweek_decisions_are_located_by_phase_and_named_as_the_game_names_them() -> None:
    """A whole Eigen Kweek game walked decision by decision (no playouts: the words alone)."""
    game = gamebag.make("eigen-kweek", 3)
    agents = [heuristic_for(game)] * 3
    rng = Rng(5)
    state = game.initial_state()
    said: dict[str, str] = {}
    places = set()
    while not game.is_terminal(state):
        if not game.acting_players(state):
            state = game.advance_chance(state, rng)
            continue
        by_seat = game.legal_actions_by_seat(state)
        for seat, legal in by_seat.items():
            place, words, view = seat_words(game, state, seat)
            assert set(place) == {"round", "phase", "step"}
            places.add(words)
            for action in legal:
                said[game.action_to_json(action)] = action_said(game, view, action)
        moves = {p: agents[p].act(SeatView(game, state, p, legal), rng) for p, legal in by_seat.items()}
        state = game.apply_chosen(state, moves, by_seat)
    bids = [code for code in said if code.startswith("bid:")]
    assert bids and all(said[code] in (f"bid {code[4:]} weed tokens", "bid 1 weed token") for code in bids)
    plays = [code for code in said if code.startswith("play:")]
    assert plays and all(said[code] == f"play {code[5:]}" for code in plays)
    assert all(":" not in words.split(": ", 1)[0] or not re.search(r"\w:\w", words) for words in said.values())
    assert "round 1, Trade: secret bids" in places
    assert any(place.startswith("round 2, Cultivate") for place in places)


def estimated(loss: Estimate) -> DecisionReport:
    value = Estimate(0.30, 0.20, 0.40)
    return DecisionReport(
        event=7, seat=1, action="bid:2", best=["bid:4"], value=value, best_value=Estimate(0.33, 0.23, 0.43),
        loss=loss, exact=False, place={"round": 2, "phase": "trade", "step": "bid"},
        said={"place": "round 2, Trade: secret bids", "action": "bid 2 weed tokens", "best": ["bid 4 weed tokens"]},
    )  # fmt: skip


def test_an_interval_too_wide_to_judge_says_so_instead_of_a_number() -> None:
    wide = estimated(Estimate(0.03, -0.09, 0.15)).to_json()  # "-9 to 15": could be nothing, could be a blunder
    assert is_undecided(wide) and wide["label"] is None
    sentence = decision_sentence(wide, NAMES)
    assert sentence == "Round 2, Trade: secret bids: Ben chose bid 2 weed tokens; against bid 4 weed tokens it is " \
        "too close to judge at this budget."  # fmt: skip
    assert not re.search(r"\d+%", sentence)
    narrow = estimated(Estimate(0.03, -0.01, 0.07)).to_json()  # small whatever the noise: judged
    assert not is_undecided(narrow) and UNDECIDED not in decision_sentence(narrow, NAMES)
    clear = estimated(Estimate(0.12, 0.02, 0.22)).to_json()  # wide, but surely a loss: judged, and labelled
    assert not is_undecided(clear) and clear["label"] == "mistake"
    assert decision_sentence(clear, NAMES) == (
        "Round 2, Trade: secret bids: Ben chose bid 2 weed tokens; bid 4 weed tokens was better, and the choice "
        "lost about 12% win chance (30% instead of 33%; between 2% and 22% with 95% confidence). That is a mistake."
    )
    exact = DecisionReport(7, 1, "hold", ["roll"], Estimate.exact(0.5), Estimate.exact(0.5), Estimate.exact(0.0), True)
    assert not is_undecided(exact.to_json())
    # The estimator's own verdict (its budget ran out, ``batched``) reads the same.
    spent = {**narrow, "undecided": "the budget ran out"}
    assert is_undecided(spent) and UNDECIDED in decision_sentence(spent, NAMES)


def test_luck_and_points_have_their_units() -> None:
    analysis = analysed("catch-a-dragon", 3, 6)
    assert "win chance" in LUCK_UNIT and "%" in LUCK_UNIT and len(LUCK_UNIT.splitlines()) == 1
    with_points = [d for d in analysis["decisions"] if not is_undecided(d) and d["points"]["loss"] >= 0.005]
    assert with_points, "no decision lost expected points"
    for decision in with_points:
        assert f"gave up {decision['points']['loss']:.2f} game points expected this turn" in decision_sentence(
            decision, NAMES
        )
    lines = how_computed(analysis)
    assert "up to 40 games per value" in lines[0] and UNDECIDED in lines[1]


def coach_choices(game: Game[Any, Any, Any], losses: dict[Any, Estimate]) -> Choices:
    values = {"stop": Estimate(0.41, 0.31, 0.51), "roll": Estimate(0.40, 0.30, 0.50)}
    return Choices(values=values, losses=losses, best=("stop",), best_value=values["stop"], exact=False)


def test_the_coach_says_when_two_choices_are_too_close_to_call() -> None:
    game = gamebag.make("pig", 2)
    close = coach_choices(game, {"stop": Estimate.exact(0.0), "roll": Estimate(0.01, -0.02, 0.04)})
    said = coach_words(game, ["stop", "roll"], close)
    assert said.startswith("The two choices are too close to call at this budget. ")
    assert "Playouts" not in said and "lean to" not in said
    clear = coach_choices(game, {"stop": Estimate.exact(0.0), "roll": Estimate(0.06, 0.03, 0.09)})
    assert coach_words(game, ["stop", "roll"], clear).startswith("The best choice here looks to be stop.")
