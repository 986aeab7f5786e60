"""Two server processes' table managers on one PostgreSQL database, in one test process (quick).

What one process tells the others on the bus must stay true: the seats connected to a
process that died disappear from the others' views once its heartbeat runs out, and a
seat connected to a process that does not own its table sees the owner's turn clock, and a seat
changing its secret choice there tells no other reader.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from gamebag.web.lobby import parse_table_request
from gamebag.web.settings import Limits
from gamebag.web.store.db import Store
from gamebag.web.tables.hub import Connection
from gamebag.web.tables.live import LiveTable
from gamebag.web.tables.manager import TableManager

LEASE = 1.0  # seconds: a process that stopped saying it is alive is forgotten after this
# Where no process dies: long enough that a loaded machine never makes the owner lose its lease.
STEADY_LEASE = 15.0


class _Reader(Connection):
    """A joined reader whose messages stay in its queue (no socket behind it)."""

    def __init__(self, table_id: str, seat: int | None) -> None:
        super().__init__(websocket=None, table_id=table_id)  # type: ignore[arg-type]
        self.seat = seat
        self.joined = True

    def messages(self) -> list[dict[str, Any]]:
        found = []
        while not self.queue.empty():
            text = self.queue.get_nowait()
            if text is not None:
                found.append(json.loads(text))
        return found


async def _until(check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the other process never heard"
        await asyncio.sleep(0.02)


async def _two_managers(
    pg_url: str, request: dict[str, Any], lease: float = LEASE
) -> tuple[TableManager, TableManager, str]:
    managers = []
    for _ in range(2):
        manager = TableManager(Store(pg_url), limits=Limits(lease_seconds=lease, bot_workers=1), allow_seed=True)
        await manager.start()
        managers.append(manager)
    owner, other = managers
    config = parse_table_request(request, allow_seed=True)
    owner.store.create_table(config)
    assert owner.owns(owner.get(config.id))
    assert not other.owns(other.get(config.id))
    return owner, other, config.id


async def _stop(*managers: TableManager) -> None:
    for manager in managers:
        await manager.stop()
        manager.store.close()


def _join(manager: TableManager, table: LiveTable, seat: int | None) -> _Reader:
    reader = _Reader(table.id, seat)
    manager.hub.add(reader)
    if seat is not None:
        manager.announce_presence(table)
    return reader


def test_seats_of_a_dead_process_disappear_from_the_others(pg_url: str) -> None:
    async def scenario() -> None:
        request = {"game": "wriggle-roulette", "players": 3, "seats": [{}, {}, {}], "seed": 5}
        owner, other, table_id = await _two_managers(pg_url, request)
        try:
            _join(owner, owner.get(table_id), 0)
            watcher = _join(other, other.get(table_id), 1)
            await _until(lambda: other.connected_seats(table_id) == {0, 1})
            await _until(lambda: owner.connected_seats(table_id) == {0, 1})
            # The owner dies without a word: no more heartbeats, leases or bus messages.
            for task in (owner._leases, owner._sweeper):
                assert task is not None
                task.cancel()
            assert owner.bus is not None
            await owner.bus.close()
            watcher.messages()
            await asyncio.sleep(LEASE + 0.2)
            await other.check_leases()
            assert other.connected_seats(table_id) == {1}
            presence = [m for m in watcher.messages() if m["type"] == "presence"]
            assert presence and presence[-1]["connected"] == [1], "the reader was not told"
            # A live process's seats are kept: the survivor still counts its own.
            await other.check_leases()
            assert other.connected_seats(table_id) == {1}
        finally:
            owner.bus = None
            owner.node = None  # its leases stay as a dead process leaves them
            await _stop(owner, other)

    asyncio.run(scenario())


def test_a_seat_on_another_process_sees_the_owners_turn_clock(pg_url: str) -> None:
    async def scenario() -> None:
        request = {"game": "wriggle-roulette", "players": 3, "seats": [{}, {}, {}], "seed": 6, "turn_seconds": 60}
        owner, other, table_id = await _two_managers(pg_url, request, STEADY_LEASE)
        try:
            owned = owner.get(table_id)
            owner.start_clock(owned)  # the host starts it (else it waits for every person's seat)
            deadline_in = owner.meta(owned)["deadline_in"]
            assert deadline_in is not None and 55 < deadline_in <= 60
            replica = other.get(table_id)
            reader = _join(other, replica, 1)  # its presence makes the owner announce the clock
            await _until(lambda: other.meta(replica)["deadline_in"] is not None)
            assert abs(other.meta(replica)["deadline_in"] - owner.meta(owned)["deadline_in"]) < 1.0
            states = [m for m in reader.messages() if m["type"] == "state"]
            assert states and states[-1]["table"]["deadline_in"] is not None, "the reader was not shown it"
            # The owner's next step restarts its clock; the other process follows.
            first = owned.step
            for seat in owned.waiting_for():
                legal = owned.legal_json(seat)
                await owner.act(owned, seat, legal[0])
            assert owned.step > first
            await _until(lambda: other.get(table_id).step == owned.step)
            await _until(lambda: other.meta(other.get(table_id))["deadline_in"] is not None)
            gap = other.meta(other.get(table_id))["deadline_in"] - owner.meta(owned)["deadline_in"]
            assert abs(gap) < 1.0
        finally:
            await _stop(owner, other)

    asyncio.run(scenario())


def _stored_clock_step(manager: TableManager, table_id: str) -> int | None:
    stored = manager.store.load(table_id)
    return None if stored is None or stored.clock is None else stored.clock[0]


def test_a_spectator_joining_another_process_mid_step_sees_the_deadline_at_once(pg_url: str) -> None:
    async def scenario() -> None:
        steady = Limits(lease_seconds=STEADY_LEASE, bot_workers=1)
        owner = TableManager(Store(pg_url), limits=steady, allow_seed=True)
        await owner.start()
        other: TableManager | None = None
        try:
            request = {"game": "wriggle-roulette", "players": 3, "seats": [{}, {}, {}], "seed": 7, "turn_seconds": 60}
            config = parse_table_request(request, allow_seed=True)
            owner.store.create_table(config)
            owned = owner.get(config.id)
            owner.start_clock(owned)  # the host starts it (else it waits for every person's seat)
            for seat in owned.waiting_for():  # mid-game: the clock runs for a later step
                await owner.act(owned, seat, owned.legal_json(seat)[0])
            await _until(lambda: _stored_clock_step(owner, config.id) == owned.step)
            # A process that never heard of the table (nothing on its bus about it) gets a spectator.
            other = TableManager(Store(pg_url), limits=steady, allow_seed=True)
            await other.start()
            replica = await other.get_async(config.id)
            assert not other.owns(replica)
            spectator = _join(other, replica, None)
            other.sync(spectator, replica)
            first = spectator.messages()[0]
            assert first["type"] == "state" and first["step"] == owned.step
            shown = first["table"]["deadline_in"]
            assert shown is not None, "the spectator's first state has no deadline"
            assert abs(shown - owner.meta(owned)["deadline_in"]) < 1.0
            assert shown <= 60
        finally:
            await _stop(owner, *([other] if other is not None else []))

    asyncio.run(scenario())


def test_a_process_taking_a_timed_table_over_keeps_its_deadline(pg_url: str) -> None:
    async def scenario() -> None:
        request = {"game": "wriggle-roulette", "players": 3, "seats": [{}, {}, {}], "seed": 8, "turn_seconds": 60}
        owner, other, table_id = await _two_managers(pg_url, request)
        try:
            owned = owner.get(table_id)
            owner.start_clock(owned)  # the host starts it (else it waits for every person's seat)
            await _until(lambda: _stored_clock_step(owner, table_id) == owned.step)
            _join(other, other.get(table_id), 1)
            await asyncio.sleep(2.0)  # the clock runs down a little before the owner dies
            shown_before = owner.meta(owned)["deadline_in"]
            for task in (owner._leases, owner._sweeper):
                assert task is not None
                task.cancel()
            assert owner.bus is not None
            await owner.bus.close()
            await asyncio.sleep(LEASE + 0.2)
            await other.check_leases()  # the owner's lease ran out: the other process takes the table over
            taken = other.tables[table_id]
            assert other.takeovers == 1 and taken.step == owned.step
            deadline_in = other.meta(taken)["deadline_in"]
            assert deadline_in is not None
            # The deadline the seats were shown, not a fresh 60 s.
            assert deadline_in < shown_before and shown_before - deadline_in < LEASE + 15.0
        finally:
            owner.bus = None
            owner.node = None  # its leases stay as a dead process leaves them
            await _stop(owner, other)

    asyncio.run(scenario())


def test_a_changed_secret_choice_reaches_no_other_reader_on_another_process(pg_url: str) -> None:
    async def scenario() -> None:
        request = {"game": "wriggle-roulette", "players": 3, "seats": [{}, {}, {}], "seed": 9}
        owner, other, table_id = await _two_managers(pg_url, request, STEADY_LEASE)
        try:
            owned, replica = owner.get(table_id), other.get(table_id)
            mine = _join(other, replica, 0)  # seat 0 reads on the process that does not own the table
            others = [_join(other, replica, 1), _join(other, replica, None)]
            assert {0, 1} <= set(owned.waiting_for())
            first, second = owned.legal_json(0)[:2]
            await owner.act(owned, 0, first)
            await _until(lambda: 0 in other.get(table_id).match.pending)
            for reader in [mine, *others]:  # choosing is public: everyone sees seat 0 chose
                assert any(m["type"] == "state" for m in reader.messages())
            await owner.act(owned, 0, second)
            await _until(lambda: other.get(table_id).match.pending[0] == replica.game.action_from_json(second))
            await asyncio.sleep(0.2)
            assert [m["view"]["choices"]["mine"] for m in mine.messages() if m["type"] == "state"] == [second]
            for reader in others:
                assert [m for m in reader.messages() if m["type"] == "state"] == [], "they learnt it changed its mind"
        finally:
            await _stop(owner, other)

    asyncio.run(scenario())
