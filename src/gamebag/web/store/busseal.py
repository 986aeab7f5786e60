"""Sealed values on a cluster's bus: what only the servers may read travels encrypted.

Any role that can connect to the PostgreSQL database may ``LISTEN`` on any channel, table
rights or not, so nothing secret may go on the bus in clear. Table changes carry no secret
(a pending choice is announced by seat only; replicas read it from the database with the
servers' own rights). An action forwarded from a replica's process to the table's owner
is a seat's choice, possibly a secret one: it is sealed with a key kept in the database
(``web_bus_key``, a table of the schema's migrations; its one row made by the first server),
which only roles with rights on the servers' tables can read.

The seal is encrypt-then-MAC from the standard library: a keystream of HMAC-SHA256 blocks
over a random nonce and a counter (a PRF in counter mode) XORed with the JSON text, and an
HMAC-SHA256 tag over nonce and ciphertext with a second key derived from the same secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine

NONCE_BYTES = 16
TAG_BYTES = 16
_ADD = "INSERT INTO web_bus_key (id, secret) VALUES (1, :secret) ON CONFLICT (id) DO NOTHING"


class SealError(ValueError):
    """A sealed value that was not sealed with this deployment's key (or was changed)."""


def bus_key(engine: Engine) -> bytes:
    """The deployment's bus key, made by whichever server asks first (PostgreSQL)."""
    with engine.begin() as connection:
        connection.execute(text(_ADD), {"secret": secrets.token_hex(32)})
        secret = connection.execute(text("SELECT secret FROM web_bus_key WHERE id = 1")).scalar_one()
    return bytes.fromhex(str(secret))


class Sealer:
    """Seals JSON values with one key; ``open`` gives back exactly what ``seal`` was given."""

    def __init__(self, key: bytes) -> None:
        self._stream_key = hmac.new(key, b"gamebag bus stream", hashlib.sha256).digest()
        self._tag_key = hmac.new(key, b"gamebag bus tag", hashlib.sha256).digest()

    def _keystream(self, nonce: bytes, length: int) -> bytes:
        blocks = (length + 31) // 32
        return b"".join(
            hmac.new(self._stream_key, nonce + index.to_bytes(4, "big"), hashlib.sha256).digest()
            for index in range(blocks)
        )[:length]

    def _tag(self, nonce: bytes, sealed: bytes) -> bytes:
        return hmac.new(self._tag_key, nonce + sealed, hashlib.sha256).digest()[:TAG_BYTES]

    def seal(self, value: Any) -> str:
        plain = json.dumps(value, separators=(",", ":")).encode()
        nonce = secrets.token_bytes(NONCE_BYTES)
        sealed = bytes(a ^ b for a, b in zip(plain, self._keystream(nonce, len(plain)), strict=True))
        return base64.b64encode(nonce + self._tag(nonce, sealed) + sealed).decode()

    def open(self, text_value: Any) -> Any:
        try:
            raw = base64.b64decode(str(text_value), validate=True)
        except ValueError:
            raise SealError("not a sealed value") from None
        body = NONCE_BYTES + TAG_BYTES
        nonce, tag, sealed = raw[:NONCE_BYTES], raw[NONCE_BYTES:body], raw[body:]
        if len(nonce) != NONCE_BYTES or not hmac.compare_digest(tag, self._tag(nonce, sealed)):
            raise SealError("a sealed value that this deployment's key did not seal")
        plain = bytes(a ^ b for a, b in zip(sealed, self._keystream(nonce, len(sealed)), strict=True))
        return json.loads(plain)
