"""Invite links other devices can open: the server's LAN address and QR codes of links.

When the server listens on every interface (``--host 0.0.0.0``) the address a host typed
into their own browser is often ``127.0.0.1``, which a phone cannot open; invites are then
built on the machine's LAN address instead. QR codes come from ``segno`` as a matrix of
dark and light modules that the browser draws itself (no image, no inline markup).
"""

from __future__ import annotations

import ipaddress
import socket

import segno

MAX_QR_TEXT = 1024  # an invite link is about 80 characters; anything longer is not one
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def lan_address() -> str | None:
    """The IPv4 address this machine uses on its local network, or None when it has none.

    Connecting a UDP socket sends no packet: it only asks the kernel which interface
    (and so which source address) would carry traffic towards a private address.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    if ipaddress.ip_address(address).is_loopback or address == "0.0.0.0":
        return None
    return address


def invite_base(host: str, port: int, public_url: str | None = None) -> str | None:
    """The address to put in invite links, or None to use the one the browser is at.

    ``public_url`` (a reverse proxy's address, say) wins; on a wildcard host the LAN
    address is used; a server on one named address needs nothing (the browser's is right).
    """
    if public_url:
        return public_url.rstrip("/")
    if host in WILDCARD_HOSTS:
        address = lan_address()
        return None if address is None else f"http://{address}:{port}"
    return None


def qr_rows(text: str) -> list[str]:
    """The QR code of ``text`` as rows of '1' (dark) and '0' (light), without the quiet zone."""
    if not text or len(text) > MAX_QR_TEXT:
        raise ValueError(f"a QR code here holds 1 to {MAX_QR_TEXT} characters, not {len(text)}")
    code = segno.make(text, error="m", micro=False)
    return ["".join("1" if module else "0" for module in row) for row in code.matrix]
