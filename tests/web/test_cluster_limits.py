"""The per-address limits hold for a whole cluster: processes on one PostgreSQL share the counts.

The rates (new tables, new sockets) and the open-socket bounds (per address, spectators per
table, per seat token) count every live process's requests together; the sockets of a process that
died stop counting once its heartbeat runs out.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import WebSocketDenialResponse

from gamebag.web.admission.guard import RateLimited, RateLimits
from gamebag.web.admission.ratestore import PostgresRateStorage, SharedSocketCounts
from gamebag.web.settings import Limits
from gamebag.web.store.db import Store

from .helpers import hello, open_table, receive_until, web_client


def test_two_processes_count_one_connection_limit(pg_url: str) -> None:
    """Two processes' limiters (each its own engine, as two processes have) share one count."""
    limits = Limits(connects_per_minute=3)
    Store(pg_url).close()  # the schema (web_rate_hits), as the server's Store makes it
    engines = [create_engine(pg_url) for _ in range(2)]
    first, second = RateLimits(limits), RateLimits(limits)
    first.share(PostgresRateStorage(engines[0]))
    second.share(PostgresRateStorage(engines[1]))

    async def scenario() -> None:
        await first.open_socket("203.0.113.7")
        await second.open_socket("203.0.113.7")
        await first.open_socket("203.0.113.7")
        for limiter in (second, first):  # the fourth is over the limit, whichever process it reaches
            with pytest.raises(RateLimited) as refused:
                await limiter.open_socket("203.0.113.7")
            assert refused.value.retry_after >= 1
            assert "at most 3 per minute" in str(refused.value)
        await second.open_socket("198.51.100.2")  # another address has its own count

    try:
        asyncio.run(scenario())
    finally:
        for engine in engines:
            engine.dispose()


def test_two_servers_on_one_database_share_the_table_limit(tmp_path: Path, pg_url: str) -> None:
    limits = Limits(tables_per_minute=3, connects_per_minute=100)
    with (
        web_client(tmp_path, url=pg_url, limits=limits) as one,
        web_client(tmp_path, url=pg_url, limits=limits) as two,
    ):
        table = open_table(one, "pig", 2)
        open_table(two, "pig", 2)
        open_table(one, "pig", 2)
        for client in (two, one):
            refused = client.post("/api/tables", json={"game": "pig"})
            assert refused.status_code == 429
            assert int(refused.headers["retry-after"]) >= 1
        with two.websocket_connect(f"/ws/tables/{table['id']}") as socket:  # the open tables are still served
            assert hello(socket, table["seats"][0]["token"])[-1]["type"] == "state"


def test_two_servers_on_one_database_share_the_connection_limit(tmp_path: Path, pg_url: str) -> None:
    limits = Limits(connects_per_minute=2)
    with (
        web_client(tmp_path, url=pg_url, limits=limits) as one,
        web_client(tmp_path, url=pg_url, limits=limits) as two,
    ):
        table = open_table(one, "pig", 2)
        path = f"/ws/tables/{table['id']}"
        with one.websocket_connect(path) as first, two.websocket_connect(path) as second:
            hello(first, None)
            hello(second, None)
        for client in (one, two):
            with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(path):
                pass
            assert denied.value.status_code == 429


def _open_sockets(pg_url: str, kind: str, key: str) -> int:
    """The sockets the cluster counts under (kind, key), over every process."""
    engine = create_engine(pg_url)
    try:
        with engine.connect() as connection:
            total = connection.execute(
                text("SELECT coalesce(sum(n), 0) FROM web_open_sockets WHERE kind = :kind AND key = :key"),
                {"kind": kind, "key": key},
            ).scalar()
        return int(total or 0)
    finally:
        engine.dispose()


def _until(check: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the counts never got there"
        time.sleep(0.02)


def _turned_away(socket: Any, token: str | None) -> str:
    socket.send_text(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
    message: str = receive_until(socket, lambda m: m["type"] == "error")[-1]["message"]
    return message


def test_open_socket_bounds_hold_across_two_servers(tmp_path: Path, pg_url: str) -> None:
    """Spectators per table, sockets per seat token and per address: each bound counts both servers."""
    limits = Limits(sockets_per_table=2, sockets_per_address=5, sockets_per_seat=1, connects_per_minute=100)
    with (
        web_client(tmp_path, url=pg_url, limits=limits) as one,
        web_client(tmp_path, url=pg_url, limits=limits) as two,
    ):
        table = open_table(one, "wriggle-roulette", 2)
        other = open_table(one, "pig", 2)
        path, other_path = f"/ws/tables/{table['id']}", f"/ws/tables/{other['id']}"
        token = table["seats"][0]["token"]
        with (
            one.websocket_connect(path) as seated,
            two.websocket_connect(path) as watcher_two,
            one.websocket_connect(path) as watcher_one,
        ):
            hello(seated, token)
            hello(watcher_two, None)
            hello(watcher_one, None)
            assert _open_sockets(pg_url, "table", table["id"]) == 2
            # The table has its two spectators, one on each server: both turn a third away,
            for client in (two, one):
                with client.websocket_connect(path) as third:
                    assert "2 spectators, the most it takes" in _turned_away(third, None)
            # and the seat's one socket is on the first server: its token is refused on the second.
            with two.websocket_connect(path) as again:
                assert "the most it takes" in _turned_away(again, token)
            _until(lambda: _open_sockets(pg_url, "address", "testclient") == 3)
            # Other tables are served meanwhile, up to the address's bound over both servers.
            with two.websocket_connect(other_path) as a, one.websocket_connect(other_path) as b:
                assert hello(a, None)[-1]["type"] == "state"
                assert hello(b, None)[-1]["type"] == "state"
                for client in (one, two):
                    with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(other_path):
                        pass
                    assert denied.value.status_code == 429
                    assert int(denied.value.headers["retry-after"]) >= 1
                    assert "at most 5" in denied.value.json()["error"]
        # Every socket closed: nothing stays counted, and the seat can be taken on the other server.
        _until(lambda: _open_sockets(pg_url, "address", "testclient") == 0)
        _until(lambda: _open_sockets(pg_url, "seat", f"{table['id']}/0") == 0)
        assert _open_sockets(pg_url, "table", table["id"]) == 0
        with two.websocket_connect(path) as moved:
            assert hello(moved, token)[-1]["seat"] == 0


def test_sockets_of_a_dead_process_stop_counting(pg_url: str) -> None:
    """A process that dies without a word: its sockets count until its heartbeat runs out, not after."""
    Store(pg_url).close()  # the schema (web_nodes)
    engine = create_engine(pg_url)
    with engine.begin() as connection:
        clock = "EXTRACT(EPOCH FROM clock_timestamp())"
        connection.execute(
            text(f"INSERT INTO web_nodes (id, alive_until) VALUES ('dying', {clock} + 600), ('alive', {clock} + 600)")
        )
    limits = Limits(sockets_per_table=2, sockets_per_seat=1, connects_per_minute=100)
    dying, alive = RateLimits(limits), RateLimits(limits)
    dying.share_sockets(SharedSocketCounts(engine, "dying"))
    alive.share_sockets(SharedSocketCounts(engine, "alive"))

    async def scenario() -> None:
        await dying.open_socket("192.0.2.1")
        assert await dying.watch_table("t1")
        assert await dying.watch_table("t1")
        assert await dying.take_seat("t1", 0)
        assert not await alive.watch_table("t1")
        assert not await alive.take_seat("t1", 0)
        assert await alive.watch_table("t2")  # another table has its own count
        with engine.begin() as connection:  # the dying process's heartbeat runs out; it never closed its sockets
            connection.execute(text(f"UPDATE web_nodes SET alive_until = {clock} - 0.1 WHERE id = 'dying'"))
        assert await alive.watch_table("t1")
        assert await alive.watch_table("t1")
        assert await alive.take_seat("t1", 0)
        assert not await alive.watch_table("t1")  # the bound still holds for the live process's own sockets
        await alive.stop()

    try:
        asyncio.run(scenario())
        assert _open_sockets(pg_url, "table", "t1") == 2  # the dead process's rows; the live one left
    finally:
        engine.dispose()


def test_rate_counts_of_addresses_gone_quiet_are_deleted(pg_url: str) -> None:
    Store(pg_url).close()  # the schema (web_rate_hits)
    engine = create_engine(pg_url)
    try:
        storage = PostgresRateStorage(engine)
        assert storage.acquire_entry("new tables/198.51.100.9", 3, 60)
        with engine.begin() as connection:  # an address last seen two hours ago
            connection.execute(
                text("INSERT INTO web_rate_hits (key, hits) VALUES ('new tables/192.0.2.8', ARRAY[:old])"),
                {"old": time.time() - 7200},
            )
        assert storage.prune() == 1
        with engine.connect() as connection:
            keys = {row[0] for row in connection.execute(text("SELECT key FROM web_rate_hits"))}
        assert keys == {"new tables/198.51.100.9"}
        assert storage.get_moving_window("new tables/198.51.100.9", 3, 60)[1] == 1  # the live count is kept
    finally:
        engine.dispose()


def test_two_processes_share_one_budget_of_new_solves(pg_url: str) -> None:
    """Fair shares' solve budget, charged in each process, holds over the cluster: before, each
    process kept its own, so an address reaching N processes had N budgets."""
    Store(pg_url).close()  # the schema (web_rate_hits), as the server's Store makes it
    engines = [create_engine(pg_url) for _ in range(2)]
    first, second = RateLimits(Limits()), RateLimits(Limits())
    first.share(PostgresRateStorage(engines[0]))
    second.share(PostgresRateStorage(engines[1]))

    async def scenario() -> None:
        await first.check_solves("203.0.113.7", 30.0)
        await first.charge_solve("203.0.113.7", 18.0)
        await second.check_solves("203.0.113.7", 30.0)  # 18 s so far: another solve may start
        await second.charge_solve("203.0.113.7", 14.5)
        for limiter in (first, second):  # 32.5 s over both: refused, whichever process it reaches
            with pytest.raises(RateLimited, match="took 32 worker seconds") as refused:
                await limiter.check_solves("203.0.113.7", 30.0)
            assert 1 <= refused.value.retry_after <= 60
        await second.check_solves("198.51.100.2", 30.0)  # another address has its own budget

    try:
        asyncio.run(scenario())
    finally:
        for engine in engines:
            engine.dispose()
