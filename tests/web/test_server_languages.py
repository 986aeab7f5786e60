"""The server's own words in the reader's language (issue 39, the ``server`` catalogue).

An error answer and a 429 refusal in Dutch (``Accept-Language: nl-BE``) and in Japanese (the
switcher's ``gb_lang`` cookie); two seats of one table, one Dutch and one Japanese, each told the
server's words in its own language by messages made in another seat's task (a move, the host's
close); the "your move" e-mail in its recipient's language (the one of the account's latest
signed-in request); the players' rules page and the catalogue's option words in Dutch and Japanese.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gamebag.web.settings import Limits
from web.helpers import Message, hello, open_table, receive_until, web_client
from web.test_notices import (
    ADDRESS,
    ANN,
    Clock,
    Sink,
    body_of,
    code_after,
    notices_client,
    pig_for_ann,
    run_round,
    smtp,  # noqa: F401  (the module's SMTP fixture)
)
from web.test_standing import as_account

DUTCH = {"accept-language": "nl-BE,nl;q=0.9,en;q=0.5"}
JAPANESE_COOKIE = {"cookie": "gb_lang=ja"}


def test_an_error_answer_speaks_dutch_and_japanese(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        english = client.get("/api/tables/nothing-here")
        assert english.status_code == 404 and english.json()["error"] == "no table 'nothing-here' on this server"
        dutch = client.get("/api/tables/nothing-here", headers=DUTCH)
        assert dutch.status_code == 404 and dutch.json()["error"] == "geen tafel 'nothing-here' op deze server"
        japanese = client.post("/api/tables", json={"game": "pig", "seats": 3}, headers=JAPANESE_COOKIE)
        assert japanese.status_code == 400
        assert japanese.json()["error"] == "'seats' にはちょうど 2 席を並べてください（プレイヤーごとに 1 席）"


def test_a_refusal_429_speaks_the_readers_language(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(lobby_lists_per_minute=1)) as client:
        assert client.get("/api/tables", headers=DUTCH).status_code == 200
        dutch = client.get("/api/tables", headers=DUTCH)
        assert dutch.status_code == 429 and "retry-after" in dutch.headers
        said = dutch.json()["error"]
        assert said.startswith("te veel lobbylijsten vanaf je adres: hoogstens 1 per minuut; probeer over "), said
        japanese = client.get("/api/tables", headers=JAPANESE_COOKIE)
        assert japanese.status_code == 429
        said = japanese.json()["error"]
        assert said.startswith("あなたのアドレスからのロビーの一覧が多すぎます（1 分に 1 件まで）。"), said
        assert "too many" not in said


def _state(messages: list[Message]) -> Message:
    return [m for m in messages if m["type"] == "state"][-1]


def test_two_seats_of_one_table_each_read_their_own_language(tmp_path: Path) -> None:
    """Seat 0 reads Dutch (its browser's Accept-Language), seat 1 Japanese (named in its hello):
    the standing pass's label in the state another seat's move sends, and the host's close."""
    with web_client(tmp_path) as client:
        table = open_table(client, "eigen-kweek", 3, bots={2: "random"}, seed=10)
        dutch_ws = client.websocket_connect(f"/ws/tables/{table['id']}", headers=DUTCH)
        japanese_ws = client.websocket_connect(f"/ws/tables/{table['id']}")
        with dutch_ws as dutch, japanese_ws as japanese:
            dutch_state = hello(dutch, table["seats"][0]["token"])[-1]
            japanese.send_text(json.dumps({"type": "hello", "token": table["seats"][1]["token"], "lang": "ja"}))
            japanese_state = receive_until(japanese, lambda m: m["type"] == "state")[-1]
            dutch_label = "Pas deze ronde bij de vensters van de personages, tenzij ik zelf speel"
            japanese_label = "このラウンドは、自分で動かない限りキャラクターの出番をパスする"
            assert dutch_state["standing_pass"]["label"] == dutch_label
            assert japanese_state["standing_pass"]["label"] == japanese_label

            # Seat 1 chooses first; seat 0's choice (made in seat 0's task) moves the table on, and
            # the state it sends seat 1 is in Japanese; a bad message to seat 0 is answered in Dutch.
            japanese.send_text(json.dumps({"type": "act", "action": japanese_state["legal"][0], "ref": 1}))
            receive_until(japanese, lambda m: m["type"] == "ack")
            dutch.send_text(json.dumps({"type": "act", "action": dutch_state["legal"][0], "ref": 2}))
            start = dutch_state["step"]
            moved_on = _state(receive_until(japanese, lambda m: m["type"] == "state" and m["step"] > start))
            assert moved_on["standing_pass"]["label"] == japanese_label
            receive_until(dutch, lambda m: m["type"] == "ack")
            dutch.send_text(json.dumps({"type": "act"}))
            refused = receive_until(dutch, lambda m: m["type"] == "error")[-1]
            assert refused["message"] == "een 'act'-bericht vraagt een 'action'"

            # The host closes the table (an English request): each reader is told in its own words.
            closed = client.post(
                f"/api/tables/{table['id']}/close", headers={"x-host-token": table["host_token"]}
            )
            assert closed.status_code == 200, closed.text
            dutch_closed = receive_until(dutch, lambda m: m["type"] == "closed")[-1]
            japanese_closed = receive_until(japanese, lambda m: m["type"] == "closed")[-1]
            assert dutch_closed["message"] == "deze tafel werd gesloten door de host"
            assert japanese_closed["message"] == "このテーブルはホストによって閉じられました"
            assert dutch_closed["reason"] == japanese_closed["reason"] == "host"  # the codes stay neutral


def test_an_unknown_hello_language_keeps_the_negotiated_one(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "eigen-kweek", 2, seed=10)
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=DUTCH) as ws:
            ws.send_text(json.dumps({"type": "hello", "token": table["seats"][0]["token"], "lang": "tlh"}))
            state = receive_until(ws, lambda m: m["type"] == "state")[-1]
            assert state["standing_pass"]["label"].startswith("Pas deze ronde")


def test_the_your_move_mail_is_in_its_recipients_language(tmp_path: Path, smtp: tuple[Sink, int]) -> None:  # noqa: F811
    sink, port = smtp
    sink.messages.clear()
    clock = Clock()
    with notices_client(tmp_path, f"smtp://127.0.0.1:{port}?from=games@example.test", clock) as client:
        ann_dutch = {**as_account(ANN), **DUTCH}
        assert client.post("/api/notices/email", json={"address": ADDRESS}, headers=ann_dutch).status_code == 200
        (confirmation,) = sink.wait_for(1)
        assert confirmation["Subject"] == "Bevestig je adres voor de meldingen van gamebag"
        code = code_after(body_of(confirmation), "#confirm=")
        assert client.post("/api/notices/confirm", json={"code": code}).status_code == 200
        table = pig_for_ann(client)
        # Ann's latest signed-in request is Dutch (her language is kept on her account); the mail
        # is written long after, in the notices' own task, with nobody's request around it.
        assert client.get("/api/notices/email", headers=ann_dutch).status_code == 200
        run_round(client)
        clock.now += 61
        assert run_round(client) == 1
        notice = sink.wait_for(2)[1]
        body = body_of(notice)
        assert notice["Subject"] == "Je bent aan zet in Pig"
        assert body.startswith(f"Je bent aan zet in Pig aan tafel {table['id']}.")
        assert "Om deze e-mails niet meer te krijgen, open" in body and "Your move" not in body


def _rules(client: TestClient, headers: dict[str, str]) -> str:
    answer: dict[str, Any] = client.get("/api/games/pig/players-rules?players=2", headers=headers).json()
    return str(answer["markdown"])


def test_the_rules_page_and_the_catalogue_speak_the_readers_language(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        english = _rules(client, {})
        dutch = _rules(client, DUTCH)  # the cache keeps one answer per language
        assert "## The options of this table" in english and "Score that wins" in english
        assert "## De opties van deze tafel" in dutch and "**Score om te winnen:**" in dutch
        assert "(volgens de spelregels)" in dutch
        assert "## The options of this table" not in dutch and "Score that wins" not in dutch
        assert _rules(client, {}) == english
        games = {game["id"]: game for game in client.get("/api/games?lang=ja").json()}
        labels = {option["name"]: option["label"] for option in games["eel-harvest"]["options"]}
        assert labels["eels"] == "袋の中のウナギ" and labels["snakes"] == "袋の中のヘビ"
        assert games["eel-harvest"]["id"] == "eel-harvest" and "eels" in labels  # names and codes stay neutral
