"""Differential tests: the project's Catch A Dragon engine against the independent reference.

Every set is scored, and every (held set, roll) pair is judged (bust or not, and which
collections are allowed), by both the engine, driven through records, and ``reference_dragon``;
then whole games played by the engine's agents and by biased agents are replayed by both.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from reference_dragon import (
    DEFAULT_FACES,
    DragonPosition,
    DragonRules,
    busts,
    legal_collections,
    replay_dragon,
    set_score,
)

import gamebag
from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.records import Record, apply_event, replay
from gamebag.core.rng import Rng, derive_rng
from gamebag.sim.play import play_game

FACES = range(1, 7)
CUSTOM_FACES = ("teal", "black", "gold", "white", "green", "pink")


def valid_sets(max_size: int = 4) -> Iterator[tuple[int, ...]]:
    """Every set a player can hold: n identical (1..max) or n different (2..max) faces."""
    for size in range(1, max_size + 1):
        for face in FACES:
            yield (face,) * size
        if size >= 2:
            yield from itertools.combinations(FACES, size)


def game_of(players: int = 2, **options: Any) -> Game[Any, Any, Any]:
    return gamebag.make("catch-a-dragon", players, **options)


def holding(game: Game[Any, Any, Any], held: tuple[int, ...], names: tuple[str, ...] | None = None) -> Any:
    """The engine's state after seat 0 rolled ``held`` (plus filler dice) and collected it.

    With ``names`` the record writes colours (face n is ``names[n - 1]``), else face numbers.
    """
    written: list[Any] = [names[face - 1] for face in held] if names else list(held)
    filler: Any = names[0] if names else 1
    state = game.initial_state()
    state = apply_event(game, state, {"chance": [*written, *([filler] * (4 - len(held)))]})
    return apply_event(game, state, {"moves": {"0": written}})


def collection_faces(game: Game[Any, Any, Any], rules: DragonRules, action: Any) -> tuple[int, ...]:
    """An engine action as a sorted tuple of face numbers, read through its record encoding."""
    return tuple(sorted(rules.face(colour) for colour in game.action_to_json(action)))


OPTION_SETS: list[dict[str, Any]] = [
    {"cyclic": cyclic, "duplicate_bust": rule} for cyclic, rule in itertools.product((True, False), ("any", "none-new"))
]


@pytest.mark.parametrize("cyclic", [True, False])
@pytest.mark.parametrize("faces", [DEFAULT_FACES, CUSTOM_FACES], ids=["default-faces", "custom-faces"])
def test_every_set_scores_alike(cyclic: bool, faces: tuple[str, ...]) -> None:
    game = game_of(faces=",".join(faces), cyclic=cyclic)
    rules = DragonRules(players=2, faces=faces, cyclic=cyclic)
    checked = 0
    for held in valid_sets():
        state = holding(game, held, faces)
        if len(held) < 4:
            state = apply_event(game, state, {"moves": {"0": "stop"}})
        names = [rules.faces[face - 1] for face in held]
        assert game.scores(state)[0] == set_score(held, cyclic), (names, game.public_view(state))
        checked += 1
    assert checked == 6 * 4 + 15 + 20 + 15


def test_reference_scores_the_rulebook_examples() -> None:
    # Default faces: 1 green, 2 gold, 3 blue, 4 red, 5 purple, 6 gray.
    assert set_score((2, 3, 4, 6)) == 7  # gold-blue-red + gray
    assert set_score((2, 3)) == 4 and set_score((2, 3, 4)) == 6 and set_score((1, 2, 3, 4)) == 8
    assert set_score((3, 3)) == 4 and set_score((3, 3, 3)) == 9 and set_score((3, 3, 3, 3)) == 16
    assert set_score((1, 3, 5)) == 3 and set_score((4,)) == 1
    assert set_score((1, 2, 6), cyclic=True) == 6 and set_score((1, 2, 6), cyclic=False) == 5
    assert set_score((1, 3, 4, 6), cyclic=True) == 8 and set_score((1, 3, 4, 6), cyclic=False) == 6


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"cyclic={o['cyclic']}-{o['duplicate_bust']}")
def test_every_roll_busts_and_collects_alike(options: dict[str, Any]) -> None:
    """All held sets of 1-3 dragons against every roll of the remaining dice."""
    game = game_of(**options)
    rules = DragonRules(players=2, **options)
    judged = busted = 0
    for held in valid_sets(max_size=3):
        before = apply_event(game, holding(game, held), {"moves": {"0": "roll"}})
        for roll in itertools.combinations_with_replacement(FACES, 4 - len(held)):
            state = game.apply_chance(before, game.outcome_from_json(list(roll)))
            expected = legal_collections(held, roll, rules.duplicate_bust)
            assert busts(held, roll, rules.duplicate_bust) == (not expected), (held, roll)
            where = (held, roll, game.public_view(state))
            if not expected:
                busted += 1
                assert game.node_kind(state) is NodeKind.CHANCE, where  # seat 1's roll comes next
                assert game.public_view(state)["turn_seat"] == 1, where
                assert game.scores(state)[0] == 0, where
            else:
                assert game.node_kind(state) is NodeKind.DECISION, where
                assert game.acting_players(state) == (0,), where
                found = {collection_faces(game, rules, a) for a in game.legal_actions(state, 0)}
                assert found == expected, where
            judged += 1
    assert judged == 6 * 56 + 21 * 21 + 26 * 6
    assert busted > 100


def test_one_dragon_never_busts_and_closes_a_kind() -> None:
    """Ruling 5, one dragon held: neither rule busts; under "any" a repeat closes the different kind."""
    for held, roll in itertools.product(((face,) for face in FACES), itertools.product(FACES, repeat=3)):
        assert not busts(held, roll, "any") and not busts(held, roll, "none-new")
    assert legal_collections((4,), (4, 3, 1), "any") == {(4,)}
    assert legal_collections((4,), (4, 3, 1), "none-new") == {(4,), (1,), (3,), (1, 3)}


class ScriptedDragonAgent(Agent):
    """Biased play: ``style`` "daredevil" always rolls on, "timid" takes one die and stops,
    "hoarder" takes the biggest collection and rolls while it holds fewer than three."""

    def __init__(self, style: str) -> None:
        self.name = style
        self.style = style

    def act(self, view: SeatView, rng: Rng) -> Any:
        legal = list(view.legal_actions)
        if "roll" in legal:
            if self.style == "timid":
                return "stop"
            if self.style == "hoarder":
                return "roll" if len(view.observation["collected"]) < 3 else "stop"
            return "roll"
        if self.style == "timid":
            return min(legal, key=lambda a: (len(view.game.action_to_json(a)), str(a)))
        if self.style == "hoarder":
            return max(legal, key=lambda a: (len(view.game.action_to_json(a)), str(a)))
        return legal[rng.randrange(len(legal))]


def dragon_agents(game: Game[Any, Any, Any], mix: tuple[str, ...]) -> list[Agent]:
    agents: list[Agent] = []
    for seat in range(game.num_players):
        kind = mix[seat % len(mix)]
        agents.append(make_agent(kind, game) if kind in ("random", "heuristic") else ScriptedDragonAgent(kind))
    return agents


def compare_dragon_record(record: Record) -> DragonPosition:
    """Replay in both; after every event the scores, round, turn and held set agree."""
    snapshots: list[dict[str, Any]] = []
    reference = replay_dragon(record.to_json(), snapshots=snapshots)
    rules = reference.rules
    game = gamebag.make(record.game, record.players, **record.options)
    state = game.initial_state()
    ref_position = DragonPosition(rules)
    for index, event in enumerate(record.events):
        state = apply_event(game, state, event)
        ours = snapshots[index]
        view = game.public_view(state)
        where = (record.players, record.options, index, view, ours)
        assert list(game.scores(state)) == ours["scores"], where
        assert game.round_number(state) == ours["round"], where
        assert game.is_terminal(state) == ours["over"], where
        assert tuple(game.winners(state)) == tuple(ours["winners"]), where
        if not ours["over"]:
            assert view["turn_seat"] == ours["seat"], where
            assert sorted(view["collected_faces"]) == ours["held"], where
        # The legal collections at every collect decision.
        if "chance" in event:
            ref_position.apply_roll(index, event["chance"])
        else:
            ref_position.apply_move(index, event["moves"])
        if ref_position.awaiting == "collect":
            seat = ref_position.seat
            found = {collection_faces(game, rules, a) for a in game.legal_actions(state, seat)}
            assert found == legal_collections(ref_position.held, ref_position.rolled, rules.duplicate_bust), where
    assert reference.over
    return reference


GAME_OPTIONS: list[dict[str, Any]] = [
    {"cyclic": cyclic, "duplicate_bust": rule, "max_tiebreak_rounds": tiebreaks}
    for cyclic, rule, tiebreaks in itertools.product((True, False), ("any", "none-new"), (0, 2, 10))
]
MIXES: tuple[tuple[str, ...], ...] = (
    ("random",),
    ("heuristic",),
    ("daredevil", "heuristic"),
    ("timid",),
    ("hoarder", "random"),
)


@pytest.mark.parametrize("options", GAME_OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_whole_games_match_reference(options: dict[str, Any]) -> None:
    tiebreak_games = busts_seen = 0
    for players in range(1, 9):
        for mix in MIXES:
            game = gamebag.make("catch-a-dragon", players, **options)
            rng = derive_rng("dragon-crosscheck", players, str(options), "+".join(mix))
            played = play_game(game, dragon_agents(game, mix), rng, max_steps=20_000)
            assert played.record is not None
            reference = compare_dragon_record(played.record)
            tiebreak_games += reference.round > 4
            busts_seen += sum(1 for _, points in reference.turn_points if points == 0)
    assert busts_seen > 0
    if options["max_tiebreak_rounds"] > 0:
        assert tiebreak_games > 0


def test_all_tied_games_play_every_tiebreak_round() -> None:
    """Timid players all score 1 a turn: every round ties, so the cap decides (ruling 7)."""
    for players, cap in ((2, 0), (3, 2), (8, 10)):
        game = gamebag.make("catch-a-dragon", players, max_tiebreak_rounds=cap)
        played = play_game(game, dragon_agents(game, ("timid",)), derive_rng("dragon-ties", players))
        assert played.record is not None
        reference = compare_dragon_record(played.record)
        assert reference.round == played.rounds == 4 + cap
        assert reference.winners == played.winners == tuple(range(players))


def test_custom_faces_games_match_reference() -> None:
    for players in (1, 3, 6):
        game = gamebag.make("catch-a-dragon", players, faces=",".join(CUSTOM_FACES), duplicate_bust="none-new")
        played = play_game(game, dragon_agents(game, ("random",)), derive_rng("dragon-faces", players))
        assert played.record is not None
        compare_dragon_record(played.record)


def test_rulebook_example_record() -> None:
    """The record in docs/records.md: gold-blue-red + gray = 7, then a bust holding a pair."""
    events: list[dict[str, Any]] = [
        {"chance": ["blue", "red", "purple", "purple"]},
        {"moves": {"0": ["blue", "red"]}},
        {"moves": {"0": "roll"}},
        {"chance": ["gray", "gold"]},
        {"moves": {"0": ["gold", "gray"]}},
        {"chance": ["green", "green", "red", "gray"]},
        {"moves": {"1": ["green", "green"]}},
        {"moves": {"1": "roll"}},
        {"chance": ["blue", "purple"]},
    ]
    record = Record("catch-a-dragon", 2, {}, events)
    game, state = replay(record, gamebag.make)
    reference = replay_dragon(record.to_json())
    assert reference.scores == [7, 0] == list(game.scores(state))
    assert reference.round == game.round_number(state) == 2
