"""The server's bounds: each refusal, and other tables served meanwhile.

Agent parameters and options past the documented bounds, bots that overrun their
time, table creation and socket rates per address, spectators per table and sockets
per seat (counted apart, so spectators cannot lock players out), sockets that never say hello,
JSON-only changes from this server's own pages, security headers, names.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

import gamebag
from gamebag.agents.solvers import solutions
from gamebag.web.admission.bounds import AGENT_PARAMETER_BOUNDS, OPTION_MAXIMA
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


def test_solved_configurations_are_kept_within_their_bound() -> None:
    """Every new option set forces a solve; the solvers keep only the latest ``MAX_CACHED`` of them."""
    solutions.clear()
    goals = range(5, 5 + solutions.MAX_CACHED + 3)
    try:
        for goal in goals:
            solutions.win_solution(gamebag.make("pig", 2, goal=goal))
        kept = [dict(options)["goal"] for _, _, options in solutions._win]
        assert kept == list(goals)[-solutions.MAX_CACHED :]  # the oldest solved went first
    finally:
        solutions.clear()


def test_tables_held_in_memory_are_bounded_and_the_unloaded_ones_still_answer(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(live_tables=3)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        watched = open_table(client, "pig", 2)
        with client.websocket_connect(f"/ws/tables/{watched['id']}") as socket:
            hello(socket, watched["seats"][0]["token"])
            tables = [open_table(client, "pig", 2, seed=seed) for seed in range(2, 8)]
            assert len(manager.tables) <= 3
            assert watched["id"] in manager.tables  # a table with someone connected is never unloaded
            for table in tables:  # an unloaded table is loaded again when asked for
                assert client.get(f"/api/tables/{table['id']}").status_code == 200
            assert len(manager.tables) <= 3
            socket.send_text(json.dumps({"type": "ping", "ref": 1}))
            assert receive_until(socket, lambda m: m["type"] == "pong")


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
        # A rematch opens a table too: past the rate it is refused (and not opened) like any other.
        seat = {"x-seat-token": first["seats"][0]["token"]}
        rematch = client.post(f"/api/tables/{first['id']}/rematch", headers=seat)
        assert rematch.status_code == 429 and "new tables" in rematch.json()["error"]
        assert int(rematch.headers["retry-after"]) >= 1
        assert client.app.state.manager.get(first["id"]).config.next_id is None  # type: ignore[attr-defined]


def test_error_reports_from_pages_are_rate_limited(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(reports_per_minute=2)) as client:
        table = open_table(client, "pig", 2)
        report = {"game": "pig", "message": "drawing failed"}
        for _ in range(2):
            assert client.post("/api/client-errors", json=report).status_code == 200
        refused = client.post("/api/client-errors", json=report)
        assert refused.status_code == 429 and "at most 2 per" in refused.json()["error"]
        assert int(refused.headers["retry-after"]) >= 1
        with client.websocket_connect(f"/ws/tables/{table['id']}") as socket:  # tables are served meanwhile
            assert hello(socket, table["seats"][0]["token"])[-1]["seat"] == 0


def _turned_away(socket: Any, token: str | None) -> str:
    """Say hello and get an error, then the socket closes; the error's words."""
    socket.send_text(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
    refused = receive_until(socket, lambda m: m["type"] == "error")
    with pytest.raises(WebSocketDisconnect):
        socket.receive_text()
    message: str = refused[-1]["message"]
    return message


def test_sockets_per_table_per_seat_and_connection_rate_are_bounded(tmp_path: Path) -> None:
    limits = Limits(sockets_per_table=2, sockets_per_seat=1, connects_per_minute=7)
    with web_client(tmp_path, limits=limits) as client:
        table = open_table(client, "wriggle-roulette", 2)
        other = open_table(client, "pig", 2)
        path = f"/ws/tables/{table['id']}"
        token = table["seats"][0]["token"]
        with client.websocket_connect(path) as first:
            hello(first, token)
            with client.websocket_connect(path) as second:
                assert "1 open connections, the most it takes" in _turned_away(second, token)
            with client.websocket_connect(path) as spectator_a, client.websocket_connect(path) as spectator_b:
                hello(spectator_a, None)
                hello(spectator_b, None)
                with client.websocket_connect(path) as third:
                    assert "2 spectators, the most it takes" in _turned_away(third, None)
                # Spectators fill their places, never the players': the other seat still joins.
                with client.websocket_connect(path) as player:
                    assert hello(player, table["seats"][1]["token"])[-1]["seat"] == 1
                with client.websocket_connect(f"/ws/tables/{other['id']}") as elsewhere:
                    assert hello(elsewhere, None)[-1]["type"] == "state"  # other tables are still served
        # Seven sockets were opened this minute: the next is over the rate.
        with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(f"/ws/tables/{other['id']}"):
            pass
        assert denied.value.status_code == 429
        assert int(denied.value.headers["retry-after"]) >= 1
        assert client.get(f"/api/tables/{other['id']}").status_code == 200


def test_open_sockets_per_address_and_one_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    limits = Limits(hello_seconds=3.0, sockets_per_address=1)
    with web_client(tmp_path, limits=limits) as client:
        table = open_table(client, "pig", 2)
        path = f"/ws/tables/{table['id']}"
        with client.websocket_connect(path) as idle:
            # The address's one open socket is taken: another is refused; the server answers meanwhile.
            with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(path):
                pass
            assert denied.value.status_code == 429 and "at most 1" in denied.value.json()["error"]
            assert client.get("/api/tables").status_code == 200
            refused = receive_until(idle, lambda m: m["type"] == "error")
            assert "say hello within 3 s" in refused[-1]["message"]
            with pytest.raises(WebSocketDisconnect):
                idle.receive_text()
        # Its address's one place is free again (once the server has let go of the socket).
        deadline = time.monotonic() + 10
        while True:
            try:
                with client.websocket_connect(path) as socket:
                    assert hello(socket, table["seats"][0]["token"])[-1]["seat"] == 0
                break
            except WebSocketDenialResponse:
                assert time.monotonic() < deadline, "the idle socket's place was never freed"
                time.sleep(0.05)


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
