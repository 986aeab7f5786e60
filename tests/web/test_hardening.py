"""Defects of issue 27 that a client could reach, each fixed (quick, in-process servers): the
rematch's host token goes to the host, deeply nested JSON is refused with a reason, nothing a
client sends forges a log line, and a seat changing its secret choice tells nobody else."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from gamebag.web.admission.bounds import MAX_JSON_DEPTH

from .helpers import hello, open_table, play_whole_game, receive_until, web_client


def test_the_host_gets_the_rematchs_host_token_and_its_host_page(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "pig", 2, seed=5, options={"goal": 12})
        host = {"x-host-token": table["host_token"]}
        play_whole_game(client, table, seed=5, spectate=False)
        opened = client.post(f"/api/tables/{table['id']}/rematch", headers=host)
        assert opened.status_code == 200
        answer = opened.json()
        rematch_id, token = answer["id"], answer["host_token"]
        assert token and token != table["host_token"] and answer["host"] == f"/host/{rematch_id}#host={token}"
        # The old table's host page links to the rematch's host page, with its token.
        assert client.get(f"/api/tables/{table['id']}/host", headers=host).json()["next"] == answer["host"]
        new_host = {"x-host-token": token}
        assert client.get(f"/api/tables/{rematch_id}/host", headers=new_host).status_code == 200
        reissued = client.post(f"/api/tables/{rematch_id}/seats/0/reissue", headers=new_host)
        assert reissued.status_code == 200 and "#invite=" in reissued.json()["invite"]
        assert "token" not in reissued.json()  # the host gets the new invite, never a seat's token
        assert client.post(f"/api/tables/{rematch_id}/close", headers=new_host).json()["closed"]
        # A seat opening the rematch gets no host token; the host finds it on the old host page.
        second = open_table(client, "pig", 2, seed=6, options={"goal": 12})
        play_whole_game(client, second, seed=6, spectate=False)
        seat = {"x-seat-token": second["seats"][0]["token"]}
        forged = client.post(f"/api/tables/{second['id']}/rematch", headers={**seat, "x-host-token": "forged"})
        assert forged.status_code == 403  # refused before anything is opened:
        assert (
            client.get(f"/api/tables/{second['id']}/host", headers={"x-host-token": second["host_token"]}).json()[
                "next"
            ]
            is None
        )
        by_seat = client.post(f"/api/tables/{second['id']}/rematch", headers=seat).json()
        assert "host_token" not in by_seat
        link = client.get(f"/api/tables/{second['id']}/host", headers={"x-host-token": second["host_token"]})
        path, _, rematch_token = link.json()["next"].partition("#host=")
        assert path == f"/host/{by_seat['id']}"
        assert (
            client.get(f"/api/tables/{by_seat['id']}/host", headers={"x-host-token": rematch_token}).status_code == 200
        )


def test_deeply_nested_json_is_refused_with_its_reason(tmp_path: Path) -> None:
    deep = "[" * 20000 + "]" * 20000
    with web_client(tmp_path) as client:
        response = client.post("/api/tables", content=deep, headers={"content-type": "application/json"})
        assert response.status_code == 400 and "nested deeper than" in response.json()["error"]
        # Just past the bound (parsed, but refused before anything reads it).
        past = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
        response = client.post("/api/tables", content=past, headers={"content-type": "application/json"})
        assert response.status_code == 400 and "nested deeper than" in response.json()["error"]
        table = open_table(client, "wriggle-roulette", 3)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, table["seats"][0]["token"])
            for text in ("[" * 2000 + "]" * 2000, '{"type": "act", "action": ' + past + "}", "{not json"):
                ws.send_text(text)
                error = receive_until(ws, lambda m: m["type"] == "error")[-1]
                assert "JSON" in error["message"], error
            ws.send_text(json.dumps({"type": "ping", "ref": 1}))  # the socket is still served
            assert receive_until(ws, lambda m: m["type"] == "pong")[-1]["ref"] == 1


def test_nothing_a_client_sends_forges_a_log_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    forged = "drawing failed\r\nWARNING gamebag.web: forged line \x1b[2J\x1b[31mred\u202e"
    with web_client(tmp_path) as client, caplog.at_level(logging.WARNING, logger="gamebag.web"):
        # The body as a page could send it: the raw characters (the server logs it without parsing it).
        response = client.post(
            "/api/client-errors", content=forged.encode(), headers={"content-type": "application/json"}
        )
        assert response.status_code == 200
    lines = [record.getMessage() for record in caplog.records if "browser reported" in record.getMessage()]
    assert len(lines) == 1
    line = lines[0]
    assert not any(c in line for c in "\r\n\x1b\u202e"), repr(line)
    assert "\\r\\n" in line and "\\x1b[2J" in line  # shown escaped, not dropped silently
    # The handler's own format may separate its fields with tabs (Ray installs one in a process that
    # imported it); what the client sent must add no control character of any kind.
    assert all(c.isprintable() for c in caplog.text.replace("\n", "").replace("\t", ""))


def test_changing_a_secret_choice_tells_nobody_else(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 3, seed=3)
        tokens = [seat["token"] for seat in table["seats"]]
        url = f"/ws/tables/{table['id']}"
        with (
            client.websocket_connect(url) as me,
            client.websocket_connect(url) as other,
            client.websocket_connect(url) as watcher,
        ):
            state = hello(me, tokens[0])[-1]
            hello(other, tokens[1])
            hello(watcher, None)
            assert len(state["view"]["choices"]["waiting_for"]) > 1, "not a simultaneous secret choice"
            legal = state["legal"]
            assert len(legal) > 1
            me.send_text(json.dumps({"type": "act", "action": legal[0], "step": state["step"], "ref": 1}))
            receive_until(me, lambda m: m["type"] == "ack")
            for reader in (other, watcher):  # choosing is public: the others see that seat 0 chose
                seen = receive_until(reader, lambda m: m["type"] == "state" and 0 in m["view"]["choices"]["chosen"])
                assert seen
            me.send_text(json.dumps({"type": "act", "action": legal[1], "step": state["step"], "ref": 2}))
            mine = receive_until(me, lambda m: m["type"] == "ack")
            assert [m["view"]["choices"]["mine"] for m in mine if m["type"] == "state"] == [legal[1]]
            for reader in (other, watcher):
                reader.send_text(json.dumps({"type": "ping", "ref": "after"}))
                between = receive_until(reader, lambda m: m["type"] == "pong")
                assert [m["type"] for m in between if m["type"] == "state"] == [], "they learnt it changed its mind"
