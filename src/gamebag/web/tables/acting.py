"""Acting and publishing: apply one action durably, then send every reader its own view.

Rules run on the server's one event loop, so an action is checked, committed and
published with no other action in between; each reader gets its own seat's picture
(or the public one), never another seat's secrets.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from functools import partial
from typing import Any

from gamebag.core.i18n import use_language
from gamebag.web.store.clockstore import write_banks
from gamebag.web.store.db import TABLES_CHANNEL, LeaseLostError
from gamebag.web.store.faults import PLAYER_TEXT, StorageUnavailable, is_storage_fault, retry_delay
from gamebag.web.tables.hub import Connection
from gamebag.web.tables.live import LiveTable, Staged, Submission
from gamebag.web.tables.messages import dumps, state_message, sync_text, table_meta
from gamebag.web.tables.summary import end_summary
from gamebag.web.tables.tablestate import (
    BankChanges,
    ForwardError,
    ManagerState,
    StaleStepError,
    TableAutomation,
    TableClosedError,
    UnknownTableError,
)
from gamebag.web.words.text import _

log = logging.getLogger("gamebag.web")


class Acting(ManagerState):
    """Acting on a table this process owns, and every message its readers get."""

    # ---- acting -------------------------------------------------------------------------------
    async def act(
        self, table: LiveTable, seat: int, action_json: Any, step: int | None = None, waiting: bool = False
    ) -> Submission:
        """Apply one action durably, then tell every reader, then wake bots and the clock.

        ``step``: the action was chosen at that step (refused once the table moved on);
        ``waiting``: refused unless the seat still has to choose (a bot's or the clock's
        move). The commit runs off the event loop on PostgreSQL, one table's actions one at
        a time (``LiveTable.lock``), so a slow round trip holds up only its own table.
        """
        async with table.lock:
            if step is not None and step != table.step:
                raise StaleStepError(
                    _("the table has moved on (step {step}, not {asked}); choose again", step=table.step, asked=step)
                )
            if waiting and seat not in table.waiting_for():
                raise StaleStepError(_("seat {seat} has already chosen", seat=seat))
            chosen_before = dict(table.match.pending)
            staged = table.stage(seat, action_json)
            banked = self.banks_after(table, staged)  # the time banks this action stops and starts
            try:
                await self._write(table, staged, banked)
            except LeaseLostError:
                # The lease ran out (this process was too busy to renew it in time). If no other
                # process took the table meanwhile, take the lease again and apply the action.
                if not self.store.acquire(table.id, self.limits.lease_seconds):
                    self._demote(table.id)  # another process owns the table now; nothing was written here
                    raise ForwardError(_("the table moved to another server; choose again")) from None
                if self.store.load_since(table.id, table.step)[0]:
                    # Another process had it in between and moved it on: start again from the database.
                    self._unload(table.id, release=False)
                    self.publish(await self.get_async(table.id))  # read and rebuilt off the loop
                    raise ForwardError(_("the table has moved on; choose again")) from None
                await self._write(table, staged, banked)
            submission = table.apply(staged)
            await self.banks_written(table, banked)  # (a cluster's: stored now, before anyone is told)
            self.actions_accepted += 1
            if table.is_over:  # the end summary replays the game: built in a thread before it is sent
                await self.summarize(table)
            only = changed_choices(chosen_before, table)
            self.publish(table, None if only is None else only | {seat})
            self.automate(table)
        return submission

    async def _write(self, table: LiveTable, staged: Staged, banked: BankChanges) -> None:
        """Commit ``staged`` (on SQLite with the time banks it changes, in its transaction); a storage
        fault (``faults.py``) is told once and raised as ``StorageUnavailable``."""
        try:
            if self.store.is_sqlite:
                also = None if not banked else partial(write_banks, table_id=table.id, banks=banked.values())
                table.write(staged, self.store, also)  # a local file: quicker here than a hop to a thread
            else:
                await asyncio.to_thread(table.write, staged, self.store)
        except LeaseLostError:
            raise
        except Exception as error:
            if not is_storage_fault(error):
                raise
            self.storage.failed(error, f"a move at table {table.id}")
            raise StorageUnavailable(_(PLAYER_TEXT)) from error
        self.storage.succeeded()

    async def act_durably(self, table: LiveTable, seat: int, action_json: Any, step: int, why: str) -> None:
        """``act`` for a move the server makes itself (``why``: a bot's, the clock's, a forced one):
        a storage fault is tried again with backoff (``faults.RETRY_DELAYS``) while the table
        still waits for that move here, so the table carries on by itself once the fault clears.
        ``StaleStepError``: the table moved on, or the seat chose, meanwhile."""
        attempt = 0
        while True:
            try:
                await self.act(table, seat, action_json, step=step, waiting=True)
                return
            except StorageUnavailable:
                delay = retry_delay(attempt)
                log.warning("%s at table %s seat %d not saved; trying again in %g s", why, table.id, seat, delay)
                attempt += 1
            await asyncio.sleep(delay)
            if table.step != step or seat not in table.waiting_for() or self.tables.get(table.id) is not table:
                raise StaleStepError(_("the table moved on while the move waited to be saved"))

    # ---- messages -------------------------------------------------------------------------------
    def connected_seats(self, table_id: str) -> set[int]:
        """Seats with a connection here or (in a cluster) on another process."""
        seats = self.hub.connected_seats(table_id)
        for elsewhere in self._remote_seats.get(table_id, {}).values():
            seats |= elsewhere
        return seats

    def meta(self, table: LiveTable) -> dict[str, Any]:
        clock = self._automation.get(table.id)
        deadline = clock.clock.deadline if clock is not None and clock.clock.step == table.step else None
        remote = self._remote_clocks.get(table.id)
        if deadline is None and remote is not None and remote[0] == table.step and not self.owns(table):
            deadline = remote[1]  # the owner's clock, as it announced it
        meta = table_meta(table, self.connected_seats(table.id), deadline, self.clock_waits(table))
        meta["banks"] = self.bank_facts(table)
        return meta

    def sync(self, connection: Connection, table: LiveTable, history: bool = True) -> None:
        """Send one connection the whole picture, with its seat's recent history (``history``).

        The history comes from the views the table keeps (``LiveTable.history_json``): a sync
        never replays the game.
        """
        with use_language(connection.language):  # called from other tasks too: the reader's own words
            text = sync_text(
                table,
                connection.seat,
                self.meta(table),
                history=history,
                summary=self.end_summary(table),
                rematch=self.rematch_of(table),
                own=self.own_facts(table, connection.seat),
            )
        connection.send(text)

    def publish(self, table: LiveTable, only: Collection[int] | None = None) -> None:
        """Send every connection of the table its own seat's (or the public) picture.

        ``only``: just these seats' connections (a seat that changed its secret choice: what
        everyone else sees is the same, and a message would tell them it changed its mind).
        Each message is made in its readers' language (``Connection.language``): one per seat and
        language, whichever task (a move of another seat, a bot, a timer) publishes.
        """
        members = self.hub.members(table.id)
        if only is not None:
            members = [connection for connection in members if connection.seat in only]
        if not members:
            return
        by_reader: dict[tuple[str, int | None], list[Connection]] = {}
        for connection in members:
            by_reader.setdefault((connection.language, connection.seat), []).append(connection)
        for language in sorted({language for language, _seat in by_reader}):
            with use_language(language):
                meta = self.meta(table)
                summary = self.end_summary(table)
                rematch = self.rematch_of(table)
                for (reader_language, seat), connections in by_reader.items():
                    if reader_language != language:
                        continue
                    own = self.own_facts(table, seat)
                    text = dumps(state_message(table, seat, meta, summary=summary, rematch=rematch, own=own))
                    for connection in connections:
                        connection.send(text)

    def announce_presence(self, table: LiveTable, broadcast: bool = True) -> None:
        """Tell every reader which seats are connected (public: anyone at a table sees who sits)."""
        text = dumps({"type": "presence", "connected": sorted(self.connected_seats(table.id))})
        for connection in self.hub.members(table.id):
            connection.send(text)
        self._on_presence(table)
        if broadcast and self.bus is not None:
            here = sorted(self.hub.connected_seats(table.id))
            message = {"k": "presence", "t": table.id, "n": self.node, "seats": here}
            self._spawn(self._automation.setdefault(table.id, TableAutomation()), self._send_quietly(message))

    async def _send_quietly(self, message: dict[str, Any]) -> None:
        if self.bus is not None:
            try:
                await self.bus.send(TABLES_CHANNEL, message)
            except Exception:
                log.warning("presence could not be sent on the bus", exc_info=True)

    def end_summary(self, table: LiveTable) -> dict[str, Any] | None:
        """Scores by round and every seat's final view, once the game is over (kept while loaded).

        Building it replays the whole game, so it is built in a thread (``summarize``): where it
        is not built yet (a finished table that arrived here otherwise than by a move made here),
        None now, and the table's readers get it in a new picture once it is."""
        if not table.is_over:
            return None
        summary = self._summaries.get(table.id)
        if summary is None and table.id not in self._summarizing:
            self._summarizing.add(table.id)
            self._spawn_task(self._summarize_and_publish(table))
        return summary

    async def summarize(self, table: LiveTable) -> None:
        """Build the finished ``table``'s end summary in a thread, once, and keep it while the table is here."""
        if table.id in self._summaries:
            return
        summary = await asyncio.to_thread(end_summary, table.game, table.match.state, table.match.record.events)
        if self._holds(table):
            self._summaries[table.id] = summary

    async def _summarize_and_publish(self, table: LiveTable) -> None:
        try:
            await self.summarize(table)
        finally:
            self._summarizing.discard(table.id)
        if self._holds(table):
            self.publish(table)

    def _holds(self, table: LiveTable) -> bool:
        """Whether ``table`` (this object) is still here, owned or watched."""
        return self.tables.get(table.id) is table or self.replicas.get(table.id) is table

    def rematch_of(self, table: LiveTable) -> LiveTable | None:
        """The finished table's rematch if it is in memory here. One that is not is loaded off the
        loop (``get_async``) and the table's readers are then told where it is: None until then."""
        next_id = table.config.next_id
        if next_id is None or next_id in self._no_rematch:
            return None
        rematch = self.tables.get(next_id) or self.replicas.get(next_id)
        if rematch is None and next_id not in self._loading:
            self._spawn_task(self._load_rematch(table, next_id))
        return rematch

    async def _load_rematch(self, table: LiveTable, next_id: str) -> None:
        try:
            await self.get_async(next_id)
        except (UnknownTableError, TableClosedError):
            self._no_rematch.add(next_id)  # closed (or gone) for good: not asked for again
            return
        except Exception:
            log.warning("the rematch %s of table %s could not be loaded", next_id, table.id, exc_info=True)
            return
        if self._holds(table):
            self.publish(table)


def changed_choices(chosen_before: dict[int, Any], table: LiveTable) -> set[int] | None:
    """The seats whose readers alone must hear of what changed since ``chosen_before`` (the
    pending secret choices then): the seats that changed a choice, when nothing else changed
    (the same step, the same seats having chosen). None: everyone must (the table moved on,
    or a seat chose for the first time, which is public)."""
    pending = table.match.pending
    if set(pending) != set(chosen_before) or not pending:
        return None
    return {seat for seat, action in pending.items() if chosen_before[seat] != action}
