"""Fair shares of the workers end to end (issue 36, point 3): a real ``gamebag serve`` with its real
worker pool (two workers), one address flooding it with tables that each need a new solve.

Meanwhile, from another address, a person plays a table against a bot (every bot move must be
the bot's own, never the uniformly random fallback the server plays when a move is not back
within ``--move-seconds``) and opens a new table with options solved before (it must open
within 1 s). Before fair shares, the solves held both workers: the bot's moves fell back to
random ones and openings waited behind every solve.

The server is killed at the end (a graceful stop waits for the solves under way) and its
worker processes by pid (a server killed mid-solve leaves its workers solving).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from web.helpers import claim_seats
from web.serverproc import ServerProcess

FLOODER = "127.0.0.2"
FLOOD_ROUNDS = range(12, 18)  # Catch A Dragon, six dice: each a solve of seconds, none asked before
FALLBACK_LINE = "playing the fallback move"
HONEST_MOVES = 6


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _flood(base: str, stop: threading.Event, answers: list[int]) -> None:
    transport = httpx.HTTPTransport(local_address=FLOODER)
    with httpx.Client(transport=transport, timeout=30.0) as http:

        def open_one(rounds: int) -> None:
            if stop.is_set():
                return
            table = {
                "game": "catch-a-dragon",
                "players": 2,
                "seats": [{}, {"bot": "optimal-win"}],
                "options": {"dice": 6, "rounds": rounds},
            }
            try:
                answers.append(http.post(f"{base}/api/tables", json=table).status_code)
            except httpx.HTTPError:
                answers.append(0)  # the server stopped under it: the test is over

        with ThreadPoolExecutor(len(FLOOD_ROUNDS)) as threads:
            list(threads.map(open_one, FLOOD_ROUNDS))


def _play(ws_url: str, token: str, moves: int, deadline: float) -> int:
    """Play the person's seat (random legal actions) until ``moves`` were acknowledged; how many were."""
    rng = random.Random(3)
    acknowledged = 0
    with connect(ws_url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        sent: set[int] = set()
        while acknowledged < moves and time.monotonic() < deadline:
            message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if message["type"] == "ack":
                acknowledged += 1
            if message["type"] != "state" or message["result"] is not None:
                if message["type"] == "state":
                    break
                continue
            step, seat = message["step"], message["seat"]
            if seat in message["view"]["choices"]["waiting_for"] and step not in sent and message["legal"]:
                sent.add(step)
                ws.send(json.dumps({"type": "act", "action": rng.choice(message["legal"]), "step": step}))
    return acknowledged


def test_a_solve_flood_from_one_address_leaves_others_their_bots_and_openings(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "web.db", extra=("--bot-workers", "2", "--move-seconds", "2"))
    server.start()
    workers = _children(server.process.pid if server.process else 0)
    stop = threading.Event()
    flood_answers: list[int] = []
    flooding = threading.Thread(target=_flood, args=(server.base, stop, flood_answers))
    table: dict[str, Any] = {}
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as http:
            honest = {"game": "pig", "players": 2, "seats": [{}, {"bot": "heuristic"}], "seed": 1}
            opened = http.post("/api/tables", json=honest)  # before the flood: its agent is measured quick
            assert opened.status_code == 201, opened.text
            table = claim_seats(http, opened.json(), server.base)
            flooding.start()
            time.sleep(1.0)  # the flood holds what it may of the workers
            ws_url = f"{server.ws_base}/ws/tables/{table['id']}"
            played = _play(ws_url, table["seats"][0]["token"], HONEST_MOVES, time.monotonic() + 30.0)
            began = time.monotonic()
            again = http.post("/api/tables", json={**honest, "seed": 2})
            opening = time.monotonic() - began
            assert again.status_code == 201, again.text
            assert opening < 1.0, f"an honest table took {opening:.2f} s to open under the flood"
            assert played >= HONEST_MOVES // 2, f"only {played} moves were acknowledged"
            busy = http.get("/api/health").json()
            assert busy["bot_workers"] == 2
    finally:
        stop.set()
        workers = sorted(set(workers) | set(_children(server.process.pid if server.process else 0)))
        server.kill()  # at once: a graceful stop would wait for the flood's solves
        _kill(workers)
        if flooding.is_alive() or flooding.ident is not None:
            flooding.join(timeout=60)
    log = server.log_path.read_text("utf-8", "replace")
    fallbacks = [line for line in log.splitlines() if FALLBACK_LINE in line and f"at table {table['id']} " in line]
    assert not fallbacks, "the honest table's bot fell back to random moves:\n" + "\n".join(fallbacks[:3])
    assert flood_answers, "the flood never opened a table"
