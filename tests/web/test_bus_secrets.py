"""No secret choice travels on a cluster's bus in clear: any database role may LISTEN (PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from gamebag.web.store.busseal import Sealer, SealError
from gamebag.web.store.cluster import libpq_url, node_channel
from gamebag.web.store.db import TABLES_CHANNEL

from .test_cluster_presence import STEADY_LEASE, _stop, _two_managers, _until


def test_a_seal_opens_only_with_its_key() -> None:
    sealer, other = Sealer(b"k" * 32), Sealer(b"j" * 32)
    value = {"bid": [3, "x"], "n": None}
    sealed = sealer.seal(value)
    assert sealer.open(sealed) == value and "bid" not in sealed and sealer.seal(value) != sealed
    with pytest.raises(SealError):
        other.open(sealed)
    tampered = sealed[:-4] + ("AAAA" if not sealed.endswith("AAAA") else "BBBB")
    with pytest.raises(SealError):
        sealer.open(tampered)


def test_pending_choices_never_go_on_the_bus_in_clear(pg_url: str) -> None:
    import psycopg

    async def scenario() -> None:
        request = {"game": "wriggle-roulette", "players": 3, "seats": [{}, {}, {}], "seed": 9}
        owner, other, table_id = await _two_managers(pg_url, request, STEADY_LEASE)
        eavesdropper = await psycopg.AsyncConnection.connect(libpq_url(pg_url), autocommit=True)
        try:
            assert owner.node is not None
            await eavesdropper.execute(f"LISTEN {TABLES_CHANNEL}")
            await eavesdropper.execute(f"LISTEN {node_channel(owner.node)}")  # its name is in every notice
            owned, replica = owner.get(table_id), other.get(table_id)
            assert {0, 1} <= set(owned.waiting_for())
            forwarded, direct = owned.legal_json(0)[-1], owned.legal_json(1)[-1]
            answer = await other.forward(replica, 0, forwarded, replica.step)  # seat 0 plays on the other process
            assert answer["k"] == "ack", answer
            await owner.act(owned, 1, direct)  # seat 1 on the owner's
            await _until(lambda: {0, 1} <= set(other.get(table_id).match.pending))  # the replica still follows
            assert other.get(table_id).match.pending[0] == replica.game.action_from_json(forwarded)
            heard: list[dict[str, Any]] = []

            async def listen() -> None:
                async for notice in eavesdropper.notifies():
                    heard.append(json.loads(notice.payload))

            listener = asyncio.get_running_loop().create_task(listen())
            await asyncio.sleep(0.5)  # notifications already delivered are read now
            listener.cancel()
            kinds = {message.get("k") for message in heard}
            assert {"act", "pending"} <= kinds, heard
            for message in heard:
                if message.get("k") == "act":
                    assert isinstance(message["a"], str) and message["a"] != json.dumps(forwarded)
                    with pytest.raises(SealError):
                        Sealer(b"\0" * 32).open(message["a"])
                if message.get("k") == "pending":
                    assert "a" not in message, f"a pending choice on the bus in clear: {message}"
        finally:
            await eavesdropper.close()
            await _stop(owner, other)

    asyncio.run(scenario())
