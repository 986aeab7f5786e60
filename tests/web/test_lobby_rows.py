"""The lobby's summary row per table (``lobbyrows.py``): written with the table's events, on
SQLite and on PostgreSQL (where the cluster writes events in one statement), and made for
the tables of a database from before the rows existed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from gamebag.web.store.db import Store

from .helpers import as_before_migrations, open_table, record_of, web_client


def _finished_bots_table(client: Any) -> dict[str, Any]:
    table = open_table(client, "pig", 2, bots={0: "random", 1: "random"}, options={"goal": 20}, public=True)
    deadline = time.monotonic() + 60
    while not client.get(f"/api/tables/{table['id']}").json()["table"]["finished"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return table


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_lobby_row_follows_the_game_to_its_end(tmp_path: Path, database: str, request: Any) -> None:
    url = request.getfixturevalue("pg_url") if database == "postgresql" else None
    with web_client(tmp_path, url=url) as client:
        playing = open_table(client, "pig", 2, public=True)
        table = _finished_bots_table(client)
        record = record_of(client, table["id"])
        info = client.get(f"/api/tables/{table['id']}").json()
        listed = {t["id"]: t for t in client.get("/api/tables").json()}
    row = listed[table["id"]]
    assert row["step"] == len(record["events"]) == info["table"]["step"]
    assert row["finished"] and row["winners"] == info["result"]["winners"]
    assert row["title"] == "Pig" and [s["bot"] for s in row["seats"]] == [True, True]
    assert not listed[playing["id"]]["finished"] and listed[playing["id"]]["winners"] is None
    assert all(s["claimed"] for s in listed[playing["id"]]["seats"])


def test_a_database_from_before_the_rows_gets_them_at_start(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = _finished_bots_table(client)
        steps = len(record_of(client, table["id"])["events"])
    store = Store(f"sqlite:///{tmp_path / 'web.db'}")
    with store.engine.begin() as connection:
        # As a server from before the summaries (and before migrations) left the file.
        connection.execute(text("DROP TABLE web_summaries"))
        as_before_migrations(connection)
    store.close()
    with web_client(tmp_path) as client:
        row = client.get("/api/tables").json()[0]
        assert row["step"] == steps and row["finished"] and row["winners"] is None  # not loaded: unknown yet
        winners = client.get(f"/api/tables/{table['id']}").json()["result"]["winners"]
        assert client.get("/api/tables").json()[0]["winners"] == winners  # loading it filled them in
