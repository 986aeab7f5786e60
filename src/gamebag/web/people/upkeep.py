"""The server's own rounds for open tables and ratings: quick play's bot fill, finished tables settled.

One task per server process wakes every ``UPKEEP_SECONDS`` (or at once when "Play now" opens
a table with no wait) and, with every database call in a thread:

* fills the free seats of quick-play tables whose wait ran out (``web_listings.fill_at``)
  with the game's default bot (the agent registry's ``default_agent``), so the game starts;
* settles finished listed tables (``ratings.settle``): their outcomes, and ratings if rated.

The deadlines and the settled marks are in the database, not in memory: after a restart the
first round fills every table whose wait ran out meanwhile and settles every table that
finished meanwhile. Of several processes (PostgreSQL) exactly one fills or settles a table:
each claims it with one conditional UPDATE first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from gamebag.web.lobby import preferred_bot
from gamebag.web.people.ratings import settle, unsettled
from gamebag.web.people.standingrows import ListingRow
from gamebag.web.store.db import TableRow, now
from gamebag.web.tables.manager import TableManager

log = logging.getLogger("gamebag.web")

UPKEEP_SECONDS = 2.0  # how long a quick-play fill or a finished table's rating may wait for its round
ROUND_LIMIT = 20  # tables filled or settled per round at most (the rest wait for the next one)


def due_fills(engine: Engine, limit: int = ROUND_LIMIT) -> list[str]:
    """Quick-play tables whose wait ran out, claimed for this process (one conditional UPDATE each)."""
    claimed = []
    with engine.begin() as connection:
        due = (
            connection.execute(
                select(ListingRow.table_id)
                .join(TableRow, TableRow.id == ListingRow.table_id)
                .where(ListingRow.quick.is_(True), ListingRow.filled.is_(False), ListingRow.fill_at <= now())
                .where(TableRow.closed.is_(None), TableRow.finished.is_(False))
                .limit(limit)
            )
            .scalars()
            .all()
        )
        for table_id in due:
            taken = connection.execute(
                update(ListingRow)
                .where(ListingRow.table_id == table_id, ListingRow.filled.is_(False))
                .values(filled=True)
            ).rowcount
            if taken:
                claimed.append(str(table_id))
    return claimed


def release_fill(engine: Engine, table_id: str) -> None:
    """A fill that failed (the bot workers busy, say) is tried again at the next round."""
    with engine.begin() as connection:
        connection.execute(update(ListingRow).where(ListingRow.table_id == table_id).values(filled=False))


class Upkeep:
    """The rounds of one server process (started and stopped with it)."""

    def __init__(self, manager: TableManager, seconds: float | None = None) -> None:
        self.manager = manager
        self.seconds = UPKEEP_SECONDS if seconds is None else seconds
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._failed: set[str] = set()  # tables whose settling failed: logged once, not retried every round

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def wake(self) -> None:
        """Run a round now (a quick-play table opened with no wait)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):  # the round's time came before any wake-up
                await asyncio.wait_for(self._wake.wait(), timeout=self.seconds)
            self._wake.clear()
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the open tables' round failed; it runs again later", exc_info=True)

    async def round(self) -> None:
        """Fill the quick-play tables that are due, then settle the finished tables."""
        engine = self.manager.store.engine
        for table_id in await asyncio.to_thread(due_fills, engine):
            await self._fill(table_id)
        for table_id in await asyncio.to_thread(unsettled, engine):
            if table_id in self._failed:
                continue
            try:
                await asyncio.to_thread(settle, engine, table_id)
            except Exception:
                self._failed.add(table_id)
                log.warning("table %s could not be settled (its outcome and ratings)", table_id, exc_info=True)

    async def _fill(self, table_id: str) -> None:
        """Every free seat (a person's seat nobody claimed) of a quick-play table gets the default bot."""
        try:
            table = await self.manager.get_async(table_id)
            agent = str(preferred_bot(table.game)["agent"])
            for seat in table.seats:
                if seat.agent is None and not seat.claimed and not table.is_over:
                    await self.manager.hand_to_bot(table, seat.seat, agent)
        except LookupError:
            return  # closed or gone meanwhile: nothing to fill
        except Exception:
            log.warning("the free seats of quick-play table %s could not be filled yet", table_id, exc_info=True)
            await asyncio.to_thread(release_fill, self.manager.store.engine, table_id)
