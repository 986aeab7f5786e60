"""The older attacker of ``bench/load_web.py --attack`` (``flood``, issue 27): spectators flooding
``sync`` and clients looping on the replay of one long finished game.

First a long game is played out by bots (``LONG_GAME``: Eigen Kweek, 3 random bots, every coin
worth 1, ploughing at 20, up to 90 rounds: about 1,600 steps); then four spectator sockets at
that finished game ask for the whole picture several times a second each and two clients
download its replay again and again, each request as soon as the last ends.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# The attackers' game: long (about 1,600 steps), played out by bots before the clock runs.
LONG_GAME_PLOUGH = {f"plough_cost_{cost}": 20 for cost in (2, 4, 6, 8)}
LONG_GAME_COINS = {"coins_worth_1": 35, "coins_worth_2": 0, "coins_worth_3": 0, "coins_worth_5": 0}
LONG_GAME = {
    "game": "eigen-kweek",
    "players": 3,
    "seats": [{"bot": "random"}] * 3,
    "seed": 7,
    "options": {**LONG_GAME_PLOUGH, **LONG_GAME_COINS, "max_rounds": 90},
}


async def long_finished_game(http: httpx.AsyncClient, base: str, limit: float = 600.0) -> tuple[str, int]:
    """Open the attackers' game, let its bots play it out; its id and number of steps."""
    response = await http.post(f"{base}/api/tables", json=LONG_GAME)
    response.raise_for_status()
    table_id = str(response.json()["id"])
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        facts = (await http.get(f"{base}/api/tables/{table_id}")).json()
        if facts["result"] is not None:
            return table_id, int(facts["table"]["step"])
        await asyncio.sleep(0.5)
    raise SystemExit("the attackers' game did not finish in time")


async def flood_syncs(url: str, per_second: float, stop_at: float, counts: dict[str, int]) -> None:
    """A spectator asking for the whole picture ``per_second`` times a second."""
    async with connect(url, max_size=2**24, open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello"}))

        async def read() -> None:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "state" and "history" in message:
                    counts["syncs_answered"] += 1
                elif message["type"] == "error":
                    counts["sync_errors"] += 1

        reader = asyncio.create_task(read())
        try:
            while time.monotonic() < stop_at:
                await ws.send(json.dumps({"type": "sync"}))
                counts["syncs_sent"] += 1
                await asyncio.sleep(1.0 / per_second)
        finally:
            reader.cancel()


async def loop_replays(url: str, stop_at: float, counts: dict[str, int], seconds: list[float]) -> None:
    """A client downloading the replay again and again, each request as soon as the last ends."""
    async with httpx.AsyncClient(timeout=60) as http:
        while time.monotonic() < stop_at:
            before = time.perf_counter()
            response = await http.get(url)
            seconds.append(time.perf_counter() - before)
            counts[f"replays_{response.status_code}"] = counts.get(f"replays_{response.status_code}", 0) + 1


async def attack_async(base: str, table_id: str, stop_wall: float, per_second: float) -> dict[str, Any]:
    stop_at = time.monotonic() + (stop_wall - time.time())
    counts: dict[str, int] = {"syncs_sent": 0, "syncs_answered": 0, "sync_errors": 0}
    seconds: list[float] = []
    ws_url = f"{base.replace('http://', 'ws://')}/ws/tables/{table_id}"
    jobs = [flood_syncs(ws_url, per_second, stop_at, counts) for _ in range(4)]
    jobs += [loop_replays(f"{base}/api/tables/{table_id}/replay", stop_at, counts, seconds) for _ in range(2)]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    return {
        **counts,
        "replay_ms_p50": round(1000 * percentile(seconds, 0.5), 1),
        "replay_ms_max": round(1000 * max(seconds), 1) if seconds else None,
        "attacker_failures": [repr(r) for r in results if isinstance(r, BaseException)][:3],
    }


def attack(arguments: tuple[str, str, float, float]) -> dict[str, Any]:
    """The attackers, in a process of their own (so they never slow the measuring clients down)."""
    return asyncio.run(attack_async(*arguments))
