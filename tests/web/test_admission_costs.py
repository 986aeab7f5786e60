"""One admission model (issue 36, point 1): every route and socket message has a declared cost class.

A route or message type added without its line in ``admission/costs.py`` fails here; at run
time it is still admitted under a small bounded budget, never an unlimited one. Past a class's
budget a client gets 429 with ``Retry-After`` and nothing behind the route runs; a request
naming a seat also spends that seat's budget, whichever address it comes from; in a cluster
the counts are shared by every process (PostgreSQL).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gamebag.web.admission.costs import (
    COST_CLASSES,
    ROUTE_COSTS,
    SOCKET_COSTS,
    SOCKET_OTHER,
    declared_keys,
    markdown_table,
)
from gamebag.web.app import create_app
from gamebag.web.settings import Limits
from gamebag.web.tables.ws import MESSAGE_TYPES
from web.helpers import hello, open_table, web_client

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web.md"


def _app(tmp_path: Path, **limits: Any) -> Any:
    return create_app(
        f"sqlite:///{tmp_path / 'costs.db'}",
        bot_delay=0.0,
        allow_seed=True,
        host_names=("testserver",),
        limits=Limits(**limits),
    )


def _refused(response: Any) -> str:
    assert response.status_code == 429, response.text
    assert 1 <= int(response.headers["retry-after"]) <= 60
    text: str = response.json()["error"]
    return text


def test_every_route_and_socket_message_has_a_declared_cost_class(tmp_path: Path) -> None:
    app = _app(tmp_path)
    keys = declared_keys(list(app.routes))
    undeclared = [key for key in keys if key not in ROUTE_COSTS]
    assert not undeclared, f"routes with no cost class in admission/costs.py ROUTE_COSTS: {undeclared}"
    assert set(ROUTE_COSTS.values()) <= set(COST_CLASSES)
    missing = [kind for kind in MESSAGE_TYPES if kind not in SOCKET_COSTS]
    assert not missing, f"socket messages with no cost class in SOCKET_COSTS: {missing}"
    limits = Limits()
    for cost in COST_CLASSES.values():  # every budget is a positive, finite number of requests
        assert 0 < cost.per_minute(limits) < 10_000, cost.name


def test_docs_show_the_declared_table() -> None:
    table = markdown_table(Limits())
    assert table in DOCS.read_text(encoding="utf-8"), "docs/web.md must hold markdown_table(Limits()) verbatim"


def test_an_undeclared_route_is_admitted_under_a_small_budget(tmp_path: Path) -> None:
    app = _app(tmp_path, undeclared_per_minute=2)
    ran: list[int] = []

    @app.get("/api/added-without-a-cost-class")
    async def added() -> dict[str, int]:
        ran.append(1)
        return {"n": len(ran)}

    with TestClient(app) as client:
        assert [client.get("/api/added-without-a-cost-class").status_code for _ in range(2)] == [200, 200]
        _refused(client.get("/api/added-without-a-cost-class"))
    assert len(ran) == 2  # the refused request reached nothing


def test_each_class_has_its_own_budget_per_address_and_unknown_paths_are_bounded(tmp_path: Path) -> None:
    app = _app(tmp_path, reads_per_minute=3, unknown_paths_per_minute=2, pages_per_minute=2)
    with TestClient(app) as client, TestClient(app, client=("198.51.100.9", 4000)) as other:
        assert [client.get(path).status_code for path in ("/api/games", "/api/limits", "/api/server")] == [200] * 3
        assert "too many requests from your address: at most 3 per minute" in _refused(client.get("/api/games"))
        assert client.get("/").status_code == 200  # pages are another class
        assert other.get("/api/games").status_code == 200  # another address has its own budget
        assert [client.get("/no/such/path").status_code for _ in range(2)] == [404, 404]
        _refused(client.get("/no/such/path"))


def test_a_seat_has_a_budget_of_its_own_across_addresses(tmp_path: Path) -> None:
    app = _app(tmp_path, downloads_per_minute=3)
    with TestClient(app) as one, TestClient(app, client=("198.51.100.9", 4000)) as two:
        table = open_table(one, "pig", 2, bots={1: "random"})
        token = table["seats"][0]["token"]
        headers = {"x-seat-token": token}
        path = f"/api/tables/{table['id']}/replay"
        assert [one.get(path, headers=headers).status_code for _ in range(2)] == [409, 409]  # not over yet
        assert two.get(path, headers=headers).status_code == 409
        assert "for your seat" in _refused(two.get(path, headers=headers))  # the seat's 4th, from a fresh address
        assert two.get(path).status_code == 409  # without the seat: the address's own budget


def test_socket_messages_past_their_class_budget_are_ignored(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "pig", 2, bots={1: "random"})
        with client.websocket_connect(f"/ws/tables/{table['id']}") as socket:
            hello(socket, table["seats"][0]["token"])
            burst = int(SOCKET_COSTS["ping"].burst)
            for ref in range(burst + 10):
                socket.send_text(json.dumps({"type": "ping", "ref": ref}))
            socket.send_text(json.dumps({"type": "sync"}))  # another class: still answered
            answers = []
            while True:
                message = json.loads(socket.receive_text())
                answers.append(message)
                if message.get("type") == "state":
                    break
            pongs = [m for m in answers if m["type"] == "pong"]
            warnings = [m for m in answers if m["type"] == "error"]
            assert burst <= len(pongs) < burst + 10
            assert len(warnings) == 1 and "too many 'ping' messages" in warnings[0]["message"]
            other_burst = int(SOCKET_COSTS[SOCKET_OTHER].burst)
            for _ in range(other_burst + 5):
                socket.send_bytes(b"\x00")
            socket.send_text(json.dumps({"type": "sync"}))
            errors = 0
            while True:
                message = json.loads(socket.receive_text())
                if message.get("type") == "state":
                    break
                errors += message.get("type") == "error"
            assert errors <= other_burst + 1  # the bad frames' answers, then one warning


def test_two_servers_share_a_class_budget_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    limits = Limits(reads_per_minute=3)
    with (
        web_client(tmp_path, url=pg_url, limits=limits) as one,
        web_client(tmp_path, url=pg_url, limits=limits) as two,
    ):
        assert [c.get("/api/games").status_code for c in (one, two, one)] == [200, 200, 200]
        for client in (two, one):
            _refused(client.get("/api/games"))
