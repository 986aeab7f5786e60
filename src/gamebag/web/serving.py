"""How ``gamebag serve`` runs the app under uvicorn: its options and the HTTP/1.1 protocol it uses.

uvicorn's h11 protocol is used (its httptools one reads headers of any size), with two
bounds it lacks, in ``GuardedH11Protocol``:

* **a request's line and headers are at most 16 KiB in all**: h11's own bound holds only
  while the headers are incomplete, so a single 60 KiB header sent in one piece was
  accepted; here the bytes up to the headers' end are counted before h11 parses them,
  and a request over the bound gets 400 and its connection is closed;
* **they must arrive within ``HEADER_SECONDS``** of the connection opening (or of the
  first byte of the next request on a kept-alive connection): a client that sends half
  its headers and stops (300 such connections stayed open for 40 s) gets 408 and is closed;
* **at most ``CONNECTIONS_PER_ADDRESS`` HTTP connections from one address** (an IPv6 /64; a
  proxy named by ``--forwarded-allow`` is not bound) **and ``ConnectionBounds.total`` in all**
  (HTTP and sockets, from the process's open-file limit, ``open_file_limit``): a connection
  over either is answered 503 and closed at once, so 1,030 slow connections from one client
  can no longer use up the server's files. A connection upgraded to a socket leaves the
  per-address count (sockets have their own bounds, ``guard.RateLimits``).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import resource
from collections import Counter
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from gamebag.web.admission.addresses import rate_key

HEADER_SECONDS = 10.0  # a request's line and headers must have arrived by then
MAX_HEADER_BYTES = 16 * 1024  # a request's line and headers, in all
CONNECTIONS_PER_ADDRESS = 64  # open HTTP connections from one address (a browser opens about 6)
RESERVED_FILES = 128  # open files kept for the database, the bot workers and the log
WANTED_FILES = 65536  # the open-file limit asked for at start (up to the hard limit)


def open_file_limit(wanted: int = WANTED_FILES) -> tuple[int, str]:
    """Raise this process's open-file limit towards ``wanted`` where the hard limit allows;
    return the limit and one line saying it and the connections it allows (a warning when
    it stays low). Processes started after this (``--workers``) inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    raised = ""
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            raised, soft = f" (raised from {soft})", target
        except (ValueError, OSError):
            pass
    limit = wanted if soft == resource.RLIM_INFINITY else soft
    total = ConnectionBounds.total_for(limit)
    line = f"open files: at most {limit}{raised}, so at most {total} connections at once"
    if total < 1000:
        line = f"warning: {line}; raise it (ulimit -n) for more players"
    return limit, line


def is_named_proxy(host: str, config: Any) -> bool:
    """Whether ``host`` is one of the proxies ``serve --forwarded-allow`` named (addresses or networks)."""
    named = config.forwarded_allow_ips
    names = tuple(named.split(",") if isinstance(named, str) else named or ())
    return _in_networks(host, names)


@functools.lru_cache(maxsize=1024)
def _in_networks(host: str, names: tuple[str, ...]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    for name in names:
        name = name.strip()
        if name == "*":
            return True
        try:
            if address in ipaddress.ip_network(name, strict=False):
                return True
        except ValueError:
            continue
    return False


class ConnectionBounds:
    """The open HTTP connections of this process by address, and the bound on all of them."""

    per_address: ClassVar[int] = CONNECTIONS_PER_ADDRESS
    by_address: ClassVar[Counter[str]] = Counter()
    total: ClassVar[int] = 0  # 0: worked out from the open-file limit on first use

    @staticmethod
    def total_for(file_limit: int) -> int:
        return max(64, file_limit - RESERVED_FILES)

    @classmethod
    def total_now(cls) -> int:
        if not cls.total:
            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            cls.total = cls.total_for(WANTED_FILES if soft == resource.RLIM_INFINITY else soft)
        return cls.total


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
        self._counted: str | None = None
        super().connection_made(transport)
        refusal = self._admit()
        if refusal is not None:
            self._refuse(b"503 Service Unavailable", refusal)
            return
        self._wait_for_head()

    def _admit(self) -> str | None:
        """Count this connection under its address; the refusal when a bound is full."""
        if len(self.server_state.connections) > ConnectionBounds.total_now():
            return "the server has all the connections it can take; try again in a moment"
        address = rate_key(self.client[0]) if self.client else ""
        if self.config.proxy_headers and is_named_proxy(self.client[0] if self.client else "", self.config):
            return None  # a named proxy carries many clients (it bounds them itself)
        bounds = ConnectionBounds
        if bounds.by_address[address] >= bounds.per_address:
            return f"too many open connections from your address (at most {bounds.per_address})"
        bounds.by_address[address] += 1
        self._counted = address
        return None

    def _uncount(self) -> None:
        if self._counted is not None:
            counts = ConnectionBounds.by_address
            counts[self._counted] -= 1
            if counts[self._counted] <= 0:
                del counts[self._counted]
            self._counted = None

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._uncount()  # a socket now: bounded per address and seat by guard.RateLimits
        self._stop_head_timer()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        self._uncount()
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
