"""Who a request comes from and which name it was sent to: rate-limit keys and the Host allow-list.

* **Rate-limit keys**: an IPv4 address counts alone; an IPv6 client counts by its /64
  network, since one machine commonly holds a whole /64 and could otherwise rotate through
  2^64 addresses, each with a fresh budget. IPv4 addresses written as IPv6 (``::ffff:a.b.c.d``)
  count as the IPv4 address they are.
* **Host allow-list**: a browser tricked by DNS rebinding (a page on ``evil.example`` whose
  name then resolves to this server) sends ``Host: evil.example``; answering only the names
  this server is known by (its bound address, ``localhost`` and the loopback addresses, the
  LAN address, the public URL's host and every ``--host-name``) refuses such requests with
  421 before they reach a route.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from gamebag.web.words.text import _

LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def rate_key(address: str) -> str:
    """The key a client's budgets count under: the IPv4 address, or the IPv6 address's /64."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address  # not an address (a test client's name, a Unix socket): counted as it is
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def client_address(scope: MutableMapping[str, Any]) -> str:
    """The key the client's budgets count under: its address, an IPv6 one's /64 (``rate_key``).

    The address is the peer's, or the X-Forwarded-For of a proxy named with ``serve
    --forwarded-allow`` (uvicorn trusts no proxy unless named).
    """
    client = scope.get("client")
    return rate_key(str(client[0])) if client else "unknown"


def host_of(header: str) -> str:
    """The name in a Host header, without its port, brackets or trailing dot, in lower case."""
    header = header.strip().lower()
    if header.startswith("["):  # [::1]:8000
        return header[1 : header.find("]")] if "]" in header else header
    if header.count(":") == 1:
        header = header.split(":", 1)[0]
    return header.rstrip(".")


def allowed_host_names(
    given: Iterable[str] = (), bound: str | None = None, public_url: str | None = None, lan: str | None = None
) -> frozenset[str]:
    """Every name this server answers to: ``given`` (``--host-name``), the bound address unless it
    is a wildcard, the loopback names, the LAN address and the host of ``public_url``."""
    names = {host_of(name) for name in given if name.strip()}
    names.update(LOCAL_NAMES)
    if bound is not None and bound not in WILDCARD_HOSTS:
        names.add(host_of(f"[{bound}]" if ":" in bound else bound))
    if lan:
        names.add(lan)
    if public_url:
        hostname = urlsplit(public_url).hostname
        if hostname:
            names.add(hostname.lower())
    return frozenset(names)


def host_refusal(header: str | None, names: frozenset[str]) -> str | None:
    """Why a request's Host is refused (one line), or None when the server answers to it.

    No Host at all (HTTP/1.0, a script) is answered: DNS rebinding needs a browser, which
    always sends one.
    """
    if header is None:
        return None
    name = host_of(header)
    if name in names:
        return None
    shown = name[:80].encode("ascii", "replace").decode()
    return _(
        "this server does not answer to the name {name}; open it by one of its own addresses, "
        "or start it with --host-name for this name",
        name=repr(shown),
    )


def close_reason(text: str, limit: int = 120) -> str:
    """``text`` cut to fit a WebSocket close frame's reason (at most 123 bytes of UTF-8): a reason
    in Japanese or Chinese takes three bytes a character, so it is cut by bytes, never mid-character."""
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")
