"""Accounts over HTTP (issue 38, points 1, 2, 6 and 8), on SQLite and on PostgreSQL.

Sign-up and sign-in (refused names and passwords change nothing), sessions rotated at sign-in,
CSRF refused, sign-in throttled per address and per account, seats that follow a person to a
second device, a guest's seat moved into an account by its token, a friend invited by name, a
signed-in person who cannot reach another's seat, export and delete. The PostgreSQL runs use two
servers on one database, as a cluster's processes share it: a session started on one is known on
the other, and an account's failed sign-ins count on both.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamebag.web.settings import Limits
from web.helpers import SeatPlayer, hello, web_client

PASSWORD = "seven lazy otters in a canoe"
# Sign-ins limited per account only (3 failures an hour): a test's many sign-ups from one address pass.
GENEROUS = Limits(sign_ins_per_minute=1000, sign_ins_per_hour=10000, account_failures_per_hour=3)
COOKIE = "gamebag_session"


def another_device(client: TestClient) -> TestClient:
    """A second test client of the same running server: its own cookie jar, as another device."""
    device = TestClient(client.app)
    device.portal = client.portal  # the running server's event loop, not a new one
    return device


@pytest.fixture(autouse=True)
def cheap_hashes() -> Iterator[None]:
    """argon2's cheapest parameters: the same code paths, milliseconds per hash (the defaults are for servers)."""
    from argon2.profiles import CHEAPEST

    from gamebag.web.people import passwords

    passwords.use_parameters(CHEAPEST)
    yield
    passwords.use_parameters(None)


@pytest.fixture(params=["sqlite", "postgresql"])
def two_servers(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, TestClient]]:
    """Two clients, two devices: on SQLite of one server; on PostgreSQL of two servers sharing a database."""
    from gamebag.web.people import upkeep

    monkeypatch.setattr(upkeep, "UPKEEP_SECONDS", 0.1)  # finished tables are settled (rated) at once
    limits = GENEROUS
    with ExitStack() as stack:
        if request.param == "sqlite":
            first = stack.enter_context(web_client(tmp_path, limits=limits))
            yield first, another_device(first)
        else:
            url = request.getfixturevalue("pg_url")
            first = stack.enter_context(web_client(tmp_path, url=url, limits=limits))
            yield first, stack.enter_context(web_client(tmp_path, url=url, limits=limits))


def sign_up(client: TestClient, name: str, password: str | None = PASSWORD) -> dict[str, Any]:
    body = {"name": name} if password is None else {"name": name, "password": password}
    answer = client.post("/api/account/signup", json=body)
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> str:
    answer = client.post("/api/account/signin", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def open_pig(client: TestClient, bots: tuple[str | None, ...] = (None, None)) -> dict[str, Any]:
    """A short Pig table (two seats), or an Eel Harvest table for more seats."""
    seats = [{"name": f"P{i}", "bot": bot} for i, bot in enumerate(bots)]
    game = {"game": "pig", "options": {"goal": 30}} if len(bots) == 2 else {"game": "eel-harvest"}
    answer = client.post("/api/tables", json={**game, "players": len(bots), "seats": seats, "seed": 3})
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()
    return table


def invite_code(table: dict[str, Any], seat: int) -> str:
    code: str = table["seats"][seat]["invite"].split("#invite=", 1)[1]
    return code


def test_sign_up_sign_in_and_sessions(tmp_path: Path) -> None:
    """On SQLite only: sessions across PostgreSQL processes, and a look-alike name refused there
    (a failed INSERT in its own savepoint), are in the two-process test below."""
    with web_client(tmp_path, limits=GENEROUS) as laptop:
        _sign_up_sign_in_and_sessions(laptop, another_device(laptop))


def _sign_up_sign_in_and_sessions(laptop: TestClient, phone: TestClient) -> None:
    assert laptop.get("/api/me").json() == {"account": None, "csrf": None}  # a guest: no wall, no account
    # Refused names and passwords say why in one sentence and create nothing.
    for body, words in [
        ({"name": "Anna", "password": "too short"}, "at least 15"),
        ({"name": "Anna", "password": "correct horse battery staple"}, "common"),
        ({"name": "Anna", "password": "Anna" * 4}, None),
        ({"name": "A", "password": PASSWORD}, "2 to 32"),
        ({"name": "Anna<script>", "password": PASSWORD}, "letters"),
        ({"name": "Аnna", "password": PASSWORD}, "alphabets"),  # a Cyrillic А among Latin letters
        ({"name": "Anna", "password": PASSWORD, "admin": True}, "fields"),
    ]:
        answer = laptop.post("/api/account/signup", json=body)
        assert answer.status_code == 400, (body, answer.text)
        assert words is None or words in answer.json()["error"], answer.text
        assert "\n" not in answer.json()["error"]
    assert laptop.get("/api/me").json()["account"] is None
    created = laptop.post("/api/account/signup", json={"name": "Anna", "password": PASSWORD})
    assert created.status_code == 201, created.text
    cookie = created.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie and "Secure" not in cookie
    assert len(created.json()["recovery_codes"]) == 10
    assert laptop.get("/api/me").json()["account"]["name"] == "Anna"
    # Look-alikes of a taken name are taken: case, spacing, a zero for an O.
    for look_alike in ("ANNA", "An na", "anna"):
        assert phone.post("/api/account/signup", json={"name": look_alike, "password": PASSWORD}).status_code == 400
    assert phone.post("/api/account/signup", json={"name": "L0la", "password": PASSWORD}).status_code == 201
    assert phone.post("/api/account/signup", json={"name": "Lola", "password": PASSWORD}).status_code == 400
    # The other device signs in as Anna (any case): a new session; the wrong password is refused.
    assert phone.post("/api/account/signin", json={"name": "anna", "password": PASSWORD + "x"}).status_code == 401
    old_session = phone.cookies.get(COOKIE)
    csrf = sign_in(phone, "anna")
    assert phone.cookies.get(COOKIE) != old_session  # rotated at sign-in
    stale = another_device(phone)
    stale.cookies.set(COOKIE, str(old_session))
    assert stale.get("/api/me").json()["account"] is None  # the session it replaced is gone
    assert phone.get("/api/me").json()["account"]["name"] == "Anna"
    # Sign-out ends this device's session only.
    assert phone.post("/api/account/signout", json={}, headers={"x-csrf-token": csrf}).status_code == 200
    assert phone.get("/api/me").json()["account"] is None
    assert laptop.get("/api/me").json()["account"]["name"] == "Anna"
    # A recovery code signs in once.
    code = created.json()["recovery_codes"][0]
    assert phone.post("/api/account/recover", json={"name": "Anna", "code": code}).status_code == 200
    assert phone.post("/api/account/recover", json={"name": "Anna", "code": code}).status_code == 401


def test_csrf_is_refused(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(allowed_origins=("https://friend.example",))) as client:
        _csrf_is_refused(client)


def _csrf_is_refused(client: TestClient) -> None:
    csrf = sign_up(client, "Bea")["csrf"]
    # The cookie alone (what a page on another site can make a browser send) does not act.
    missing = client.post("/api/me/name", json={"name": "Beatrix"})
    assert missing.status_code == 403 and "check code" in missing.json()["error"]
    wrong = client.post("/api/me/name", json={"name": "Beatrix"}, headers={"x-csrf-token": csrf[:-2] + "xx"})
    assert wrong.status_code == 403
    assert client.post("/api/me/delete", json={"name": "Bea"}).status_code == 403
    foreign = client.post(
        "/api/me/name", json={"name": "Beatrix"}, headers={"x-csrf-token": csrf, "origin": "https://evil.example"}
    )
    assert foreign.status_code == 403
    # An origin let in for tables (--allow-origin) never acts for an account, even holding the token.
    friend = client.post(
        "/api/me/name", json={"name": "Beatrix"}, headers={"x-csrf-token": csrf, "origin": "https://friend.example"}
    )
    assert friend.status_code == 403
    assert client.get("/api/me").json()["account"]["name"] == "Bea"  # nothing changed
    renamed = client.post("/api/me/name", json={"name": "Beatrix"}, headers={"x-csrf-token": csrf})
    assert renamed.status_code == 200 and client.get("/api/me").json()["account"]["name"] == "Beatrix"
    # Without the token a changing request is a guest's: the invite is claimed, the seat is not the account's.
    table = open_pig(client)
    assert client.post(f"/api/tables/{table['id']}/claim", json={"invite": invite_code(table, 0)}).status_code == 200
    assert client.get("/api/me/seats").json()["seats"] == []


def test_sign_in_is_throttled_per_account_and_per_address(two_servers: tuple[TestClient, TestClient]) -> None:
    first, second = two_servers
    sign_up(first, "Cora")
    sign_up(first, "Dora")
    for _ in range(3):  # the account's bound: 3 failures an hour, counted on both servers
        assert first.post("/api/account/signin", json={"name": "Cora", "password": "x" * 20}).status_code == 401
    blocked = second.post("/api/account/signin", json={"name": "Cora", "password": PASSWORD})
    assert blocked.status_code == 429 and "this account" in blocked.json()["error"]
    assert int(blocked.headers["retry-after"]) >= 1
    sign_in(second, "Dora")  # another account is not locked out


def test_sign_in_is_throttled_per_address(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(sign_ins_per_minute=3)) as client:
        statuses = [
            client.post("/api/account/signin", json={"name": f"Nobody{i}", "password": PASSWORD}).status_code
            for i in range(4)
        ]
        assert statuses == [401, 401, 401, 429]
        assert client.post("/api/account/signup", json={"name": "Eve", "password": PASSWORD}).status_code == 429


def _socket_seat(client: TestClient, table_id: str, token: str | None) -> Any:
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        messages = hello(ws, token)
    welcome = next(message for message in messages if message["type"] == "welcome")
    return welcome["seat"]


def test_seats_follow_people(two_servers: tuple[TestClient, TestClient]) -> None:
    laptop, phone = two_servers
    anna = sign_up(laptop, "Fay")["csrf"]
    table = open_pig(laptop, (None, None, None))
    host = {"x-host-token": table["host_token"]}
    # Claimed while signed in: the seat is Fay's, and her other device finds it with its token.
    claimed = laptop.post(
        f"/api/tables/{table['id']}/claim", json={"invite": invite_code(table, 0)}, headers={"x-csrf-token": anna}
    )
    assert claimed.status_code == 200
    sign_in(phone, "Fay")
    seats = phone.get("/api/me/seats").json()["seats"]
    assert [(s["table"], s["seat"], s["token"]) for s in seats] == [(table["id"], 0, claimed.json()["token"])]
    assert _socket_seat(phone, table["id"], seats[0]["token"]) == 0  # the phone plays the seat
    # A guest plays seat 1, then signs up and moves it into the new account with its token.
    guest = another_device(laptop)
    guest_token = guest.post(f"/api/tables/{table['id']}/claim", json={"invite": invite_code(table, 1)}).json()["token"]
    gus = sign_up(guest, "Gus")["csrf"]
    headers = {"x-csrf-token": gus}
    wrong = guest.post("/api/me/seats/adopt", json={"table": table["id"], "token": "x" * 32}, headers=headers)
    assert wrong.status_code == 404 and "token" in wrong.json()["error"]
    adopted = guest.post("/api/me/seats/adopt", json={"table": table["id"], "token": guest_token}, headers=headers)
    assert adopted.status_code == 200 and adopted.json()["seat"] == 1
    # Fay cannot take Gus's seat, even knowing its token; her seats hold only her own.
    taken = laptop.post(
        "/api/me/seats/adopt", json={"table": table["id"], "token": guest_token}, headers={"x-csrf-token": anna}
    )
    assert taken.status_code == 409
    assert [s["seat"] for s in laptop.get("/api/me/seats").json()["seats"]] == [0]
    assert _socket_seat(laptop, table["id"], None) is None  # signed in, no token: a spectator, never a seat
    # The host keeps seat 2 for a friend by name: only that account can claim its invite.
    missing = laptop.post(f"/api/tables/{table['id']}/seats/2/invite-account", json={"name": "Nobody"}, headers=host)
    assert missing.status_code == 404
    assert laptop.post(f"/api/tables/{table['id']}/seats/2/invite-account", json={"name": "gus"}).status_code == 403
    kept = laptop.post(f"/api/tables/{table['id']}/seats/2/invite-account", json={"name": "gus"}, headers=host)
    assert kept.status_code == 200 and kept.json()["account"] == "Gus"
    code = invite_code(table, 2)
    host_seats = laptop.get(f"/api/tables/{table['id']}/host", headers=host).json()["seats"]
    assert [seat.get("kept_for") for seat in host_seats] == [None, None, "Gus"]
    for intruder, headers in ((laptop, {"x-csrf-token": anna}), (another_device(laptop), {})):
        refused = intruder.post(f"/api/tables/{table['id']}/claim", json={"invite": code}, headers=headers)
        assert refused.status_code == 403 and "kept" in refused.json()["error"]
    offered = [s for s in guest.get("/api/me/seats").json()["seats"] if s["seat"] == 2]
    assert offered and "token" not in offered[0] and offered[0]["invite"].endswith(code)
    mine = guest.post(f"/api/tables/{table['id']}/claim", json={"invite": code}, headers={"x-csrf-token": gus})
    assert mine.status_code == 200 and mine.json()["seat"] == 2
    tokens = {s["seat"]: s.get("token") for s in guest.get("/api/me/seats").json()["seats"]}
    assert tokens == {1: guest_token, 2: mine.json()["token"]}
    # The host still never sees a claimed seat's token.
    host_view = json.dumps(laptop.get(f"/api/tables/{table['id']}/host", headers=host).json())
    assert all(token not in host_view for token in (claimed.json()["token"], guest_token, mine.json()["token"]))
    # The seats show their accounts' names (the host typed P0, P1, P2), on both servers; a rename too.
    for server in (laptop, phone):
        assert _seat_names(server, table["id"]) == ["Fay", "Gus", "Gus"]
    renamed = guest.post("/api/me/name", json={"name": "Gustav"}, headers={"x-csrf-token": gus})
    assert renamed.status_code == 200, renamed.text
    for server in (laptop, phone):
        assert _seat_names(server, table["id"]) == ["Fay", "Gustav", "Gustav"]
    # Re-issuing a seat's invite takes it from its account too, and its name with it.
    assert laptop.post(f"/api/tables/{table['id']}/seats/2/reissue", headers=host).status_code == 200
    assert [s["seat"] for s in guest.get("/api/me/seats").json()["seats"]] == [1]
    assert _seat_names(laptop, table["id"]) == ["Fay", "Gustav", "Player 3"]


def wait_until(predicate: Any, what: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _wait_finished(client: TestClient, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while not client.get(f"/api/tables/{table_id}").json()["table"].get("finished"):
        assert time.monotonic() < deadline, "the bots never finished the game"
        time.sleep(0.05)


def _settled(client: TestClient, table_id: str) -> bool:
    from sqlalchemy import select

    from gamebag.web.people.standingrows import ListingRow

    with client.app.state.manager.store.engine.connect() as connection:  # type: ignore[attr-defined]
        return bool(connection.execute(select(ListingRow.settled).where(ListingRow.table_id == table_id)).scalar())


def _rating_rows(client: TestClient, account_id: str) -> list[int]:
    """How many rows of ratings and of rating history the database holds for the account."""
    from sqlalchemy import func, select

    from gamebag.web.people.standingrows import RatingHistoryRow, RatingRow

    with client.app.state.manager.store.engine.connect() as connection:  # type: ignore[attr-defined]
        return [
            int(connection.execute(select(func.count()).where(row.account_id == account_id)).scalar() or 0)
            for row in (RatingRow, RatingHistoryRow)
        ]


def _seat_names(client: TestClient, table_id: str) -> list[str]:
    return [seat["name"] for seat in client.get(f"/api/tables/{table_id}").json()["table"]["seats"]]


def _open_rated(client: TestClient, seed: int) -> dict[str, Any]:
    """A public, rated Catch a Dragon table (the rulebook's setup) with the heuristic at seat 1."""
    seats = [{"name": "P0"}, {"bot": "heuristic"}]
    request = {"game": "catch-a-dragon", "players": 2, "seats": seats, "seed": seed, "public": True, "rated": True}
    answer = client.post("/api/tables", json=request)
    assert answer.status_code == 201 and answer.json()["rated"], answer.text
    table: dict[str, Any] = answer.json()
    return table


def test_export_and_delete(two_servers: tuple[TestClient, TestClient]) -> None:
    client, other = two_servers
    csrf = sign_up(client, "Hal")["csrf"]
    headers = {"x-csrf-token": csrf}
    # A rated table where the host hands Hal's seat to a bot: the bot's moves rate nobody.
    handed = _open_rated(client, 3)
    client.post(f"/api/tables/{handed['id']}/claim", json={"invite": invite_code(handed, 0)}, headers=headers)
    assert _seat_names(client, handed["id"])[0] == "Hal"  # the seat shows the account's name, not "P0"
    host = {"x-host-token": handed["host_token"]}
    to_bot = client.post(f"/api/tables/{handed['id']}/seats/0/bot", json={"agent": "heuristic"}, headers=host)
    assert to_bot.status_code == 200
    # A rated table Hal takes and plays to the end himself.
    played = _open_rated(client, 4)
    taken = client.post(f"/api/tables/{played['id']}/take", headers=headers).json()
    assert _seat_names(other, played["id"])[0] == "Hal"
    player = SeatPlayer(client, played["id"], taken["token"], 5)
    player.start()
    going = open_pig(client)
    claimed = client.post(f"/api/tables/{going['id']}/claim", json={"invite": invite_code(going, 0)}, headers=headers)
    other_token = other.post(f"/api/tables/{going['id']}/claim", json={"invite": invite_code(going, 1)}).json()["token"]
    for table in (handed, played):
        _wait_finished(client, table["id"])
        wait_until(lambda table=table: _settled(client, table["id"]), "the rated table was never settled")
    player.join(timeout=30)
    exported = client.get("/api/me/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    account_id = data["account"]["id"]
    assert data["account"]["name"] == "Hal" and data["account"]["has_password"]
    # One rating, from the game Hal played: the one his seat's bot finished rated him not at all.
    assert [(r["game"], r["players"], r["games"]) for r in data["ratings"]["ratings"]] == [("catch-a-dragon", 2, 1)]
    assert [point["table"] for point in data["ratings"]["history"]] == [played["id"]]
    assert {(s["table"], s["seat"]) for s in data["seats"]} == {(handed["id"], 0), (played["id"], 0), (going["id"], 0)}
    record = data["records"][played["id"]]
    assert record["game"] == "catch-a-dragon" and record["events"] and "seed" not in record  # the seed tells draws
    assert going["id"] not in data["records"]  # unfinished: no record yet
    # No secret in the export: no seat token (its own or another's), no hash.
    text = exported.text
    assert all(token not in text for token in (claimed.json()["token"], other_token, taken["token"]))
    assert "argon2" not in text
    assert other.get("/api/me/export").status_code == 401  # a guest has nothing to export
    # Delete: the name typed as confirmation; then the account, its sessions, ratings and seats' ownership go.
    wrong = client.post("/api/me/delete", json={"name": "hal"}, headers=headers)
    assert wrong.status_code == 400 and client.get("/api/me").json()["account"]["name"] == "Hal"
    assert _rating_rows(client, account_id) == [1, 1]
    assert client.post("/api/me/delete", json={"name": "Hal"}, headers=headers).status_code == 200
    assert client.get("/api/me").json()["account"] is None
    assert _rating_rows(client, account_id) == [0, 0]
    board = client.get("/api/leaderboard", params={"game": "catch-a-dragon", "players": 2}).json()
    assert board["total"] == 0
    assert client.post("/api/account/signin", json={"name": "Hal", "password": PASSWORD}).status_code == 401
    # The finished games keep an anonymous seat and their outcome; the unfinished seat stays claimed.
    for server in (client, other):
        assert [_seat_names(server, table["id"])[0] for table in (handed, played, going)] == ["Player 1"] * 3
    assert client.get(f"/api/tables/{played['id']}").json()["result"]["places"]
    assert _socket_seat(client, going["id"], claimed.json()["token"]) == 0
    sign_up(client, "Hal")  # the name is free again, and the new account owns nothing
    assert client.get("/api/me/seats").json()["seats"] == []


def test_operator_cli_lists_disables_and_deletes(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from gamebag.cli.app import app

    db = ["--db", f"sqlite:///{tmp_path / 'web.db'}"]
    with web_client(tmp_path) as client:
        csrf = sign_up(client, "Ida")["csrf"]
        sign_up(another_device(client), "Jon")
        runner = CliRunner()
        listed = runner.invoke(app, ["users", "list", "--json", *db])
        assert listed.exit_code == 0, listed.output
        rows = [json.loads(line) for line in listed.output.splitlines()]
        assert [(row["name"], row["disabled"]) for row in rows] == [("Ida", False), ("Jon", False)]
        # Disabling signs Ida out at once, on the running server, and keeps her out.
        disabled = runner.invoke(app, ["users", "disable", "ida", *db])
        assert disabled.exit_code == 0, (disabled.output, disabled.exception)
        assert client.get("/api/me").json()["account"] is None
        refused = client.post("/api/account/signin", json={"name": "Ida", "password": PASSWORD})
        assert refused.status_code == 403 and "disabled" in refused.json()["error"]
        assert runner.invoke(app, ["users", "enable", "Ida", *db]).exit_code == 0
        sign_in(client, "Ida")
        # Bad input: exit 2, one line, nothing changed.
        unknown = runner.invoke(app, ["users", "delete", "Nobody", "--yes", *db])
        assert unknown.exit_code == 2 and "no account is named" in unknown.output
        unconfirmed = runner.invoke(app, ["users", "delete", "Jon", *db])
        assert unconfirmed.exit_code == 2 and "--yes" in unconfirmed.output
        assert runner.invoke(app, ["users", "delete", "Jon", "--yes", *db]).exit_code == 0
        names = [
            json.loads(line)["name"]
            for line in runner.invoke(app, ["users", "list", "--json", *db]).output.splitlines()
        ]
        assert names == ["Ida"]
        assert csrf  # Ida's first session was ended by the disable: its token is no use now
        assert client.post("/api/me/name", json={"name": "Ida B"}, headers={"x-csrf-token": csrf}).status_code == 403


def test_cookies_are_secure_behind_tls(tmp_path: Path) -> None:
    with web_client(tmp_path, secure_cookies=True) as client:
        assert (
            "Secure"
            in client.post("/api/account/signup", json={"name": "Max", "password": PASSWORD}).headers["set-cookie"]
        )
    from gamebag.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'https.db'}", host_names=("testserver",))
    with TestClient(app, base_url="https://testserver") as client:
        # A request that arrived over https (uvicorn sets the scheme from X-Forwarded-Proto only for
        # the proxies named with --forwarded-allow) gets a Secure cookie without the option.
        assert (
            "Secure"
            in client.post("/api/account/signup", json={"name": "Ned", "password": PASSWORD}).headers["set-cookie"]
        )


def test_a_failing_database_serves_a_session_as_a_guest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.exc import OperationalError

    from gamebag.web.people import sessions

    def failing(*_args: object) -> None:
        raise OperationalError("SELECT", {}, Exception("the database is down"))

    with web_client(tmp_path) as client:
        sign_up(client, "Ola")
        monkeypatch.setattr(sessions, "_lookup", failing)
        assert client.get("/api/me").json()["account"] is None  # not a 500 on every page
        assert client.get("/api/limits").status_code == 200
        monkeypatch.undo()
        assert client.get("/api/me").json()["account"]["name"] == "Ola"


@pytest.mark.slow
def test_two_server_processes_share_sessions_and_seats(tmp_path: Path, pg_url: str) -> None:
    """Two real ``gamebag serve`` processes on one PostgreSQL database: a cluster."""
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from web.serverproc import ServerProcess

    servers = [ServerProcess(tmp_path / f"server{i}.db", db_url=pg_url) for i in range(2)]
    try:
        with ThreadPoolExecutor(2) as starting:  # both start at once: half the wait
            list(starting.map(ServerProcess.start, servers))
        one, other = (httpx.Client(base_url=server.base, timeout=60) for server in servers)
        created = one.post("/api/account/signup", json={"name": "Pia", "password": PASSWORD})
        assert created.status_code == 201, created.text
        look_alike = other.post("/api/account/signup", json={"name": "PIA", "password": PASSWORD})
        assert look_alike.status_code == 400 and "taken" in look_alike.json()["error"]  # across processes too
        table = one.post("/api/tables", json={"game": "pig", "players": 2, "seats": [{}, {}]}).json()
        claimed = one.post(
            f"/api/tables/{table['id']}/claim",
            json={"invite": invite_code(table, 0)},
            headers={"x-csrf-token": created.json()["csrf"]},
        )
        assert claimed.status_code == 200, claimed.text
        # The other process knows the session (the cookie, sent to it) and finds the seat with its token.
        other.cookies.set(COOKIE, str(one.cookies.get(COOKIE)))
        assert other.get("/api/me").json()["account"]["name"] == "Pia"
        seats = other.get("/api/me/seats").json()["seats"]
        assert [(s["table"], s["token"]) for s in seats] == [(table["id"], claimed.json()["token"])]
        # Signing out on one process ends the session on both.
        csrf = other.get("/api/me").json()["csrf"]
        assert other.post("/api/account/signout", json={}, headers={"x-csrf-token": csrf}).status_code == 200
        assert one.get("/api/me").json()["account"] is None
    finally:
        for server in servers:
            server.stop()


def test_passkeys_are_listed_and_removed_but_never_the_last_way_in(tmp_path: Path) -> None:
    from sqlalchemy import insert

    from gamebag.web.people.credentials import PasskeyRow

    with web_client(tmp_path) as client:
        answer = sign_up(client, "Quin", password=None)  # a passkey account: no password
        headers = {"x-csrf-token": answer["csrf"]}
        stranger = another_device(client)
        stranger_csrf = sign_up(stranger, "Rue")["csrf"]
        with client.app.state.manager.store.engine.begin() as connection:  # type: ignore[attr-defined]
            for credential, at in (("key-a", 1.0), ("key-b", 2.0)):
                row = {"credential_id": credential, "account_id": answer["account"]["id"], "created_at": at}
                connection.execute(insert(PasskeyRow).values(public_key=b"k", sign_count=0, **row))
        assert another_device(client).get("/api/me/passkeys").status_code == 401  # a guest has none
        assert client.get("/api/me/passkeys").json()["passkeys"] == [
            {"id": "key-a", "created_at": 1.0},
            {"id": "key-b", "created_at": 2.0},
        ]
        assert stranger.get("/api/me/passkeys").json()["passkeys"] == []
        # Another account cannot remove them; a bad body says what it must be; no CSRF token, no removal.
        refused = stranger.post(
            "/api/me/passkeys/remove", json={"id": "key-a"}, headers={"x-csrf-token": stranger_csrf}
        )
        assert refused.status_code == 404 and "no passkey" in refused.json()["error"]
        assert client.post("/api/me/passkeys/remove", json={"key": "key-a"}, headers=headers).status_code == 400
        assert client.post("/api/me/passkeys/remove", json={"id": "key-a"}).status_code == 403
        removed = client.post("/api/me/passkeys/remove", json={"id": "key-a"}, headers=headers)
        assert removed.status_code == 200 and [p["id"] for p in removed.json()["passkeys"]] == ["key-b"]
        # The last passkey of an account without a password stays until there is another way in.
        last = client.post("/api/me/passkeys/remove", json={"id": "key-b"}, headers=headers)
        assert last.status_code == 409 and "only way to sign in" in last.json()["error"]
        assert client.get("/api/me").json()["account"]["passkeys"] == 1
        assert client.post("/api/me/password", json={"password": PASSWORD}, headers=headers).status_code == 200
        assert client.post("/api/me/passkeys/remove", json={"id": "key-b"}, headers=headers).json()["passkeys"] == []
