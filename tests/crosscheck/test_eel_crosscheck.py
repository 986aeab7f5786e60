"""Differential tests: the project's Eel family engine against the independent reference.

Games are played by the project's engine (``play_game`` with random, heuristic and biased agents,
every option combination, 2 to 8 players); each record is replayed by both the engine and
``reference_eel`` and every position where players act (and the final one) is compared. Mutated
records check that both sides accept and reject the same draws.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from reference_eel import EelPosition, ReferenceRuleError, replay_eel

import gamebag
from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.errors import RecordError
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.records import Record, apply_event, replay
from gamebag.core.rng import Rng, derive_rng
from gamebag.sim.play import play_game

HARVEST_OPTIONS: list[dict[str, Any]] = [
    {"rotate_start": rotate, "outbreak_scores_reserve": reserve, "lone_player_grabs": lone, "draw": draw}
    for rotate, reserve, lone, draw in itertools.product((False, True), (False, True), (None, 0, 1, 3), ("bag", "dice"))
]
WRIGGLE_OPTIONS: list[dict[str, Any]] = [{"rotate_start": False}, {"rotate_start": True}]


class WeightedGrabAgent(Agent):
    """Grabs with fixed weights over 0..max (weights past the maximum are ignored)."""

    def __init__(self, weights: dict[int, float], name: str) -> None:
        self.weights = weights
        self.name = name

    def act(self, view: SeatView, rng: Rng) -> Any:
        legal = list(view.legal_actions)
        weights = [self.weights.get(int(action), self.weights.get(-1, 0.0)) for action in legal]
        if sum(weights) <= 0:
            return legal[-1]
        return rng.choices(legal, weights=weights)[0]


def biased_agent(kind: str) -> Agent:
    """Agents that stress the rules: long rounds, empty bags, mass exits."""
    if kind == "nibbler":  # long rounds: one token at a time, rarely exits
        return WeightedGrabAgent({0: 0.02, 1: 0.9, 2: 0.08}, kind)
    if kind == "greedy":  # nearly always the maximum: empties the bag with many players
        return WeightedGrabAgent({-1: 0.95, 0: 0.05, 1: 0.0, 2: 0.0, 3: 0.0}, kind)
    if kind == "drainer":  # maximum most of the time, sometimes exits: exits meet an empty bag
        return WeightedGrabAgent({0: 0.15, 1: 0.0, 2: 0.0, 3: 0.05, -1: 0.8}, kind)
    if kind == "quitter":  # exits early and often
        return WeightedGrabAgent({0: 0.5, 1: 0.2, 2: 0.2, 3: 0.1}, kind)
    raise ValueError(kind)


AGENT_KINDS = ("random", "heuristic", "nibbler", "greedy", "drainer", "quitter")


def agents_for(game: Game[Any, Any, Any], mix: tuple[str, ...]) -> list[Agent]:
    agents: list[Agent] = []
    for seat in range(game.num_players):
        kind = mix[seat % len(mix)]
        agents.append(make_agent(kind, game) if kind in ("random", "heuristic") else biased_agent(kind))
    return agents


def project_positions(record: Record) -> Iterator[tuple[Game[Any, Any, Any], Any]]:
    """The engine's state after every event of ``record``."""
    game = gamebag.make(record.game, record.players, **record.options)
    state = game.initial_state()
    for event in record.events:
        state = apply_event(game, state, event)
        yield game, state


def compare_record(record: Record, *, lone_exit_with_grab: bool = False) -> EelPosition:
    """Replay ``record`` in both; every decision position and the end must agree.

    ``lone_exit_with_grab`` picks the reading of one open point (see reference_eel); the project
    ranks an automatic lone-player exit after the exits of the grab that left the player alone.
    """
    data = record.to_json()
    snapshots: list[dict[str, Any]] = []
    reference = replay_eel(data, lone_exit_with_grab=lone_exit_with_grab, snapshots=snapshots)
    dice = reference.rules.dice
    for index, (game, state) in enumerate(project_positions(record)):
        ours = snapshots[index]
        kind = game.node_kind(state)
        view = game.public_view(state)
        where = f"{record.game} {record.players}p {record.options} after event {index}"
        expected_kind = {"moves": NodeKind.DECISION, "chance": NodeKind.CHANCE, "over": NodeKind.TERMINAL}
        assert kind is expected_kind[ours["awaiting"]], (where, kind, ours)
        if kind is NodeKind.CHANCE:
            continue
        assert list(game.scores(state)) == ours["scores"], (where, view, ours)
        assert game.round_number(state) == ours["round"], (where, view, ours)
        assert tuple(game.winners(state)) == tuple(ours["winners"]), (where, view, ours)
        if kind is NodeKind.TERMINAL:
            continue
        assert list(game.acting_players(state)) == [s for s, inside in enumerate(ours["in_round"]) if inside]
        assert view["in_round"] == ours["in_round"], (where, view, ours)
        assert view["reserves"] == ours["reserves"], (where, view, ours)
        assert view["start_player"] == ours["start_player"], (where, view, ours)
        assert view["centre_snakes"] == ours["centre_snakes"], (where, view, ours)
        if not dice:
            assert (view["bag"]["eels"], view["bag"]["snakes"]) == ours["bag"], (where, view, ours)
    assert reference.over, "generated games are played to the end"
    return reference


def play_record(game_id: str, players: int, options: dict[str, Any], mix: tuple[str, ...], seed: int) -> Record:
    game = gamebag.make(game_id, players, **options)
    played = play_game(
        game,
        agents_for(game, mix),
        derive_rng("eel-crosscheck", game_id, players, str(options), seed),
        max_steps=50_000,
    )
    assert played.record is not None
    return played.record


MIXES: tuple[tuple[str, ...], ...] = (
    ("random",),
    ("heuristic",),
    ("heuristic", "random"),
    ("nibbler",),
    ("greedy",),
    ("drainer", "nibbler"),
    ("quitter", "greedy", "nibbler"),
    ("drainer",),
)


@pytest.mark.parametrize("options", HARVEST_OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_eel_harvest_matches_reference(options: dict[str, Any]) -> None:
    seen: Counter[str] = Counter()
    for players in range(2, 9):
        for mix in MIXES:
            seen += compare_record(play_record("eel-harvest", players, options, mix, seed=players)).seen
    assert seen["outbreak"] > 0
    if options["lone_player_grabs"] is not None:
        assert seen["lone_auto_exit"] > 0
    if options["draw"] == "bag":
        assert seen["short_bag"] > 0


@pytest.mark.parametrize("options", WRIGGLE_OPTIONS, ids=lambda o: f"rotate_start={o['rotate_start']}")
def test_wriggle_roulette_matches_reference(options: dict[str, Any]) -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        for players in range(2, 9):
            for mix in MIXES:
                seen += compare_record(play_record("wriggle-roulette", players, options, mix, seed=seed)).seen
    assert seen["outbreak"] > 0 and seen["short_bag"] > 0 and seen["ended_mid_round"] > 0


def test_the_bag_runs_short_in_generated_games() -> None:
    """The stress agents really reach the rare case the references differ on: a short bag."""
    short = 0
    for seed in range(6):
        record = play_record("eel-harvest", 8, {}, ("drainer", "greedy"), seed)
        state = replay_eel(record.to_json())
        assert state.over
        moves: dict[str, int] = {}
        for event in record.events:
            if "moves" in event:
                moves = event["moves"]
            elif sum(moves.values()) > sum(len(hand) for hand in event["chance"].values()):
                short += 1
        compare_record(record)
    assert short > 0


def mutations(record: Record) -> Iterator[tuple[int, dict[str, Any]]]:
    """Small changes to single draws: a letter flipped, a token added or removed, a seat dropped."""
    for index, event in enumerate(record.events):
        if "chance" not in event or not event["chance"]:
            continue
        seat, hand = sorted(event["chance"].items())[0]
        flipped = hand[:-1] + ("E" if hand[-1] == "S" else "S")
        for new_hand in (flipped, hand + "E", hand + "S", hand[:-1]):
            chance = dict(event["chance"])
            if new_hand:
                chance[seat] = new_hand
            else:
                del chance[seat]
            yield index, {"chance": chance}


def verdicts(record: Record) -> tuple[int | None, int | None]:
    """The index of the first event each side rejects (project, reference); None: accepted."""
    try:
        replay(record, gamebag.make)
        project = None
    except RecordError as error:
        project = error.event_index
    try:
        replay_eel(record.to_json())
        reference = None
    except ReferenceRuleError as error:
        reference = error.index
    return project, reference


@pytest.mark.parametrize("game_id", ["eel-harvest", "wriggle-roulette"])
def test_mutated_draws_are_judged_alike(game_id: str) -> None:
    checked = 0
    for players, mix in ((2, ("random",)), (4, ("nibbler",)), (8, ("drainer", "greedy"))):
        record = play_record(game_id, players, {}, mix, seed=3)
        for index, event in itertools.islice(mutations(record), 0, None, 3):
            events = [*record.events[:index], event, *record.events[index + 1 :]]
            mutated = Record(record.game, record.players, dict(record.options), events)
            project, reference = verdicts(mutated)
            assert project == reference, (mutated.to_json(), project, reference)
            checked += 1
    assert checked > 20


def move_mutations(record: Record, max_grab: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """Small changes to single grabs: a count over the maximum, a seat dropped, a seat added."""
    for index, event in enumerate(record.events):
        if "moves" not in event:
            continue
        moves = dict(event["moves"])
        first = sorted(moves)[0]
        yield index, {"moves": {**moves, first: max_grab + 1}}
        if len(moves) > 1:
            yield index, {"moves": {k: v for k, v in moves.items() if k != first}}
        outside = [str(s) for s in range(record.players) if str(s) not in moves]
        if outside:
            yield index, {"moves": {**moves, outside[0]: 1}}


@pytest.mark.parametrize("game_id", ["eel-harvest", "wriggle-roulette"])
def test_mutated_grabs_are_judged_alike(game_id: str) -> None:
    checked = 0
    for players, mix in ((2, ("random",)), (5, ("quitter", "nibbler"))):
        record = play_record(game_id, players, {}, mix, seed=5)
        for index, event in itertools.islice(move_mutations(record, 6 if players == 2 else 4), 0, None, 4):
            events = [*record.events[:index], event, *record.events[index + 1 :]]
            mutated = Record(record.game, record.players, dict(record.options), events)
            project, reference = verdicts(mutated)
            assert project == reference == index, (mutated.to_json(), project, reference)
            checked += 1
    assert checked > 10


# ---- hand-written records for the rare rule points ------------------------------------------


def grab(**counts: int) -> dict[str, Any]:
    """``grab(s0=3, s1=0)`` -> a moves event."""
    return {"moves": {key.removeprefix("s"): value for key, value in counts.items()}}


def draw(**hands: str) -> dict[str, Any]:
    """``draw(s0="EES")`` -> a chance event."""
    return {"chance": {key.removeprefix("s"): value for key, value in hands.items()}}


def both(game_id: str, players: int, events: list[dict[str, Any]], **options: Any) -> tuple[Any, Any, EelPosition]:
    """Replay in the engine and in the reference: (game, state, reference position)."""
    record = Record(game_id, players, options, events)
    game, state = replay(record, gamebag.make)
    return game, state, replay_eel(record.to_json())


def assert_result(
    game: Game[Any, Any, Any], state: Any, reference: EelPosition, scores: list[int], winners: tuple[int, ...]
) -> None:
    assert reference.scores == scores and reference.winners == winners, reference.snapshot()
    assert list(game.scores(state)) == scores, game.public_view(state)
    assert tuple(game.winners(state)) == winners, game.public_view(state)


# Eight players: two grabs leave the bag with 4 snakes and no eel; in the third, seat 7 (last in
# the draw order) exits and its 8 eels go back, while seats 0-6 grab 4 each: the bag (12 tokens)
# runs short after three of them.
SHORT_BAG = [
    grab(**{f"s{i}": 4 for i in range(8)}),
    draw(**{f"s{i}": "EEEE" for i in range(8)}),
    grab(**{f"s{i}": 4 for i in range(8)}),
    draw(s0="SSSS", s1="SSSS", s2="SSSS", s3="EEES", s4="EEEE", s5="EEEE", s6="EEEE", s7="EEEE"),
    grab(s7=0, **{f"s{i}": 4 for i in range(7)}),
    draw(s0="EEEE", s1="EEEE", s2="SSSS"),
]


def test_exit_returns_eels_before_the_others_draw() -> None:
    """Exit timing: both sides draw seat 0's returned eels in the same grab (our reading)."""
    game, state, reference = both("eel-harvest", 8, SHORT_BAG)
    # Seats 0-2 drew the most tokens (4; seats 3-6 drew nothing from the empty bag) and lose;
    # the others score this grab's eels: none.
    assert_result(game, state, reference, [0, 0, 0, 0, 0, 0, 0, 8], ())
    assert reference.round == game.round_number(state) == 2
    for timing in ("in_draw_order", "after_draws"):
        with pytest.raises(ReferenceRuleError):
            replay_eel(Record("eel-harvest", 8, {}, SHORT_BAG).to_json(), timing)
    after_draws = [*SHORT_BAG[:-1], draw(s0="SSSS")]
    with pytest.raises(RecordError):
        replay(Record("eel-harvest", 8, {}, after_draws), gamebag.make)


def test_short_bag_outbreak_with_whole_reserves_and_in_wriggle() -> None:
    game, state, reference = both("eel-harvest", 8, SHORT_BAG, outbreak_scores_reserve=True)
    assert_result(game, state, reference, [0, 0, 0, 7, 8, 8, 8, 8], ())
    # Wriggle Roulette: the most eels in reserve (8: seats 0, 1, 4, 5, 6) lose; seats 2, 3 score.
    game, state, reference = both("wriggle-roulette", 8, SHORT_BAG)
    assert_result(game, state, reference, [0, 0, 4, 7, 0, 0, 0, 8], ())


SIX_EELS_EACH = [grab(s0=6, s1=6), draw(s0="EEEEEE", s1="EEEEEE")]


def test_wriggle_ends_after_the_grab_that_reaches_twenty() -> None:
    # Seat 0 exits with 24; seat 1 draws in the same grab and busts alone: the game ends.
    events = [*SIX_EELS_EACH * 4, grab(s0=0, s1=6), draw(s1="SSSSSS")]
    game, state, reference = both("wriggle-roulette", 2, events)
    assert_result(game, state, reference, [24, 0], (0,))
    assert game.is_terminal(state) and reference.over
    # Without an outbreak seat 1's 29 eels stay unscored.
    events = [*SIX_EELS_EACH * 4, grab(s0=0, s1=6), draw(s1="EEEEES")]
    game, state, reference = both("wriggle-roulette", 2, events)
    assert_result(game, state, reference, [24, 0], (0,))
    assert game.public_view(state)["reserves"] == reference.reserves == [0, 29]
    # Both exit in the same grab with 24: a shared win.
    game, state, reference = both("wriggle-roulette", 2, [*SIX_EELS_EACH * 4, grab(s0=0, s1=0)])
    assert_result(game, state, reference, [24, 24], (0, 1))


def test_eel_harvest_tie_goes_to_the_later_exit() -> None:
    events = [*SIX_EELS_EACH * 4, grab(s0=0, s1=1), draw(s1="S"), grab(s1=0)]
    game, state, reference = both("eel-harvest", 2, events)
    assert_result(game, state, reference, [24, 24], (1,))
    game, state, reference = both("eel-harvest", 2, [*SIX_EELS_EACH * 4, grab(s0=0, s1=0)])
    assert_result(game, state, reference, [24, 24], (0, 1))


def test_eel_harvest_outbreak_players_exit_last() -> None:
    # Seat 0 exits with 20; seat 2 drew more in the outbreak grab and loses; seat 1 scores.
    events = [*[grab(s0=4, s1=4, s2=1), draw(s0="EEEE", s1="EEEE", s2="S")] * 5]
    events += [grab(s0=0, s1=1, s2=2), draw(s1="S", s2="SE")]
    game, state, reference = both("eel-harvest", 3, events)
    assert_result(game, state, reference, [20, 0, 0], (0,))  # seat 1 scores this grab's eels: 0
    game, state, reference = both("eel-harvest", 3, events, outbreak_scores_reserve=True)
    assert_result(game, state, reference, [20, 20, 0], (1,))  # tied; seat 1 was still in


# Seat 1 exits with 20 in the fifth grab; seat 0 draws a snake in it and, alone with
# lone_player_grabs 0, exits automatically with 20 at the end of that grab.
LONE_TIE = [*SIX_EELS_EACH * 3, grab(s0=2, s1=2), draw(s0="EE", s1="EE"), grab(s0=1, s1=0), draw(s0="S")]


def test_lone_auto_exit_ranks_after_the_grab() -> None:
    """The lone player was still in at the grab's reveal, so exits after that grab's exits."""
    game, state, reference = both("eel-harvest", 2, LONE_TIE, lone_player_grabs=0)
    assert_result(game, state, reference, [20, 20], (0,))


def test_final_position_after_an_outbreak_has_nobody_in_the_round() -> None:
    """Rulings 7 and 11: the outbreak resolves in full; the round ends for everyone still in it."""
    # Wriggle Roulette: seat 0 exits with 24, seat 1 busts alone and loses its 24 eels.
    events = [*SIX_EELS_EACH * 4, grab(s0=0, s1=6), draw(s1="SSSSSS")]
    game, state, reference = both("wriggle-roulette", 2, events)
    assert reference.reserves == [0, 0] and reference.in_round == [False, False]
    view = game.public_view(state)
    assert (view["reserves"], view["in_round"]) == (reference.reserves, reference.in_round), view
    # Eel Harvest: seat 1 scores its whole reserve of 20 at the outbreak that ends the game.
    events = [*[grab(s0=4, s1=4, s2=1), draw(s0="EEEE", s1="EEEE", s2="S")] * 5]
    events += [grab(s0=0, s1=1, s2=2), draw(s1="S", s2="SE")]
    game, state, reference = both("eel-harvest", 3, events, outbreak_scores_reserve=True)
    assert reference.reserves == [0, 0, 0] and reference.in_round == [False, False, False]
    view = game.public_view(state)
    assert (view["reserves"], view["in_round"]) == (reference.reserves, reference.in_round), view


def test_final_position_returns_the_tokens_to_the_bag() -> None:
    events = [*SIX_EELS_EACH * 4, grab(s0=0, s1=1), draw(s1="S"), grab(s1=0)]
    game, state, reference = both("eel-harvest", 2, events)
    assert (reference.bag_eels, reference.bag_snakes, reference.centre_snakes) == (51, 17, 0)
    view = game.public_view(state)
    assert (view["bag"]["eels"], view["bag"]["snakes"], view["centre_snakes"]) == (51, 17, 0), view


def test_dice_bag_never_holds_more_than_the_box() -> None:
    events = [grab(s0=6, s1=6), draw(s0="EEEEEE", s1="EEEEEE"), grab(s0=0, s1=1), draw(s1="E")]
    game, state, reference = both("eel-harvest", 2, events, draw="dice")
    assert reference.scores == [6, 0] == list(game.scores(state))
    assert game.public_view(state)["bag"]["eels"] <= 51, game.public_view(state)
