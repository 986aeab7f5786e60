"""The server's bounds: each refusal, and other tables served meanwhile.

Agent parameters and options past the documented bounds, bots that overrun their
time, table creation and socket rates per address, sockets per table and seat,
JSON-only changes from this server's own pages, security headers, names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse

from gamebag.agents.solvers import solutions
from gamebag.web.bounds import AGENT_PARAMETER_BOUNDS, OPTION_MAXIMA
from gamebag.web.lobby import clean_name
from gamebag.web.settings import Limits

from .helpers import hello, open_table, play_whole_game, receive_until, web_client


def _refusal(client: Any, body: dict[str, Any]) -> str:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400, response.text
    text: str = response.json()["error"]
    return text


def test_agent_parameters_and_options_past_the_bounds_are_refused_naming_the_bound(tmp_path: Path) -> None:
    iterations = AGENT_PARAMETER_BOUNDS["ismcts"]["iterations"]
    with web_client(tmp_path) as client:
        bots: dict[str, Any] = {"game": "wriggle-roulette", "players": 2, "seats": [{}, {}]}
        bots["seats"][1] = {"bot": "ismcts:iterations=1000000000"}
        assert f"from 1 to {iterations.maximum:g}" in _refusal(client, bots)
        bots["seats"][1] = {"bot": "ismcts:ms=1e9"}
        assert "from 1 to 2000" in _refusal(client, bots)
        bots["seats"][1] = {"bot": "ismcts:c=nan"}
        assert "bound" in _refusal(client, bots)
        bots["seats"][1] = {"bot": "ismcts:iterations=" + "9" * 300}
        assert "at most 200 characters" in _refusal(client, bots)
        goal = OPTION_MAXIMA["pig"]["goal"]
        assert f"at most {goal}" in _refusal(client, {"game": "pig", "options": {"goal": goal + 1}})
        # At the bound itself the table opens.
        bots["seats"][1] = {"bot": f"ismcts:iterations={iterations.maximum:g}"}
        assert client.post("/api/tables", json=bots).status_code == 201
        pig = client.get("/api/games").json()
        goal_option = next(o for g in pig if g["id"] == "pig" for o in g["options"] if o["name"] == "goal")
        assert goal_option["maximum"] == goal


def test_the_catalogue_solves_nothing(tmp_path: Path) -> None:
    solutions.clear()
    with web_client(tmp_path) as client:
        games = client.get("/api/games").json()
    assert any("optimal-win" in g["agents"] for g in games)
    assert not solutions._win and not solutions._score  # no solve ran in the server's process


def test_a_bot_past_its_time_plays_a_fallback_move_and_other_tables_go_on(tmp_path: Path) -> None:
    limits = Limits(move_seconds=0.2, bot_workers=1)
    with web_client(tmp_path, limits=limits) as client:
        # Short games (a low target): every move of the slow bot costs its whole allowed time.
        short = {"target": 8}
        slow = open_table(
            client, "wriggle-roulette", 2, bots={1: "ismcts:ms=2000,iterations=5000"}, seed=3, options=short
        )
        other = open_table(client, "wriggle-roulette", 2, bots={1: "random"}, seed=4, options=short)
        play_whole_game(client, slow, seed=5, spectate=False)
        play_whole_game(client, other, seed=6, spectate=False)
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.fallback_moves > 0
        for table in (slow, other):
            assert client.get(f"/api/tables/{table['id']}").json()["result"] is not None


def test_a_solve_past_its_bound_refuses_the_table_while_the_server_answers(tmp_path: Path) -> None:
    solutions.clear()
    limits = Limits(solve_seconds=1.0)
    # The six-dice, twenty-round win solve takes about 2.5 s of CPU (the compiled Pig solve is too quick).
    costly = {"game": "catch-a-dragon", "players": 2, "options": {"dice": 6, "rounds": 20}}
    with web_client(tmp_path, limits=limits) as client:
        text = _refusal(client, {**costly, "seats": [{}, {"bot": "optimal-win"}]})
        assert "bound of 1 s" in text
        assert client.get("/api/health").json()["ok"]
        assert client.post("/api/tables", json={"game": "pig", "seats": [{}, {"bot": "random"}]}).status_code == 201
    assert not solutions._win  # the solve ran in a worker, never in the server's process


def test_table_creation_per_address_is_limited_with_retry_after(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(tables_per_minute=3)) as client:
        first = open_table(client, "wriggle-roulette", 2, bots={1: "random"})
        for _ in range(2):
            open_table(client, "pig", 2)
        response = client.post("/api/tables", json={"game": "pig"})
        assert response.status_code == 429
        assert int(response.headers["retry-after"]) >= 1
        assert "at most 3 per" in response.json()["error"]
        play_whole_game(client, first, seed=2, spectate=False)  # the open tables are served meanwhile


def test_sockets_per_table_per_seat_and_connection_rate_are_bounded(tmp_path: Path) -> None:
    limits = Limits(sockets_per_table=3, sockets_per_seat=1, connects_per_minute=5)
    with web_client(tmp_path, limits=limits) as client:
        table = open_table(client, "wriggle-roulette", 2)
        other = open_table(client, "pig", 2)
        token = table["seats"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as first:
            hello(first, token)
            with client.websocket_connect(f"/ws/tables/{table['id']}") as second:
                second.send_text(json.dumps({"type": "hello", "token": token}))
                refused = receive_until(second, lambda m: m["type"] == "error")
                assert "at most" in refused[-1]["message"] or "most it takes" in refused[-1]["message"]
            with (
                client.websocket_connect(f"/ws/tables/{table['id']}") as spectator_a,
                client.websocket_connect(f"/ws/tables/{table['id']}") as spectator_b,
            ):
                hello(spectator_a, None)
                hello(spectator_b, None)
                with (
                    pytest.raises(WebSocketDenialResponse) as denied,
                    client.websocket_connect(f"/ws/tables/{table['id']}"),
                ):
                    pass
                assert denied.value.status_code == 429
                with client.websocket_connect(f"/ws/tables/{other['id']}") as elsewhere:
                    assert hello(elsewhere, None)[-1]["type"] == "state"  # other tables are still served
        # Five sockets were opened this minute (the refused one does not count): the next is over the rate.
        with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(f"/ws/tables/{other['id']}"):
            pass
        assert denied.value.status_code == 429
        assert int(denied.value.headers["retry-after"]) >= 1
        assert client.get(f"/api/tables/{other['id']}").status_code == 200


def test_changes_must_be_json_from_this_servers_own_pages(tmp_path: Path) -> None:
    body = json.dumps({"game": "pig"})
    with web_client(tmp_path) as client:
        plain = client.post("/api/tables", content=body, headers={"content-type": "text/plain"})
        assert plain.status_code == 415
        form = client.post("/api/tables", data={"game": "pig"})
        assert form.status_code == 415
        foreign = client.post("/api/tables", json={"game": "pig"}, headers={"origin": "https://evil.example"})
        assert foreign.status_code == 403
        own = client.post("/api/tables", json={"game": "pig"}, headers={"origin": "http://testserver"})
        assert own.status_code == 201
        with (
            pytest.raises(Exception),  # noqa: B017 - the socket is closed before it opens
            client.websocket_connect(
                f"/ws/tables/{own.json()['id']}", headers={"origin": "https://evil.example"}
            ) as ws,
        ):
            ws.receive_text()
        assert client.get("/api/tables").status_code == 200


def test_large_bodies_are_refused(tmp_path: Path) -> None:
    limit = 1024
    with web_client(tmp_path, limits=Limits(max_body=limit)) as client:
        big = {"game": "pig", "seats": [{"name": "x" * limit}, {}]}
        response = client.post("/api/tables", json=big)
        assert response.status_code == 413 and str(limit) in response.json()["error"]
        assert client.post("/api/tables", json={"game": "pig"}).status_code == 201


def test_pages_carry_a_content_security_policy_and_no_third_party_script(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        for path in ("/", "/play/x", "/replay/x", "/api/games"):
            response = client.get(path)
            policy = response.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
            assert response.headers["x-content-type-options"] == "nosniff"
        assert client.get("/api/docs").status_code == 404
        for page in ("/", "/play/x", "/replay/x"):
            html = client.get(page).text
            assert "<script" in html
            assert "http://" not in html and "https://" not in html and "//cdn" not in html


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\u202eevil\u202c name", "evil name"),
        ("zero\u200bwidth", "zerowidth"),
        ("tab\there\nnew", "tab here new"),
        ("  Ada  ", "Ada"),
        ("Zoë 🎲", "Zoë 🎲"),
    ],
)
def test_names_lose_control_and_bidi_characters(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


def test_a_table_shows_cleaned_names(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        seats = [{"name": "\u202eAda\u2066"}, {"name": "\x07Bob"}]
        answer = client.post("/api/tables", json={"game": "pig", "seats": seats}).json()
        names = [seat["name"] for seat in answer["seats"]]
    assert names == ["Ada", "Bob"]
