"""Per-address budgets of what makes the server read its database (issue 36, point 2).

A table not in memory (or an id that names no table) costs a load; the lobby listing and
the bots a table could have cost a query each. Past each budget a client gets 429 with
``Retry-After`` (a socket is refused before it opens), and the others are still served.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import WebSocketDenialResponse

from gamebag.web.settings import Limits

from .helpers import open_table, receive_until, web_client


def _refused(response: object) -> str:
    assert getattr(response, "status_code", None) == 429, getattr(response, "text", response)
    retry = int(response.headers["retry-after"])  # type: ignore[attr-defined]
    assert 1 <= retry <= 60
    text: str = response.json()["error"]  # type: ignore[attr-defined]
    return text


def test_unknown_ids_and_tables_not_in_memory_spend_the_load_budget(tmp_path: Path) -> None:
    limits = Limits(loads_per_minute=3)
    with web_client(tmp_path, limits=limits) as client:
        table = open_table(client, "pig", 2)
        assert client.get(f"/api/tables/{table['id']}").status_code == 200  # in memory: costs no load
        assert [client.get(f"/api/tables/nothing-{n}").status_code for n in range(3)] == [404, 404, 404]
        text = _refused(client.get("/api/tables/nothing-else"))
        assert "at most 3 per minute" in text and "tables not in memory" in text
        assert client.get(f"/api/tables/{table['id']}/record").status_code == 409  # loaded tables still answer
        with pytest.raises(WebSocketDenialResponse), client.websocket_connect("/ws/tables/nothing-more"):
            pass
    # After a restart nothing is in memory: a socket's first load is counted, here within the budget.
    with web_client(tmp_path, limits=limits) as client, client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert receive_until(ws, lambda m: m["type"] == "state")[-1]["step"] >= 0


def test_lobby_listings_and_bot_questions_have_budgets(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(lobby_lists_per_minute=2, agent_checks_per_minute=2)) as client:
        assert [client.get("/api/tables").status_code for _ in range(2)] == [200, 200]
        assert "lobby listings" in _refused(client.get("/api/tables"))
        ask = {"game": "pig", "players": 2}
        assert [client.post("/api/games/agents", json=ask).status_code for _ in range(2)] == [200, 200]
        assert "bot questions" in _refused(client.post("/api/games/agents", json=ask))


def test_the_budgets_are_listed_with_the_other_limits(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        server = client.get("/api/limits").json()["server"]
    assert server["loads_per_minute"] == 60
    assert server["lobby_lists_per_minute"] == 60
    assert server["agent_checks_per_minute"] == 120
