"""The per-address limits hold for a whole cluster: processes on one PostgreSQL share the counts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from starlette.testclient import WebSocketDenialResponse

from gamebag.web.guard import RateLimited, RateLimits
from gamebag.web.ratestore import PostgresRateStorage
from gamebag.web.settings import Limits

from .helpers import hello, open_table, web_client


def test_two_processes_count_one_connection_limit(pg_url: str) -> None:
    """Two processes' limiters (each its own engine, as two processes have) share one count."""
    limits = Limits(connects_per_minute=3)
    engines = [create_engine(pg_url) for _ in range(2)]
    first, second = RateLimits(limits), RateLimits(limits)
    first.share(PostgresRateStorage(engines[0]))
    second.share(PostgresRateStorage(engines[1]))

    async def scenario() -> None:
        await first.open_socket("203.0.113.7", "t1")
        await second.open_socket("203.0.113.7", "t2")
        await first.open_socket("203.0.113.7", "t3")
        for limiter in (second, first):  # the fourth is over the limit, whichever process it reaches
            with pytest.raises(RateLimited) as refused:
                await limiter.open_socket("203.0.113.7", "t4")
            assert refused.value.retry_after >= 1
            assert "at most 3 per minute" in str(refused.value)
        await second.open_socket("198.51.100.2", "t1")  # another address has its own count

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
