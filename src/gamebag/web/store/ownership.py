"""A cluster (PostgreSQL): leases, replicas, promotion and forwarding.

Several processes serve one set of tables. Each table has one owner at a time, the
process holding its lease in the database: only the owner applies actions, runs the
table's bots and turn clock, and writes (each write checks the lease in its own
transaction). Another process with clients at the table keeps a read-only *replica*,
reloaded from the database whenever the bus announces a change, sends its clients their
views from it, and forwards their actions to the owner over the bus (each forwarded
action names the step it was chosen at, so a retry can never be applied twice). The
owner renews its leases every third of ``Limits.lease_seconds``; when it dies its leases
run out, and a process watching the table takes it over by rebuilding it from the
database, where every acknowledged action already is.

Every database read and rebuild here (renewing leases, a takeover, a replica's reload or
catch-up, a forwarded action's table) runs in a thread: the event loop keeps serving every
other table meanwhile (``tests/web/test_event_loop.py``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from gamebag.core.errors import GamebagError
from gamebag.core.i18n import current_language, known_language, use_language
from gamebag.web.store.busseal import Sealer, SealError
from gamebag.web.store.cluster import new_node_id, node_channel
from gamebag.web.store.db import TABLES_CHANNEL, LeaseLostError, StoredTable
from gamebag.web.tables.acting import changed_choices
from gamebag.web.tables.live import LiveTable
from gamebag.web.tables.tablestate import ForwardError, ManagerState, StaleStepError, closed_message, moved_notice
from gamebag.web.words.text import _

log = logging.getLogger("gamebag.web")

FORWARD_SECONDS = 10.0  # how long a forwarded action waits for the owner's answer


class Owning(ManagerState):
    """Leases kept and lost, replicas followed, tables taken over, actions forwarded."""

    async def _keep_leases(self) -> None:
        while True:
            await asyncio.sleep(self.limits.lease_seconds / 3.0)
            try:
                await self.check_leases()
            except Exception:
                log.exception("renewing leases failed; trying again")

    async def check_leases(self) -> None:
        """Renew this process's leases; give up lost ones; take over watched tables whose owner is gone.

        Also says this process is alive, and forgets the seats connected to processes that are not.
        """
        owned = set(self.tables)
        watched = [table_id for table_id in self.replicas if self.hub.members(table_id)]
        alive, kept, owners = await asyncio.to_thread(self._lease_round, owned, watched)
        self.forget_dead(alive)
        for table_id in owned - kept:
            if table_id in self.tables:
                log.warning("table %s: lease lost to another process", table_id)
                self._demote(table_id)
        for table_id, owner in owners.items():
            if owner is None:
                await self._promote(table_id)

    def _lease_round(self, owned: set[str], watched: list[str]) -> tuple[set[str], set[str], dict[str, str | None]]:
        """The database's part of ``check_leases`` (in a thread): the live processes, the leases
        kept, and the owners of the watched tables."""
        alive = self.store.heartbeat(self.limits.lease_seconds)
        kept = self.store.renew(owned, self.limits.lease_seconds)
        return alive, kept, self.store.owners(watched)

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

    async def _promote(self, table_id: str) -> bool:
        """Take a watched table over from the database if its lease is free; True if this process owns it.
        The lease, the read and the rebuild run in a thread."""
        if table_id in self.tables:
            return True
        taken = await asyncio.to_thread(self._take_over, table_id)
        if table_id in self.tables:
            return True  # taken over meanwhile by another caller here
        if taken is None:
            return False
        stored, table = taken
        self.replicas.pop(table_id, None)
        self.tables[table_id] = table
        self._remote_clocks.pop(table_id, None)
        self._inherit_clock(stored)
        self._adopt_aid(table_id, self._read_aid(table_id))  # the seats' standing passes and notes
        self._load_table_banks(table)  # the time banks run on from the stored deadlines
        self.takeovers += 1
        log.warning("table %s taken over at step %d", table_id, table.step)
        self.automate(table)
        self.publish(table)
        return True

    def _take_over(self, table_id: str) -> tuple[StoredTable, LiveTable] | None:
        """The lease, the stored table and its rebuild (in a thread); None if the lease is not free
        or the table is closed."""
        if not self.store.acquire(table_id, self.limits.lease_seconds):
            return None
        stored = self.store.load(table_id)
        if stored is None or stored.config.closed is not None:
            self.store.release([table_id])
            return None
        return stored, LiveTable.rebuild(stored, self.store)

    def _demote(self, table_id: str) -> None:
        """This process lost a table's lease: stop its bots; keep a replica for local clients
        (reloaded off the loop)."""
        self._unload(table_id, release=False)
        if self.hub.members(table_id):
            self._spawn_task(self._refresh_quietly(table_id))

    async def _refresh_quietly(self, table_id: str) -> None:
        try:
            await self._refresh(table_id)
        except Exception:
            log.exception("replica %s could not be reloaded", table_id)

    def _read_replica(self, table_id: str) -> tuple[StoredTable, LiveTable | None] | None:
        """The stored table and its read-only rebuild (in a thread; none for a closed table)."""
        stored = self.store.load(table_id)
        if stored is None:
            return None
        return stored, None if stored.config.closed is not None else LiveTable.rebuild(stored, None)

    async def _refresh(self, table_id: str) -> None:
        """Reload a replica from the database (in a thread) and send local clients their views."""
        read = await asyncio.to_thread(self._read_replica, table_id)
        if read is None or table_id in self.tables:
            return
        stored, replica = read
        if replica is None:
            self._closed_elsewhere(table_id, stored.config.closed or "host")
            return
        old = self.replicas.get(table_id)
        if old is not None and old.step > replica.step:
            return  # a newer picture arrived while this one was read
        self.replicas[table_id] = replica
        self._adopt_stored_clock(stored)
        if old is not None:
            self._drop_stale_seats(old, replica)
        self.publish(replica)

    async def _catch_up(self, table_id: str, notice: dict[str, Any]) -> None:
        """Bring a replica to the owner's latest commit: from the notice's own events when it
        carries them and follows on from the replica, else by reading only what is new (a
        secret choice always: the bus never carries one)."""
        replica = self.replicas[table_id]
        step = int(notice.get("s", -1))
        if step != -1 and step < replica.step:
            return  # an announcement the replica is already past
        step_before, chosen_before = replica.step, dict(replica.match.pending)
        try:
            if notice.get("k") == "events" and "e" in notice and notice.get("f") == replica.step:
                replica.catch_up(list(notice["e"]), {})
            else:
                events, pending = await asyncio.to_thread(self.store.load_since, table_id, replica.step)
                if self.replicas.get(table_id) is not replica or replica.step != step_before:
                    await self._refresh(table_id)  # reloaded meanwhile: the database says where it is
                    return
                replica.catch_up(events, pending)
        except Exception:
            log.exception("replica %s could not follow; reloading it", table_id)
            await self._refresh(table_id)
            return
        self.publish(replica, changed_choices(chosen_before, replica) if replica.step == step_before else None)

    def _reload_replicas(self) -> None:
        for table_id in list(self.replicas):
            self._spawn_task(self._refresh_quietly(table_id))

    def _closed_elsewhere(self, table_id: str, reason: str) -> None:
        for connection in self.hub.members(table_id):
            connection.send(closed_message(reason, connection.language))
            connection.close(flush=True)
        self._unload(table_id, release=False)

    def _drop_stale_seats(self, old: LiveTable, new: LiveTable) -> None:
        """Local sockets of seats changed on another process: a re-issued token closes them, a seat
        handed to a bot makes them watchers."""
        changed = {a.seat for a, b in zip(old.seats, new.seats, strict=True) if a.token != b.token}
        to_bots = {a.seat for a, b in zip(old.seats, new.seats, strict=True) if a.agent is None and b.agent}
        for connection in self.hub.members(old.id):
            if connection.seat in changed:
                connection.send(moved_notice(connection.language))
                connection.close(flush=True)
            elif connection.seat in to_bots:
                connection.seat = None

    async def _on_bus(self, channel: str, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind in ("chat", "chatset"):  # told by the chat of another process (chat.py); ours is told already
            if message.get("n") != self.node:
                self._spawn_task(self.chat.on_bus(message))
            return
        if channel == TABLES_CHANNEL:
            if message.get("n") == self.node and kind in ("events", "pending", "clock", "banks"):
                return
            table_id = str(message.get("t"))
            if kind == "banks":
                self.take_banks(table_id, message)  # the owner's time banks (tables/banks.py)
            elif kind == "presence":
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
                    stored = await asyncio.to_thread(self.store.load, table_id)
                    if stored is not None and self.tables.get(table_id) is owned:
                        before = LiveTable(owned.config, owned.game, owned.match)
                        owned.reconfigure(stored.config)
                        self._drop_stale_seats(before, owned)
                        self.publish(owned)
                        self.automate(owned)  # a seat handed to a bot elsewhere: its bot plays here
                elif table_id in self.replicas:
                    await self._refresh(table_id)
            elif table_id in self.tables:
                self._demote(table_id)  # another process wrote: this one's lease is gone
            elif table_id in self.replicas:
                self._owner_of[table_id] = str(message.get("n"))
                await self._catch_up(table_id, message)
        elif kind == "act":
            # Started in bus order (each table's lock keeps that order), without holding up the bus.
            self._spawn_task(self._answer_for_other(message))
        elif kind in ("ack", "error"):
            future = self._answers.get(str(message.get("r")))
            if future is not None and not future.done():
                future.set_result(message)

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
        # The refusal is read by the forwarding reader: in its language (``l``, as it sent it).
        with use_language(known_language(str(message.get("l") or ""))):
            try:
                table = await self.get_async(table_id)  # loaded off the loop if need be
                if not self.owns(table):
                    answer["m"] = _("the table moved to another server; choose again")
                else:
                    step = message.get("s")
                    seat = int(message["seat"])
                    action = self._sealer().open(message.get("a"))  # sealed: a secret choice, perhaps
                    submission = await self.act(table, seat, action, step=step if isinstance(step, int) else -1)
                    answer = {"k": "ack", "r": message.get("r"), "s": submission.step, "e": bool(submission.events)}
            except StaleStepError as error:
                answer.update(m=str(error), c="stale")
            except SealError:
                log.warning("a forwarded action at table %s was not sealed with this deployment's key", table_id)
                answer["m"] = _("the action could not be read; nothing changed")
            except (GamebagError, LookupError, LeaseLostError) as error:
                answer["m"] = str(error)
            except Exception:
                log.exception("forwarded action at table %s failed", table_id)
                answer["m"] = _("the server could not apply this action; nothing changed")
        return node_channel(str(message.get("n"))), answer

    def _sealer(self) -> Sealer:
        if self.sealer is None:
            raise ForwardError(_("this table is not served here"))
        return self.sealer

    async def forward(self, table: LiveTable, seat: int, action_json: Any, step: int) -> dict[str, Any]:
        """Have the owner apply an action chosen at ``step``; its answer (``ack`` or ``error``)."""
        if self.bus is None or self.node is None:
            raise ForwardError(_("this table is not served here"))
        owner = self._owner_of.get(table.id) or (await asyncio.to_thread(self.store.owners, [table.id])).get(table.id)
        if owner is None or owner == self.node:
            if await self._promote(table.id):
                submission = await self.act(self.tables[table.id], seat, action_json, step=step)
                return {"k": "ack", "s": submission.step, "e": bool(submission.events)}
            owner = (await asyncio.to_thread(self.store.owners, [table.id])).get(table.id)
            if owner is None:
                raise ForwardError(_("the table's server is changing; choose again in a moment"))
        reference = new_node_id()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[reference] = future
        try:
            await self.bus.send(
                node_channel(owner),
                {
                    "k": "act",
                    "t": table.id,
                    "seat": seat,
                    "a": self._sealer().seal(action_json),  # any database role may LISTEN
                    "s": step,
                    "r": reference,
                    "n": self.node,
                    "l": current_language(),  # the owner answers a refusal in the reader's language
                },
            )
            return await asyncio.wait_for(future, FORWARD_SECONDS)
        except TimeoutError:
            self._owner_of.pop(table.id, None)  # ask the database next time: the owner may be gone
            raise ForwardError(
                _("the table's server did not answer in time; look at the table and choose again if it still asks")
            ) from None
        finally:
            self._answers.pop(reference, None)
