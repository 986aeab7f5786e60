"""A table's life: the host closes it or re-issues a seat's link, idle tables expire, a restart
loads tables only when asked for; and the store: one server per SQLite file, ``GAMEBAG_DB``,
passwords kept out of what is printed, bodies, frames and headers cut off while they are read."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from gamebag.web.settings import Limits
from gamebag.web.store.db import Store, safe_url

from .helpers import claim_seats, hello, open_table, play_whole_game, receive_until, web_client
from .serverproc import ServerProcess, free_port


def test_the_host_closes_a_table_and_everyone_is_told(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 2)
        other = open_table(client, "wriggle-roulette", 2, bots={1: "random"})
        url = f"/api/tables/{table['id']}/close"
        assert client.post(url).status_code == 403
        assert client.post(url, headers={"x-host-token": table["seats"][0]["token"]}).status_code == 403
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, table["seats"][0]["token"])
            assert client.post(url, headers={"x-host-token": table["host_token"]}).status_code == 200
            closed = receive_until(ws, lambda m: m["type"] == "closed")
            assert closed[-1]["reason"] == "host"
        assert client.get(f"/api/tables/{table['id']}").status_code == 410
        assert table["id"] not in [t["id"] for t in client.get("/api/tables").json()]
        play_whole_game(client, other, seed=3, spectate=False)


def test_a_reissued_link_replaces_the_old_one(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 2, bots={1: "random"})
        old = table["seats"][0]["token"]
        url = f"/api/tables/{table['id']}/seats/0/reissue"
        assert client.post(url, headers={"x-host-token": "guess"}).status_code == 403
        host = {"x-host-token": table["host_token"]}
        assert client.post(f"/api/tables/{table['id']}/seats/1/reissue", headers=host).status_code == 403  # a bot
        assert client.post(f"/api/tables/{table['id']}/seats/9/reissue", headers=host).status_code == 403
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, old)
            answer = client.post(url, headers=host)
            assert answer.status_code == 200
            notice = receive_until(ws, lambda m: m["type"] == "error")
            assert "re-issued" in notice[-1]["message"] and notice[-1]["code"] == "moved"
        assert "token" not in answer.json()  # the host gets a new invite, never the seat's token
        table["seats"][0]["invite"] = answer.json()["invite"]
        claim_seats(client, table)  # the next device to open the new link holds the seat
        new = table["seats"][0]["token"]
        assert new != old and new not in answer.json()["invite"]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": old}))
            assert receive_until(ws, lambda m: m["type"] == "error")[-1]["message"].startswith("this seat token")
        play_whole_game(client, table, seed=4)
    # The new token is what the database holds.
    with web_client(tmp_path) as client, client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        assert hello(ws, new)[-1]["seat"] == 0


def test_idle_tables_expire_and_a_restart_loads_tables_lazily(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        idle = open_table(client, "pig", 2)
        busy = open_table(client, "pig", 2)
    with web_client(tmp_path, limits=Limits(idle_expiry_hours=1e-9)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.tables == {}  # nothing loaded at start
        assert client.get(f"/api/tables/{busy['id']}").status_code == 200
        assert list(manager.tables) == [busy["id"]]
        manager.sweep()
        assert client.get(f"/api/tables/{idle['id']}").status_code == 410
        assert client.get(f"/api/tables/{busy['id']}").status_code == 410
    with web_client(tmp_path) as client:
        fresh = open_table(client, "pig", 2)
        client.app.state.manager.sweep()  # type: ignore[attr-defined]
        assert client.get(f"/api/tables/{fresh['id']}").status_code == 200  # within the default expiry


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "one.db"
    first = Store(f"sqlite:///{path}")
    try:
        other = subprocess.run(
            [sys.executable, "-c", f"from gamebag.web.store.db import Store; Store('sqlite:///{path}')"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert other.returncode != 0 and "DatabaseInUseError" in other.stderr
        server = subprocess.run(
            [sys.executable, "-c", "from gamebag.cli.app import main; main()", "serve", "--port", str(free_port())],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "GAMEBAG_DB": f"sqlite:///{path}"},
        )
        assert server.returncode != 0
        assert "another gamebag server already uses the SQLite database" in server.stderr
    finally:
        first.close()


def test_gamebag_db_is_read_and_passwords_are_never_printed(tmp_path: Path) -> None:
    assert safe_url("postgresql+psycopg://ann:s3cret@db.example/gamebag") == (
        "postgresql+psycopg://ann:***@db.example/gamebag"
    )
    port = free_port()
    with socket.socket() as closed_port:  # a PostgreSQL that is not there: the server cannot start
        closed_port.bind(("127.0.0.1", 0))
        dead = closed_port.getsockname()[1]
    env = {**os.environ, "GAMEBAG_DB": f"postgresql+psycopg://ann:s3cret@127.0.0.1:{dead}/gamebag"}
    result = subprocess.run(
        [sys.executable, "-c", "from gamebag.cli.app import main; main()", "serve", "--port", str(port)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode != 0
    assert f"127.0.0.1:{dead}/gamebag" in result.stdout  # the URL came from GAMEBAG_DB
    assert "s3cret" not in result.stdout + result.stderr


@pytest.mark.slow
def test_a_real_server_cuts_off_huge_bodies_frames_and_headers_while_reading(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "body.db")
    server.start()
    try:
        sent = 0
        chunk = b"x" * 65536
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
            raw.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            raw.settimeout(0.05)
            answer = b""
            for _ in range(3200):  # up to 200 MiB, stopped as soon as the server answers
                try:
                    raw.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    sent += len(chunk)
                except OSError:
                    break
                try:
                    answer += raw.recv(4096)
                except TimeoutError:
                    continue
                if answer:
                    break
            raw.settimeout(10)
            while b"\r\n\r\n" not in answer:
                more = raw.recv(4096)
                if not more:
                    break
                answer += more
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert sent < 64 * 1024 * 1024, f"the server read {sent} bytes before refusing"
        assert httpx.get(f"{server.base}/api/health", timeout=10).json()["ok"]
        _frames_and_headers_over_the_bounds_are_refused(server)
    finally:
        server.stop()


def _frames_and_headers_over_the_bounds_are_refused(server: ServerProcess) -> None:
    """A WebSocket frame over 64 KiB closes its socket (1009) while another table plays on;
    a request whose headers go on past 16 KiB gets 400 long before a megabyte was sent;
    the server goes on answering."""
    seats = [{"name": "A"}, {"name": "B"}]
    opened = [httpx.post(f"{server.base}/api/tables", json={"game": "pig", "seats": seats}).json() for _ in range(2)]
    tables = [claim_seats(httpx, table, server.base) for table in opened]
    with (
        ws_connect(f"{server.ws_base}/ws/tables/{tables[0]['id']}", max_size=None) as big,
        ws_connect(f"{server.ws_base}/ws/tables/{tables[1]['id']}") as other,
    ):
        other.send(json.dumps({"type": "hello", "token": tables[1]["seats"][0]["token"]}))
        big.send(json.dumps({"type": "hello", "padding": "x" * (65 * 1024)}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                big.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        other.send(json.dumps({"type": "ping", "ref": 1}))
        while (message := json.loads(other.recv(timeout=30)))["type"] != "pong":
            assert message["type"] != "error", message
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
        raw.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ")
        sent, answer = 0, b""
        raw.settimeout(0.05)
        while sent < 8 * 1024 * 1024 and not answer:  # endless headers, stopped once the server answers
            try:
                raw.sendall(b"x" * 4096)
                sent += 4096
                answer = raw.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
        raw.settimeout(10)
        answer = answer or raw.recv(4096)
        assert answer.startswith(b"HTTP/1.1 400"), answer[:100]
        assert sent < 1024 * 1024, f"the server read {sent} bytes of headers before refusing"
    assert httpx.get(f"{server.base}/api/tables", timeout=10).status_code == 200
