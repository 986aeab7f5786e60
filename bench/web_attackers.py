"""The named attackers of ``bench/load_web.py --attack NAME[,NAME...]`` (issue 36, point 7).

Each attacker runs from a loopback address of its own (``127.0.0.2`` to ``127.0.0.8``, so
the server counts its budgets apart from the honest clients on ``127.0.0.1`` and the other
attackers) and keeps to the server's documented per-address limits (the ``Limits`` table of
``docs/web.md``) where the issue says "within every limit": the load generator raises the
server's table and socket rates for the honest clients, so the attackers pace themselves.

* ``stale``: 54 seat sockets (18 seats of 6 tables it opened, 3 sockets a seat: the bound)
  each send 20 ``act`` messages a second naming step 0 (under the 50 a second bound);
* ``lobby``: tables written (the prepared finished games), the server restarted, then the
  lobby listed once a second and one unloaded table's facts read once a second (60 a minute
  each, the bounds);
* ``slow``: 60 connections (under 64 per address) each send a POST's headers and a byte of
  its body every 2 s, reopened when the server closes them;
* ``replays``: replays and records of different long games, one download every 2 s (30 a minute);
* ``solves``: a Pig table with an ``optimal-win`` bot and a goal not asked before (a new solve)
  every 3 s (20 a minute);
* ``analysis``: the analyses of every prepared finished game asked for and polled, once a second;
* ``xff``: tables opened with a new ``X-Forwarded-For`` each, 5 a second (not within the
  limit: the point is whether the header lets it past; here the bench server's raised table
  rate admits them anyway, so what this measures is their load).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from chat_attack import chat_flood
from websockets.asyncio.client import connect

ATTACKERS = ("stale", "lobby", "slow", "replays", "solves", "analysis", "xff", "chat")  # chat: bench/chat_attack.py
# Each attacker from its own address: together they are seven clients, each within its limits.
ADDRESSES = {name: f"127.0.0.{2 + number}" for number, name in enumerate(ATTACKERS)}
FALLBACK_LINE = "playing the fallback move"


def chosen_attackers(spec: str | None) -> list[str]:
    """``--attack`` value -> attacker names; ``flood`` is the older sync and replay flood."""
    if spec is None:
        return []
    names = list(ATTACKERS) if spec == "all" else [name.strip() for name in spec.split(",") if name.strip()]
    unknown = [name for name in names if name not in (*ATTACKERS, "flood")]
    if unknown or not names:
        allowed = ", ".join(("all", "flood", *ATTACKERS))
        raise ValueError(f"--attack: unknown attacker {', '.join(unknown) or spec!r}; allowed: {allowed}")
    return names


@dataclass
class Prepared:
    """What the attackers need, written before the clock runs."""

    long_games: list[str] = field(default_factory=list)  # finished long games (replays)
    finished: list[str] = field(default_factory=list)  # short finished games (lobby, analysis)
    honest_analysis: str | None = None  # a finished game whose analysis an honest client asks for


def attacker_http(name: str, timeout: float = 60) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=ADDRESSES[name])
    return httpx.AsyncClient(transport=transport, timeout=timeout)


def _count(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


async def _until(stop_at: float, pace: float) -> Any:
    """Yield every ``pace`` seconds until ``stop_at`` (monotonic)."""
    while time.monotonic() < stop_at:
        started = time.monotonic()
        yield
        await asyncio.sleep(max(0.0, pace - (time.monotonic() - started)))


async def stale_acts(base: str, game: str, stop_at: float, counts: dict[str, int]) -> None:
    async with attacker_http("stale") as http:
        seats: list[tuple[str, str]] = []
        for _ in range(6):
            opened = await http.post(f"{base}/api/tables", json={"game": game, "players": 3, "seats": [{}] * 3})
            opened.raise_for_status()
            table = opened.json()
            for seat in table["seats"]:
                code = seat["invite"].split("#invite=", 1)[1]
                claimed = await http.post(f"{base}/api/tables/{table['id']}/claim", json={"invite": code})
                claimed.raise_for_status()
                seats.append((table["id"], claimed.json()["token"]))
    ws_base = base.replace("http://", "ws://")
    jobs = [_stale_socket(f"{ws_base}/ws/tables/{t}", token, stop_at, counts) for t, token in seats for _ in range(3)]
    await asyncio.gather(*jobs)


async def _stale_socket(url: str, token: str, stop_at: float, counts: dict[str, int]) -> None:
    async with connect(url, max_size=2**24, open_timeout=30, local_addr=(ADDRESSES["stale"], 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))

        async def read() -> None:
            async for raw in ws:
                counts["stale_bytes_received"] += len(raw)
                _count(counts, f"stale_answer_{json.loads(raw)['type']}")

        reader = asyncio.create_task(read())
        try:
            async for _ in _until(stop_at, 0.05):
                await ws.send(json.dumps({"type": "act", "action": 0, "step": 0, "ref": 1}))
                counts["stale_acts_sent"] += 1
        finally:
            reader.cancel()


async def lobby_listings(base: str, prepared: Prepared, stop_at: float, counts: dict[str, int]) -> list[float]:
    """The lobby listed (timed: the first is the one after the restart) and unloaded tables' facts read."""
    ids = prepared.finished + prepared.long_games
    seconds: list[float] = []
    async with attacker_http("lobby") as http:

        async def listing() -> httpx.Response:
            before = time.perf_counter()
            listed = await http.get(f"{base}/api/tables")
            seconds.append(time.perf_counter() - before)
            return listed

        index = 0
        async for _ in _until(stop_at, 1.0):
            listed, facts = await asyncio.gather(listing(), http.get(f"{base}/api/tables/{ids[index % len(ids)]}"))
            index += 1
            _count(counts, f"lobby_{listed.status_code}")
            _count(counts, f"facts_{facts.status_code}")
    counts["lobby_first_listing_ms"] = round(1000 * seconds[0]) if seconds else 0
    return seconds


SLOW_HEAD = (
    b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"
)


async def slow_bodies(base: str, stop_at: float, counts: dict[str, int]) -> None:
    port = int(base.rsplit(":", 1)[1])
    await asyncio.gather(*(_slow_connection(port, stop_at, counts) for _ in range(60)))


async def _slow_connection(port: int, stop_at: float, counts: dict[str, int]) -> None:
    while time.monotonic() < stop_at:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ADDRESSES["slow"], 0))
        except OSError:
            _count(counts, "slow_connect_failed")
            await asyncio.sleep(1)
            continue
        counts["slow_opened"] += 1
        try:
            writer.write(SLOW_HEAD)
            async for _ in _until(stop_at, 2.0):
                writer.write(b" ")
                await writer.drain()
                if reader.at_eof():
                    break
                try:
                    answer = await asyncio.wait_for(reader.read(64), timeout=0.01)
                except TimeoutError:
                    continue
                _count(counts, "slow_answered_" + (answer[9:12].decode(errors="replace") or "closed"))
                break
        except OSError:
            _count(counts, "slow_reset")
        finally:
            writer.close()
        await asyncio.sleep(1.0)  # then a new slow connection in its place


async def distinct_replays(base: str, prepared: Prepared, stop_at: float, counts: dict[str, int]) -> list[float]:
    urls = [f"{base}/api/tables/{t}/{kind}" for t in prepared.long_games for kind in ("replay", "record")]
    seconds: list[float] = []
    async with attacker_http("replays") as http:
        index = 0
        async for _ in _until(stop_at, 2.0):
            before = time.perf_counter()
            response = await http.get(urls[index % len(urls)])
            index += 1
            seconds.append(time.perf_counter() - before)
            _count(counts, f"download_{response.status_code}")
            counts["download_bytes"] += len(response.content)
    return seconds


async def solve_flood(base: str, stop_at: float, counts: dict[str, int]) -> list[float]:
    goals = iter(range(100, 1, -1))  # each a configuration not solved before
    seconds: list[float] = []
    async with attacker_http("solves", timeout=120) as http:

        async def open_one(goal: int) -> None:
            table = {"game": "pig", "players": 2, "seats": [{}, {"bot": "optimal-win"}], "options": {"goal": goal}}
            before = time.perf_counter()
            response = await http.post(f"{base}/api/tables", json=table)
            seconds.append(time.perf_counter() - before)
            _count(counts, f"solve_open_{response.status_code}")

        started: list[asyncio.Task[None]] = []
        async for _ in _until(stop_at, 3.0):
            started.append(asyncio.create_task(open_one(next(goals))))
        await asyncio.gather(*started, return_exceptions=True)
    return seconds


async def analysis_flood(base: str, prepared: Prepared, stop_at: float, counts: dict[str, int]) -> None:
    ids = prepared.finished + prepared.long_games
    async with attacker_http("analysis") as http:
        async for _ in _until(stop_at, 1.0):
            answers = await asyncio.gather(*(http.get(f"{base}/api/tables/{t}/analysis") for t in ids))
            for answer in answers:
                status = answer.json().get("status", "") if answer.status_code == 200 else ""
                _count(counts, f"analysis_{answer.status_code}{'_' + status if status else ''}")


async def forwarded_rotation(base: str, game: str, stop_at: float, counts: dict[str, int]) -> None:
    rng = random.Random(36)
    async with attacker_http("xff") as http:
        async for _ in _until(stop_at, 0.2):
            forwarded = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
            table = {"game": game, "players": 2, "seats": [{}, {}]}
            response = await http.post(f"{base}/api/tables", json=table, headers={"X-Forwarded-For": forwarded})
            _count(counts, f"xff_open_{response.status_code}")


async def attackers_async(
    base: str, names: list[str], game: str, prepared: Prepared, stop_wall: float
) -> dict[str, Any]:
    stop_at = time.monotonic() + (stop_wall - time.time())
    counts: dict[str, int] = {"stale_acts_sent": 0, "stale_bytes_received": 0, "slow_opened": 0, "download_bytes": 0}
    jobs: dict[str, Any] = {
        "stale": lambda: stale_acts(base, game, stop_at, counts),
        "lobby": lambda: lobby_listings(base, prepared, stop_at, counts),
        "slow": lambda: slow_bodies(base, stop_at, counts),
        "replays": lambda: distinct_replays(base, prepared, stop_at, counts),
        "solves": lambda: solve_flood(base, stop_at, counts),
        "analysis": lambda: analysis_flood(base, prepared, stop_at, counts),
        "xff": lambda: forwarded_rotation(base, game, stop_at, counts),
        "chat": lambda: chat_flood(base, ADDRESSES["chat"], stop_at, counts),
    }
    chosen = [name for name in names if name in jobs]
    results = await asyncio.gather(*(jobs[name]() for name in chosen), return_exceptions=True)
    report: dict[str, Any] = {key: value for key, value in sorted(counts.items()) if value}
    for name, result in zip(chosen, results, strict=True):
        if isinstance(result, BaseException):
            report[f"{name}_failed"] = repr(result)[:200]
        elif isinstance(result, list) and result:
            ordered = sorted(result)
            report[f"{name}_seconds_p50"] = round(ordered[len(ordered) // 2], 2)
            report[f"{name}_seconds_max"] = round(ordered[-1], 2)
    return report


def run_attackers(arguments: tuple[str, list[str], str, Prepared, float]) -> dict[str, Any]:
    """The attackers, in a process of their own (so they never slow the measuring clients down)."""
    return asyncio.run(attackers_async(*arguments))


async def prepare(http: httpx.AsyncClient, base: str, names: list[str], game: str, long_game: Any) -> Prepared:
    """Finished games for the attackers: long ones (replays) and short ones (lobby, analysis)."""
    prepared = Prepared()
    if {"replays", "lobby", "analysis"} & set(names):
        tables = []
        for seed in range(3):
            opened = await http.post(f"{base}/api/tables", json={**long_game, "seed": 100 + seed})
            opened.raise_for_status()
            tables.append(opened.json()["id"])
        prepared.long_games = tables
    if {"lobby", "analysis"} & set(names):
        for seed in range(21):
            table = {"game": game, "players": 3, "seats": [{"bot": "random"}] * 3, "seed": 200 + seed}
            opened = await http.post(f"{base}/api/tables", json=table)
            opened.raise_for_status()
            prepared.finished.append(opened.json()["id"])
        prepared.honest_analysis = prepared.finished.pop()
    deadline = time.monotonic() + 600
    for table_id in [*prepared.long_games, *prepared.finished, *filter(None, [prepared.honest_analysis])]:
        while (await http.get(f"{base}/api/tables/{table_id}")).json()["result"] is None:
            if time.monotonic() > deadline:
                raise SystemExit("the attackers' games did not finish in time")
            await asyncio.sleep(0.5)
    return prepared


async def honest_probes(base: str, game: str, prepared: Prepared, stop_at: float) -> dict[str, Any]:
    """An honest client opening a table every 2 s (timed), and asking one analysis (timed)."""
    opening: list[float] = []
    analysis_seconds: float | None = None
    async with httpx.AsyncClient(timeout=60) as http:

        async def analysis() -> None:
            nonlocal analysis_seconds
            before = time.perf_counter()
            while time.monotonic() < stop_at + 30:
                answer = await http.get(f"{base}/api/tables/{prepared.honest_analysis}/analysis")
                if answer.status_code == 200 and answer.json().get("status") in ("done", "failed"):
                    analysis_seconds = time.perf_counter() - before
                    return
                await asyncio.sleep(0.5)

        waiting = asyncio.create_task(analysis()) if prepared.honest_analysis else None
        async for _ in _until(stop_at, 2.0):
            before = time.perf_counter()
            table = {"game": game, "players": 2, "seats": [{}, {"bot": "heuristic"}]}
            response = await http.post(f"{base}/api/tables", json=table)
            opening.append(time.perf_counter() - before)
            if response.status_code != 201:
                opening[-1] = float("inf")
        if waiting is not None:
            await waiting
    ordered = sorted(opening)
    return {
        "honest_table_open_ms_p50": round(1000 * ordered[len(ordered) // 2], 1) if ordered else None,
        "honest_table_open_ms_max": round(1000 * ordered[-1], 1) if ordered else None,
        "honest_analysis_seconds": None if analysis_seconds is None else round(analysis_seconds, 2),
    }


def fallback_moves(log_text: str, table_ids: list[str]) -> int:
    """Fallback moves the server logged at the honest tables."""
    wanted = set(table_ids)
    return sum(
        1 for line in log_text.splitlines() if FALLBACK_LINE in line and any(f"at table {t} " in line for t in wanted)
    )
