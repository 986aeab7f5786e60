"""Fair shares of the bot workers: two lanes, and a share per client address in the slow one.

The worker pool (``workers.py``) hands its ``size`` workers out through a ``FairShares``:

* the **move lane** (bots' and timed-out seats' moves, and builds of agents whose measured
  build was quick) is served first, and one worker is kept for it: the slow lane may hold at
  most ``size - 1`` workers (all of a pool of one, in turn). Another client's solves therefore
  never make a running table's bot wait past its move budget and play a fallback move;
* the **slow lane** (solves for new options, analyses, coach advice) is served by address:
  of the addresses that have work waiting, the one that spent the fewest measured worker
  seconds in the last ``WINDOW_SECONDS`` goes next (ties: the one that has waited longest), so
  one client's flood waits behind itself and every other client gets its share.

What each slow job costs is measured (the seconds its worker ran it) and charged to the address
that asked for it: a table opener pays for its new solve, an analysis's asker for the analysis.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field

WINDOW_SECONDS = 60.0  # worker seconds spent longer ago than this no longer count against an address
MOVE_LANE = "move"
SLOW_LANE = "slow"


@dataclass
class _Waiter:
    lane: str
    owner: str
    order: int
    granted: asyncio.Future[None] = field(repr=False)


class FairShares:
    """Which waiting job gets the next free worker (see the module's docstring)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.slow_limit = max(1, size - 1)
        self._busy = 0
        self._busy_slow = 0
        self._waiting: list[_Waiter] = []
        self._orders = itertools.count()
        self._spent: defaultdict[str, deque[tuple[float, float]]] = defaultdict(deque)

    async def acquire(self, lane: str, owner: str, seconds: float) -> None:
        """Wait for a worker in ``lane`` for ``owner``; ``TimeoutError`` past ``seconds``."""
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiter = _Waiter(lane, owner, next(self._orders), granted)
        self._waiting.append(waiter)
        self._dispatch()
        try:
            await asyncio.wait_for(asyncio.shield(granted), timeout=seconds)
        except BaseException:
            if granted.done() and not granted.cancelled():
                self.release(lane)  # granted just as the wait ended: hand the worker on
            else:
                granted.cancel()
                self._waiting.remove(waiter)
            raise

    def release(self, lane: str) -> None:
        """A job of ``lane`` gave its worker back."""
        self._busy -= 1
        if lane == SLOW_LANE:
            self._busy_slow -= 1
        self._dispatch()

    def charge(self, owner: str, seconds: float) -> None:
        """``owner``'s slow job kept a worker ``seconds``."""
        self._spent[owner].append((time.monotonic(), seconds))

    def spent(self, owner: str) -> float:
        """The worker seconds ``owner``'s slow jobs took in the last ``WINDOW_SECONDS``."""
        charges = self._spent.get(owner)
        if charges is None:
            return 0.0
        horizon = time.monotonic() - WINDOW_SECONDS
        while charges and charges[0][0] < horizon:
            charges.popleft()
        if not charges:
            del self._spent[owner]
            return 0.0
        return sum(seconds for _, seconds in charges)

    def retry_after(self, owner: str, budget_seconds: float) -> int:
        """Whole seconds until ``owner``'s spending falls under ``budget_seconds`` (0: it is under now)."""
        spent = self.spent(owner)
        if spent < budget_seconds:
            return 0
        for charged_at, seconds in self._spent[owner]:
            spent -= seconds
            if spent < budget_seconds:
                return max(1, math.ceil(charged_at + WINDOW_SECONDS - time.monotonic()))
        return max(1, math.ceil(WINDOW_SECONDS))

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def _dispatch(self) -> None:
        while self._busy < self.size and self._waiting:
            waiter = self._next()
            if waiter is None:
                return
            self._waiting.remove(waiter)
            self._busy += 1
            if waiter.lane == SLOW_LANE:
                self._busy_slow += 1
            waiter.granted.set_result(None)

    def _next(self) -> _Waiter | None:
        moves = [w for w in self._waiting if w.lane == MOVE_LANE]
        if moves:
            return moves[0]
        if self._busy_slow >= self.slow_limit:
            return None
        first_of: dict[str, _Waiter] = {}
        for waiter in self._waiting:
            first_of.setdefault(waiter.owner, waiter)
        return min(first_of.values(), key=lambda w: (self.spent(w.owner), w.order), default=None)
