"""The server is authoritative: each reader is sent what it may know, and nothing more.

Whole games of every game are played over sockets with every message kept. Then:

* each state message (view, legal actions, log history, the views between the events of the
  latest change) equals what the rules give that seat (its observation) at that step, the
  spectators' one the public view, and the only
  pending choice it mentions is the reader's own;
* each view is the same for every hidden state the seat cannot tell apart from the real
  one (``resample_from_infostate``): it carries nothing that tells them apart;
* at a simultaneous choice, what a seat receives while the others have chosen does not
  depend on what they chose (two tables, same seed, different secret choices);
* no seat token and no table seed ever appears in a message.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import gamebag
from gamebag.core.match import Match
from gamebag.web.tables.messages import HISTORY_STEPS

from .helpers import (
    Message,
    SeatPlayer,
    claim_seats,
    hello,
    open_table,
    receive,
    record_of,
    run_players,
    states_by_step,
    web_client,
    without_choices,
)

GAMES = gamebag.game_ids()
SEED = "leak-canary-seed-5f3e9a"
# Everything a state message may hold; anything else would be a new channel to check.
STATE_KEYS = {"type", "seat", "step", "table", "view", "legal", "result", "at", "history", "trail"}
OWN_KEYS = {"done_for_you", "standing_pass"}  # a seat's own facts (web/tables/forcing.py): never a spectator's
META_KEYS = {
    "id", "game", "title", "players", "options", "seats", "turn_seconds", "deadline_in", "clock_waits", "finished",
    "step", "coach", "banks",
}
COACH_KEYS = {"offered", "agreed", "humans", "on"}
SEAT_KEYS = {"seat", "name", "bot", "agent", "connected", "claimed"}


def _players_for(game_id: str) -> int:
    cls = gamebag.entry(game_id).game_class
    return max(cls.min_players, min(3, cls.max_players))


@cache
def _whole_game(game_id: str, tmp: str) -> tuple[Message, Message, list[SeatPlayer]]:
    """One game with every seat a person (so every message is seen), played once per game id."""
    players = _players_for(game_id)
    with web_client(Path(tmp), name=f"{game_id}.db") as client:
        response = client.post(
            "/api/tables",
            json={"game": game_id, "players": players, "seats": [{} for _ in range(players)], "seed": SEED},
        )
        table = claim_seats(client, response.json())
        seat_players = [SeatPlayer(client, table["id"], s["token"], 7 + s["seat"]) for s in table["seats"]]
        seat_players.append(SeatPlayer(client, table["id"], None, 0))
        run_players(seat_players, 120)
        record = record_of(client, table["id"])
    return table, record, seat_players


@pytest.fixture(scope="module")
def module_tmp(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("leaks"))


def _boundaries(events: list[Message], upto: int) -> list[int]:
    return [i for i in range(upto + 1) if i == upto or "moves" in events[i]]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_message_is_exactly_what_its_reader_may_know(game_id: str, module_tmp: str) -> None:
    table, record, seat_players = _whole_game(game_id, module_tmp)
    game, states = states_by_step(record)
    tokens = [s["token"] for s in table["seats"]]
    checked = trails = 0
    for player in seat_players:
        raw = json.dumps(player.messages)
        assert SEED not in raw
        assert not any(token in raw for token in tokens), "a seat token was sent over the socket"
        for message in player.messages:
            assert message["type"] != "error", message
            if message["type"] != "state":
                continue
            assert set(message) <= STATE_KEYS | (OWN_KEYS if message["seat"] is not None else set()), set(message)
            assert set(message["table"]) == META_KEYS
            assert all(set(s) == SEAT_KEYS for s in message["table"]["seats"])
            assert set(message["table"]["coach"]) == COACH_KEYS and message["table"]["coach"]["on"] is False
            seat, step = message["seat"], message["step"]
            state = states[step]
            expected = game.public_view(state) if seat is None else game.observation(state, seat)
            assert without_choices(message["view"]) == expected, f"seat {seat} step {step}"
            choices = message["view"]["choices"]
            acting = set(game.acting_players(state))
            assert set(choices["waiting_for"]) | set(choices["chosen"]) == acting or game.is_terminal(state)
            if seat is None:
                assert choices["mine"] is None and message["legal"] == []
            else:
                assert choices["mine"] == (player.submitted.get(step) if seat in choices["chosen"] else None)
                legal = [game.action_to_json(a) for a in game.legal_actions(state, seat)] if seat in acting else []
                assert message["legal"] == legal

            def view_at(i: int, seat: int | None = seat) -> Any:
                return game.public_view(states[i]) if seat is None else game.observation(states[i], seat)

            if "history" in message:
                # Every event's view since the first of the last HISTORY_STEPS steps (from the
                # start of the game while it has no more steps).
                boundaries = _boundaries(record["events"], step)
                first = 0 if len(boundaries) <= HISTORY_STEPS else boundaries[-HISTORY_STEPS:][0]
                assert message["history"] == [view_at(i) for i in range(first, step + 1)]
            if "trail" in message:
                start, views = message["trail"]["from"], message["trail"]["views"]
                assert views and start + len(views) + 1 == step
                assert views == [view_at(i) for i in range(start + 1, step)]
                trails += 1
            checked += 1
    assert checked > 10
    assert trails > 0  # every game has a move that leads to chance events before the next choice


@pytest.mark.parametrize("game_id", GAMES)
def test_views_are_the_same_for_every_hidden_state_the_seat_cannot_tell_apart(game_id: str, module_tmp: str) -> None:
    _table, record, seat_players = _whole_game(game_id, module_tmp)
    game, states = states_by_step(record)
    rng = random.Random(3)
    checked = 0
    for player in seat_players[:-1]:
        messages = [m for m in player.messages if m["type"] == "state"]
        for message in messages[:: max(1, len(messages) // 40)]:
            seat, state = message["seat"], states[message["step"]]
            for _ in range(3):
                other = game.resample_from_infostate(state, seat, rng)
                assert game.observation(other, seat) == without_choices(message["view"])
                if seat in game.acting_players(other):
                    assert [game.action_to_json(a) for a in game.legal_actions(other, seat)] == message["legal"]
                checked += 1
    assert checked > 0


def _first_simultaneous_prefix(game_id: str, limit: int = 80) -> tuple[list[tuple[int, Any]], int] | None:
    """Actions (seat, action JSON) reaching the first node where two or more seats choose at once."""
    game = gamebag.make(game_id, _players_for(game_id))
    match = Match(game, SEED)
    prefix: list[tuple[int, Any]] = []
    for _ in range(limit):
        if match.is_over:
            return None
        waiting = match.waiting_for()
        if len(waiting) >= 2:
            return prefix, len(waiting)
        seat = waiting[0]
        action = match.legal_actions(seat)[0]
        prefix.append((seat, game.action_to_json(action)))
        match.submit(seat, action)
    return None


SIMULTANEOUS = [g for g in GAMES if _first_simultaneous_prefix(g) is not None]


def _normalise(messages: list[Message], table_id: str) -> list[str]:
    out = []
    for message in messages:
        message = dict(message)
        message.pop("at", None)
        out.append(json.dumps(message, sort_keys=True).replace(table_id, "TABLE"))
    return out


class ScriptedTable:
    """Every seat of one table on its own socket, acting only when told to."""

    def __init__(self, client: Any, table: Message) -> None:
        self.sockets = [client.websocket_connect(f"/ws/tables/{table['id']}") for _ in table["seats"]]
        self.entered = [ws.__enter__() for ws in self.sockets]
        self.latest = {seat: hello(ws, table["seats"][seat]["token"])[-1] for seat, ws in enumerate(self.entered)}

    def close(self) -> None:
        for ws in self.sockets:
            ws.__exit__(None, None, None)

    def act(self, seat: int, action: Any) -> None:
        ws = self.entered[seat]
        ws.send_text(json.dumps({"type": "act", "action": action, "ref": 1}))
        while True:
            message = receive(ws)
            assert message["type"] != "error", message
            if message["type"] == "state":
                self.latest[seat] = message
            if message["type"] == "ack":
                return

    def drain(self, seat: int) -> list[Message]:
        """Every message the seat was sent so far (read up to the answer of a fresh ping)."""
        ws = self.entered[seat]
        ws.send_text(json.dumps({"type": "ping", "ref": "drain"}))
        got = []
        while True:
            message = receive(ws)
            if message["type"] == "pong" and message["ref"] == "drain":
                return got
            if message["type"] == "state":
                self.latest[seat] = message
            got.append(message)


@pytest.mark.parametrize("game_id", SIMULTANEOUS)
def test_what_others_chose_in_secret_never_reaches_a_seat(game_id: str, tmp_path: Path) -> None:
    found = _first_simultaneous_prefix(game_id)
    assert found is not None
    prefix, _ = found
    seen_by_observer: list[list[str]] = []
    choices_made: list[list[Any]] = []
    with web_client(tmp_path) as client:
        for variant in (0, -1):
            players = _players_for(game_id)
            table = open_table(client, game_id, players, seed=SEED)  # type: ignore[arg-type]
            scripted = ScriptedTable(client, table)
            try:
                for seat, action in prefix:
                    scripted.act(seat, action)
                for seat in range(players):
                    scripted.drain(seat)
                waiting = scripted.latest[0]["view"]["choices"]["waiting_for"]
                observer, choosers = waiting[-1], waiting[:-1]
                made = []
                for seat in choosers:
                    action = scripted.latest[seat]["legal"][variant]
                    made.append(action)
                    scripted.act(seat, action)
                seen = scripted.drain(observer)
                assert seen, "the observer is told that the others have chosen"
                last_state = [m for m in seen if m["type"] == "state"][-1]
                assert sorted(last_state["view"]["choices"]["chosen"]) == sorted(choosers)
                seen_by_observer.append(_normalise(seen, table["id"]))
                choices_made.append(made)
            finally:
                scripted.close()
    if choices_made[0] == choices_made[1]:
        pytest.fail(f"{game_id}: the choosers had only one legal choice; pick another node")
    assert seen_by_observer[0] == seen_by_observer[1]
