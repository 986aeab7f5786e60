"""Safe deployment defaults: no proxy trusted unless named, IPv6 clients budgeted per /64, only
this server's own names answered (DNS rebinding), and errors in players' words."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gamebag.web.admission.addresses import allowed_host_names, host_of, rate_key
from gamebag.web.app import create_app
from gamebag.web.settings import Limits

from .helpers import web_client
from .serverproc import HTTP_TIMEOUT, ServerProcess

PIG = {"game": "pig", "seats": [{}, {"bot": "random"}]}


def test_other_host_names_are_refused_with_421(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        for name in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", "evil.example."):
            refused = client.get("/api/tables", headers={"host": name})
            assert refused.status_code == 421, name
            assert "does not answer to the name" in refused.json()["error"] and "\n" not in refused.json()["error"]
            assert client.post("/api/tables", json=PIG, headers={"host": name}).status_code == 421
        for name in ("testserver", "localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST."):
            assert client.get("/api/tables", headers={"host": name}).status_code == 200, name
        opened = client.post("/api/tables", json=PIG).json()
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
            f"/ws/tables/{opened['id']}", headers={"host": "evil.example"}
        ):
            pass
        assert closed.value.code == 1008 and "does not answer to the name" in closed.value.reason


def test_the_default_names_are_the_servers_own() -> None:
    names = allowed_host_names(
        ["games.example.org"], bound="192.168.1.20", public_url="https://play.example/x", lan="10.0.0.7"
    )
    assert names == {"games.example.org", "192.168.1.20", "play.example", "10.0.0.7", "localhost", "127.0.0.1", "::1"}
    assert "0.0.0.0" not in allowed_host_names(bound="0.0.0.0")
    assert host_of("[fe80::1]:80") == "fe80::1" and host_of("Example.ORG.:443") == "example.org"


def test_ipv6_clients_count_per_64(tmp_path: Path) -> None:
    assert rate_key("2001:db8:1:2:aaaa::1") == rate_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert rate_key("::ffff:192.0.2.7") == "192.0.2.7" and rate_key("192.0.2.7") == "192.0.2.7"
    app = create_app(f"sqlite:///{tmp_path / 'v6.db'}", bot_delay=0.0, limits=Limits(tables_per_minute=2))
    first = TestClient(app, base_url="http://localhost", client=("2001:db8:1:2::1", 50000))
    with first:
        same_64 = TestClient(app, base_url="http://localhost", client=("2001:db8:1:2:ffff:ffff:ffff:fffe", 50001))
        elsewhere = TestClient(app, base_url="http://localhost", client=("2001:db8:1:3::1", 50002))
        assert [first.post("/api/tables", json=PIG).status_code for _ in range(2)] == [201, 201]
        refused = same_64.post("/api/tables", json=PIG)  # another address of the same /64: the same budget
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert elsewhere.post("/api/tables", json=PIG).status_code == 201


def _opened_with_rotating_forwarded_for(server: ServerProcess, count: int) -> list[int]:
    return [
        httpx.post(
            f"{server.base}/api/tables", json=PIG, headers={"x-forwarded-for": f"203.0.113.{n}"}, timeout=HTTP_TIMEOUT
        ).status_code
        for n in range(1, count + 1)
    ]


def test_x_forwarded_for_counts_only_from_a_named_proxy(tmp_path: Path) -> None:
    """Before, uvicorn trusted X-Forwarded-For from 127.0.0.1: any local client chose its address."""
    plain = ServerProcess(tmp_path / "plain.db", extra=("--tables-per-minute", "2"))
    plain.start()
    try:
        assert _opened_with_rotating_forwarded_for(plain, 3) == [201, 201, 429]
    finally:
        plain.stop()
    proxied = ServerProcess(
        tmp_path / "proxied.db", extra=("--tables-per-minute", "2", "--forwarded-allow", "127.0.0.1,::1")
    )
    proxied.start()
    try:
        assert _opened_with_rotating_forwarded_for(proxied, 3) == [201, 201, 201]  # three clients behind the proxy
        other_name = httpx.get(f"{proxied.base}/api/tables", headers={"host": "rebind.example"}, timeout=HTTP_TIMEOUT)
        assert other_name.status_code == 421
    finally:
        proxied.stop()


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--forwarded-allow", "my-proxy", "not an IP address or network"),
        ("--host-name", "http://x:80", "not a host name"),
        ("--smtp", "http://mail.example.org", "must start with smtp:// or smtps://"),
    ],
)
def test_bad_proxy_and_host_names_are_one_line_errors(tmp_path: Path, option: str, value: str, words: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", "from gamebag.cli.app import main; main()", "serve", "--db", f"sqlite:///{tmp_path}/x.db",
         option, value],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2 and words in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("path", ["/api/tables", "/api/games/agents"])
def test_errors_are_in_players_words(tmp_path: Path, path: str) -> None:
    with web_client(tmp_path) as client:
        for body in ({"game": "pig", "options": {"players": 3}}, {"game": "pig", "options": {"game_id": "x"}}):
            answer = client.post(path, json=body)
            assert answer.status_code == 400
            error = answer.json()["error"]
            assert "unknown option" in error and "allowed: " in error, error
            for internal in ("make()", "got multiple values", "argument", "Traceback", "TypeError"):
                assert internal not in error, error
