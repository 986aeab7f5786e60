"""A real ``gamebag serve`` bounds the size and the time of a request's headers (slow: one server,
about 15 s of waiting for its header clock, little CPU)."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from gamebag.web.serving import HEADER_SECONDS, MAX_HEADER_BYTES

from .serverproc import ServerProcess, read_until_closed


def _request(header_bytes: int) -> bytes:
    return b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: %b\r\nConnection: close\r\n\r\n" % (
        b"x" * header_bytes
    )


@pytest.mark.slow
def test_headers_are_bounded_in_size_and_time(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "headers.db")
    server.start()
    stalled: list[socket.socket] = []
    try:
        # Half-sent headers (and a connection that sends nothing) are closed once the clock runs out.
        for number in range(20):
            raw = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            if number:
                raw.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
            stalled.append(raw)
        started = time.monotonic()
        # One header of 60 KiB, sent in one piece, is refused (h11's own bound missed it) ...
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
            raw.sendall(_request(60 * 1024))
            big = read_until_closed(raw)
        # ... and headers under the bound are served, as is everyone else meanwhile.
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
            raw.sendall(_request(MAX_HEADER_BYTES - 1024))
            assert read_until_closed(raw).startswith(b"HTTP/1.1 200")
        assert httpx.get(f"{server.base}/api/health", timeout=30).json()["ok"]
        deadline = started + HEADER_SECONDS + 20
        answers = [read_until_closed(raw, max(0.1, deadline - time.monotonic())) for raw in stalled]
        waited = time.monotonic() - started
        assert big.startswith(b"HTTP/1.1 400") and b"over 16384 bytes" in big, f"a 60 KiB header: {big[:60]!r}"
        assert all(answer.startswith(b"HTTP/1.1 408") for answer in answers), answers[:2]
        assert all(answer.endswith(b"within 10 s") for answer in answers)  # then closed, nothing else
        assert waited < HEADER_SECONDS + 20, f"half-sent headers were kept {waited:.0f} s"
    finally:
        for raw in stalled:
            raw.close()
        server.stop()
