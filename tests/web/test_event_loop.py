"""Nothing a request or a socket message asks for holds the server's event loop over 20 ms (issue 36).

Each test starts a server on a database of long tables written while no server ran (as
after a restart: nothing loaded), watches its loop (``loopwatch.py``: asyncio's debug mode,
every callback over 20 ms reported) and fails naming any callback that held it longer.
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from gamebag.web.settings import Limits
from gamebag.web.store.db import Store
from web.helpers import SHORT_OPTIONS, open_table, play_whole_game, receive_until, web_client
from web.loopwatch import store_long_tables, watched_client

TABLES = 12


def test_the_lobby_after_a_restart_rebuilds_no_game(tmp_path: Path) -> None:
    path = tmp_path / "web.db"
    ids = store_long_tables(path, TABLES, finished=TABLES // 2)
    with watched_client(f"sqlite:///{path}") as (client, watch):
        listed = client.get("/api/tables")
        watch.check("GET /api/tables after a restart")
        assert listed.status_code == 200, listed.text
        tables = listed.json()
        assert sorted(t["id"] for t in tables) == sorted(ids)
        finished = [t for t in tables if t["finished"]]
        assert len(finished) == TABLES // 2
        assert all(t["winners"] and t["step"] > 20 for t in finished)
        assert [s["name"] for s in tables[0]["seats"]] == ["Ann", "Bo", "Cy"]
        loaded = client.app.state.manager.tables  # type: ignore[attr-defined]
        assert not loaded, "the lobby loaded tables to list them"


def test_loading_a_table_on_first_request_is_off_the_loop(tmp_path: Path) -> None:
    path = tmp_path / "web.db"
    facts_id, record_id, replay_id, analysis_id, playing_id = store_long_tables(path, 5, finished=4)
    with watched_client(f"sqlite:///{path}") as (client, watch):
        facts = client.get(f"/api/tables/{facts_id}")
        watch.check("GET /api/tables/{id} of an unloaded table")
        assert facts.status_code == 200 and facts.json()["table"]["finished"]
        record = client.get(f"/api/tables/{record_id}/record")
        watch.check("the record of an unloaded table")
        assert record.status_code == 200 and record.json()["events"]
        replay = client.get(f"/api/tables/{replay_id}/replay")
        watch.check("the replay of an unloaded table")
        assert replay.status_code == 200 and replay.json()["steps"]
        analysis = client.get(f"/api/tables/{analysis_id}/analysis")
        watch.check("starting the analysis of an unloaded table")
        assert analysis.status_code == 200 and analysis.json()["status"] in ("running", "done")
        with client.websocket_connect(f"/ws/tables/{playing_id}") as ws:
            ws.send_text(json.dumps({"type": "hello"}))
            state = receive_until(ws, lambda m: m["type"] == "state")[-1]
        watch.check("a socket's hello at an unloaded table")
        assert state["step"] > 0
        unknown = client.get("/api/tables/no-such-table")
        watch.check("an unknown table id")
        assert unknown.status_code == 404


def test_a_whole_game_over_sockets_holds_the_loop_no_turn_over_the_bound(tmp_path: Path) -> None:
    """Opening a table, every seat's messages (hello, each act), each state sent, the end."""
    with watched_client(f"sqlite:///{tmp_path / 'web.db'}") as (client, watch):
        # A process's first table of a game imports the game's and agents' modules (once, ~60 ms):
        # that first opening is left out; every later one is measured.
        open_table(client, "eigen-kweek", 3, options=SHORT_OPTIONS["eigen-kweek"])
        watch.slow.clear()
        table = open_table(client, "eigen-kweek", 3, options=SHORT_OPTIONS["eigen-kweek"], seed=2, public=True)
        watch.check("opening a table")
        play_whole_game(client, table, seed=3)
        watch.check("a whole Eigen Kweek game played over sockets")
        assert client.get("/api/tables").json()[0]["finished"]
        watch.check("the lobby listing")


def test_a_finished_tables_summary_and_its_unloaded_rematch_are_built_off_the_loop(tmp_path: Path) -> None:
    """After a restart, a seat comes back to a long finished game whose rematch is a long game
    too: the end summary (a replay of the whole game) and the rematch's rebuild both ran on
    the loop before (about 100 ms each on this machine)."""
    path = tmp_path / "web.db"
    finished_id, rematch_id = store_long_tables(path, 2, finished=1)
    store = Store(f"sqlite:///{path}")
    try:
        store.set_rematch(finished_id, rematch_id)
    finally:
        store.close()
    with watched_client(f"sqlite:///{path}") as (client, watch):
        with client.websocket_connect(f"/ws/tables/{finished_id}") as ws:
            ws.send_text(json.dumps({"type": "hello"}))
            complete = receive_until(ws, lambda m: m["type"] == "state" and bool(m.get("next")) and _summed_up(m))[-1]
        watch.check("a socket's hello at a finished table whose rematch is not loaded")
        assert complete["next"]["id"] == rematch_id
        assert complete["result"]["rounds"] and len(complete["result"]["final_views"]) == 3
        claimed = client.post(f"/api/tables/{finished_id}/claim", json={"invite": _seat_token(path, finished_id)})
        seat_token = claimed.json()["token"]
        rematch = client.post(f"/api/tables/{finished_id}/rematch", headers={"x-seat-token": seat_token})
        watch.check("asking for the rematch of a finished table")
        assert rematch.status_code == 200 and rematch.json()["id"] == rematch_id


def _summed_up(message: dict[str, Any]) -> bool:
    return bool((message.get("result") or {}).get("rounds"))


def _seat_token(path: Path, table_id: str) -> str:
    store = Store(f"sqlite:///{path}")
    try:
        stored = store.load(table_id)
        assert stored is not None
        return str(stored.config.seats[0].token)
    finally:
        store.close()


def test_a_cluster_takeover_rebuilds_the_table_off_the_loop(tmp_path: Path, pg_url: str) -> None:
    """Two processes on PostgreSQL: the owner of a long table stops, and the process whose
    client watches it takes it over. The lease, the read and the rebuild ran on the loop before."""
    (table_id,) = store_long_tables(pg_url, 1, finished=0, players=4, seed=6, stopped_at=0.98)
    limits = Limits(lease_seconds=1.5, bot_workers=1)
    with ExitStack() as owner_running:
        owner = owner_running.enter_context(web_client(tmp_path, url=pg_url, limits=limits))
        assert owner.get(f"/api/tables/{table_id}").status_code == 200  # its lease is the owner's now
        with watched_client(pg_url, limits=limits) as (client, watch):
            manager = client.app.state.manager  # type: ignore[attr-defined]
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                ws.send_text(json.dumps({"type": "hello"}))
                receive_until(ws, lambda m: m["type"] == "state")
                assert table_id in manager.replicas
                watch.check("joining a table another process owns")
                owner_running.close()  # the owner stops: its lease is given up
                deadline = time.monotonic() + 15.0
                while manager.takeovers == 0 and time.monotonic() < deadline:
                    ws.send_text(json.dumps({"type": "ping"}))
                    receive_until(ws, lambda m: m["type"] == "pong")
                    time.sleep(0.1)
                assert manager.takeovers == 1 and table_id in manager.tables
                watch.check("taking a long table over from a stopped owner")
