"""Several server processes on one PostgreSQL database: the message bus and this process's identity.

The bus is PostgreSQL's own LISTEN/NOTIFY, so a deployment needs nothing
besides the database it already has: a change to a table is announced by a
``pg_notify`` inside the transaction that commits it (so it is delivered
exactly when, and only if, the change is durable), and messages between two
processes (an action forwarded to a table's owner, the owner's answer) go on
each process's own channel. Every process listens on one connection.

Which process owns a table is a lease in the database (``db.Store.acquire``):
see ``ownership.py`` for how tables are owned, watched, and taken over.
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

from gamebag.web.store.db import TABLES_CHANNEL

log = logging.getLogger("gamebag.web")

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
MAX_PAYLOAD = 7900  # PostgreSQL refuses NOTIFY payloads of 8000 bytes or more
SEND_BATCH = 200  # messages sent in one statement at most


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
        self._connection: Any = None  # the sending connection
        self._outbox: list[tuple[str, str, asyncio.Future[None]]] = []
        self._waiting = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
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
        """Send one message; it returns once the database took it (or raises why it could not).

        Messages wait in one queue and leave in order, as many as are waiting in one
        statement (one round trip), so a burst (every seat saying it is here, after a
        restart) costs a few round trips instead of one each, and cannot hold up an action.
        """
        payload = json.dumps(message, separators=(",", ":"))
        if len(payload.encode()) > MAX_PAYLOAD:
            raise ValueError("message too large for the bus")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._outbox.append((channel, payload, done))
        self._waiting.set()
        if self._sender is None or self._sender.done():
            self._sender = loop.create_task(self._send_forever())
        await done

    async def _send_forever(self) -> None:
        import psycopg

        while True:
            await self._waiting.wait()
            self._waiting.clear()
            while self._outbox:
                batch, self._outbox = self._outbox[:SEND_BATCH], self._outbox[SEND_BATCH:]
                try:
                    if self._connection is None or self._connection.closed:
                        self._connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                    await self._connection.execute(
                        "SELECT pg_notify(m.c, m.p) FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS m(c, p, i) "
                        "ORDER BY m.i",
                        ([c for c, _, _ in batch], [p for _, p, _ in batch]),
                    )
                except Exception as error:
                    with contextlib.suppress(Exception):
                        if self._connection is not None:
                            await self._connection.close()
                    self._connection = None
                    for _, _, done in batch:
                        if not done.done():
                            done.set_exception(error)
                    continue
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def close(self) -> None:
        for task in (self._task, self._sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for _, _, done in self._outbox:
            if not done.done():
                done.set_exception(ConnectionError("the bus was closed"))
        self._outbox = []
        for connection in (self._listen, self._connection):
            if connection is not None:
                with contextlib.suppress(Exception):
                    await connection.close()
