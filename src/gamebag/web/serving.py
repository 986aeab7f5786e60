"""How ``gamebag serve`` runs the app under uvicorn: its options and the HTTP/1.1 protocol it uses.

uvicorn's h11 protocol is used (its httptools one reads headers of any size), with two
bounds it lacks, in ``GuardedH11Protocol``:

* **a request's line and headers are at most 16 KiB in all**: h11's own bound holds only
  while the headers are incomplete, so a single 60 KiB header sent in one piece was
  accepted; here the bytes up to the headers' end are counted before h11 parses them,
  and a request over the bound gets 400 and its connection is closed;
* **they must arrive within ``HEADER_SECONDS``** of the connection opening (or of the
  first byte of the next request on a kept-alive connection): a client that sends half
  its headers and stops (300 such connections stayed open for 40 s) gets 408 and is closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0  # a request's line and headers must have arrived by then
MAX_HEADER_BYTES = 16 * 1024  # a request's line and headers, in all


def uvicorn_options(forwarded_allow: tuple[str, ...] = ()) -> dict[str, Any]:
    """The keyword arguments ``gamebag serve`` gives ``uvicorn.run`` / ``uvicorn.Config``.

    ``forwarded_allow``: the proxies whose X-Forwarded-For names the client (``serve
    --forwarded-allow``); none by default, so no client can choose the address its budgets
    count under (uvicorn on its own trusts 127.0.0.1, any local process).
    """
    return {
        "proxy_headers": bool(forwarded_allow),
        "forwarded_allow_ips": list(forwarded_allow) if forwarded_allow else None,
        "ws_max_size": 64 * 1024,  # frames over this are refused while being read (close code 1009)
        "ws_per_message_deflate": False,  # messages are small; compressing them costs more CPU than it saves
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "http": GuardedH11Protocol,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
    }


def _plain_response(status: bytes, text: str) -> bytes:
    body = text.encode()
    return (
        b"HTTP/1.1 %b\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
        b"content-length: %d\r\n\r\n%b" % (status, len(body), body)
    )


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a bound on the size of a request's headers and on their time."""

    header_seconds = HEADER_SECONDS
    max_header_bytes = MAX_HEADER_BYTES

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._head_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._wait_for_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:  # reading a request's line and headers
            head = self.conn.trailing_data[0] + data
            end = head.find(b"\r\n\r\n")
            if (len(head) if end < 0 else end + 4) > self.max_header_bytes:
                self._refuse(b"400 Bad Request", f"request line and headers over {self.max_header_bytes} bytes")
                return
            self._wait_for_head()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._stop_head_timer()

    def _wait_for_head(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.header_seconds, self._head_too_slow)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._refuse(b"408 Request Timeout", f"request headers not received within {self.header_seconds:g} s")

    def _refuse(self, status: bytes, text: str) -> None:
        self._stop_head_timer()
        if not self.transport.is_closing():
            self.transport.write(_plain_response(status, text))
            self.transport.close()
