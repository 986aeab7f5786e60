"""Open tables, Play now, ratings, home pages and rematch tallies over HTTP (``gamebag.web.people``),
on SQLite and on two server processes sharing one PostgreSQL database.

Accounts are inserted directly as rows (no password hashing to wait for), and each is signed in
with a real session: requests carry its cookie and CSRF token through the server's sign-in layer.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, select, update

from gamebag.web.app import create_app
from gamebag.web.people import seating, upkeep
from gamebag.web.people.owners import owners_of_table
from gamebag.web.people.schema import AccountRow
from gamebag.web.people.sessions import CSRF_HEADER, SESSION_COOKIE, start_session
from gamebag.web.people.standingrows import ListingRow, RatingRow
from web.helpers import SeatPlayer, claim_seats

SESSIONS: dict[str, dict[str, str]] = {}  # account id -> the headers of its signed-in browser


@contextmanager
def signed_in_client(tmp_path: Path, url: str | None, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(upkeep, "UPKEEP_SECONDS", 0.1)  # the server's rounds come quickly in tests
    app = create_app(
        url or f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0.0, allow_seed=True, host_names=("testserver",)
    )
    with TestClient(app) as client:
        yield client


def engine_of(client: TestClient) -> Any:
    return client.app.state.manager.store.engine  # type: ignore[attr-defined]


def add_accounts(client: TestClient, *names: str) -> None:
    """Accounts inserted as rows, each signed in as a browser is: a real session (``sessions.py``),
    whose cookie and CSRF token ``as_account`` sends, so the server's own sign-in layer reads them."""
    with engine_of(client).begin() as connection:
        for name in names:
            connection.execute(
                insert(AccountRow).values(
                    id=name, name=name.title(), name_key=name, created_at=time.time(), disabled=False
                )
            )
            session_id, csrf = start_session(connection, name)
            SESSIONS[name] = {"cookie": f"{SESSION_COOKIE}={session_id}", CSRF_HEADER: csrf}


def as_account(account: str) -> dict[str, str]:
    return SESSIONS[account]


def open_raw(client: TestClient, **request: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=request)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def wait_until(predicate: Any, what: str, seconds: float = 60.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def finished(client: TestClient, table_id: str) -> bool:
    return bool(client.get(f"/api/tables/{table_id}").json()["table"]["finished"])


def test_only_public_tables_are_listed_anyone_takes_a_free_seat_and_play_now_fills_with_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seating, "QUICK_WAITS", (0, 1, 30, 120))  # a one-second wait, for the test
    with signed_in_client(tmp_path, None, monkeypatch) as client:
        add_accounts(client, "ann")
        private = open_raw(client, game="pig", players=2)
        public = open_raw(client, game="pig", players=2, public=True)
        bad = client.post("/api/tables", json={"game": "pig", "players": 2, "public": "yes"})
        assert bad.status_code == 400 and bad.json()["error"] == "'public' must be true or false"
        listed = {row["id"]: row for row in client.get("/api/tables").json()}
        assert set(listed) == {public["id"]}  # the private table is reached by invite only
        assert listed[public["id"]]["free_seats"] == [0, 1]

        ann = client.post(f"/api/tables/{public['id']}/take", headers=as_account("ann"))
        assert ann.status_code == 200 and ann.json()["seat"] == 0
        with engine_of(client).connect() as connection:
            assert owners_of_table(connection, public["id"]) == {0: "ann"}
        again = client.post(f"/api/tables/{public['id']}/take", headers=as_account("ann"))
        assert again.status_code == 403 and "already have a seat" in again.json()["error"]
        device = client.post(f"/api/tables/{public['id']}/take", headers={"x-seat-token": ann.json()["token"]})
        assert device.status_code == 403 and "already holds seat 0" in device.json()["error"]
        guest = client.post(f"/api/tables/{public['id']}/take")
        assert guest.status_code == 200 and guest.json()["seat"] == 1
        assert client.post(f"/api/tables/{public['id']}/take").json()["error"] == "every seat at this table is taken"
        refused = client.post(f"/api/tables/{private['id']}/take")
        assert refused.status_code == 403 and "not open to everyone" in refused.json()["error"]
        assert client.get("/api/tables").json()[0]["free_seats"] == []
        # the seat's token is the seat: it plays there
        with client.websocket_connect(f"/ws/tables/{public['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": guest.json()["token"]}))
            assert json.loads(ws.receive_text())["seat"] == 1

        # The host lists the private table: now anyone may take its free seats.
        headers = {"x-host-token": private["host_token"]}
        assert (
            client.post(f"/api/tables/{private['id']}/public", json={"public": True}, headers=headers).status_code
            == 200
        )
        assert client.post(f"/api/tables/{private['id']}/public", json={"public": True}).status_code == 403
        assert {row["id"] for row in client.get("/api/tables").json()} == {public["id"], private["id"]}

        # Play now: people are seated together, then the seats left get bots when the wait runs out.
        wrong = client.post("/api/quickplay", json={"game": "wriggle-roulette", "players": 3, "wait": 7})
        assert wrong.status_code == 400 and "'wait' must be one of" in wrong.json()["error"]
        first = client.post("/api/quickplay", json={"game": "wriggle-roulette", "players": 3, "wait": 1})
        assert first.status_code == 201 and first.json()["opened"] and first.json()["seat"] == 0
        table_id = first.json()["id"]
        second = client.post("/api/quickplay", json={"game": "wriggle-roulette", "players": 3, "wait": 30})
        assert second.status_code == 200 and second.json()["id"] == table_id and second.json()["seat"] == 1
        # a device already seated there is not seated twice: it gets a table of its own
        own = client.post(
            "/api/quickplay", json={"game": "wriggle-roulette", "players": 3, "wait": 120, "held": [table_id]}
        )
        assert own.json()["id"] != table_id
        seats = client.get(f"/api/tables/{table_id}").json()["table"]["seats"]
        assert [seat["bot"] for seat in seats] == [False, False, False]  # the wait has not run out yet
        filled = wait_until(
            lambda: client.get(f"/api/tables/{table_id}").json()["table"]["seats"][2]["bot"], "the free seat got no bot"
        )
        assert filled
        assert [seat["bot"] for seat in client.get(f"/api/tables/{table_id}").json()["table"]["seats"]] == [
            False,
            False,
            True,
        ]
        listed = {row["id"]: row for row in client.get("/api/tables").json()}
        assert listed[table_id]["quick"] and listed[table_id]["rated"] and listed[table_id]["free_seats"] == []
        # with no wait, the bots sit down at once: the game plays on at the seat's first move
        now = client.post("/api/quickplay", json={"game": "pig", "players": 2, "wait": 0})
        wait_until(lambda: client.get(f"/api/tables/{now.json()['id']}").json()["table"]["seats"][1]["bot"], "no bot")


def _played_by(client: TestClient, table_id: str, token: str, seed: int) -> None:
    player = SeatPlayer(client, table_id, token, seed)
    player.start()
    wait_until(lambda: finished(client, table_id), "the game did not finish")
    player.join(timeout=30)


def _profile(client: TestClient, account: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/people/{account}").json()
    return answer


def _home(client: TestClient, account: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.post("/api/home", json={}, headers=as_account(account)).json()
    return answer


def test_rated_games_rate_accounts_against_fixed_bots_and_guests_and_casual_ones_do_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openskill.models import PlackettLuce

    with signed_in_client(tmp_path, None, monkeypatch) as client:
        add_accounts(client, "ann", "bob", "cy", "dee")
        seats = [{}, {"bot": "heuristic"}]
        rated = open_raw(client, game="catch-a-dragon", players=2, seats=seats, public=True, rated=True, seed=3)
        assert rated["rated"] and rated["public"]
        ann = client.post(f"/api/tables/{rated['id']}/take", headers=as_account("ann")).json()
        _played_by(client, rated["id"], ann["token"], seed=5)
        wait_until(lambda: _profile(client, "ann")["ratings"], "the rated table was not rated")
        rating = _profile(client, "ann")["ratings"][0]
        assert (rating["game"], rating["players"], rating["games"], rating["provisional"]) == (
            "catch-a-dragon",
            2,
            1,
            True,
        )
        assert len(rating["history"]) == 1 and rating["history"][0]["table"] == rated["id"]
        places = client.get(f"/api/tables/{rated['id']}").json()["result"]["places"]
        assert _home(client, "ann")["finished"][0]["place"] == places[0]
        # ann started at the prior; the heuristic entered as its fixed anchor (mu 25, sigma 1)
        model = PlackettLuce()
        expected = model.rate([[model.rating()], [model.create_rating([25.0, 1.0])]], ranks=places)
        assert rating["mu"] == round(expected[0][0].mu, 2) and rating["sigma"] == round(expected[0][0].sigma, 2)
        profile = client.get("/api/people/ann")  # public facts only: no seat token, no view of any seat
        assert ann["token"] not in profile.text and set(profile.json()) == {"account", "name", "ratings", "stats"}
        with engine_of(client).connect() as connection:  # the bot has no rating of its own to move
            assert connection.execute(select(RatingRow.account_id)).scalars().all() == ["ann"]

        casual = open_raw(client, game="catch-a-dragon", players=2, seats=seats, public=True, seed=4)
        assert not casual["rated"]
        token = client.post(f"/api/tables/{casual['id']}/take", headers=as_account("ann")).json()["token"]
        _played_by(client, casual["id"], token, seed=6)
        wait_until(
            lambda: len(_home(client, "ann")["finished"]) == 2 and _home(client, "ann")["finished"][0]["place"],
            "no outcome",
        )
        assert _profile(client, "ann")["ratings"][0]["games"] == 1  # the casual game changed nothing

        # A rated table with a guest: bob is rated as against a newcomer at the prior; the guest is stored nowhere.
        with_guest = open_raw(client, game="catch-a-dragon", players=2, public=True, rated=True, seed=5)
        bob = client.post(f"/api/tables/{with_guest['id']}/take", headers=as_account("bob")).json()
        guest = client.post(f"/api/tables/{with_guest['id']}/take").json()
        guest_player = SeatPlayer(client, with_guest["id"], guest["token"], 11)
        guest_player.start()
        _played_by(client, with_guest["id"], bob["token"], seed=12)
        guest_player.join(timeout=30)
        wait_until(lambda: _profile(client, "bob")["ratings"], "the table with a guest was not rated")
        places = client.get(f"/api/tables/{with_guest['id']}").json()["result"]["places"]
        expected = model.rate([[model.rating()], [model.rating()]], ranks=places)
        assert _profile(client, "bob")["ratings"][0]["mu"] == round(expected[0][0].mu, 2)
        with engine_of(client).connect() as connection:
            assert sorted(connection.execute(select(RatingRow.account_id)).scalars().all()) == ["ann", "bob"]

        variant = open_raw(client, game="catch-a-dragon", players=2, options={"rounds": 2}, rated=True)
        assert not variant["rated"] and any("only the rulebook's setup is rated" in n for n in variant["notices"])

        # the leaderboard: best ordinal (mu - 3 sigma) first, whatever the mean alone says
        with engine_of(client).begin() as connection:
            for account, mu, sigma in (("dee", 30.0, 6.0), ("cy", 28.0, 2.0)):  # ordinals 12 and 22
                connection.execute(
                    insert(RatingRow).values(
                        account_id=account,
                        game="catch-a-dragon",
                        players=2,
                        mu=mu,
                        sigma=sigma,
                        games=9,
                        updated_at=0.0,
                    )
                )
        board = client.get("/api/leaderboard", params={"game": "catch-a-dragon", "players": 2}).json()
        ordinals = [entry["ordinal"] for entry in board["entries"]]
        assert ordinals == sorted(ordinals, reverse=True) and board["entries"][0]["account"] == "cy"
        assert board["entries"][0]["name"] == "Cy" and not board["entries"][0]["provisional"]
        many = client.get("/api/leaderboard", params={"game": "pig", "players": 5})
        assert many.status_code == 400 and many.json()["error"] == "'players' must be from 2 to 2 for pig"
        bad = client.get("/api/leaderboard", params={"game": "chess"})
        assert bad.status_code == 400 and bad.json()["error"].startswith("'game' must be one of")
        assert client.get("/api/people/nobody").status_code == 404


def test_home_puts_your_move_first_shows_only_public_facts_and_rematches_are_tallied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with signed_in_client(tmp_path, None, monkeypatch) as client:
        older = claim_seats(client, open_raw(client, game="pig", players=2, seed=1))
        newer = claim_seats(client, open_raw(client, game="pig", players=2, seed=2))
        manager = client.app.state.manager  # type: ignore[attr-defined]
        to_move = {t["id"]: manager.get(t["id"]).waiting_for() for t in (older, newer)}
        mover = to_move[older["id"]][0]
        idle = 1 - to_move[newer["id"]][0]
        held = [
            {"table": older["id"], "token": older["seats"][mover]["token"]},
            {"table": newer["id"], "token": newer["seats"][idle]["token"]},
        ]
        answer = client.post("/api/home", json={"seats": held})
        assert answer.status_code == 200
        rows = answer.json()["open"]
        assert [(row["id"], row["your_move"]) for row in rows] == [(older["id"], True), (newer["id"], False)]
        # nothing a seat keeps to itself: no token, no view of any seat
        text = answer.text
        for table in (older, newer):
            for seat in table["seats"]:
                assert seat["token"] not in text
        assert not {"view", "views", "hand", "token", "pending"} & {key for row in rows for key in row}
        # a token of another table, or none at all, gives nothing
        wrong = client.post("/api/home", json={"seats": [{"table": newer["id"], "token": older["seats"][0]["token"]}]})
        assert wrong.json()["open"] == []
        assert client.post("/api/home", json={"seats": "all"}).status_code == 400

        # Signed in (a real session): the home page lists the account's seats with no token sent,
        # a guest's seat adopted into the account included, under the account's name.
        add_accounts(client, "zoe")
        assert _home(client, "zoe")["open"] == []
        guest_seat = {"table": newer["id"], "token": newer["seats"][idle]["token"]}
        adopted = client.post("/api/me/seats/adopt", json=guest_seat, headers=as_account("zoe"))
        assert adopted.status_code == 200, adopted.text
        home = _home(client, "zoe")
        assert home["account"] == "zoe" and [(row["id"], row["seat"]) for row in home["open"]] == [(newer["id"], idle)]
        assert home["open"][0]["your_move"] is False and home["open"][0]["seat_names"][idle] == "Zoe"
        assert client.get(f"/api/tables/{newer['id']}").json()["table"]["seats"][idle]["name"] == "Zoe"
        no_csrf = {"cookie": as_account("zoe")["cookie"]}  # a POST without the session's CSRF token: a guest's
        assert client.post("/api/home", json={}, headers=no_csrf).json()["open"] == []

        # The running tally of a series of rematches (the end screen shows it).
        bots = [{"name": "Ann", "bot": "random"}, {"name": "Bob", "bot": "random"}]
        first = open_raw(client, game="pig", players=2, seats=bots, options={"goal": 20}, seed=7)
        wait_until(lambda: finished(client, first["id"]), "the first game did not finish")
        second = client.post(f"/api/tables/{first['id']}/rematch", headers={"x-host-token": first["host_token"]}).json()
        wait_until(lambda: finished(client, second["id"]), "the rematch did not finish")
        winners = [client.get(f"/api/tables/{t}").json()["result"]["winners"] for t in (first["id"], second["id"])]
        tally = client.get(f"/api/tables/{second['id']}/series").json()
        assert tally["tables"] == [first["id"], second["id"]] and tally["games"] == 2
        expected = [sum(seat in won for won in winners) for seat in (0, 1)]
        assert [row["wins"] for row in tally["wins"]] == expected and sum(expected) >= 2
        assert [row["name"] for row in tally["wins"]] == ["Ann", "Bob"]
        assert client.get(f"/api/tables/{first['id']}/series").json()["wins"] == tally["wins"]


def test_two_processes_on_postgresql_seat_rate_and_fill_each_table_once(
    tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two servers on one PostgreSQL database: a seat taken on the process that does not own the
    table, the rated game settled once (both processes run their rounds), a quick-play table
    joined through the other process and filled with one bot."""
    monkeypatch.setattr(seating, "QUICK_WAITS", (0, 1, 30, 120))
    with (
        signed_in_client(tmp_path, pg_url, monkeypatch) as first,
        signed_in_client(tmp_path, pg_url, monkeypatch) as second,
    ):
        add_accounts(first, "ann")
        seats = [{}, {"bot": "heuristic"}]
        rated = open_raw(first, game="catch-a-dragon", players=2, seats=seats, public=True, rated=True, seed=8)
        assert rated["id"] in {row["id"] for row in second.get("/api/tables").json()}
        taken = second.post(f"/api/tables/{rated['id']}/take", headers=as_account("ann")).json()
        _played_by(second, rated["id"], taken["token"], seed=9)
        wait_until(lambda: _profile(first, "ann")["ratings"], "the rated table was not rated")
        time.sleep(0.5)  # both processes' rounds have passed over the finished table meanwhile
        rating = _profile(second, "ann")["ratings"][0]
        assert rating["games"] == 1 and len(rating["history"]) == 1  # settled once, not once per process

        opened = first.post("/api/quickplay", json={"game": "wriggle-roulette", "players": 3, "wait": 1}).json()
        joined = second.post("/api/quickplay", json={"game": "wriggle-roulette", "players": 3, "wait": 30}).json()
        assert joined["id"] == opened["id"] and joined["seat"] == 1
        table_id = opened["id"]
        wait_until(lambda: first.get(f"/api/tables/{table_id}").json()["table"]["seats"][2]["bot"], "no bot")
        for client in (first, second):
            seats_now = client.get(f"/api/tables/{table_id}").json()["table"]["seats"]
            assert [seat["bot"] for seat in seats_now] == [False, False, True]


def test_a_quick_play_wait_that_runs_out_while_the_server_is_down_is_filled_at_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with signed_in_client(tmp_path, None, monkeypatch) as client:
        opened = client.post("/api/quickplay", json={"game": "pig", "players": 2, "wait": 30}).json()
        assert opened["opened"], opened
    engine = create_engine(f"sqlite:///{tmp_path / 'web.db'}")
    with engine.begin() as connection:  # the wait runs out while no server runs (no sleeping through it)
        due = update(ListingRow).where(ListingRow.table_id == opened["id"]).values(fill_at=time.time() - 1)
        connection.execute(due)
    engine.dispose()
    with signed_in_client(tmp_path, None, monkeypatch) as client:

        def bots() -> list[bool]:
            return [seat["bot"] for seat in client.get(f"/api/tables/{opened['id']}").json()["table"]["seats"]]

        wait_until(lambda: bots() == [False, True], "the free seat got no bot after the restart")
