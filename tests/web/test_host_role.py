"""The host manages a table without being every player: an invite link is a one-time claim, the
host page never holds a claimed seat's token, and the coach counts only each seat's own consent.

Each check runs on SQLite (one server) and on PostgreSQL (two servers on one database: the seat
claimed through one, the host on the other)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from .helpers import Message, as_before_migrations, hello, receive_until, web_client


@contextmanager
def two_servers(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> Iterator[tuple[TestClient, TestClient]]:
    """(host's server, players' server): one SQLite server twice, or two PostgreSQL servers."""
    with ExitStack() as stack:
        if backend == "sqlite":
            client = stack.enter_context(web_client(tmp_path))
            yield client, client
        else:
            url = request.getfixturevalue("pg_url")
            host = stack.enter_context(web_client(tmp_path, url=url))
            yield host, stack.enter_context(web_client(tmp_path, url=url))


def _open(client: TestClient) -> Message:
    request = {"game": "wriggle-roulette", "players": 3, "seats": [{"name": "Ann"}, {"name": "Bob"}, {"bot": "random"}]}
    response = client.post("/api/tables", json=request)
    assert response.status_code == 201, response.text
    table: Message = response.json()
    return table


def _code(invite: str) -> str:
    return invite.split("#", 1)[1].split("=", 1)[1]  # what the link holds after '#', whatever it is called


def _claim(client: TestClient, table_id: str, code: str) -> Any:
    return client.post(f"/api/tables/{table_id}/claim", json={"invite": code})


def _hello_refused(client: TestClient, table_id: str, secret: str) -> bool:
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": secret}))
        first = receive_until(ws, lambda m: m["type"] in ("error", "welcome"))[-1]
        return bool(first["type"] == "error")


def _secrets_in(value: Any) -> set[str]:
    """Every string in ``value`` that could be a key (and every part after '#' or '=' of a link)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for item in value.values():
            found |= _secrets_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= _secrets_in(item)
    elif isinstance(value, str) and len(value) >= 16:
        found.add(value)
        found.update(part for part in value.replace("#", "=").split("=") if len(part) >= 16)
    return found


def test_nothing_the_host_is_given_joins_as_a_seat(tmp_path: Path) -> None:
    """The old server gave the host every seat's token (in the table's answer and on the host
    page): the host could read any hand and act for any seat."""
    with web_client(tmp_path) as client:
        table = _open(client)
        page = client.get(f"/api/tables/{table['id']}/host", headers={"x-host-token": table["host_token"]}).json()
        held = _secrets_in(table) | _secrets_in(page)
        assert held, "the host is given its links"
        for secret in sorted(held):
            if len(secret) <= 128 and "/" not in secret and ":" not in secret:
                assert _hello_refused(client, table["id"], secret), "a secret the host holds joined as a seat"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_invite_is_a_one_time_claim_and_the_host_never_holds_the_seat(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    with two_servers(tmp_path, backend, request) as (host_server, player_server):
        table = _open(host_server)
        table_id, host = table["id"], {"x-host-token": table["host_token"]}
        codes = [_code(seat["invite"]) for seat in table["seats"][:2]]
        claimed = _claim(player_server, table_id, codes[0])  # Ann's phone opens her link
        assert claimed.status_code == 200, claimed.text
        token = claimed.json()["token"]
        assert claimed.json()["seat"] == 0 and token not in codes
        # The link, and the host's copy of it, give the seat no more: not claimed again, not as a token.
        again = _claim(host_server, table_id, codes[0])
        assert again.status_code == 403 and "already used" in again.json()["error"]
        assert _hello_refused(host_server, table_id, codes[0])
        # The host page shows that the seat is claimed, with neither its token nor a link for it.
        page = host_server.get(f"/api/tables/{table_id}/host", headers=host)
        assert page.status_code == 200
        assert token not in page.text and codes[0] not in page.text
        seats = page.json()["seats"]
        assert seats[0]["claimed"] is True and "invite" not in seats[0] and "qr" not in seats[0]
        assert seats[1]["claimed"] is False and seats[1]["invite"].endswith(codes[1])
        public = player_server.get(f"/api/tables/{table_id}").json()["table"]["seats"]
        assert [seat["claimed"] for seat in public] == [True, False, False]
        # Nothing the host was ever given acts for Ann's seat.
        for secret in (table["host_token"], *codes):
            assert _hello_refused(player_server, table_id, secret)
        with player_server.websocket_connect(f"/ws/tables/{table_id}") as ann:
            joined = hello(ann, token)
            assert joined[-1]["seat"] == 0 and "legal" in joined[-1]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_reissued_invite_ends_the_claim_and_tells_the_seat(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    with two_servers(tmp_path, backend, request) as (host_server, player_server):
        table = _open(host_server)
        table_id, host = table["id"], {"x-host-token": table["host_token"]}
        token = _claim(player_server, table_id, _code(table["seats"][1]["invite"])).json()["token"]
        with player_server.websocket_connect(f"/ws/tables/{table_id}") as bob:
            hello(bob, token)
            reissued = host_server.post(f"/api/tables/{table_id}/seats/1/reissue", headers=host)
            assert reissued.status_code == 200, reissued.text
            assert set(reissued.json()) == {"seat", "invite"}  # a new link; no token
            moved = receive_until(bob, lambda m: m["type"] == "error")[-1]
            assert moved["code"] == "moved" and "no longer holds the seat" in moved["message"]
        assert _hello_refused(player_server, table_id, token)
        page = host_server.get(f"/api/tables/{table_id}/host", headers=host).json()
        assert page["seats"][1]["claimed"] is False and page["seats"][1]["invite"] == (
            f"http://testserver{reissued.json()['invite']}"
        )
        fresh = _claim(player_server, table_id, _code(reissued.json()["invite"]))
        assert fresh.status_code == 200 and fresh.json()["seat"] == 1 and fresh.json()["token"] != token


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_coach_counts_only_each_seats_own_consent(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    with two_servers(tmp_path, backend, request) as (host_server, player_server):
        table = _open(host_server)
        table_id, host = table["id"], {"x-host-token": table["host_token"]}
        token = _claim(player_server, table_id, _code(table["seats"][0]["invite"])).json()["token"]
        offered = host_server.post(f"/api/tables/{table_id}/coach", headers=host, json={"on": True})
        assert offered.status_code == 200, offered.text
        # The host holds Bob's unused link and its own key: neither agrees for a seat.
        for secret in (_code(table["seats"][1]["invite"]), table["host_token"], _code(table["seats"][0]["invite"])):
            refused = host_server.post(
                f"/api/tables/{table_id}/coach/consent", headers={"x-seat-token": secret}, json={"agree": True}
            )
            assert refused.status_code == 403
        own = player_server.post(
            f"/api/tables/{table_id}/coach/consent", headers={"x-seat-token": token}, json={"agree": True}
        )
        assert own.status_code == 200 and own.json()["coach"]["agreed"] == [0] and not own.json()["coach"]["on"]


def test_a_claim_needs_an_invite(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = _open(client)
        for body in ({}, {"invite": 5}, {"invite": ""}, {"invite": "x" * 500}, {"invite": "a", "more": 1}):
            answer = client.post(f"/api/tables/{table['id']}/claim", json=body)
            assert answer.status_code == 400 and answer.json()["error"].startswith("the body must be")
        assert client.post("/api/tables/nope/claim", json={"invite": "abc"}).status_code == 404
        assert _claim(client, table["id"], "not-a-code").status_code == 403


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_tables_from_before_claims_keep_their_seats(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    """A database made before seats had ``claimed`` gets the column on start; its seats (whose
    tokens were handed out as links) count as claimed, so their links still hold them."""
    url = f"sqlite:///{tmp_path / 'web.db'}" if backend == "sqlite" else request.getfixturevalue("pg_url")
    with web_client(tmp_path, url=url) as client:
        table = _open(client)
        token = _claim(client, table["id"], _code(table["seats"][0]["invite"])).json()["token"]
    engine = create_engine(url)
    with engine.begin() as connection:  # the schema as it was
        connection.execute(text("ALTER TABLE web_seats DROP COLUMN claimed"))
        as_before_migrations(connection)
    engine.dispose()
    with web_client(tmp_path, url=url) as client:
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            assert hello(ws, token)[-1]["seat"] == 0
        seats = client.get(f"/api/tables/{table['id']}").json()["table"]["seats"]
        assert [seat["claimed"] for seat in seats] == [True, True, False]  # the bot's seat is nobody's


def test_a_claim_writes_off_the_event_loop_and_still_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim's database write runs in a thread (nothing heavy on the loop); the code still gives
    its seat once: a second claim of it, and a claim racing the first, are refused."""
    import asyncio

    from gamebag.web.tables import manager as manager_module

    writes: list[bool] = []
    real_claim_seat = manager_module.claim_seat

    def claim_seat_watched(*args: Any) -> Any:
        try:
            asyncio.get_running_loop()
            writes.append(True)  # called on the event loop's thread
        except RuntimeError:
            writes.append(False)  # a worker thread: no loop runs here
        return real_claim_seat(*args)

    monkeypatch.setattr(manager_module, "claim_seat", claim_seat_watched)
    with web_client(tmp_path) as client:
        table = _open(client)
        code = _code(table["seats"][0]["invite"])
        assert _claim(client, table["id"], code).status_code == 200
        again = _claim(client, table["id"], code)
        assert again.status_code in (403, 409) and "already used" in again.json()["error"]
        assert writes == [False]  # the second was refused before any write: the code is no seat's now
        other = _code(table["seats"][1]["invite"])
        # Two devices at once: the in-memory check passes for both, the UPDATE lets one through.
        manager = client.app.state.manager  # type: ignore[attr-defined]
        live = client.portal.call(manager.get_async, table["id"])  # type: ignore[union-attr]

        async def both() -> list[Any]:
            return await asyncio.gather(
                manager.claim(live, other), manager.claim(live, other), return_exceptions=True
            )

        results = client.portal.call(both)  # type: ignore[union-attr]
        assert sorted(type(result).__name__ for result in results) == ["SeatError", "tuple"]
        assert writes == [False, False, False]
