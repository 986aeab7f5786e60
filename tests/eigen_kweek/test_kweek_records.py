"""Hand-written records: the example in docs/records.md, corners piling up, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from kweek_helpers import chance, make, moves, play

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.core.errors import RecordError
from gamebag.core.records import Record, replay
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game

DOCS = Path(__file__).resolve().parents[2] / "docs" / "records.md"


def test_the_documented_record_replays_as_described() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Eigen Kweek"):]
    block = re.search(r"```json\n(.*?)```", section, re.S)
    assert block is not None
    _, state = replay(Record.from_json(json.loads(block.group(1))), gamebag.make)
    assert state.round_no == 2 and state.step == "deal"
    assert state.tokens == (7, 8) and state.pot == 101
    assert state.boards == ((-1, 0, -1, -1), (-1, 0, -1, -1))
    assert [sum(c) for c in state.corners] == [1, 2, 1, 2]
    assert sum(state.coins[0]) == sum(state.coins[1]) == 0


def test_corners_pile_up_over_rounds_in_a_record() -> None:
    game, state = play(2, [
        chance(1), chance(2), chance(3), chance(5),
        chance("STEVEN"), chance("KEUN"), chance("FRANK"), chance("CHANTAL"),
        moves(s0="choose:STEVEN", s1="choose:FRANK"),
        moves(s0="pass", s1="pass"),  # deal window
        moves(s0="bid:3", s1="bid:3"),
        moves(s0="pass", s1="pass"),  # trade window: a tie, nobody takes a corner
        moves(s0="pass", s1="pass"),  # cultivate window
        moves(s0="pass", s1="pass"),  # cultivate: no coins, nothing to do
        moves(s0="pass", s1="pass"),  # hand-in window
        moves(s0="hand_in", s1="hand_in"),
        chance(1), chance(1), chance(2), chance(2),
    ])
    assert state.round_no == 2 and state.tokens == (10, 10)
    assert [sum(c) for c in state.corners] == [2, 2, 2, 2]
    values = game.config.values
    assert [sorted(v for v, n in zip(values, c, strict=True) for _ in range(n)) for c in state.corners] == [
        [1, 1], [1, 2], [2, 3], [2, 5]
    ]


def test_a_record_that_breaks_a_rule_names_the_event() -> None:
    events = [chance(1), chance(2), chance(3), chance(5), chance("KEUN"), chance("KEUN")]
    with pytest.raises(RecordError, match=r"event 5: .*character card from the stack"):
        play(2, events)
    with pytest.raises(RecordError, match="event 4"):
        play(2, [chance(1), chance(2), chance(3), chance(5), chance(4)])
    with pytest.raises(RecordError, match="not an Eigen Kweek action"):
        play(2, [chance(1), chance(2), chance(3), chance(5), chance("KEUN"), chance("JOS"),
                 chance("RIA"), chance("FRANK"), moves(s0="choose:keun", s1="choose:RIA")])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_games_round_trip_through_json_records(players: int) -> None:
    game = make(players)
    agents = [make_agent("heuristic", game) for _ in range(players)]
    result = play_game(game, agents, derive_rng(11, players))
    assert result.record is not None
    again = Record.from_json(json.loads(result.record.dumps()))
    replayed_game, final = replay(again, gamebag.make)
    assert final == result.state and replayed_game.winners(final) == result.winners
