"""Time banks at the tables this process owns: accounting at each move, vacations, running out.

The settings and the arithmetic are in ``turnclock.py``, the rows in ``store/clockstore.py``.
Every change of a bank is stored before it is published: after each accepted action (in the
table's lock, right after the action's own commit), when a seat marks or ends a vacation, and
when a bank runs out. One scheduler per process (``_banks_forever``) wakes at the earliest
stored deadline (at most ``BANK_POLL_SECONDS`` later, so the deadlines of tables it does not
hold, or that another process gave up, are read again from the database): no timer per table
is kept in memory for days. Time comes from ``BankClock.now`` alone, which tests move by days.

When a bank runs out, the seat is handed to the table's timeout agent (``hand_to_bot``) first,
then its row is stored: a crash in between leaves the row due, and the next check only stores it.
With the "forfeit" consequence the row is also marked ``out``: the timeout agent makes the
seat's remaining decisions (the game goes on for the others) and the standings place the seat
last (``turnclock.forced_places``: the end screen, and the outcome that ratings settle).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gamebag.web.store.clockstore import create_banks, load_banks, next_deadlines, save_banks
from gamebag.web.store.db import TableConfig
from gamebag.web.tables.live import LiveTable, SeatError, Staged
from gamebag.web.tables.tablestate import (
    BankChanges,
    ForwardError,
    ManagerState,
    TableAutomation,
    TableClosedError,
    UnknownTableError,
)
from gamebag.web.tables.turnclock import DAY, BankSettings, SeatBank, TableBanks, after_change
from gamebag.web.words.text import N_, _

log = logging.getLogger("gamebag.web")

BANK_POLL_SECONDS = 30.0  # the scheduler reads the stored deadlines again at least this often
BANK_TEXTS = {
    "no_bank": N_("this table has no time bank, so there is no vacation to mark."),
    "no_allowance": N_("this table allows no vacation."),
    "used_up": N_("your vacation allowance for this game is used up."),
    "over": N_("the game is over: there is no clock left to pause."),
    "out": N_("your seat's bank ran out: there is no clock left to pause."),
}


class Banking(ManagerState):
    """The time banks of the tables this process holds."""

    # ---- opening and loading ---------------------------------------------------------------
    def open_banks(self, config: TableConfig) -> None:
        """Store a new table's banks, full and not yet running (they start as the table loads)."""
        settings = BankSettings.loads(config.bank)
        if settings is None:
            return
        at = self.bank_clock.now()
        vacation = settings.vacation_days * DAY
        people = [s.seat for s in config.seats if s.agent is None]  # bots have no bank
        banks = [SeatBank(seat, settings.bank_seconds, at, vacation_left=vacation) for seat in people]
        create_banks(self.store.engine, config.id, settings, banks)

    def _load_table_banks(self, table: LiveTable) -> None:
        """Hold a table's banks as it is installed (read with its rows in the loading thread, else
        here); start the ones that must run (an owned table)."""
        read = self._banks_read.pop(table.id, None)
        settings, seats = read if read is not None else load_banks(self.store.engine, table.id)
        if settings is None:
            self.banks.pop(table.id, None)
            return
        self.banks[table.id] = TableBanks(settings, seats)
        if not table.config.bank:  # kept with the configuration, so that a rematch has the same clock
            table.reconfigure(replace(table.config, bank=settings.dumps()))
        if any(bank.running or bank.out for bank in seats.values()):
            # the clock ran before this load (a restart, a takeover): it runs on, nobody is awaited
            self._automation.setdefault(table.id, TableAutomation()).everyone_came = True
        if self.owns(table):
            self._store_banks(table, self._bank_changes(table, None))

    def start_banks(self, table: LiveTable) -> None:
        """Everyone came (or the host said start): a real-time table's banks start running."""
        if table.id in self.banks and self.owns(table):
            self._store_banks(table, self._bank_changes(table, None))

    # ---- accounting -------------------------------------------------------------------------
    def _bank_changes(
        self, table: LiveTable, moved: int | None, waiting_now: tuple[int, ...] | None = None
    ) -> dict[int, SeatBank]:
        """The banks to change now: the seats that must choose (``waiting_now``, else the table's) run."""
        banks = self.banks.get(table.id)
        if banks is None:
            return {}
        people = set(table.human_seats())
        waiting = set(table.waiting_for() if waiting_now is None else waiting_now) & people
        automation = self._automation.get(table.id)
        if banks.settings.mode == "realtime" and (automation is None or not automation.everyone_came):
            waiting = set()  # a real-time bank waits for every person's first visit, as the per-move timer
        return after_change(banks.seats, self.bank_clock.now(), waiting, moved, banks.settings.increment_seconds)

    def _store_banks(self, table: LiveTable, changed: dict[int, SeatBank]) -> None:
        """Store changed banks from synchronous code: at once on SQLite, in a task elsewhere."""
        if not changed:
            return
        self.banks[table.id].seats.update(changed)
        if self.store.is_sqlite:
            save_banks(self.store.engine, self.node, table.id, changed.values())
        else:
            self._spawn_task(self._save_and_tell(table.id, changed))

    async def _save_and_tell(self, table_id: str, changed: BankChanges) -> None:
        await asyncio.to_thread(save_banks, self.store.engine, self.node, table_id, changed.values())
        await self._tell_replicas(table_id, changed)

    async def _tell_replicas(self, table_id: str, changed: BankChanges) -> None:
        """A cluster: the other processes' replicas of the table take the stored banks (public numbers)."""
        if self.bus is not None:
            rows = [dataclasses.asdict(bank) for bank in changed.values()]
            await self._send_quietly({"k": "banks", "t": table_id, "n": self.node, "b": rows})

    def take_banks(self, table_id: str, message: dict[str, Any]) -> None:
        """The owner's banks for a table this process watches (a replica): shown from now on."""
        banks = self.banks.get(table_id)
        replica = self.replicas.get(table_id)
        if banks is None or replica is None:
            return
        try:
            told = [SeatBank(**row) for row in message.get("b", ())]
        except (TypeError, ValueError):
            log.warning("a malformed banks notice for table %s was ignored", table_id)
            return
        for bank in told:
            if bank.seat in banks.seats:
                banks.seats[bank.seat] = bank
        self.publish(replica)

    async def _save_banks(self, table: LiveTable, changed: dict[int, SeatBank]) -> None:
        if not changed:
            return
        self.banks[table.id].seats.update(changed)
        if self.store.is_sqlite:
            save_banks(self.store.engine, self.node, table.id, changed.values())  # a local file, as the moves
        else:
            await asyncio.to_thread(save_banks, self.store.engine, self.node, table.id, changed.values())
            await self._tell_replicas(table.id, changed)

    def banks_after(self, table: LiveTable, staged: Staged) -> BankChanges:
        """The banks ``staged`` changes: its seat's stops (with the increment), the next ones run.
        On SQLite they are written in the action's own transaction (``Acting._write``)."""
        if table.id not in self.banks:
            return {}
        return self._bank_changes(table, staged.seat, table.waiting_after(staged))

    async def banks_written(self, table: LiveTable, changed: BankChanges) -> None:
        """The action that changed these banks is committed: hold them (a cluster: store them now;
        its action was one statement, ``Store.save_events``, so they follow in their own)."""
        if not changed:
            return
        if self.store.is_sqlite:
            self.banks[table.id].seats.update(changed)
        else:
            await self._save_banks(table, changed)

    # ---- what readers and the notifications see -------------------------------------------------
    def bank_facts(self, table: LiveTable) -> dict[str, Any] | None:
        """The public facts of a table's banks (None: it has none), as every reader sees them."""
        banks = self.banks.get(table.id)
        if banks is None:
            return None
        at = self.bank_clock.now()
        return {
            "settings": banks.settings.to_json(),
            "seats": [banks.seats[s].public(at) for s in sorted(banks.seats)],
            "at": round(at, 1),
        }

    def forfeited(self, table: LiveTable) -> set[int]:
        banks = self.banks.get(table.id)
        return set() if banks is None else {seat for seat, bank in banks.seats.items() if bank.out}

    def seats_to_act(self, table: LiveTable) -> list[tuple[int, float | None]]:
        """For the notifications: the people's seats that must act now at ``table``, each with the
        wall-clock deadline of its bank (None: no bank runs for it; the per-move timer, if any, is
        in the table's messages)."""
        if table.is_over:
            return []
        banks = self.banks.get(table.id)
        people = set(table.human_seats())
        result: list[tuple[int, float | None]] = []
        for seat in table.waiting_for():
            if seat in people:
                bank = None if banks is None else banks.seats.get(seat)
                result.append((seat, None if bank is None else bank.deadline()))
        return result

    # ---- vacations ----------------------------------------------------------------------------
    async def set_vacation(self, table: LiveTable, seat: int, on: bool) -> dict[str, Any]:
        """Mark or end ``seat``'s vacation (its bank pauses while the host's allowance lasts)."""
        if not self.owns(table):
            raise ForwardError(_("this table is served by another process just now; try again in a moment"))
        banks = self.banks.get(table.id)
        if banks is None:
            raise SeatError(_(BANK_TEXTS["no_bank"]))
        if table.is_over:
            raise SeatError(_(BANK_TEXTS["over"]))
        bank = banks.seats[seat].settled(self.bank_clock.now())
        if bank.out:
            raise SeatError(_(BANK_TEXTS["out"]))
        if on and banks.settings.vacation_days == 0:
            raise SeatError(_(BANK_TEXTS["no_allowance"]))
        if on and bank.vacation_left <= 0:
            raise SeatError(_(BANK_TEXTS["used_up"]))
        await self._save_banks(table, {seat: replace(bank, on_vacation=on)})
        self.publish(table)
        return banks.seats[seat].public(self.bank_clock.now())

    # ---- running out --------------------------------------------------------------------------
    async def expire_banks(self, table: LiveTable) -> list[int]:
        """Apply the host's consequence to every seat whose bank ran out; the seats it applied to."""
        banks = self.banks.get(table.id)
        if banks is None or table.is_over or not self.owns(table):
            return []
        at = self.bank_clock.now()
        expired = []
        for seat, bank in sorted(banks.seats.items()):
            deadline = bank.deadline()
            if deadline is None or deadline > at:
                continue
            if table.seats[seat].agent is None:
                await self.hand_to_bot(table, seat, table.config.timeout_agent)
            ran_out = replace(bank.settled(deadline), bank=0.0, running=False, on_vacation=False)
            if banks.settings.on_empty == "forfeit":
                ran_out = replace(ran_out, out=True)
            await self._save_banks(table, {seat: ran_out})
            expired.append(seat)
        if expired:
            self.publish(table)
        return expired

    async def check_due_banks(self) -> float:
        """Apply the consequences of every stored deadline passed; seconds until the next one."""
        at = self.bank_clock.now()
        upcoming = BANK_POLL_SECONDS
        for deadline, table_id in await asyncio.to_thread(next_deadlines, self.store.engine):
            if deadline > at:
                upcoming = min(upcoming, deadline - at)
                break
            try:
                table = await self.get_async(table_id)
            except (UnknownTableError, TableClosedError):
                continue
            if self.owns(table):
                await self.expire_banks(table)
        return upcoming

    async def _banks_forever(self) -> None:
        while True:
            try:
                wait = await self.check_due_banks()
            except Exception:
                log.exception("the time bank check failed; it runs again later")
                wait = BANK_POLL_SECONDS
            await asyncio.sleep(min(max(wait, 0.05), BANK_POLL_SECONDS))

    if TYPE_CHECKING:  # defined in manager.py
        async def hand_to_bot(self, table: LiveTable, seat: int, agent: str, owner: str = "") -> None:
            ...

        async def get_async(self, table_id: str) -> LiveTable:
            ...

        async def _send_quietly(self, message: dict[str, Any]) -> None:
            ...
