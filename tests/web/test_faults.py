"""Faults of the database that heal (``faults.py``): a failed commit is tried again and the bots
carry on; a full disk, a read-only or vanished database is a clean 503 with nothing half-written,
one log line and readiness false at ``/api/health`` until the database takes writes again."""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

from gamebag.web.store import faults
from gamebag.web.store.db import Store

from .helpers import open_table, receive_until, web_client
from .serverproc import HTTP_TIMEOUT, ServerProcess

TABLE = {"game": "wriggle-roulette", "players": 2, "seats": [{"name": "A"}, {"name": "B", "bot": "random"}]}
PEOPLE = {"game": "wriggle-roulette", "players": 2, "seats": [{"name": "A"}, {"name": "B"}]}


def _disk_full(statement: str = "INSERT") -> OperationalError:
    return OperationalError(statement, {}, sqlite3.OperationalError("database or disk is full"))


def _wait_for(condition: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    return f"sqlite:///{tmp_path / 'web.db'}" if backend == "sqlite" else str(request.getfixturevalue("pg_url"))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_bot_moves_again_after_a_failed_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest, backend: str
) -> None:
    writes = {"calls": 0, "failed": 0}
    original = Store.save_events

    def fails_once(self: Store, *args: Any, **kwargs: Any) -> None:
        writes["calls"] += 1
        if writes["calls"] == 4:  # a bot's move, after the table opened
            writes["failed"] += 1
            raise _disk_full()
        original(self, *args, **kwargs)

    monkeypatch.setattr(Store, "save_events", fails_once)
    with web_client(tmp_path, url=_url(backend, tmp_path, request)) as client:
        table = open_table(client, "pig", 2, bots={0: "random", 1: "random"}, options={"goal": 20})
        # Every move is a bot's: the game ends only if the bot whose commit failed moves again.
        _wait_for(lambda: client.get(f"/api/tables/{table['id']}").json()["table"]["finished"])
        assert writes["failed"] == 1
        assert client.get("/api/health").json()["ready"] is True  # the retried write healed it


def _fail_statements(store_engine: Any, match: str, error: Exception) -> Any:
    """Make every statement containing ``match`` fail with ``error`` (as the disk would)."""

    def fail(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if match in statement:
            raise error

    event.listen(store_engine, "before_cursor_execute", fail)
    return fail


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize(
    "error",
    [_disk_full(), OperationalError("INSERT", {}, sqlite3.OperationalError("attempt to write a readonly database"))],
    ids=["disk-full", "read-only"],
)
def test_a_full_or_read_only_database_is_a_clean_503_with_nothing_half_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    request: pytest.FixtureRequest,
    backend: str,
    error: Exception,
) -> None:
    monkeypatch.setattr(faults, "PROBE_SECONDS", 0.0)
    with web_client(tmp_path, url=_url(backend, tmp_path, request)) as client:
        engine = client.app.state.manager.store.engine  # type: ignore[attr-defined]
        # The table's row is written, then its seats' rows fail: the whole table must be gone.
        fail = _fail_statements(engine, "INSERT INTO web_seats", error)
        with caplog.at_level(logging.ERROR, logger="gamebag.web"):
            answer = client.post("/api/tables", json=TABLE)
        assert answer.status_code == 503, answer.text
        assert answer.headers["retry-after"] == "60"
        assert "nothing changed" in answer.json()["error"] and "Traceback" not in answer.text
        lines = [record for record in caplog.records if "cannot be written" in record.getMessage()]
        assert len(lines) == 1 and lines[0].exc_info is None
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM web_tables")).scalar_one() == 0
        event.remove(engine, "before_cursor_execute", fail)
        # Readiness is false until the database takes a write again; the probe sees that by itself.
        broken = _fail_statements(engine, "", error)  # every statement, the probe's write too
        health = client.get("/api/health").json()
        assert health["ready"] is False and health["database_error"] == f"OperationalError: {error.orig}"  # type: ignore[attr-defined]
        event.remove(engine, "before_cursor_execute", broken)
        assert client.get("/api/health").json()["ready"] is True
        assert client.post("/api/tables", json=TABLE).status_code == 201


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_move_not_saved_is_refused_cleanly_and_the_seat_can_try_again(
    tmp_path: Path, request: pytest.FixtureRequest, backend: str
) -> None:
    with web_client(tmp_path, url=_url(backend, tmp_path, request)) as client:
        table = open_table(client, "wriggle-roulette", 2, bots={1: "random"})
        engine = client.app.state.manager.store.engine  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": table["seats"][0]["token"]})
            state = ws.receive_json()
            while state.get("type") != "state":
                state = ws.receive_json()
            legal = state["legal"]
            fail = _fail_statements(engine, "web_", _disk_full())
            ws.send_json({"type": "act", "action": legal[0], "ref": 1})
            refusal = receive_until(ws, lambda message: message["type"] in ("error", "ack"))[-1]
            assert refusal["type"] == "error" and "nothing changed" in refusal["message"], refusal
            event.remove(engine, "before_cursor_execute", fail)
            ws.send_json({"type": "act", "action": legal[0], "ref": 2, "step": state["step"]})
            answer = receive_until(ws, lambda message: message["type"] in ("error", "ack"))[-1]
            assert answer["type"] == "ack", answer


def test_a_socket_whose_table_cannot_be_loaded_is_told_and_closed(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 2, bots={1: "random"})
        manager = client.app.state.manager  # type: ignore[attr-defined]
        manager._unload(table["id"])  # as after a restart: the socket's first load reads the database
        fail = _fail_statements(manager.store.engine, "", _disk_full("SELECT"))
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            message = ws.receive_json()
            assert message["type"] == "error" and "nothing changed" in message["message"], message
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1013
        assert client.get("/api/health").json()["ready"] is False  # its probe write fails too
        event.remove(manager.store.engine, "before_cursor_execute", fail)


@pytest.mark.slow
def test_a_vanished_or_cut_short_database_is_a_503_and_no_crash(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "vanish.db")
    server.start()
    try:
        with httpx.Client(base_url=server.base, timeout=HTTP_TIMEOUT) as client:
            # No bots: the server is idle when the files are damaged (a statement already under
            # way when the index is cut short can still meet SIGBUS: see docs/web.md).
            assert client.post("/api/tables", json=PEOPLE).status_code == 201
            # The WAL index is in heap memory (store/engines.py): no -shm file to cut short
            # (tests/web/test_wal_index.py cuts one under a running Store).
            assert not (tmp_path / "vanish.db-shm").exists()
            os.remove(tmp_path / "vanish.db")
            answer = client.post("/api/tables", json=PEOPLE)
            assert answer.status_code == 503, answer.text
            assert client.get("/api/health").json()["ready"] is False
            assert client.post("/api/tables", json=PEOPLE).status_code == 503
            assert server.process is not None and server.process.poll() is None  # still serving
        log = server.log_path.read_text()
        assert "Traceback" not in log and "cannot be written" in log
    finally:
        server.stop()
