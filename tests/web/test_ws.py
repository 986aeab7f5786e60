"""Table sockets: whole games of every game, bad input, the turn timer, records and replays."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamebag
from gamebag.cli.app import app as cli_app
from gamebag.core.records import Record, replay

from .helpers import (
    SeatPlayer,
    hello,
    open_table,
    play_whole_game,
    receive,
    receive_until,
    record_of,
    run_players,
    web_client,
)

GAMES = gamebag.game_ids()


def _players_for(game_id: str) -> int:
    cls = gamebag.entry(game_id).game_class
    return max(cls.min_players, min(3, cls.max_players))


@pytest.mark.parametrize("game_id", GAMES)
def test_whole_game_with_people_and_bots_ends_and_its_record_replays(tmp_path: Path, game_id: str) -> None:
    players = _players_for(game_id)
    bots = {p: "random" for p in range(1, players) if p % 2 == 0} if players > 2 else {1: "random"}
    with web_client(tmp_path) as client:
        table = open_table(client, game_id, players, bots=bots, seed=11)
        seat_players = play_whole_game(client, table, seed=3)
        record_json = record_of(client, table["id"])
        info = client.get(f"/api/tables/{table['id']}").json()
        steps = client.get(f"/api/tables/{table['id']}/replay").json()["steps"]
    game, state = replay(Record.from_json(record_json), gamebag.make)
    assert game.is_terminal(state)
    assert info["result"]["winners"] == list(game.winners(state))
    assert info["table"]["finished"] is True
    assert steps[-1] == game.public_view(state)
    for player in seat_players:
        final = [m for m in player.messages if m["type"] == "state"][-1]
        assert final["result"]["winners"] == list(game.winners(state))
    # Every person's action is in the record, at the step it was sent from.
    for player in seat_players[:-1]:
        seat = player.messages[0]["seat"]
        for step, action in player.submitted.items():
            later = [e for e in record_json["events"][step:] if "moves" in e and str(seat) in e["moves"]]
            assert later and later[0]["moves"][str(seat)] == action


def test_downloaded_record_is_accepted_by_gamebag_replay(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 3, bots={1: "heuristic", 2: "random"}, seed=5)
        play_whole_game(client, table, seed=5, spectate=False)
        response = client.get(f"/api/tables/{table['id']}/record")
        token = table["seats"][0]["token"]
        as_seat = client.get(f"/api/tables/{table['id']}/replay", headers={"x-seat-token": token}).json()
        forged = client.get(f"/api/tables/{table['id']}/replay", headers={"x-seat-token": "forged"})
    assert forged.status_code == 403
    game, final = replay(Record.from_json(response.json()), gamebag.make)
    assert as_seat["seat"] == 0 and as_seat["steps"][-1] == game.observation(final, 0)
    assert "attachment" in response.headers["content-disposition"]
    assert response.json()["meta"]["seats"][1]["agent"] == "heuristic"
    path = tmp_path / "game.json"
    path.write_text(response.text)
    result = CliRunner().invoke(cli_app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["terminal"] is True


def _watch_to_the_end(ws: object) -> None:
    """Spectate until the game is over (it may already be when the spectator arrives)."""
    if hello(ws, None)[-1]["result"] is None:
        receive_until(ws, lambda m: m["type"] == "state" and m["result"] is not None, limit=5000)


def test_bots_only_table_plays_itself_to_the_end(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "eel-harvest", 3, bots={0: "heuristic", 1: "heuristic", 2: "random"}, seed=9)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            _watch_to_the_end(ws)


def test_same_seed_same_bots_same_game(tmp_path: Path) -> None:
    records = []
    for run in range(2):
        with web_client(tmp_path, name=f"run{run}.db") as client:
            table = open_table(client, "wriggle-roulette", 3, bots={0: "heuristic", 1: "random", 2: "random"}, seed=21)
            with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                _watch_to_the_end(ws)
            records.append(record_of(client, table["id"])["events"])
    assert records[0] == records[1]


def _errors_then_pong(ws: object) -> list[dict[str, object]]:
    """The errors (then the pong) a client receives before the answer to a fresh ping."""
    ws.send_text(json.dumps({"type": "ping", "ref": "probe"}))  # type: ignore[attr-defined]
    seen = receive_until(ws, lambda m: m["type"] == "pong")
    return [m for m in seen if m["type"] in ("error", "pong")]


def test_bad_input_gets_an_error_to_that_client_only_and_changes_nothing(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 2, seed=2)
        token0, token1 = (s["token"] for s in table["seats"])
        with (
            client.websocket_connect(f"/ws/tables/{table['id']}") as ws0,
            client.websocket_connect(f"/ws/tables/{table['id']}") as ws1,
        ):
            ws0.send_text(json.dumps({"type": "act", "action": 1}))
            assert "hello first" in _errors_then_pong(ws0)[0]["message"]
            ws0.send_text(json.dumps({"type": "hello", "token": "forged-token"}))
            assert "does not belong" in _errors_then_pong(ws0)[0]["message"]
            first = hello(ws0, token0)[-1]
            hello(ws1, token1)
            for ws in (ws0, ws1):
                receive_until(ws, lambda m: m["type"] == "presence" and m["connected"] == [0, 1])
            before = client.get(f"/api/tables/{table['id']}").json()
            bad_frames = [
                "not json at all",
                json.dumps([1, 2, 3]),
                json.dumps({"type": "shout"}),
                json.dumps({"type": "act"}),
                json.dumps({"type": "act", "action": 99}),
                json.dumps({"type": "act", "action": "two"}),
                json.dumps({"type": "act", "action": {"nested": [1, 2]}}),
                json.dumps({"type": "act", "action": 1, "step": first["step"] + 5}),
                json.dumps({"type": "hello", "token": token1}),
                json.dumps({"type": "act", "action": "x" * 5000}),
            ]
            for frame in bad_frames:
                ws0.send_text(frame)
                seen = _errors_then_pong(ws0)
                assert seen[0]["type"] == "error", f"no error for {frame[:60]!r}"
            ws0.send_bytes(b"\x00\x01")
            assert "text frames" in _errors_then_pong(ws0)[0]["message"]
            # The other seat heard nothing of all that: its next message answers its own ping.
            ws1.send_text(json.dumps({"type": "ping", "ref": "probe"}))
            heard = receive_until(ws1, lambda m: m["type"] == "pong")
            assert heard[-1] == {"type": "pong", "ref": "probe"}
            assert all(m["type"] == "chat" and m["lines"] == [] for m in heard[:-1]), heard  # its own chat welcome
            after = client.get(f"/api/tables/{table['id']}").json()
            assert after == before
            # And the table still works.
            ws0.send_text(json.dumps({"type": "act", "action": 2, "ref": 7}))
            acked = receive_until(ws0, lambda m: m["type"] == "ack")
            assert acked[-1]["ref"] == 7
            assert acked[-2]["view"]["choices"]["mine"] == 2


def test_spectators_and_out_of_turn_seats_cannot_act(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "catch-a-dragon", 2, seed=4)
        token1 = table["seats"][1]["token"]
        with (
            client.websocket_connect(f"/ws/tables/{table['id']}") as watcher,
            client.websocket_connect(f"/ws/tables/{table['id']}") as seat1,
        ):
            state = hello(watcher, None)[-1]
            assert state["seat"] is None and state["legal"] == []
            watcher.send_text(json.dumps({"type": "act", "action": "stop"}))
            assert "spectators cannot act" in _errors_then_pong(watcher)[0]["message"]
            mine = hello(seat1, token1)[-1]
            assert 1 not in mine["view"]["choices"]["waiting_for"] and mine["legal"] == []
            seat1.send_text(json.dumps({"type": "act", "action": "roll"}))
            assert "does not act now" in _errors_then_pong(seat1)[0]["message"]


def test_flooding_is_refused_without_hurting_anyone(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 2, seed=2)
        with (
            client.websocket_connect(f"/ws/tables/{table['id']}") as flooder,
            client.websocket_connect(f"/ws/tables/{table['id']}") as calm,
        ):
            hello(flooder, table["seats"][0]["token"])
            hello(calm, table["seats"][1]["token"])
            for _ in range(300):
                flooder.send_text(json.dumps({"type": "ping"}))
            time.sleep(0.3)
            seen = receive_until(flooder, lambda m: m["type"] == "error" and "too many" in m["message"])
            assert sum(1 for m in seen if m["type"] == "pong") < 300
            assert _errors_then_pong(calm)[-1]["type"] == "pong"
            health = client.get("/api/health").json()
    assert health["ok"] is True


def test_turn_timer_plays_the_timeout_agent_for_an_absent_seat(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 2, seed=8, turn_seconds=3)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            state = hello(ws, table["seats"][0]["token"])[-1]
            # The clock waits for seat 1 to connect; the host starts it without waiting.
            assert state["table"]["deadline_in"] is None and state["table"]["clock_waits"] is True
            started = client.post(f"/api/tables/{table['id']}/clock", headers={"x-host-token": table["host_token"]})
            assert started.status_code == 200 and started.json()["clock_waits"] is False
            state = receive_until(ws, lambda m: m["type"] == "state" and m["table"]["deadline_in"] is not None)[-1]
            assert 2.0 < state["table"]["deadline_in"] <= 3.0
            ws.send_text(json.dumps({"type": "act", "action": 1, "step": state["step"]}))
            started = time.monotonic()
            # Seat 1 never connects: when the clock runs out the heuristic chooses for it.
            moved = receive_until(ws, lambda m: m["type"] == "state" and m["step"] > state["step"], limit=50)[-1]
            waited = time.monotonic() - started
    assert 1.5 < waited < 10.0
    assert moved["view"]["last_grab"]["counts"][0] == 1
    assert moved["view"]["last_grab"]["counts"][1] is not None
    assert moved["table"]["turn_seconds"] == 3.0


def test_unknown_table_socket_is_closed_with_a_reason(tmp_path: Path) -> None:
    with web_client(tmp_path) as client, client.websocket_connect("/ws/tables/nope") as ws:
        message = receive(ws)
    assert message["type"] == "error" and "no table" in message["message"]


@pytest.mark.timeout(120)
def test_a_stalled_game_fails_with_a_clear_message_instead_of_hanging(tmp_path: Path) -> None:
    """Only one of two people plays: the other never acts, so the game waits for ever. The
    helper says so after its timeout, and the test client still shuts down (no blocked read)."""
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 2)
        alone = SeatPlayer(client, table["id"], table["seats"][0]["token"], seed=1)
        began = time.monotonic()
        with pytest.raises(AssertionError, match=r"1 seat player\(s\) still waiting after 2 s: the game stalled"):
            run_players([alone], timeout=2.0)
        assert time.monotonic() - began < 30
        assert not alone.is_alive() and alone.submitted, "the player acted once, then waited"
