"""Several server processes on one PostgreSQL database: the message bus and this process's identity.

The bus is PostgreSQL's own LISTEN/NOTIFY, so a deployment needs nothing
besides the database it already has: a change to a table is announced by a
``pg_notify`` inside the transaction that commits it (so it is delivered
exactly when, and only if, the change is durable), and messages between two
processes (an action forwarded to a table's owner, the owner's answer) go on
each process's own channel. Every process listens on one connection.

Which process owns a table is a lease in the database (``db.Store.acquire``):
see ``manager.py`` for how tables are owned, watched, and taken over.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.engine import make_url

from gamebag.web.db import TABLES_CHANNEL

log = logging.getLogger("gamebag.web")

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
MAX_PAYLOAD = 7900  # PostgreSQL refuses NOTIFY payloads of 8000 bytes or more
SENDERS = 4  # connections that send, so that one slow round trip does not hold up the others


def node_channel(node: str) -> str:
    return f"gamebag_node_{node}"


def new_node_id() -> str:
    return uuid.uuid4().hex[:16]


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL as a libpq connection string (psycopg's)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Bus:
    """LISTEN on the tables channel and this node's channel; NOTIFY any channel."""

    def __init__(self, url: str, node: str) -> None:
        self.url = libpq_url(url)
        self.node = node
        self._listen: Any = None
        self._senders: list[Any] = [None] * SENDERS
        self._locks = [asyncio.Lock() for _ in range(SENDERS)]
        self._next = 0
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()

    async def start(self, handler: Handler, on_reconnect: Callable[[], None]) -> None:
        """Listen (reconnecting after a failure, when ``on_reconnect`` lets the owner catch up)."""
        await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._run(handler, on_reconnect))

    async def _connect(self) -> None:
        import psycopg

        self._listen = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await self._listen.execute(f"LISTEN {TABLES_CHANNEL}")
        await self._listen.execute(f"LISTEN {node_channel(self.node)}")
        self.connected.set()

    async def _run(self, handler: Handler, on_reconnect: Callable[[], None]) -> None:
        while True:
            try:
                async for notice in self._listen.notifies():
                    try:
                        await handler(notice.channel, json.loads(notice.payload))
                    except Exception:
                        log.exception("a bus message could not be handled: %s", notice.payload[:200])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the bus connection failed; reconnecting", exc_info=True)
            self.connected.clear()
            with contextlib.suppress(Exception):
                await self._listen.close()
            while True:
                await asyncio.sleep(1.0)
                try:
                    await self._connect()
                    break
                except Exception:
                    log.warning("the bus is still unreachable")
            on_reconnect()  # notifications may have been missed: the owner reloads what it watches

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        import psycopg

        payload = json.dumps(message, separators=(",", ":"))
        if len(payload.encode()) > MAX_PAYLOAD:
            raise ValueError("message too large for the bus")
        index = self._next
        self._next = (index + 1) % SENDERS
        async with self._locks[index]:
            sender = self._senders[index]
            if sender is None or sender.closed:
                sender = self._senders[index] = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            try:
                await sender.execute("SELECT pg_notify(%s, %s)", (channel, payload))
            except Exception:
                with contextlib.suppress(Exception):
                    await sender.close()
                self._senders[index] = None
                raise

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        for connection in (self._listen, *self._senders):
            if connection is not None:
                with contextlib.suppress(Exception):
                    await connection.close()
