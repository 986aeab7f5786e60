"""Catch A Dragon's rules through hand-written records: turns, busts, rounds, tie-breaks, options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import gamebag
from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError, OptionError, RecordError
from gamebag.core.protocol import NodeKind
from gamebag.core.records import Record, replay
from gamebag.core.rng import make_rng
from gamebag.games.catch_a_dragon import rules
from gamebag.games.catch_a_dragon.rules import (
    FACES,
    MARGIN_REACH,
    OBSERVATION_SIZE,
    ROUNDS_LEFT,
    SEATS,
    TENSOR_PHASES,
    TURN_REACH,
    DragonState,
    Phase,
    set_points,
)
from gamebag.sim.play import random_walk

FOUR_GREEN = ["green", "green", "green", "green"]


def play(events: list[dict[str, Any]], players: int = 2, **options: Any) -> tuple[Any, Any]:
    record = Record.from_json({"game": "catch-a-dragon", "players": players, "options": options, "events": events})
    return replay(record, gamebag.make)


def sixteen(seat: int) -> list[dict[str, Any]]:
    """A turn that rolls four greens and collects them all (16 points)."""
    return [{"chance": FOUR_GREEN}, {"moves": {str(seat): FOUR_GREEN}}]


def one_point(seat: int) -> list[dict[str, Any]]:
    """A turn that collects one green and stops (1 point)."""
    return [
        {"chance": ["green", "gold", "red", "red"]},
        {"moves": {str(seat): ["green"]}},
        {"moves": {str(seat): "stop"}},
    ]


def test_the_rulebook_scoring_example_is_seven_points() -> None:
    game, state = play(
        [
            {"chance": ["blue", "red", "purple", "purple"]},
            {"moves": {"0": ["blue", "red"]}},
            {"moves": {"0": "roll"}},
            {"chance": ["gray", "gold"]},
            {"moves": {"0": ["gray", "gold"]}},  # all four collected: the turn ends and scores
        ]
    )
    assert state.scores == (7, 0)
    assert state.seat == 1 and game.node_kind(state) is NodeKind.CHANCE
    assert state.last_turn.points == 7 and state.last_turn.ended_by == "four"


def test_face_numbers_and_colours_are_interchangeable_in_records() -> None:
    _, by_colour = play([{"chance": ["blue", "red", "gold", "gray"]}, {"moves": {"0": ["gold", "blue", "red"]}}])
    _, by_number = play([{"chance": [6, 2, 4, 3]}, {"moves": {"0": [2, 3, 4]}}])
    assert by_colour == by_number
    assert by_colour.collected == (2, 3, 4) and by_colour.phase == "decide"


def test_identical_bust_scores_nothing_and_passes_the_turn() -> None:
    game, state = play(
        [
            {"chance": ["red", "red", "blue", "gray"]},
            {"moves": {"0": ["red", "red"]}},
            {"moves": {"0": "roll"}},
            {"chance": ["blue", "gray"]},
        ]
    )
    assert state.scores == (0, 0)
    assert state.seat == 1 and state.phase == "roll"
    assert state.last_turn.ended_by == "bust" and state.last_turn.collected == (4, 4)
    assert game.public_view(state)["last_turn"]["last_roll"] == ["blue", "gray"]


@pytest.mark.parametrize(("rule", "bust"), [("any", True), ("none-new", False)])
def test_different_set_duplicate_bust_option(rule: str, bust: bool) -> None:
    game, state = play(
        [
            {"chance": ["gold", "blue", "blue", "gray"]},
            {"moves": {"0": ["gold", "blue"]}},
            {"moves": {"0": "roll"}},
            {"chance": ["gold", "red"]},
        ],
        duplicate_bust=rule,
    )
    if bust:
        assert state.seat == 1 and state.scores == (0, 0)
    else:
        assert game.legal_actions(state, 0) == ((4,),)  # only the new red can be collected
        state = game.apply(state, {0: (4,)})
        state = game.apply(state, {0: "stop"})
        assert state.scores == (6, 0)  # gold-blue-red


def test_identical_set_scores_n_squared() -> None:
    _, state = play(
        [
            {"chance": ["purple", "purple", "gold", "gray"]},
            {"moves": {"0": ["purple", "purple"]}},
            {"moves": {"0": "roll"}},
            {"chance": ["purple", "green"]},
            {"moves": {"0": ["purple"]}},
            {"moves": {"0": "stop"}},
        ]
    )
    assert state.scores == (9, 0)


def test_one_dragon_then_either_kind() -> None:
    base = [{"chance": ["red", "blue", "blue", "green"]}, {"moves": {"0": ["red"]}}, {"moves": {"0": "roll"}}]
    game, state = play([*base, {"chance": ["red", "gold", "gray"]}])
    assert game.legal_actions(state, 0) == ((4,),)  # 'any': the rolled red closes the different kind
    game, state = play([*base, {"chance": ["green", "gold", "gray"]}])
    assert (1, 2) in game.legal_actions(state, 0)
    _, state = play([*base, {"chance": ["green", "gold", "gray"]}, {"moves": {"0": ["green", "gold"]}}])
    assert state.collected == (1, 2, 4)  # green-gold chain + red


def test_stopping_with_one_dragon_scores_one() -> None:
    _, state = play(one_point(0))
    assert state.scores == (1, 0)


def test_four_rounds_then_the_highest_total_wins() -> None:
    events: list[dict[str, Any]] = []
    for _ in range(4):
        events += sixteen(0) + one_point(1)
    game, state = play(events)
    assert game.is_terminal(state)
    assert state.scores == (64, 4) and game.winners(state) == (0,)
    assert game.round_number(state) == 4


def test_a_tie_means_another_round_for_everyone() -> None:
    events: list[dict[str, Any]] = []
    for _ in range(4):
        events += sixteen(0) + sixteen(1) + sixteen(2)
    game, state = play(events, players=3)
    assert not game.is_terminal(state)
    assert state.round_no == 5 and state.seat == 0
    assert game.public_view(state)["tiebreak_round"] == 1
    game, state = play([*events, *one_point(0), *sixteen(1), *one_point(2)], players=3)
    assert game.is_terminal(state) and game.winners(state) == (1,)
    assert state.scores == (65, 80, 65)


def test_tie_of_leaders_only_still_goes_to_a_tie_break() -> None:
    events: list[dict[str, Any]] = []
    for _ in range(4):
        events += sixteen(0) + sixteen(1) + one_point(2)
    game, state = play(events, players=3)
    assert not game.is_terminal(state) and state.round_no == 5
    # Everyone plays the tie-break round, the trailing player included.
    assert game.acting_players(game.apply_chance(state, (1, 1, 1, 1))) == (0,)


@pytest.mark.parametrize("limit", [0, 1, 2])
def test_tie_break_limit_then_a_shared_win(limit: int) -> None:
    events: list[dict[str, Any]] = []
    for _ in range(4 + limit):
        events += sixteen(0) + sixteen(1)
    game, state = play(events, max_tiebreak_rounds=limit)
    assert game.is_terminal(state)
    assert game.winners(state) == (0, 1)
    assert game.returns(state) == (0.5, 0.5)
    assert state.round_no == 4 + limit


def test_solo_game_is_a_four_round_score_attack() -> None:
    events: list[dict[str, Any]] = []
    for _ in range(4):
        events += one_point(0)
    game, state = play(events, players=1)
    assert game.is_terminal(state) and game.winners(state) == (0,) and state.scores == (4,)


def test_player_counts() -> None:
    assert gamebag.make("catch-a-dragon", 1).num_players == 1
    assert gamebag.make("catch-a-dragon", 8).num_players == 8
    with pytest.raises(OptionError):
        gamebag.make("catch-a-dragon", 9)
    with pytest.raises(OptionError):
        gamebag.make("catch-a-dragon", 0)


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    game, state = play([{"chance": ["gold", "gold", "blue", "gray"]}])
    before = state
    with pytest.raises(IllegalActionError, match="collect one or more"):
        game.apply(state, {0: "stop"})  # must collect after a roll
    with pytest.raises(IllegalActionError, match="Allowed"):
        game.apply(state, {0: (4,)})  # red was not rolled
    with pytest.raises(IllegalActionError):
        game.apply(state, {0: (2, 2, 3)})  # neither identical nor all different
    with pytest.raises(IllegalActionError):
        game.apply(state, {1: (2,)})  # not seat 1's turn
    assert state == before
    state = game.apply(state, {0: (2, 3)})
    with pytest.raises(IllegalActionError, match="'stop'"):
        game.apply(state, {0: (6,)})  # collecting is only right after a roll


def test_bad_chance_outcomes_are_refused() -> None:
    game = gamebag.make("catch-a-dragon", 2)
    state = game.initial_state()
    with pytest.raises(IllegalChanceOutcomeError, match="4 dice"):
        game.apply_chance(state, (1, 2, 3))
    with pytest.raises(IllegalChanceOutcomeError):
        game.apply_chance(state, (1, 2, 3, 7))
    with pytest.raises(IllegalChanceOutcomeError):
        game.outcome_from_json(["green", "pink", "red", "red"])
    with pytest.raises(RecordError, match="event 0"):
        play([{"chance": ["green", "gold"]}])


def test_action_encodings() -> None:
    game = gamebag.make("catch-a-dragon", 2)
    assert game.action_from_json(["Gold", "gray"]) == (2, 6)
    assert game.action_from_json("gray gold") == (2, 6)
    assert game.action_from_json("6,2") == (2, 6)
    assert game.action_from_json([6, 2]) == (2, 6)
    assert game.action_from_json(" STOP ") == "stop"
    assert game.action_to_json((2, 6)) == ["gold", "gray"]
    assert game.outcome_to_json((1, 1, 3, 6)) == ["green", "green", "blue", "gray"]
    for bad in ("hold", [], [7], {"collect": ["gold"]}, 3, None, ["gold", True]):
        with pytest.raises(IllegalActionError):
            game.action_from_json(bad)


def test_faces_option_renames_colours_and_keeps_the_ring() -> None:
    faces = ["white", "black", "orange", "yellow", "pink", "teal"]
    game, state = play(
        [{"chance": ["black", "orange", "yellow", "teal"]}, {"moves": {"0": ["black", "orange", "yellow", "teal"]}}],
        faces=faces,
    )
    assert state.scores == (7, 0)
    assert game.public_view(state)["faces"] == faces
    with pytest.raises(OptionError, match="faces"):
        gamebag.make("catch-a-dragon", 2, faces=["white", "black"])
    with pytest.raises(OptionError, match="faces"):
        gamebag.make("catch-a-dragon", 2, faces=["white", "white", "orange", "yellow", "pink", "teal"])
    with pytest.raises(OptionError, match="faces"):
        gamebag.make("catch-a-dragon", 2, faces="green,gold,blue,red,purple,mauve")
    assert gamebag.make("catch-a-dragon", 2, faces="teal,gold,blue,red,purple,gray").names.colour(1) == "teal"


def test_cyclic_option_changes_chain_scores() -> None:
    events = [{"chance": ["green", "gold", "gray", "blue"]}, {"moves": {"0": ["gray", "green", "gold", "blue"]}}]
    assert play(events)[1].scores == (8, 0)  # gray-green-gold-blue
    assert play(events, cyclic=False)[1].scores == (7, 0)  # green-gold-blue (6) + gray (1)


def test_views_explain_the_turn() -> None:
    render = gamebag.entry("catch-a-dragon").render_view
    game, state = play([{"chance": ["blue", "red", "purple", "purple"]}, {"moves": {"0": ["blue", "red"]}}])
    view = game.observation(state, 0)
    assert view["set_kind"] == "different" and view["set_points"] == 4 and view["chains"] == [["blue", "red"]]
    assert view["last_roll"] == ["blue", "red", "purple", "purple"]
    text = render(view)
    assert "blue-red chain" in text and "Stop and score 4" in text
    game, state = play(
        [
            {"chance": ["red", "red", "blue", "gray"]},
            {"moves": {"0": ["red", "red"]}},
            {"moves": {"0": "roll"}},
            {"chance": ["blue", "gray"]},
        ]
    )
    assert "bust" in render(game.public_view(state))
    assert len(game.observation_tensor(state, 1)) == len(game.observation_tensor(game.initial_state(), 0))


def test_the_documented_example_record() -> None:
    text = (Path(__file__).parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    section = text.split("## Catch A Dragon By The Tail")[1]
    example = json.loads(section.split("```json")[1].split("```")[0])
    game, state = replay(Record.from_json(example), gamebag.make)
    assert state.scores == (7, 0) and state.round_no == 2 and state.seat == 0
    assert game.node_kind(state) is NodeKind.CHANCE


def test_the_observation_gives_the_seat_rounds_left_and_exact_margins() -> None:
    """Layout 2: own seat one-hot, regular rounds left, margin thermometers (now, and if the mover banked)."""
    game = gamebag.make("catch-a-dragon", 3)
    start, seats = 29, 8
    margin_at = start + seats + ROUNDS_LEFT
    turn_at = margin_at + 2 * MARGIN_REACH + 1

    def observe(scores: tuple[int, ...], round_no: int, player: int) -> list[float]:
        # Seat 1 decides holding gold and blue, a two-dragon chain worth 4.
        state = DragonState(scores, round_no, 1, Phase.DECIDE, (2, 3), (), None, ())
        tensor = game.observation_tensor(state, player)
        assert len(tensor) == OBSERVATION_SIZE == turn_at + 2 * TURN_REACH + 1
        return tensor

    def reached(value: int, reach: int) -> list[float]:
        return [1.0 if value >= threshold else 0.0 for threshold in range(-reach, reach + 1)]

    # Margins over the best other total: seat 0 30 - 41, seat 1 41 - 35, seat 2 35 - 41; banking
    # the 4 held raises seat 1 to 45.
    for player, now, banked in ((0, -11, -15), (1, 6, 10), (2, -6, -10)):
        tensor = observe((30, 41, 35), 4, player)
        assert tensor[start : start + seats] == [1.0 if seat == player else 0.0 for seat in range(seats)]
        assert tensor[margin_at:turn_at] == reached(now, MARGIN_REACH)
        assert tensor[turn_at:] == reached(banked, TURN_REACH)
    # Rounds left after this one (0 in the last round and in tie-breaks), as a one-hot.
    for round_no, left in ((1, 3), (2, 2), (3, 1), (4, 0), (6, 0)):
        assert observe((0, 0, 0), round_no, 0)[start + seats : margin_at] == [float(k == left) for k in range(4)]
    # Far margins are clipped: every threshold reached, or none.
    assert set(observe((100, 0, 0), 1, 0)[margin_at:]) == {1.0}
    assert set(observe((0, 100, 0), 1, 0)[margin_at:]) == {0.0}


def plain_observation(game: Any, state: Any, player: int) -> list[float]:
    """The observation tensor read straight off the rules, position by position, nothing kept."""

    def over_best_other(totals: list[int]) -> int:
        others = [total for seat, total in enumerate(totals) if seat != player]
        return totals[player] - max(others) if others else 0

    def reached(value: int, reach: int) -> list[float]:
        return [1.0 if value >= threshold else 0.0 for threshold in range(-reach, reach + 1)]

    n, rounds, scale = game.num_players, game.rounds, max(16, game.dice**2)
    out = [state.collected.count(face) / game.dice for face in FACES]
    out += [state.rolled.count(face) / game.dice for face in FACES]
    # Four phases in the layout; a variant's prize draw (a chance node) reads as a roll.
    shown = Phase.ROLL if state.phase == Phase.PRIZE else state.phase
    out += [1.0 if shown == phase else 0.0 for phase in TENSOR_PHASES]
    out.append(1.0 if state.seat == player and state.phase != Phase.OVER else 0.0)
    held = set_points(state.collected, game.cyclic)
    out.append(held / scale)
    out += [state.scores[(player + k) % n] / (scale * rounds) for k in range(n)] + [0.0] * (SEATS - n)
    out.append(((state.seat - player) % n) / SEATS)
    out.append(min(state.round_no, rounds) / rounds)
    out.append(max(0, state.round_no - rounds) / max(1, game.max_tiebreak_rounds))
    out += [1.0 if seat == player else 0.0 for seat in range(SEATS)]
    left = min(ROUNDS_LEFT - 1, max(0, rounds - state.round_no))
    out += [1.0 if k == left else 0.0 for k in range(ROUNDS_LEFT)]
    out += reached(over_best_other(list(state.scores)), MARGIN_REACH)
    banked = list(state.scores)
    banked[state.seat] += held
    out += reached(over_best_other(banked), TURN_REACH)
    return out


@pytest.mark.parametrize("players", [1, 2, 3, 8])
def test_observation_tensors_equal_the_plain_reading_with_score_parts_kept(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Observations equal the plain reading of the rules, and the parts a game keeps stay bounded.

    The game keeps the part read off the totals per position of the scores, with a small bound
    here so that it starts afresh often; every observation must still equal the plain reading.
    """
    monkeypatch.setattr(rules, "SCORE_PARTS_KEPT", 8)
    options: dict[str, Any] = {"rounds": 3} if players == 8 else {}
    game = gamebag.make("catch-a-dragon", players, **options)
    seen_margins: set[int] = set()
    for number in range(12):
        for state in random_walk(game, make_rng(number)):
            for seat in range(players):
                assert game.observation_tensor(state, seat) == plain_observation(game, state, seat), (state, seat)
                assert len(game._score_parts) <= 8
            seen_margins.add(state.scores[0] - max(state.scores[1:], default=0))
    assert players == 1 or len(seen_margins) > 5  # the games reach many different margins
