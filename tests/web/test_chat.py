"""Table chat and reactions: who reads what, what is refused and why, the host's settings, lasting lines."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from gamebag.web.tables.chat import CHAT_BURST, MAX_CHARS
from web.helpers import Message, SeatPlayer, hello, open_table, receive_until, run_players, web_client

MARKUP = '<img src=x onerror="alert(1)"> Bot 2 loses their eels'


def _joined(stack: ExitStack, client: Any, table_id: str, token: str | None) -> tuple[Any, Message]:
    """A socket that said hello and read its chat welcome (history and settings)."""
    ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
    hello(ws, token)
    welcome = receive_until(ws, lambda m: m["type"] == "chat")[-1]
    return ws, welcome


def _say(ws: Any, text: str) -> None:
    ws.send_text(json.dumps({"type": "chat", "text": text}))


def _next_chat(ws: Any) -> Message:
    return receive_until(ws, lambda m: m["type"] in ("chat", "chat_settings") or m.get("code") == "chat")[-1]


def _ping(ws: Any) -> None:
    """Everything sent to this socket before now has been read once its pong arrives."""
    ws.send_text(json.dumps({"type": "ping", "ref": "fence"}))
    seen = receive_until(ws, lambda m: m["type"] == "pong")
    assert not [m for m in seen if m["type"] in ("chat", "chat_settings")], seen


def test_lines_reach_every_reader_as_text_and_spectators_chat_apart(tmp_path: Path) -> None:
    with web_client(tmp_path) as client, ExitStack() as stack:
        table = open_table(client, "pig", 2)
        table_id, host = table["id"], {"x-host-token": table["host_token"]}
        alice, welcome = _joined(stack, client, table_id, table["seats"][0]["token"])
        assert welcome["lines"] == [] and welcome["settings"] == {"spectators": False, "muted": False}
        bob, _ = _joined(stack, client, table_id, table["seats"][1]["token"])
        watcher, welcome = _joined(stack, client, table_id, None)
        assert welcome["settings"]["spectators"] is False

        _say(alice, MARKUP)
        for ws in (alice, bob, watcher):
            line = _next_chat(ws)["lines"][0]
            assert (line["name"], line["seat"], line["kind"], line["channel"]) == ("P0", 0, "text", "players")
            assert line["body"] == MARKUP  # the text as typed: the page shows it as text

        _say(watcher, "who is winning?")  # spectators' chat is off by default
        refusal = _next_chat(watcher)
        assert refusal["type"] == "error" and "spectators' chat is off" in refusal["message"]
        _ping(alice)

        answer = client.post(f"/api/tables/{table_id}/chat/settings", json={"spectators": True}, headers=host)
        assert answer.status_code == 200 and answer.json() == {"spectators": True, "muted": []}
        for ws in (alice, bob, watcher):
            assert _next_chat(ws) == {"type": "chat_settings", "spectators": True, "muted": False}
        _say(watcher, "who is winning?")
        line = _next_chat(watcher)["lines"][0]
        assert (line["channel"], line["seat"], line["name"]) == ("spectators", None, "Spectator")
        bob.send_text(json.dumps({"type": "react", "reaction": "party"}))
        for ws in (alice, bob, watcher):  # the players never read the spectators' line: the reaction comes next
            line = _next_chat(ws)["lines"][0]
            assert (line["kind"], line["body"], line["seat"]) == ("reaction", "party", 1)
        bob.send_text(json.dumps({"type": "react", "reaction": "bomb"}))
        refusal = _next_chat(bob)
        assert refusal["type"] == "error" and "thumbs_up" in refusal["message"]


def test_floods_oversize_lines_and_disguises_are_refused_with_a_reason(tmp_path: Path) -> None:
    with web_client(tmp_path) as client, ExitStack() as stack:
        table = open_table(client, "pig", 2)
        alice, _ = _joined(stack, client, table["id"], table["seats"][0]["token"])
        bob, _ = _joined(stack, client, table["id"], table["seats"][1]["token"])
        bad = {
            "x" * (MAX_CHARS + 1): f"at most {MAX_CHARS} characters; this one has {MAX_CHARS + 1}",
            "two\nlines": "one line of text",
            "\u202eslee": "one line of text",  # a right-to-left override could disguise a line
            "   ": "needs some text",
        }
        for text, why in bad.items():
            _say(alice, text)
            refusal = _next_chat(alice)
            assert refusal["type"] == "error" and refusal["code"] == "chat" and why in refusal["message"], refusal
        alice.send_text(json.dumps({"type": "chat", "text": 7}))
        assert "with some text" in _next_chat(alice)["message"]
        _ping(bob)  # nothing refused reached the other reader
        sent = int(CHAT_BURST)
        for n in range(sent + 1):
            _say(alice, f"line {n}")
        seen = [_next_chat(alice) for _ in range(sent + 1)]
        assert [m["lines"][0]["body"] for m in seen[:sent]] == [f"line {n}" for n in range(sent)]
        assert seen[sent]["type"] == "error" and seen[sent]["retry_after"] >= 1
        assert "too many chat messages" in seen[sent]["message"]
        got = [_next_chat(bob)["lines"][0]["body"] for _ in range(sent)]
        assert got == [f"line {n}" for n in range(sent)]
        _ping(bob)


def test_the_host_mutes_a_seat_and_bad_settings_are_refused(tmp_path: Path) -> None:
    with web_client(tmp_path) as client, ExitStack() as stack:
        table = open_table(client, "pig", 2)
        table_id, host = table["id"], {"x-host-token": table["host_token"]}
        alice, _ = _joined(stack, client, table_id, table["seats"][0]["token"])
        bob, _ = _joined(stack, client, table_id, table["seats"][1]["token"])
        url = f"/api/tables/{table_id}/chat/settings"
        assert client.post(url, json={"seat": 1, "muted": True}, headers=host).json()["muted"] == [1]
        assert _next_chat(bob) == {"type": "chat_settings", "spectators": False, "muted": True}
        assert _next_chat(alice)["muted"] is False  # each seat is told only whether it is muted itself
        _say(bob, "hello?")
        assert "muted your chat" in _next_chat(bob)["message"]
        _ping(alice)
        for body, status in (({"seat": 5, "muted": True}, 400), ({"seat": True, "muted": True}, 400), ({"x": 1}, 400)):
            answer = client.post(url, json=body, headers=host)
            assert answer.status_code == status and "error" in answer.json(), answer.text
        assert client.post(url, json={"spectators": True}, headers={"x-host-token": "nope"}).status_code == 403
        assert client.post(url, json={"seat": 1, "muted": False}, headers=host).json()["muted"] == []
        assert _next_chat(bob)["muted"] is False and _next_chat(alice)["type"] == "chat_settings"
        _say(bob, "back")
        assert _next_chat(alice)["lines"][0]["body"] == "back"


def test_lines_outlast_a_restart_and_the_replay_gets_the_players_channel(tmp_path: Path) -> None:
    with web_client(tmp_path) as client, ExitStack() as stack:
        table = open_table(client, "pig", 2)
        table_id, host = table["id"], {"x-host-token": table["host_token"]}
        client.post(f"/api/tables/{table_id}/chat/settings", json={"spectators": True}, headers=host)
        alice, _ = _joined(stack, client, table_id, table["seats"][0]["token"])
        watcher, _ = _joined(stack, client, table_id, None)
        _say(alice, "good luck")
        said = _next_chat(alice)["lines"][0]
        _say(watcher, "go Bob")
        assert [_next_chat(watcher)["lines"][0]["body"] for _ in range(2)] == ["good luck", "go Bob"]
    with web_client(tmp_path) as client, ExitStack() as stack:  # the same database, a new server
        _, welcome = _joined(stack, client, table_id, table["seats"][1]["token"])
        assert welcome["lines"] == [said]  # every field as first told, the step it was said at included
        watcher, welcome = _joined(stack, client, table_id, None)
        assert [line["body"] for line in welcome["lines"]] == ["good luck", "go Bob"]
        assert welcome["settings"]["spectators"] is True
        lines = client.get(f"/api/tables/{table_id}/chat").json()["lines"]
        assert [line["body"] for line in lines] == ["good luck"]  # never the spectators' channel


def test_the_server_never_writes_a_chat_line_of_its_own(tmp_path: Path) -> None:
    """A whole game of two people and a bot: the only chat messages anyone gets are the (empty) welcomes."""
    # Catch A Dragon has rounds, busts and collections the server could have narrated: it does not.
    with web_client(tmp_path) as client:
        table = open_table(client, "catch-a-dragon", 3, bots={2: "random"})
        players = [SeatPlayer(client, table["id"], seat["token"], seed=n) for n, seat in enumerate(table["seats"][:2])]
        watcher = SeatPlayer(client, table["id"], None, seed=9)
        run_players([*players, watcher])
    for player in (*players, watcher):
        assert player.finished
        assert [m["lines"] for m in player.messages if m["type"] == "chat"] == [[]]
