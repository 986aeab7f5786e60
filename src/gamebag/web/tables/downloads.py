"""Heavy reads of finished tables (the record and the step-by-step replay), made once, off the loop.

A long game's replay is megabytes of views (a 1,600-step Eigen Kweek game: about 4 MB)
and took over a second to build on the event loop, holding every other table up. Here
each download is built in a thread (a finished table's record no longer changes, so the
thread reads it safely), serialized once, and kept in a cache bounded in bytes (least
recently used first out); two requests for the same download while it is being built
wait for the same build. ``RateLimits.download`` bounds how often one address asks.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable

MAX_CACHED_BYTES = 64 * 1024 * 1024  # downloads kept, all tables together


class Downloads:
    """Built downloads by key, in a byte-bounded least-recently-used cache."""

    def __init__(self, max_bytes: int = MAX_CACHED_BYTES) -> None:
        self.max_bytes = max_bytes
        self.builds = 0  # downloads built so far (the rest were answered from the cache)
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._size = 0
        self._building: dict[Hashable, asyncio.Future[bytes]] = {}

    async def get(self, key: Hashable, build: Callable[[], bytes]) -> bytes:
        """The download ``key``, built by ``build`` in a thread unless it is kept or being built."""
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        building = self._building.get(key)
        if building is not None:
            return await asyncio.shield(building)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            data = await asyncio.to_thread(build)
        except Exception as error:
            future.set_exception(error)
            future.exception()  # marked as retrieved: the requests waiting on it get it
            raise
        except BaseException:
            future.cancel()
            raise
        finally:
            self._building.pop(key, None)
        self.builds += 1
        future.set_result(data)
        self._keep(key, data)
        return data

    def _keep(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        self._kept[key] = data
        self._size += len(data)
        while self._size > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self._size -= len(dropped)
