"""A real ``gamebag serve`` against slow, aborted and too many HTTP connections: a body must be in
within ``BODY_SECONDS``, a client that goes away mid-body is one short log line (no traceback),
connections are bounded per address, and the open-file limit is said at start (slow: one server,
about 12 s of waiting for its body clock, little CPU)."""

from __future__ import annotations

import functools
import logging
import resource
import socket
import subprocess
import time
import types
from pathlib import Path

import pytest

from gamebag.web.admission.guard import BODY_SECONDS, QuietLine
from gamebag.web.serving import CONNECTIONS_PER_ADDRESS, ConnectionBounds, is_named_proxy

from . import serverproc
from .serverproc import ServerProcess, read_until_closed

BODY = b'{"game": "pig", "players": 2, "seats": [{"name": "A"}, {"name": "B", "bot": "random"}]}'


def _post_head(length: int) -> bytes:
    return (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % length
    )



def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.settimeout(30)
    raw.bind((source, 0))
    raw.connect(("127.0.0.1", port))
    return raw


def _health(port: int, source: str = "127.0.0.1") -> bytes:
    with _connect(port, source) as raw:
        raw.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return read_until_closed(raw)


@pytest.mark.slow
def test_slow_aborted_and_too_many_connections(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "conns.db")
    server.start()
    held: list[socket.socket] = []
    try:
        # A body that trickles in and stops: 408 once BODY_SECONDS have passed since it began.
        slow = _connect(server.port)
        slow.sendall(_post_head(len(BODY)) + BODY[:10])
        started = time.monotonic()
        # Clients that go away mid-body, many times over: one short log line, no traceback.
        for _ in range(30):
            with _connect(server.port) as raw:
                raw.sendall(_post_head(len(BODY)) + BODY[:10])
        # Connections from one address are bounded; another address is still served.
        for _ in range(CONNECTIONS_PER_ADDRESS + 5):
            held.append(_connect(server.port))
        over = read_until_closed(held[-1], limit=5)
        assert over.startswith(b"HTTP/1.1 503"), over
        assert b"too many open connections from your address" in over
        assert _health(server.port, source="127.0.0.2").startswith(b"HTTP/1.1 200")
        for raw in held:
            raw.close()
        held.clear()
        slow_answer = read_until_closed(slow)
        waited = time.monotonic() - started
        assert slow_answer.startswith(b"HTTP/1.1 408"), slow_answer
        assert b"<still open>" not in slow_answer  # closed, not kept alive
        assert BODY_SECONDS - 1 <= waited <= BODY_SECONDS + 8, waited
        time.sleep(0.5)
        assert _health(server.port).startswith(b"HTTP/1.1 200")  # the address's own count came down
        log = server.log_path.read_text()
        assert "Traceback" not in log and "ClientDisconnect" not in log, log[-3000:]
        aborted = [line for line in log.splitlines() if "went away while sending a request body" in line]
        assert 1 <= len(aborted) <= 2, aborted
        assert "open files: at most" in log
    finally:
        for raw in held:
            raw.close()
        server.stop()


@pytest.mark.slow
def test_a_low_open_file_limit_is_warned_of_and_bounds_connections_in_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))  # in the server's process only

    monkeypatch.setattr(serverproc.subprocess, "Popen", functools.partial(subprocess.Popen, preexec_fn=low_limit))
    server = ServerProcess(tmp_path / "files.db")
    server.start()
    monkeypatch.undo()
    held: list[socket.socket] = []
    try:
        total = ConnectionBounds.total_for(256)
        assert total <= 2 * CONNECTIONS_PER_ADDRESS  # two addresses fill it
        for source in ("127.0.0.2", "127.0.0.3"):
            held += [_connect(server.port, source) for _ in range(CONNECTIONS_PER_ADDRESS)]
        refused = _health(server.port, source="127.0.0.4")
        assert refused.startswith(b"HTTP/1.1 503") and b"all the connections it can take" in refused, refused
        for raw in held:
            raw.close()
        held.clear()
        time.sleep(0.5)
        assert _health(server.port, source="127.0.0.4").startswith(b"HTTP/1.1 200")
        log = server.log_path.read_text()
        assert f"warning: open files: at most 256, so at most {total} connections at once" in log, log[-2000:]
    finally:
        for raw in held:
            raw.close()
        server.stop()


def test_only_the_named_proxies_are_free_of_the_per_address_bound() -> None:
    config = types.SimpleNamespace(forwarded_allow_ips=["10.0.0.0/8", "192.168.1.7"])
    assert is_named_proxy("10.2.3.4", config) and is_named_proxy("192.168.1.7", config)
    assert not is_named_proxy("192.168.1.8", config) and not is_named_proxy("127.0.0.1", config)
    assert is_named_proxy("::1", types.SimpleNamespace(forwarded_allow_ips="*"))
    assert not is_named_proxy("127.0.0.1", types.SimpleNamespace(forwarded_allow_ips=None))


def test_a_quiet_line_says_a_flood_once_and_then_how_many_more(caplog: pytest.LogCaptureFixture) -> None:
    quiet = QuietLine("a client went away while sending a request body", seconds=0.2)
    with caplog.at_level(logging.INFO, logger="gamebag.web"):
        for number in range(100):
            quiet.note(f"POST /api/tables from 10.0.0.{number}")
        time.sleep(0.25)
        quiet.note("POST /api/tables from 10.0.0.200")
    lines = [record.getMessage() for record in caplog.records if "went away" in record.getMessage()]
    said = "a client went away while sending a request body: POST /api/tables from"
    assert lines == [f"{said} 10.0.0.0", f"{said} 10.0.0.200 (99 more since the last such line)"]
