"""The server's tables: opening, loading, closing, sweeping; the manager assembled from its parts.

``TableManager`` is built from four parts, each readable alone: ``acting.py`` (an action
checked, committed and published with no other action in between), ``automation.py``
(bots and the turn clock, whose agents choose in the bounded worker pool, never on the
event loop), ``forcing.py`` (a person's only legal move made for them, unseen by others)
and ``ownership.py`` (on PostgreSQL, several processes serving one set of
tables: leases, replicas, promotion and forwarding). Their shared state and errors are in
``tablestate.py``.

Tables are loaded when first asked for (a restart loads nothing up front),
unloaded when idle with nobody connected, closed by their host or when nobody
has acted for ``Limits.idle_expiry_hours``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import time
from typing import Any

from gamebag.core.i18n import formatted, use_language
from gamebag.core.protocol import JsonDict
from gamebag.web.admission.bounds import LobbyError
from gamebag.web.admission.guard import RateLimited
from gamebag.web.lobby import game_title, parse_table_request, rematch_config
from gamebag.web.store.busseal import Sealer, bus_key
from gamebag.web.store.clockstore import database_offset, load_banks
from gamebag.web.store.cluster import Bus, new_node_id
from gamebag.web.store.db import StoredTable, TableConfig, now
from gamebag.web.store.faults import is_storage_fault
from gamebag.web.store.ownership import FORWARD_SECONDS, Owning
from gamebag.web.tables.acting import Acting
from gamebag.web.tables.automation import Automating
from gamebag.web.tables.banks import Banking
from gamebag.web.tables.claims import BY_HOST, USED_TEXT, claim_seat, new_secret
from gamebag.web.tables.forcing import Forcing
from gamebag.web.tables.live import LiveTable, SeatError, winners_of
from gamebag.web.tables.lobbyrows import fill_winners, lobby_rows
from gamebag.web.tables.messages import dumps
from gamebag.web.tables.summary import end_summary
from gamebag.web.tables.tablestate import (
    ForwardError,
    HostError,
    SeatAid,
    StaleStepError,
    TableAutomation,
    TableClock,
    TableClosedError,
    UnknownTableError,
    agent_key,
    closed_message,
    closed_words,
    moved_notice,
)
from gamebag.web.words.text import _
from gamebag.web.work.fairshare import SLOW_LANE
from gamebag.web.work.workers import BuildJob, JobFailed, JobTimeout, WorkersBusy, check_solve_budget

__all__ = [
    "FORWARD_SECONDS",
    "ForwardError",
    "HostError",
    "StaleStepError",
    "TableAutomation",
    "TableClock",
    "TableClosedError",
    "TableManager",
    "UnknownTableError",
    "agent_key",
]

log = logging.getLogger("gamebag.web")


class TableManager(Owning, Forcing, Automating, Banking, Acting):
    """Every table of this server, with the hub that carries their messages."""

    # ---- life of the server ------------------------------------------------------------------
    async def start(self) -> None:
        """Start the sweeper (and, on PostgreSQL, the bus and the leases); tables load when asked for."""
        loop = asyncio.get_running_loop()
        self._sweeper = loop.create_task(self._sweep_forever())
        self._bank_checker = loop.create_task(self._banks_forever())  # one scheduler for every bank
        if self.store.is_postgresql:
            self.node = new_node_id()
            self.store.node = self.node
            self.sealer = Sealer(await asyncio.to_thread(bus_key, self.store.engine))
            self.bus = Bus(self.store.url, self.node)
            self.store.heartbeat(self.limits.lease_seconds)  # alive before anyone hears of this process
            self.bank_clock.offset = await asyncio.to_thread(database_offset, self.store.engine)
            await self.bus.start(self._on_bus, self._reload_replicas)
            self._leases = loop.create_task(self._keep_leases())

    async def stop(self) -> None:
        for task in (self._sweeper, self._leases, self._bank_checker):
            if task is not None:
                task.cancel()
        for automation in self._automation.values():
            if automation.clock.handle is not None:
                automation.clock.handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        self.pool.close()
        if self.node is not None:
            self.store.release(list(self.tables))
            self.store.leave()
        if self.bus is not None:
            await self.bus.close()

    # ---- tables -------------------------------------------------------------------------------
    def get(self, table_id: str) -> LiveTable:
        """The table, loaded from the database (and its bots and clock set going) if need be.

        In a cluster this process takes the table's lease if it is free; otherwise the
        table is a replica of the owner's.
        """
        table = self.tables.get(table_id) or self.replicas.get(table_id)
        if table is not None:
            return table
        stored = self._stored(table_id)
        owner = self.store.acquire_or_owner(table_id, self.limits.lease_seconds) if self.node is not None else None
        return self._install(stored, owner)

    def is_loaded(self, table_id: str) -> bool:
        """Whether the table is in memory here (asking for it costs nothing)."""
        return table_id in self.tables or table_id in self.replicas

    async def get_async(self, table_id: str) -> LiveTable:
        """``get``, with the loading off the event loop: the table's rows are read and its game
        replayed in a thread (``LOADS_AT_ONCE`` tables at a time; requests for one table share
        its load), then the table is installed here on the loop (its bots and clock set going).
        """
        table = self.tables.get(table_id) or self.replicas.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.get_running_loop().create_task(self._load(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)  # one request giving up does not end the others' load

    async def _load(self, table_id: str) -> LiveTable:
        async with self._load_slots:
            table = self.tables.get(table_id) or self.replicas.get(table_id)
            if table is None:
                stored, owner, built, aid, summary = await asyncio.to_thread(self._read_and_rebuild, table_id)
                # A synchronous ``get`` may have loaded it meanwhile: that one stays.
                table = self.tables.get(table_id) or self.replicas.get(table_id)
                if table is None:
                    table = self._install(stored, owner, built, aid)
                    if summary is not None:
                        self._summaries.setdefault(table_id, summary)
                self._banks_read.pop(table_id, None)  # (unused if it was loaded meanwhile: never kept stale)
        return table

    def _read_and_rebuild(
        self, table_id: str
    ) -> tuple[StoredTable, str | None, LiveTable, SeatAid | None, JsonDict | None]:
        """Read and rebuild a table (in a thread): what ``_install`` then holds (the seats' standing
        passes and notes too, where this process serves it), and a finished table's end summary
        (which replays the game)."""
        stored = self._stored(table_id)
        owner = self.store.acquire_or_owner(table_id, self.limits.lease_seconds) if self.node is not None else None
        writer = self.store if self.node is None or owner == self.node else None
        table = LiveTable.rebuild(stored, writer)
        self._banks_read[table_id] = load_banks(self.store.engine, table_id)  # off the loop, with the rows
        if table.is_over and writer is not None:  # a table finished before the lobby's rows kept winners
            fill_winners(self.store.engine, table_id, winners_of(table.game, table.match.state))
        summary = end_summary(table.game, table.match.state, table.match.record.events) if table.is_over else None
        return stored, owner, table, None if writer is None else self._read_aid(table_id), summary

    def _stored(self, table_id: str) -> StoredTable:
        stored = self.store.load(table_id) if isinstance(table_id, str) and len(table_id) <= 64 else None
        if stored is None:
            raise UnknownTableError(_("no table {table} on this server", table=repr(table_id)))
        if stored.config.closed is not None:
            raise TableClosedError(closed_words(stored.config.closed, table_id))
        return stored

    def _install(
        self, stored: StoredTable, owner: str | None, built: LiveTable | None = None, aid: SeatAid | None = None
    ) -> LiveTable:
        """Hold a loaded table: owned (``owner`` is this process, or no cluster), else a replica.
        ``built``: the table already rebuilt from ``stored`` (off the loop), for that role; ``aid``:
        its seats' standing passes and notes, read with it (None: read here)."""
        table_id = stored.config.id
        if self.node is not None and owner != self.node:
            replica = built or LiveTable.rebuild(stored, None)
            self.replicas[table_id] = replica
            self._adopt_stored_clock(stored)
            self._load_table_banks(replica)  # shown as stored; its owner keeps them
            if owner is not None:
                self._owner_of[table_id] = owner
            return replica
        self._make_room()
        table = built or LiveTable.rebuild(stored, self.store)
        self.tables[table_id] = table
        self._adopt_aid(table_id, aid if aid is not None else self._read_aid(table_id))
        self._load_table_banks(table)
        self.automate(table)
        return table

    async def create(self, request: Any, owner: str = "") -> LiveTable:
        """Open a table from a lobby request (``LobbyError`` names what is wrong).

        Each agent is built once in the bot workers first, so that an agent this
        configuration does not allow, or whose solve would take too long, refuses the
        table instead of leaving it without a bot. A new solve is charged to the opener's
        address ``owner`` (``fairshare.py``).
        """
        config = parse_table_request(request, allow_seed=self.allow_seed)
        config = dataclasses.replace(config, host_token=secrets.token_urlsafe(24))
        await self._build_agents(config, owner)
        await asyncio.to_thread(self._store_new, config)  # the loop serves the other tables meanwhile
        return await self.get_async(config.id)

    async def _build_agents(self, config: TableConfig, owner: str = "") -> None:
        specs = sorted({seat.agent for seat in config.seats if seat.agent is not None} | {config.timeout_agent})
        options = json.dumps(config.options, sort_keys=True)
        for spec in specs:
            await self._build(config, options, spec, owner)

    async def rematch(self, table: LiveTable, started_by: str | None = None, owner: str = "") -> LiveTable:
        """The rematch of a finished table (same game, options and seats), opened once (a solve
        charged to ``owner``'s address).

        ``started_by``: who asked (a seat's name, or "the host"); whoever opens it is announced
        to everyone at the table then (a ``rematch`` message), so a friend's rematch is not missed.
        """
        if not table.is_over:
            raise LobbyError(_("a rematch can be started once the game is over"))
        opened_now = False
        if table.config.next_id is None:
            config = rematch_config(table.config)
            await self._build_agents(config, owner)
            async with table.lock:  # one rematch, however many ask at once (the game is over: no moves wait)
                if table.config.next_id is None:  # nobody opened it while the agents were built
                    # written in a thread: the event loop serves every other table meanwhile
                    await asyncio.to_thread(self._store_rematch, table.id, config)
                    table.reconfigure(dataclasses.replace(table.config, next_id=config.id))
                    opened_now = True
        try:  # loaded (read and rebuilt) off the event loop
            rematch = await self.get_async(table.config.next_id or "")
        except (UnknownTableError, TableClosedError):
            raise LobbyError(_("the rematch of this table is closed; open a new table from the lobby")) from None
        self.publish(table)  # everyone still at the old table learns where the rematch is
        if opened_now and started_by:
            for connection in self.hub.members(table.id):
                with use_language(connection.language):  # "the host" in each reader's words
                    by = _(BY_HOST) if started_by == BY_HOST else started_by
                connection.send(dumps({"type": "rematch", "by": by}))
        return rematch

    def _store_new(self, config: TableConfig) -> None:
        """Write a new table and its time banks (in a thread)."""
        self.store.create_table(config)
        self.open_banks(config)

    def _store_rematch(self, table_id: str, config: TableConfig) -> None:
        self._store_new(config)
        self.store.set_rematch(table_id, config.id)

    async def hand_to_bot(self, table: LiveTable, seat: int, agent: str, owner: str = "") -> None:
        """A person's seat (a no-show) is played by ``agent`` from now on; its link only watches."""
        if table.is_over:
            raise LobbyError(_("the game is over: there is nothing left to play for that seat"))
        if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise SeatError(_("seat must be from 0 to {most}", most=len(table.seats) - 1))
        if table.seats[seat].agent is not None:
            raise SeatError(_("seat {seat} is already played by a bot", seat=seat))
        await self._build(table.config, json.dumps(table.config.options, sort_keys=True), agent, owner)
        if table.seats[seat].agent is not None or table.is_over:
            return  # handed over (or finished) while the agent was built
        self.store.set_seat_agent(table.id, seat, agent)
        seats = tuple(dataclasses.replace(s, agent=agent) if s.seat == seat else s for s in table.seats)
        table.reconfigure(dataclasses.replace(table.config, seats=seats))
        for connection in self.hub.members(table.id):
            if connection.seat == seat:
                connection.seat = None  # the link no longer holds the seat: it watches from now on
        self.publish(table)
        self.announce_presence(table)
        if self.owns(table):
            self.automate(table)  # elsewhere the owning process starts the bot when the bus tells it

    async def _build(self, config: TableConfig, options: str, spec: str, owner: str = "") -> None:
        seconds = self.limits.solve_seconds
        job = BuildJob((config.game, config.players, options, spec))
        check_solve_budget(self.pool, job, owner, self.limits.solve_budget_seconds)
        shared = self.cluster_solves if self.pool.lane_of(job) == SLOW_LANE else None
        if shared is not None:  # a cluster: the budget holds over every process's solves
            await shared.check_solves(owner, self.limits.solve_budget_seconds)
        try:
            await self.pool.run(job, seconds, owner=owner)
            took = self.pool.build_seconds.get(job.key)
            if shared is not None and took is not None:
                await shared.charge_solve(owner, took)
        except WorkersBusy:
            raise RateLimited(_("the bot workers are busy preparing other tables; try again in a minute"), 60) from None
        except JobTimeout:
            raise LobbyError(
                _("agent {agent} for this configuration takes longer to prepare than this server's bound "
                  "of {seconds} s; choose smaller options or another agent", agent=repr(spec),
                  seconds=formatted(seconds, "g"))
            ) from None
        except JobFailed as error:
            raise LobbyError(_("agent {agent}: {error}", agent=repr(spec), error=error)) from None

    async def lobby(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest open tables as the lobby lists them, newest first: their summary rows, read
        in one query off the event loop (``lobbyrows.py``); no table is loaded or rebuilt."""
        rows = await asyncio.to_thread(lobby_rows, self.store.engine, limit)
        for row in rows:
            connected = self.connected_seats(row["id"])
            row["title"] = game_title(row["game"])
            for seat in row["seats"]:
                seat["connected"] = seat["seat"] in connected
        return rows

    def check_host(self, table: LiveTable, token: str | None) -> None:
        expected = table.config.host_token
        if not token or not expected or not secrets.compare_digest(token.encode(), expected.encode()):
            raise HostError(_("this needs the table's host token (in the X-Host-Token header)"))

    def close(self, table: LiveTable, reason: str) -> None:
        """Close a table for good: its readers are told and disconnected; it leaves memory."""
        self.store.close_table(table.id, reason)
        for connection in self.hub.members(table.id):
            connection.send(closed_message(reason, connection.language))
            connection.close(flush=True)
        self._unload(table.id)

    async def claim(self, table: LiveTable, code: str, name: str | None = None) -> tuple[int, str]:
        """The seat whose unused invite code is ``code``, claimed: its number and its new token,
        which only the claiming device is told (``claims.py``). ``name``: the signed-in claimer's
        account name, which the seat takes. The write runs in a thread; it is one conditional
        UPDATE, so of two claims of one code (here or in another process) exactly one wins."""
        unclaimed = [s.seat for s in table.seats if not s.claimed and s.agent is None]
        if not any(secrets.compare_digest(code.encode(), table.seats[s].token.encode()) for s in unclaimed):
            raise SeatError(_(USED_TEXT))
        token = new_secret()
        seat = await asyncio.to_thread(claim_seat, self.store, table.id, code, token, name)
        if seat is None:  # claimed a moment ago by another device (perhaps through another process)
            raise SeatError(_(USED_TEXT))
        self._set_seat(table, seat, token, claimed=True, name=name)
        self.publish(table)  # everyone sees that the seat is claimed
        return seat, token

    def rename_seats(self, table_id: str, names: dict[int, str]) -> None:
        """Seats of a loaded table renamed in the database (taken into an account, or anonymised
        when their account was deleted): the live table shows the new names at once."""
        table = self.tables.get(table_id) or self.replicas.get(table_id)
        if table is None:
            return  # loaded from the database, with its names, when next asked for
        seats = tuple(
            dataclasses.replace(s, name=names[s.seat]) if s.seat in names else s for s in table.seats
        )
        table.reconfigure(dataclasses.replace(table.config, seats=seats))
        self.publish(table)

    def reissue(self, table: LiveTable, seat: int) -> str:
        """A new invite code for a person's seat: the claimed token (or the old code) stops working
        and the seat's sockets are told they were moved. The host gets the code, never a token."""
        if not 0 <= seat < len(table.seats) or not isinstance(seat, int):
            raise SeatError(_("seat must be from 0 to {most}", most=len(table.seats) - 1))
        if table.seats[seat].agent is not None:
            raise SeatError(_("seat {seat} is played by a bot", seat=seat))
        code = new_secret()
        self.store.reissue_token(table.id, seat, code)
        self._set_seat(table, seat, code, claimed=False)
        for connection in self.hub.members(table.id):
            if connection.seat == seat:
                connection.send(moved_notice(connection.language))
                connection.close(flush=True)
        self.announce_presence(table)
        return code

    @staticmethod
    def _set_seat(table: LiveTable, seat: int, token: str, claimed: bool, name: str | None = None) -> None:
        changed = dataclasses.replace(table.seats[seat], token=token, claimed=claimed)
        if name is not None:
            changed = dataclasses.replace(changed, name=name)
        seats = tuple(changed if s.seat == seat else s for s in table.seats)
        table.reconfigure(dataclasses.replace(table.config, seats=seats))

    def _unload(self, table_id: str, release: bool = True) -> None:
        owned = self.tables.pop(table_id, None) is not None
        self.replicas.pop(table_id, None)
        self._remote_clocks.pop(table_id, None)
        self._owner_of.pop(table_id, None)
        self._summaries.pop(table_id, None)
        self.banks.pop(table_id, None)
        if owned and release and self.node is not None:
            self.store.release([table_id])
        automation = self._automation.pop(table_id, None)
        if automation is not None:
            self._stop_clock(automation)
            for task in list(automation.tasks):
                task.cancel()

    def _make_room(self) -> None:
        """Unload idle tables with nobody connected while more than ``live_tables`` are loaded."""
        excess = len(self.tables) + 1 - self.limits.live_tables
        if excess <= 0:
            return
        idle = sorted(
            (a.touched, table_id)
            for table_id, a in self._automation.items()
            if table_id in self.tables and not self.hub.members(table_id) and not a.tasks
        )
        for _when, table_id in idle[:excess]:
            self._unload(table_id)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                self.sweep()
            except Exception as error:
                if is_storage_fault(error):
                    self.storage.failed(error, "the table sweep")  # said once, not every sweep
                else:
                    log.exception("the table sweep failed; it runs again later")

    def sweep(self) -> None:
        """Close tables idle past the expiry; unload idle tables with nobody connected."""
        cutoff = now() - self.limits.idle_expiry_hours * 3600.0
        for table_id in self.store.idle_tables(cutoff):
            table = self.tables.get(table_id)
            if table is not None:
                self.close(table, "expired")
            else:
                self.store.close_table(table_id, "expired")
        quiet = time.monotonic() - self.limits.unload_seconds
        for table_id, automation in list(self._automation.items()):
            if automation.touched < quiet and not self.hub.members(table_id) and not automation.tasks:
                self._unload(table_id)
        for table_id in list(self.replicas):
            if not self.hub.members(table_id):
                self.replicas.pop(table_id, None)
        for table_id in list(self._remote_clocks):
            if table_id not in self.replicas:
                del self._remote_clocks[table_id]
