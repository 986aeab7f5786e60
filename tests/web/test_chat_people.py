"""Table chat and the people around it (issue 40, point 3): deleting an account deletes what its
seats wrote (and nothing anyone else wrote), the host page reads the chat's settings, and a reader
is told the longest line the server takes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamebag.web.tables.chat import MAX_CHARS
from web.helpers import hello, receive_until, web_client

PASSWORD = "seven lazy otters in a canoe"


@pytest.fixture(autouse=True)
def cheap_hashes() -> Iterator[None]:
    """argon2's cheapest parameters: the same code paths, milliseconds per hash."""
    from argon2.profiles import CHEAPEST

    from gamebag.web.people import passwords

    passwords.use_parameters(CHEAPEST)
    yield
    passwords.use_parameters(None)


def _open_pig(client: TestClient) -> dict[str, Any]:
    seats = [{"name": "P0"}, {"name": "P1"}]
    answer = client.post("/api/tables", json={"game": "pig", "players": 2, "seats": seats, "seed": 3})
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()
    return table


def _claim(client: TestClient, table: dict[str, Any], seat: int, headers: dict[str, str] | None = None) -> str:
    code = table["seats"][seat]["invite"].split("#invite=", 1)[1]
    claimed = client.post(f"/api/tables/{table['id']}/claim", json={"invite": code}, headers=headers or {})
    assert claimed.status_code == 200, claimed.text
    token: str = claimed.json()["token"]
    return token


def _say(stack: ExitStack, client: TestClient, table_id: str, token: str, texts: list[str]) -> dict[str, Any]:
    """Join as the seat, say each text (and a reaction), and wait until each came back; the chat welcome."""
    ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
    hello(ws, token)
    welcome: dict[str, Any] = receive_until(ws, lambda m: m["type"] == "chat")[-1]
    for text in texts:
        ws.send_text(json.dumps({"type": "chat", "text": text}))
        receive_until(ws, lambda m, said=text: m["type"] == "chat" and m["lines"][0]["body"] == said)
    ws.send_text(json.dumps({"type": "react", "reaction": "party"}))
    receive_until(ws, lambda m: m["type"] == "chat" and m["lines"][0]["kind"] == "reaction")
    return welcome


def _said(client: TestClient, table_id: str) -> list[tuple[int, str]]:
    answer = client.get(f"/api/tables/{table_id}/chat")
    assert answer.status_code == 200, answer.text
    return [(line["seat"], line["body"]) for line in answer.json()["lines"]]


def test_deleting_an_account_deletes_what_its_seats_wrote(tmp_path: Path) -> None:
    with web_client(tmp_path) as hal, ExitStack() as stack:
        guest = TestClient(hal.app)
        guest.portal = hal.portal  # another device of the same running server
        signed = hal.post("/api/account/signup", json={"name": "Hal", "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        csrf = {"x-csrf-token": signed.json()["csrf"]}
        # Hal owns seat 0 at one table and seat 1 at another; a guest holds the other seats.
        first, second = _open_pig(hal), _open_pig(hal)
        hal_first, guest_first = _claim(hal, first, 0, csrf), _claim(guest, first, 1)
        guest_second, hal_second = _claim(guest, second, 0), _claim(hal, second, 1, csrf)
        welcome = _say(stack, hal, first["id"], hal_first, ["from Hal's seat 0"])
        assert welcome["max_chars"] == MAX_CHARS  # the page's input takes its maxlength from here
        _say(stack, guest, first["id"], guest_first, ["from the guest's seat 1"])
        _say(stack, guest, second["id"], guest_second, ["from the guest's seat 0"])
        _say(stack, hal, second["id"], hal_second, ["from Hal's seat 1"])
        everyone = [(0, "from Hal's seat 0"), (0, "party"), (1, "from the guest's seat 1"), (1, "party")]
        assert _said(hal, first["id"]) == everyone

        assert hal.post("/api/me/delete", json={"name": "Hal"}, headers=csrf).status_code == 200
        # What Hal's seats wrote is gone, lines and reactions; the guest's lines at the same seats'
        # tables (the same seat numbers at the other table) stay.
        assert _said(hal, first["id"]) == [(1, "from the guest's seat 1"), (1, "party")]
        assert _said(hal, second["id"]) == [(0, "from the guest's seat 0"), (0, "party")]


def test_the_host_reads_the_chat_settings(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = _open_pig(client)
        url = f"/api/tables/{table['id']}/chat/settings"
        host = {"x-host-token": table["host_token"]}
        assert client.get(url, headers=host).json() == {"spectators": False, "muted": []}
        client.post(url, json={"seat": 1, "muted": True}, headers=host)
        client.post(url, json={"spectators": True}, headers=host)
        assert client.get(url, headers=host).json() == {"spectators": True, "muted": [1]}
        # Only the host: without the host's token, or with a wrong one, nothing is told.
        for headers in ({}, {"x-host-token": "nope"}):
            refused = client.get(url, headers=headers)
            assert refused.status_code == 403 and "host token" in refused.json()["error"], refused.text
        assert client.get("/api/tables/nosuchtable/chat/settings", headers=host).status_code == 404


def test_closing_a_table_deletes_its_chat(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, func, select

    from gamebag.web.store.chatstore import ChatLineRow, ChatSettingRow

    def rows(table_id: str) -> tuple[int, int]:
        engine = create_engine(f"sqlite:///{tmp_path / 'web.db'}")
        try:
            with engine.connect() as connection:
                counted = [
                    connection.execute(select(func.count()).select_from(row).where(row.table_id == table_id))
                    .scalar_one()
                    for row in (ChatLineRow, ChatSettingRow)
                ]
        finally:
            engine.dispose()
        return counted[0], counted[1]

    with web_client(tmp_path) as client, ExitStack() as stack:
        closing, staying = _open_pig(client), _open_pig(client)
        for table in (closing, staying):
            host = {"x-host-token": table["host_token"]}
            client.post(f"/api/tables/{table['id']}/chat/settings", json={"spectators": True}, headers=host)
            _say(stack, client, table["id"], _claim(client, table, 0), ["see you"])
        assert rows(closing["id"]) == (2, 1) and rows(staying["id"]) == (2, 1)
        closed = client.post(f"/api/tables/{closing['id']}/close", headers={"x-host-token": closing["host_token"]})
        assert closed.status_code == 200, closed.text
        assert rows(closing["id"]) == (0, 0)  # the closed table's lines and settings are gone
        assert rows(staying["id"]) == (2, 1)  # another table's are not
