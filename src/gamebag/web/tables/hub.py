"""WebSocket connections: who is connected to which table as which seat, and their send queues.

Each connection has its own bounded queue and writer task, so a slow or dead
client never holds up a table or the other readers; one whose queue overflows
is dropped (its browser reconnects and resynchronises). Incoming frames pass a
token-bucket limiter so that flooding costs the flooder, not the server, and the costliest
answer, a full sync, has a budget of its own per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import defaultdict

from starlette.websockets import WebSocket

from gamebag.core.i18n import current_language
from gamebag.web.admission.costs import SOCKET_COSTS, SocketCost

SEND_QUEUE_LIMIT = 512
FLOOD_RATE = 50.0  # messages per second a client may send on average
FLOOD_BURST = 100.0  # ... and in one burst (an action that moves the game on is refunded)
FLOOD_CLOSE_AFTER = 2000  # dropped messages after which the connection is closed
# A full sync (the state with its history) is the costliest answer a socket can ask for: each
# socket has a budget of them (a ``sync`` past it is refused; a stale action then gets the state
# without its history). The browser asks for one when it joins.
SYNC_RATE = SOCKET_COSTS["sync"].rate  # full syncs per second on average (declared in admission/costs.py)
SYNC_BURST = SOCKET_COSTS["sync"].burst
# A stale or refused action is answered with a short refusal; the state comes with it only
# within its seat's own budget (shared by the seat's sockets), so stale actions, each a few
# bytes, cannot ask for a whole state (tens of KB) each. An honest client needs none of these
# states: every change reaches it anyway.
SEAT_SYNC_RATE = 3.0 / 60.0  # full states per second for one seat, on average (three a minute)
SEAT_SYNC_BURST = 3.0


class RateLimiter:
    """A token bucket: ``allow()`` is false while a client sends faster than the rate."""

    def __init__(self, rate: float = FLOOD_RATE, burst: float = FLOOD_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.dropped = 0
        self._last_warning = 0.0

    def allow(self) -> bool:
        current = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (current - self.stamp) * self.rate)
        self.stamp = current
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False

    def retry_after(self) -> int:
        """Whole seconds until ``allow()`` would say yes again (at least 1)."""
        return max(1, int((1.0 - self.tokens) / self.rate) + 1)

    def refund(self) -> None:
        """Give back the cost of a message that moved the game on: playing fast is not flooding."""
        self.tokens = min(self.burst, self.tokens + 1.0)

    def should_warn(self) -> bool:
        """At most one flood warning a second, so the warnings are no flood themselves."""
        current = time.monotonic()
        if current - self._last_warning >= 1.0:
            self._last_warning = current
            return True
        return False


class Connection:
    """One browser (or bench client) connected to one table."""

    def __init__(self, websocket: WebSocket, table_id: str) -> None:
        self.websocket = websocket
        self.table_id = table_id
        self.seat: int | None = None
        self.address = ""  # the client's address (its budgets' key), set by the socket
        # what this connection counts under, once it said hello: the table it watches, or its seat
        self.counted_watch: str | None = None
        self.counted_seat: tuple[str, int] | None = None
        self.joined = False  # after a successful hello
        # The reader's language: the socket's own (negotiated as it connected, or named in its
        # hello). Messages made for it in other tasks (a broadcast) are made in this language.
        self.language = current_language()
        self.limiter = RateLimiter()
        self._buckets: dict[str, RateLimiter] = {}  # this socket's budget per message cost class
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(SEND_QUEUE_LIMIT)
        self.closed = False

    def budget(self, cost: SocketCost) -> RateLimiter:
        """This socket's budget of messages of cost class ``cost`` (``admission/costs.py``)."""
        bucket = self._buckets.get(cost.name)
        if bucket is None:
            bucket = self._buckets[cost.name] = RateLimiter(cost.rate, cost.burst)
        return bucket

    @property
    def syncs(self) -> RateLimiter:
        """This socket's budget of full syncs."""
        return self.budget(SOCKET_COSTS["sync"])

    def send(self, text: str) -> None:
        """Queue a message; a client too slow to keep up is disconnected."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self, flush: bool = False) -> None:
        """Stop this connection; ``flush``: after sending what is queued (a last notice), else at once."""
        if self.closed:
            return
        self.closed = True
        if flush and not self.queue.full():
            self.queue.put_nowait(None)
            return
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    async def run_writer(self) -> None:
        """Send queued messages in order until the connection closes."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.websocket.send_text(text)
        except Exception:  # the peer went away mid-send: nothing to tell anyone
            self.closed = True
        finally:
            with contextlib.suppress(Exception):
                await self.websocket.close()


class Hub:
    """The connections of every table."""

    def __init__(self) -> None:
        self._by_table: dict[str, set[Connection]] = defaultdict(set)
        self._seat_syncs: dict[tuple[str, int], RateLimiter] = {}

    def seat_sync_wait(self, table_id: str, seat: int) -> int:
        """0 if the seat's budget of states sent after a refused action allows one more now
        (and takes it), else the seconds until it does."""
        budget = self._seat_syncs.setdefault((table_id, seat), RateLimiter(SEAT_SYNC_RATE, SEAT_SYNC_BURST))
        return 0 if budget.allow() else budget.retry_after()

    def add(self, connection: Connection) -> None:
        self._by_table[connection.table_id].add(connection)

    def remove(self, connection: Connection) -> None:
        members = self._by_table.get(connection.table_id)
        if members is not None:
            members.discard(connection)
            if not members:
                del self._by_table[connection.table_id]
                for key in [key for key in self._seat_syncs if key[0] == connection.table_id]:
                    del self._seat_syncs[key]

    def members(self, table_id: str) -> list[Connection]:
        return [c for c in self._by_table.get(table_id, ()) if c.joined and not c.closed]

    def connected_seats(self, table_id: str) -> set[int]:
        return {c.seat for c in self.members(table_id) if c.seat is not None}

    def count(self) -> int:
        return sum(len(members) for members in self._by_table.values())
