"""The server's tables: opening, loading, acting, publishing, closing, and the bots and turn timers.

Rules run on the server's one event loop, so an action is checked, committed
and published with no other action in between. Agents never run there: bots
and timed-out seats choose in the bounded worker pool (``workers.py``) with a
time limit per move (a bot that overruns plays a random legal move instead),
and act through the same door as people (``LiveTable.submit``), with
generators derived from the table's secret seed and the event index, so a
rebuilt table's bots choose exactly as they would have.

Tables are loaded when first asked for (a restart loads nothing up front),
unloaded when idle with nobody connected, closed by their host or when nobody
has acted for ``Limits.idle_expiry_hours``.

On PostgreSQL several processes serve one set of tables. Each table has one
owner at a time, the process holding its lease in the database: only the owner
applies actions, runs the table's bots and turn clock, and writes (each write
checks the lease in its own transaction). Another process with clients at the
table keeps a read-only *replica*, reloaded from the database whenever the bus
announces a change, sends its clients their views from it, and forwards their
actions to the owner over the bus (each forwarded action names the step it was
chosen at, so a retry can never be applied twice). The owner renews its leases
every third of ``Limits.lease_seconds``; when it dies its leases run out, and a
process watching the table takes it over by rebuilding it from the database,
where every acknowledged action already is.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from gamebag.core.errors import GamebagError
from gamebag.core.rng import derive_rng
from gamebag.web.bounds import LobbyError
from gamebag.web.cluster import Bus, new_node_id, node_channel
from gamebag.web.db import TABLES_CHANNEL, LeaseLostError, Store, StoredTable, TableConfig, now
from gamebag.web.hub import Connection, Hub
from gamebag.web.live import LiveTable, SeatError, Staged, Submission
from gamebag.web.lobby import parse_table_request, rematch_config
from gamebag.web.messages import dumps, state_message, table_meta
from gamebag.web.settings import Limits
from gamebag.web.summary import end_summary
from gamebag.web.workers import AgentKey, BuildJob, JobFailed, JobTimeout, MoveJob, WorkerPool

log = logging.getLogger("gamebag.web")


class UnknownTableError(LookupError):
    """A table id that this server does not hold."""


class TableClosedError(LookupError):
    """A table closed by its host or expired: it is kept (its record too) but nobody plays it."""


class HostError(PermissionError):
    """A host-only request without the table's host token."""


class ForwardError(GamebagError):
    """An action for a table owned by another process that could not be confirmed."""


class StaleStepError(GamebagError):
    """An action chosen at a step the table has moved on from (or for a seat that already chose)."""


FORWARD_SECONDS = 10.0  # how long a forwarded action waits for the owner's answer


@dataclass
class _TableClock:
    """The turn timer of one table: the step it runs for and its deadline."""

    step: int = -1
    deadline: float | None = None
    handle: asyncio.TimerHandle | None = None


@dataclass
class _Automation:
    """Bot moves already scheduled, by (seat, step), the turn clock and the table's running tasks."""

    scheduled: set[tuple[int, int]] = field(default_factory=set)
    clock: _TableClock = field(default_factory=_TableClock)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    touched: float = field(default_factory=time.monotonic)
    # a cluster: the clock needs storing (and the task storing it runs); the clock the previous
    # owner stored (step, wall-clock deadline), kept by a process that takes the table over
    clock_dirty: bool = False
    clock_writing: bool = False
    inherited: tuple[int, float | None] | None = None


def agent_key(table: LiveTable, spec: str) -> AgentKey:
    config = table.config
    return (config.game, config.players, json.dumps(config.options, sort_keys=True), spec)


class TableManager:
    """Every table of this server, with the hub that carries their messages."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        allow_seed: bool = False,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.hub = Hub()
        self.pool = WorkerPool(self.limits.bot_workers)
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.tables: dict[str, LiveTable] = {}
        self._automation: dict[str, _Automation] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._summaries: dict[str, dict[str, Any]] = {}  # end summaries of loaded finished tables
        self.actions_accepted = 0
        self.fallback_moves = 0
        # a cluster (PostgreSQL): this process's id, the bus, tables owned elsewhere that local
        # clients watch, forwarded actions awaiting their answer, seats connected elsewhere
        self.node: str | None = None
        self.bus: Bus | None = None
        self.replicas: dict[str, LiveTable] = {}
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._remote_seats: dict[str, dict[str, set[int]]] = {}
        self._owner_of: dict[str, str] = {}  # the process that last wrote each watched table
        self._remote_clocks: dict[str, tuple[int, float | None]] = {}  # the owner's clock: step, deadline
        self._leases: asyncio.Task[None] | None = None
        self.takeovers = 0

    # ---- life of the server ------------------------------------------------------------------
    async def start(self) -> None:
        """Start the sweeper (and, on PostgreSQL, the bus and the leases); tables load when asked for."""
        loop = asyncio.get_running_loop()
        self._sweeper = loop.create_task(self._sweep_forever())
        if self.store.is_postgresql:
            self.node = new_node_id()
            self.store.node = self.node
            self.bus = Bus(self.store.url, self.node)
            self.store.heartbeat(self.limits.lease_seconds)  # alive before anyone hears of this process
            await self.bus.start(self._on_bus, self._reload_replicas)
            self._leases = loop.create_task(self._keep_leases())

    async def stop(self) -> None:
        for task in (self._sweeper, self._leases):
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

    async def get_async(self, table_id: str) -> LiveTable:
        """``get``, with the database's part off the event loop (a new connection's table)."""
        table = self.tables.get(table_id) or self.replicas.get(table_id)
        if table is not None or self.store.is_sqlite:
            return table or self.get(table_id)
        stored = await asyncio.to_thread(self._stored, table_id)
        table = self.tables.get(table_id) or self.replicas.get(table_id)  # loaded meanwhile
        if table is not None:
            return table
        owner = None
        if self.node is not None:
            owner = await asyncio.to_thread(self.store.acquire_or_owner, table_id, self.limits.lease_seconds)
        return self.tables.get(table_id) or self.replicas.get(table_id) or self._install(stored, owner)

    def _stored(self, table_id: str) -> StoredTable:
        stored = self.store.load(table_id) if isinstance(table_id, str) and len(table_id) <= 64 else None
        if stored is None:
            raise UnknownTableError(f"no table {table_id!r} on this server")
        if stored.config.closed is not None:
            raise TableClosedError(f"table {table_id} was {_closed_words(stored.config.closed)}")
        return stored

    def _install(self, stored: StoredTable, owner: str | None) -> LiveTable:
        """Hold a loaded table: owned (``owner`` is this process, or no cluster), else a replica."""
        table_id = stored.config.id
        if self.node is not None and owner != self.node:
            replica = LiveTable.rebuild(stored, None)
            self.replicas[table_id] = replica
            self._adopt_stored_clock(stored)
            if owner is not None:
                self._owner_of[table_id] = owner
            return replica
        self._make_room()
        table = LiveTable.rebuild(stored, self.store)
        self.tables[table_id] = table
        self.automate(table)
        return table

    def owns(self, table: LiveTable) -> bool:
        return self.tables.get(table.id) is table

    async def create(self, request: Any) -> LiveTable:
        """Open a table from a lobby request (``LobbyError`` names what is wrong).

        Each agent is built once in the bot workers first, so that an agent this
        configuration does not allow, or whose solve would take too long, refuses the
        table instead of leaving it without a bot.
        """
        config = parse_table_request(request, allow_seed=self.allow_seed)
        config = dataclasses.replace(config, host_token=secrets.token_urlsafe(24))
        await self._build_agents(config)
        self.store.create_table(config)
        return self.get(config.id)

    async def _build_agents(self, config: TableConfig) -> None:
        specs = sorted({seat.agent for seat in config.seats if seat.agent is not None} | {config.timeout_agent})
        options = json.dumps(config.options, sort_keys=True)
        for spec in specs:
            await self._build(config, options, spec)

    async def rematch(self, table: LiveTable) -> LiveTable:
        """The rematch of a finished table (same game, options and seats), opened once."""
        if not table.is_over:
            raise LobbyError("a rematch can be started once the game is over")
        if table.config.next_id is None:
            config = rematch_config(table.config)
            await self._build_agents(config)
            if table.config.next_id is None:  # nobody opened it while the agents were built
                self.store.create_table(config)
                self.store.set_rematch(table.id, config.id)
                table.reconfigure(dataclasses.replace(table.config, next_id=config.id))
        rematch = self.rematch_of(table)
        if rematch is None:
            raise LobbyError("the rematch of this table is closed; open a new table from the lobby")
        self.publish(table)  # everyone still at the old table learns where the rematch is
        return rematch

    def rematch_of(self, table: LiveTable) -> LiveTable | None:
        next_id = table.config.next_id
        if next_id is None:
            return None
        try:
            return self.get(next_id)
        except (UnknownTableError, TableClosedError):
            return None

    async def hand_to_bot(self, table: LiveTable, seat: int, agent: str) -> None:
        """A person's seat (a no-show) is played by ``agent`` from now on; its link only watches."""
        if table.is_over:
            raise LobbyError("the game is over: there is nothing left to play for that seat")
        if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise SeatError(f"seat must be from 0 to {len(table.seats) - 1}")
        if table.seats[seat].agent is not None:
            raise SeatError(f"seat {seat} is already played by a bot")
        await self._build(table.config, json.dumps(table.config.options, sort_keys=True), agent)
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

    def end_summary(self, table: LiveTable) -> dict[str, Any] | None:
        """Scores by round and every seat's final view, once the game is over (kept while loaded)."""
        if not table.is_over:
            return None
        summary = self._summaries.get(table.id)
        if summary is None:
            summary = end_summary(table.game, table.match.state, table.match.record.events)
            self._summaries[table.id] = summary
        return summary

    async def _build(self, config: TableConfig, options: str, spec: str) -> None:
        seconds = self.limits.solve_seconds
        try:
            await self.pool.run(BuildJob((config.game, config.players, options, spec)), seconds)
        except JobTimeout:
            raise LobbyError(
                f"agent {spec!r} for this configuration takes longer to prepare than this server's bound "
                f"of {seconds:g} s; choose smaller options or another agent"
            ) from None
        except JobFailed as error:
            raise LobbyError(f"agent {spec!r}: {error}") from None

    def list_tables(self, limit: int = 100) -> list[LiveTable]:
        """The newest tables that are loaded or can be (closed ones are left out)."""
        tables = []
        for table_id in reversed(self.store.table_ids(limit=limit)):
            try:
                tables.append(self.get(table_id))
            except (TableClosedError, UnknownTableError):
                continue
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
        return tables

    def check_host(self, table: LiveTable, token: str | None) -> None:
        expected = table.config.host_token
        if not token or not expected or not secrets.compare_digest(token.encode(), expected.encode()):
            raise HostError("this needs the table's host token (in the X-Host-Token header)")

    def close(self, table: LiveTable, reason: str) -> None:
        """Close a table for good: its readers are told and disconnected; it leaves memory."""
        self.store.close_table(table.id, reason)
        text = dumps({"type": "closed", "reason": reason, "message": f"this table was {_closed_words(reason)}"})
        for connection in self.hub.members(table.id):
            connection.send(text)
            connection.close(flush=True)
        self._unload(table.id)

    def reissue(self, table: LiveTable, seat: int) -> str:
        """A new token for a person's seat; the old one stops working and its sockets are closed."""
        if not 0 <= seat < len(table.seats) or not isinstance(seat, int):
            raise SeatError(f"seat must be from 0 to {len(table.seats) - 1}")
        if table.seats[seat].agent is not None:
            raise SeatError(f"seat {seat} is played by a bot")
        token = secrets.token_urlsafe(24)
        self.store.reissue_token(table.id, seat, token)
        seats = tuple(dataclasses.replace(s, token=token) if s.seat == seat else s for s in table.seats)
        table.reconfigure(dataclasses.replace(table.config, seats=seats))
        notice = dumps({"type": "error", "message": "this seat's link was re-issued by the host", "ref": None})
        for connection in self.hub.members(table.id):
            if connection.seat == seat:
                connection.send(notice)
                connection.close(flush=True)
        self.announce_presence(table)
        return token

    def _unload(self, table_id: str, release: bool = True) -> None:
        owned = self.tables.pop(table_id, None) is not None
        self.replicas.pop(table_id, None)
        self._remote_clocks.pop(table_id, None)
        self._owner_of.pop(table_id, None)
        self._summaries.pop(table_id, None)
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
        for _, table_id in idle[:excess]:
            self._unload(table_id)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                self.sweep()
            except Exception:
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

    # ---- a cluster: leases, replicas, the bus ---------------------------------------------------
    async def _keep_leases(self) -> None:
        while True:
            await asyncio.sleep(self.limits.lease_seconds / 3.0)
            try:
                self.check_leases()
            except Exception:
                log.exception("renewing leases failed; trying again")

    def check_leases(self) -> None:
        """Renew this process's leases; give up lost ones; take over watched tables whose owner is gone.

        Also says this process is alive, and forgets the seats connected to processes that are not.
        """
        self.forget_dead(self.store.heartbeat(self.limits.lease_seconds))
        owned = set(self.tables)
        kept = self.store.renew(owned, self.limits.lease_seconds)
        for table_id in owned - kept:
            log.warning("table %s: lease lost to another process", table_id)
            self._demote(table_id)
        watched = [table_id for table_id in self.replicas if self.hub.members(table_id)]
        for table_id, owner in self.store.owners(watched).items():
            if owner is None:
                self._promote(table_id)

    def forget_dead(self, alive: set[str]) -> None:
        """Drop the connected seats announced by processes no longer alive; tell local readers."""
        for table_id, by_node in list(self._remote_seats.items()):
            dead = [node for node in by_node if node not in alive]
            if not dead:
                continue
            for node in dead:
                del by_node[node]
            if not by_node:
                del self._remote_seats[table_id]
            table = self.tables.get(table_id) or self.replicas.get(table_id)
            if table is not None:
                self.announce_presence(table, broadcast=False)

    def _promote(self, table_id: str) -> bool:
        """Take a watched table over from the database if its lease is free; True if this process owns it."""
        if table_id in self.tables:
            return True
        if not self.store.acquire(table_id, self.limits.lease_seconds):
            return False
        stored = self.store.load(table_id)
        if stored is None or stored.config.closed is not None:
            self.store.release([table_id])
            return False
        self.replicas.pop(table_id, None)
        table = LiveTable.rebuild(stored, self.store)
        self.tables[table_id] = table
        self._remote_clocks.pop(table_id, None)
        self._inherit_clock(stored)
        self.takeovers += 1
        log.warning("table %s taken over at step %d", table_id, table.step)
        self.automate(table)
        self.publish(table)
        return True

    def _demote(self, table_id: str) -> None:
        """This process lost a table's lease: stop its bots; keep a replica for local clients."""
        self._unload(table_id, release=False)
        if self.hub.members(table_id):
            self._refresh(table_id)

    def _refresh(self, table_id: str) -> None:
        """Reload a replica from the database and send local clients their views."""
        stored = self.store.load(table_id)
        if stored is None:
            return
        if stored.config.closed is not None:
            self._closed_elsewhere(table_id, stored.config.closed)
            return
        old = self.replicas.get(table_id)
        replica = LiveTable.rebuild(stored, None)
        self.replicas[table_id] = replica
        self._adopt_stored_clock(stored)
        if old is not None:
            self._drop_stale_seats(old, replica)
        self.publish(replica)

    def _catch_up(self, table_id: str, notice: dict[str, Any]) -> None:
        """Bring a replica to the owner's latest commit: from the notice's own data when it
        carries it and follows on from the replica, else by reading only what is new."""
        replica = self.replicas[table_id]
        step = int(notice.get("s", -1))
        if step != -1 and step < replica.step:
            return  # an announcement the replica is already past
        try:
            if notice.get("k") == "events" and "e" in notice and notice.get("f") == replica.step:
                replica.catch_up(list(notice["e"]), {})
            elif notice.get("k") == "pending" and "a" in notice and step == replica.step:
                replica.take_pending(int(notice["seat"]), notice["a"])
            else:
                events, pending = self.store.load_since(table_id, replica.step)
                replica.catch_up(events, pending)
        except Exception:
            log.exception("replica %s could not follow; reloading it", table_id)
            self._refresh(table_id)
            return
        self.publish(replica)

    def _reload_replicas(self) -> None:
        for table_id in list(self.replicas):
            try:
                self._refresh(table_id)
            except Exception:
                log.exception("replica %s could not be reloaded", table_id)

    def _closed_elsewhere(self, table_id: str, reason: str) -> None:
        text = dumps({"type": "closed", "reason": reason, "message": f"this table was {_closed_words(reason)}"})
        for connection in self.hub.members(table_id):
            connection.send(text)
            connection.close(flush=True)
        self._unload(table_id, release=False)

    def _drop_stale_seats(self, old: LiveTable, new: LiveTable) -> None:
        """Local sockets of seats changed on another process: a re-issued token closes them, a seat
        handed to a bot makes them watchers."""
        changed = {a.seat for a, b in zip(old.seats, new.seats, strict=True) if a.token != b.token}
        to_bots = {a.seat for a, b in zip(old.seats, new.seats, strict=True) if a.agent is None and b.agent}
        notice = dumps({"type": "error", "message": "this seat's link was re-issued by the host", "ref": None})
        for connection in self.hub.members(old.id):
            if connection.seat in changed:
                connection.send(notice)
                connection.close(flush=True)
            elif connection.seat in to_bots:
                connection.seat = None

    async def _on_bus(self, channel: str, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if channel == TABLES_CHANNEL:
            if message.get("n") == self.node and kind in ("events", "pending", "clock"):
                return
            table_id = str(message.get("t"))
            if kind == "presence":
                seats = {int(seat) for seat in message.get("seats", ())}
                self._remote_seats.setdefault(table_id, {})[str(message.get("n"))] = seats
                table = self.tables.get(table_id) or self.replicas.get(table_id)
                if table is not None:
                    self.announce_presence(table, broadcast=False)
            elif kind == "clock":
                self._take_clock(table_id, message)
            elif kind == "closed":
                if table_id in self.tables or table_id in self.replicas:
                    self._closed_elsewhere(table_id, "host")
            elif kind == "seats":
                owned = self.tables.get(table_id)
                if owned is not None:
                    stored = self.store.load(table_id)
                    if stored is not None:
                        before = LiveTable(owned.config, owned.game, owned.match)
                        owned.reconfigure(stored.config)
                        self._drop_stale_seats(before, owned)
                        self.publish(owned)
                        self.automate(owned)  # a seat handed to a bot elsewhere: its bot plays here
                elif table_id in self.replicas:
                    self._refresh(table_id)
            elif table_id in self.tables:
                self._demote(table_id)  # another process wrote: this one's lease is gone
            elif table_id in self.replicas:
                self._owner_of[table_id] = str(message.get("n"))
                self._catch_up(table_id, message)
        elif kind == "act":
            # Started in bus order (each table's lock keeps that order), without holding up the bus.
            self._spawn_task(self._answer_for_other(message))
        elif kind in ("ack", "error"):
            future = self._answers.get(str(message.get("r")))
            if future is not None and not future.done():
                future.set_result(message)

    def _spawn_task(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer_for_other(self, message: dict[str, Any]) -> None:
        channel, answer = await self._act_for_other(message)
        if self.bus is not None:
            await self.bus.send(channel, answer)

    async def _act_for_other(self, message: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """An action forwarded by another process: apply it here if this process owns the table.

        Returns the channel the answer goes to, and the answer.
        """
        answer: dict[str, Any] = {"k": "error", "r": message.get("r")}
        table_id = str(message.get("t"))
        try:
            table = self.get(table_id)
            if not self.owns(table):
                answer["m"] = "the table moved to another server; choose again"
            else:
                step = message.get("s")
                seat = int(message["seat"])
                submission = await self.act(table, seat, message.get("a"), step=step if isinstance(step, int) else -1)
                answer = {"k": "ack", "r": message.get("r"), "s": submission.step, "e": bool(submission.events)}
        except (GamebagError, LookupError, LeaseLostError) as error:
            answer["m"] = str(error)
        except Exception:
            log.exception("forwarded action at table %s failed", table_id)
            answer["m"] = "the server could not apply this action; nothing changed"
        return node_channel(str(message.get("n"))), answer

    async def forward(self, table: LiveTable, seat: int, action_json: Any, step: int) -> dict[str, Any]:
        """Have the owner apply an action chosen at ``step``; its answer (``ack`` or ``error``)."""
        if self.bus is None or self.node is None:
            raise ForwardError("this table is not served here")
        owner = self._owner_of.get(table.id) or self.store.owners([table.id]).get(table.id)
        if owner is None or owner == self.node:
            if self._promote(table.id):
                submission = await self.act(self.tables[table.id], seat, action_json, step=step)
                return {"k": "ack", "s": submission.step, "e": bool(submission.events)}
            owner = self.store.owners([table.id]).get(table.id)
            if owner is None:
                raise ForwardError("the table's server is changing; choose again in a moment")
        reference = new_node_id()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[reference] = future
        try:
            await self.bus.send(
                node_channel(owner),
                {"k": "act", "t": table.id, "seat": seat, "a": action_json, "s": step, "r": reference, "n": self.node},
            )
            return await asyncio.wait_for(future, FORWARD_SECONDS)
        except TimeoutError:
            self._owner_of.pop(table.id, None)  # ask the database next time: the owner may be gone
            raise ForwardError(
                "the table's server did not answer in time; look at the table and choose again if it still asks"
            ) from None
        finally:
            self._answers.pop(reference, None)

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
                raise StaleStepError(f"the table has moved on (step {table.step}, not {step}); choose again")
            if waiting and seat not in table.waiting_for():
                raise StaleStepError(f"seat {seat} has already chosen")
            staged = table.stage(seat, action_json)
            try:
                await self._write(table, staged)
            except LeaseLostError:
                # The lease ran out (this process was too busy to renew it in time). If no other
                # process took the table meanwhile, take the lease again and apply the action.
                if not self.store.acquire(table.id, self.limits.lease_seconds):
                    self._demote(table.id)  # another process owns the table now; nothing was written here
                    raise ForwardError("the table moved to another server; choose again") from None
                if self.store.load_since(table.id, table.step)[0]:
                    # Another process had it in between and moved it on: start again from the database.
                    self._unload(table.id, release=False)
                    self.publish(self.get(table.id))
                    raise ForwardError("the table has moved on; choose again") from None
                await self._write(table, staged)
            submission = table.apply(staged)
            self.actions_accepted += 1
            self.publish(table)
            self.automate(table)
        return submission

    async def _write(self, table: LiveTable, staged: Staged) -> None:
        if self.store.is_sqlite:
            table.write(staged, self.store)  # a local file: quicker here than a hop to a thread
        else:
            await asyncio.to_thread(table.write, staged, self.store)

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
        return table_meta(table, self.connected_seats(table.id), deadline)

    def _announce_clock(self, table: LiveTable) -> None:
        """Store and announce the turn clock of a table this process owns (timed tables in a cluster).

        Stored with the table's row, so a process that starts following the table mid-step
        (a spectator or seat connecting there) shows the deadline in its first message, and
        a process taking the table over keeps it. One task per table writes, always the
        clock as it is now, so a later write never loses to an earlier one.
        """
        if self.node is None or table.config.turn_seconds is None:
            return
        automation = self._automation.setdefault(table.id, _Automation())
        automation.clock_dirty = True
        if not automation.clock_writing:
            automation.clock_writing = True
            self._spawn(automation, self._write_clock(table, automation))

    async def _write_clock(self, table: LiveTable, automation: _Automation) -> None:
        try:
            while automation.clock_dirty:
                automation.clock_dirty = False
                clock, step = automation.clock, table.step
                deadline = None
                if clock.step == step and clock.deadline is not None:
                    # Wall-clock time between processes (and machines): a monotonic clock is per machine.
                    deadline = time.time() + (clock.deadline - time.monotonic())
                try:
                    await asyncio.to_thread(self.store.save_clock, table.id, step, deadline)
                except Exception:
                    log.warning("the turn clock of table %s could not be stored", table.id, exc_info=True)
        finally:
            automation.clock_writing = False

    def _take_clock(self, table_id: str, message: dict[str, Any]) -> None:
        """The owner's turn clock for a table this process follows (or is loading)."""
        if table_id in self.tables:
            return
        step, until = int(message.get("s", -1)), message.get("d")
        self._remote_clocks[table_id] = (step, None if until is None else _monotonic_from_wall(float(until)))
        replica = self.replicas.get(table_id)
        if replica is not None and step == replica.step:
            self.publish(replica)

    def _inherit_clock(self, stored: StoredTable) -> None:
        """A table this process takes over from an owner that stopped renewing its lease: its
        turn clock runs on where that owner left it (the deadline its readers were shown),
        rather than starting afresh. A table loaded afresh (after a restart of every
        process, or unloaded while idle) starts its clock afresh, as on one process."""
        if self.node is not None and stored.clock is not None and stored.config.turn_seconds is not None:
            self._automation.setdefault(stored.config.id, _Automation()).inherited = stored.clock

    def _adopt_stored_clock(self, stored: StoredTable) -> None:
        """The clock stored with a table this process starts following, unless the bus told a newer one."""
        if stored.clock is None:
            return
        step, until = stored.clock
        known = self._remote_clocks.get(stored.config.id)
        if known is not None and known[0] >= step:
            return
        self._remote_clocks[stored.config.id] = (step, None if until is None else _monotonic_from_wall(until))

    def sync(self, connection: Connection, table: LiveTable) -> None:
        """Send one connection the whole picture, with its seat's recent history."""
        message = state_message(
            table,
            connection.seat,
            self.meta(table),
            with_history=True,
            summary=self.end_summary(table),
            rematch=self.rematch_of(table),
        )
        connection.send(dumps(message))

    def publish(self, table: LiveTable) -> None:
        """Send every connection of the table its own seat's (or the public) picture."""
        members = self.hub.members(table.id)
        if not members:
            return
        meta = self.meta(table)
        summary = self.end_summary(table)
        rematch = self.rematch_of(table)
        by_seat: dict[int | None, list[Connection]] = {}
        for connection in members:
            by_seat.setdefault(connection.seat, []).append(connection)
        for seat, connections in by_seat.items():
            text = dumps(state_message(table, seat, meta, summary=summary, rematch=rematch))
            for connection in connections:
                connection.send(text)

    def announce_presence(self, table: LiveTable, broadcast: bool = True) -> None:
        """Tell every reader which seats are connected (public: anyone at a table sees who sits)."""
        text = dumps({"type": "presence", "connected": sorted(self.connected_seats(table.id))})
        for connection in self.hub.members(table.id):
            connection.send(text)
        if broadcast and self.bus is not None:
            here = sorted(self.hub.connected_seats(table.id))
            message = {"k": "presence", "t": table.id, "n": self.node, "seats": here}
            self._spawn(self._automation.setdefault(table.id, _Automation()), self._send_quietly(message))

    async def _send_quietly(self, message: dict[str, Any]) -> None:
        if self.bus is not None:
            try:
                await self.bus.send(TABLES_CHANNEL, message)
            except Exception:
                log.warning("presence could not be sent on the bus", exc_info=True)

    # ---- bots and the turn clock ----------------------------------------------------------------
    def automate(self, table: LiveTable) -> None:
        """Schedule the bots that must choose now, and (re)start the turn clock."""
        automation = self._automation.setdefault(table.id, _Automation())
        automation.touched = time.monotonic()
        if table.is_over:
            self._stop_clock(automation)
            return
        step = table.step
        automation.scheduled = {key for key in automation.scheduled if key[1] == step}
        waiting = table.waiting_for()
        for seat_config in table.bot_seats():
            key = (seat_config.seat, step)
            if seat_config.seat in waiting and key not in automation.scheduled:
                automation.scheduled.add(key)
                self._spawn(automation, self._bot_move(table, seat_config.seat, step, self.bot_delay))
        self._set_clock(table, automation)

    def _spawn(self, automation: _Automation, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        automation.tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(automation.tasks.discard)

    async def _choose(self, table: LiveTable, seat: int, spec: str, purpose: str) -> Any:
        """An agent's choice for ``seat`` from that seat's view only, made in a bot worker.

        A choice past ``Limits.move_seconds`` (or a failing agent) gives way to the
        fallback: a uniformly random legal action, drawn from the seat's own stream.
        """
        step = table.step
        job = MoveJob(agent_key(table, spec), table.match.state, seat, (table.config.seed, purpose, seat, step))
        try:
            return await self.pool.run(job, self.limits.move_seconds)
        except (JobTimeout, JobFailed) as error:
            log.warning("agent %s at table %s seat %d: %s; playing the fallback move", spec, table.id, seat, error)
        self.fallback_moves += 1
        legal = table.legal_json(seat)
        return derive_rng(table.config.seed, "fallback", seat, step).choice(legal)

    async def _bot_move(self, table: LiveTable, seat: int, step: int, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if table.step != step or seat not in table.waiting_for():
            return
        spec = table.seats[seat].agent or "random"
        try:
            action = await self._choose(table, seat, spec, "bot")
            if table.step == step and seat in table.waiting_for() and self.tables.get(table.id) is table:
                await self.act(table, seat, action, step=step, waiting=True)
        except StaleStepError:
            pass  # a person (or the clock) moved the table on meanwhile
        except Exception:
            log.exception("bot %s at table %s seat %d failed", spec, table.id, seat)

    def _set_clock(self, table: LiveTable, automation: _Automation) -> None:
        clock = automation.clock
        seconds = table.config.turn_seconds
        humans_waiting = [s for s in table.waiting_for() if s in table.human_seats()]
        if seconds is None or not humans_waiting:
            running = clock.deadline is not None
            self._stop_clock(automation)
            if running:
                self._announce_clock(table)
            return
        if clock.step == table.step and clock.handle is not None:
            return  # the clock already runs for this decision
        self._stop_clock(automation)
        inherited, automation.inherited = automation.inherited, None
        if inherited is not None and inherited[0] == table.step and inherited[1] is not None:
            seconds = min(seconds, max(0.0, inherited[1] - time.time()))
        clock.step = table.step
        clock.deadline = time.monotonic() + seconds
        step = table.step
        clock.handle = asyncio.get_running_loop().call_later(
            seconds, lambda: self._spawn(automation, self._time_out(table, step))
        )
        self._announce_clock(table)

    @staticmethod
    def _stop_clock(automation: _Automation) -> None:
        clock = automation.clock
        if clock.handle is not None:
            clock.handle.cancel()
        clock.step, clock.deadline, clock.handle = -1, None, None

    async def _time_out(self, table: LiveTable, step: int) -> None:
        """The clock ran out: each person who has not chosen plays the timeout agent's move."""
        automation = self._automation.setdefault(table.id, _Automation())
        automation.clock.handle = None
        for seat in table.human_seats():
            if table.step != step or seat not in table.waiting_for():
                continue
            try:
                action = await self._choose(table, seat, table.config.timeout_agent, "timeout")
                if table.step == step and seat in table.waiting_for() and self.tables.get(table.id) is table:
                    await self.act(table, seat, action, step=step, waiting=True)
            except StaleStepError:
                continue
            except Exception:
                log.exception("timeout move at table %s seat %d failed", table.id, seat)
        if table.step == step:
            automation.clock.step = -1  # nobody could be moved: let automate() restart the clock
        if self.tables.get(table.id) is table:
            self.automate(table)


def _monotonic_from_wall(until: float) -> float:
    """A wall-clock deadline (another process's) on this process's monotonic clock."""
    return time.monotonic() + (until - time.time())


def _closed_words(reason: str) -> str:
    return "closed by its host" if reason == "host" else "closed after a long time with no move"
