"""A database written by release 66427e3 (before migrations) is upgraded and its tables play on.

The databases in ``release_db/`` were written by that release's own server (see
``release_db/make_release_db.py``): unfinished tables of every game, a pending secret choice, a
turn clock stopped mid-turn, a finished table and its rematch, unclaimed invites, a closed
table, a bot seat. Each is upgraded (SQLite: the file; PostgreSQL: its ``pg_dump`` restored),
every event and pending choice written before is checked to be there still, then the server
starts on it and every unfinished table is played to its end through the API.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from gamebag.web.store import migrate
from gamebag.web.tables import tablelist
from web.helpers import SeatPlayer, record_of, run_players, web_client
from web.release_db import MANIFEST, restore_release

UNFINISHED = {
    "unfinished",
    "pending secret choice",
    "turn clock, mid-turn",
    "rematch, not played yet",
    "invites unclaimed",
    "unfinished, with a bot",
}


def _contents(url: str) -> dict[str, Any]:
    """Every table's events, pending choices, seats and state, read with plain SQL."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            events: dict[str, list[Any]] = {}
            rows = connection.execute(text("SELECT table_id, data FROM web_events ORDER BY table_id, idx"))
            for table_id, data in rows:
                events.setdefault(table_id, []).append(json.loads(data))
            pending = {
                (row[0], row[1]): json.loads(row[2])
                for row in connection.execute(text("SELECT table_id, seat, action FROM web_pending"))
            }
            seats = {
                (row[0], row[1]): (row[2], row[3], row[4])
                for row in connection.execute(text("SELECT table_id, seat, token, agent, claimed FROM web_seats"))
            }
            tables = {
                row[0]: (bool(row[1]), row[2], row[3])
                for row in connection.execute(text("SELECT id, finished, closed, next_id FROM web_tables"))
            }
    finally:
        engine.dispose()
    return {"events": events, "pending": pending, "seats": seats, "tables": tables}


def _players(client: Any, table_id: str, seats: dict[tuple[str, int], tuple[str, Any, Any]]) -> list[SeatPlayer]:
    """One random player per person's seat; an invite nobody claimed is claimed first."""
    players = []
    for (owner, seat), (token, agent, claimed) in sorted(seats.items()):
        if owner != table_id or agent is not None:
            continue
        if claimed in (False, 0):
            answer = client.post(f"/api/tables/{table_id}/claim", json={"invite": token})
            assert answer.status_code == 200, answer.text
            token = answer.json()["token"]
        players.append(SeatPlayer(client, table_id, token, seed=seat))
    return players


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_release_database_upgrades_and_its_tables_play_to_the_end(
    database: str, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roles: dict[str, str] = MANIFEST[database]
    url = restore_release(database, request, tmp_path)
    before = _contents(url)
    assert set(before["tables"]) == set(roles) and before["pending"], "the release's database as it was written"

    engine = create_engine(url)
    try:
        done = migrate.upgrade(engine)
        assert done.describe() == f"database upgraded from {migrate.LEGACY_LABEL} to {migrate.head_revision()}"
        assert migrate.current(engine).at_head
    finally:
        engine.dispose()
    upgraded = _contents(url)
    assert upgraded == before, "the upgrade changed no event, pending choice, seat or table"

    with web_client(tmp_path, url=url) as client:
        for table_id, role in roles.items():
            answer = client.get(f"/api/tables/{table_id}")
            if role == "closed":  # still closed, and said so
                assert answer.status_code == 410 and "closed" in answer.json()["error"], answer.text
                continue
            assert answer.status_code == 200, (role, answer.text)
            assert answer.json()["table"]["step"] == len(before["events"].get(table_id, [])), role
        # The release's tables were last played when the fixture was made, hours or days ago: the
        # lobby would leave them out as abandoned (tablelist.ABANDONED_AFTER_S), whatever the upgrade did.
        monkeypatch.setattr(tablelist, "ABANDONED_AFTER_S", float("inf"))
        listed = {row["id"]: row for row in client.get("/api/tables").json()}
        closed = [t for t, role in roles.items() if role == "closed"]
        assert closed and not set(closed) & set(listed), "a closed table stays out of the lobby"
        playing = [t for t, role in roles.items() if role in UNFINISHED]
        assert {t: listed[t]["step"] for t in playing} == {t: len(before["events"].get(t, [])) for t in playing}
        players = [player for t in playing for player in _players(client, t, before["seats"])]
        run_players(players, timeout=120)
        for table_id in playing:
            info = client.get(f"/api/tables/{table_id}").json()
            assert info["result"] is not None, (roles[table_id], info)
            record = record_of(client, table_id)
            written = before["events"].get(table_id, [])
            assert record["events"][: len(written)] == written, f"{roles[table_id]}: an event written before was lost"
            chosen = {seat: action for (t, seat), action in before["pending"].items() if t == table_id}
            if chosen:  # the pending secret choices are the ones the next joint move was made of
                moves = record["events"][len(written)]["moves"]
                assert {int(seat): moves[str(seat)] for seat in chosen} == chosen, roles[table_id]
        for table_id, role in roles.items():
            if role == "finished, with a rematch":
                info = client.get(f"/api/tables/{table_id}").json()
                assert info["result"] is not None and before["tables"][table_id][2] in roles
    after = _contents(url)
    for table_id, written in before["events"].items():
        assert after["events"][table_id][: len(written)] == written, f"{roles[table_id]}: an event was lost"
    assert all(after["tables"][t][0] for t in playing), "every unfinished table was played to its end"
    assert {t: after["tables"][t] for t in closed} == {t: before["tables"][t] for t in closed}
