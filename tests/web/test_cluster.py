"""Several server processes on one PostgreSQL database, with the real parts.

A throw-away PostgreSQL cluster (Debian's server, ``postgres.py``), real
``gamebag serve`` processes, real WebSockets: the seats of one table sit on
different processes and play whole games of every game (short ones where the game's
options allow it); the owner of a table is killed with SIGKILL mid-game and play goes
on on the other process, with no acknowledged action lost or applied twice, and the
record replays.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import ClientConnection, connect

import gamebag
from gamebag.core.records import Record, replay

from .helpers import SHORT_OPTIONS, Message, claim_seats, open_table, play_whole_game, web_client
from .serverproc import HTTP_TIMEOUT, ServerProcess

LEASE = "3"  # seconds: a killed owner's tables move after this
RETRYABLE = ("choose again", "did not answer", "changing", "moved")


def _players_for(game_id: str) -> int:
    cls = gamebag.entry(game_id).game_class
    return max(2, cls.min_players)


class ClusterSeat:
    """One person's seat over a real WebSocket to one process; it can move to another process."""

    def __init__(self, ws_base: str, table_id: str, token: str, seed: int) -> None:
        self.table_id = table_id
        self.token = token
        self.rng = random.Random(seed)
        self.ws: ClientConnection | None = None
        self._stack = contextlib.ExitStack()
        self.latest: Message | None = None
        self.acked: dict[int, Any] = {}  # step -> action, for every ack received
        self.sent: dict[int, Any] = {}
        self.retried = 0
        self.connect(ws_base)

    def connect(self, ws_base: str) -> None:
        self.close()
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(connect(f"{ws_base}/ws/tables/{self.table_id}", open_timeout=HTTP_TIMEOUT))
        self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        self.sent.clear()  # unanswered actions are judged again from the fresh state
        while self.latest is None or self.latest.get("_fresh") is not True:
            message = json.loads(self.ws.recv(timeout=HTTP_TIMEOUT))
            if message["type"] == "state":
                message["_fresh"] = True
                self.latest = message

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()
        self.ws = None

    def pump(self) -> None:
        assert self.ws is not None
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0.01))
            except TimeoutError:
                return
            if message["type"] == "state":
                self.latest = message
            elif message["type"] == "ack":
                self.acked[message["ref"]] = self.sent.get(message["ref"])
            elif message["type"] == "error":
                if not any(fragment in message["message"] for fragment in RETRYABLE):
                    raise AssertionError(message)
                self.retried += 1
                self.sent.pop(message.get("ref"), None)

    @property
    def over(self) -> bool:
        return bool(self.latest and self.latest["result"] is not None)

    def maybe_act(self) -> None:
        m = self.latest
        if not m or m["result"] is not None or m["seat"] not in m["view"]["choices"]["waiting_for"]:
            return
        step = m["step"]
        if step in self.sent or step in self.acked or not m["legal"]:
            return
        if m["view"]["choices"].get("mine") is not None:
            return  # a secret choice already made at this step
        action = self.rng.choice(m["legal"])
        self.sent[step] = action
        assert self.ws is not None
        self.ws.send(json.dumps({"type": "act", "action": action, "step": step, "ref": step}))


def drive(seats: list[ClusterSeat], until: Any, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, f"the game stalled: {[s.latest and s.latest['step'] for s in seats]}"
        for seat in seats:
            seat.pump()
            seat.maybe_act()


def _check_record(record: Message, acked: list[dict[int, Any]]) -> None:
    """The record replays to the end, and each acknowledged action is in it once, where it was sent."""
    game, state = replay(Record.from_json(record), gamebag.make)
    assert game.is_terminal(state)
    events = record["events"]
    for seat, steps in enumerate(acked):
        for step, action in steps.items():
            moves = [e for e in events[step:] if "moves" in e and str(seat) in e["moves"]]
            assert moves and moves[0]["moves"][str(seat)] == action, (seat, step, action)


def test_one_process_on_postgresql_plays_whole_games(tmp_path: Path, pg_url: str) -> None:
    with web_client(tmp_path, url=pg_url) as client:
        for index, game_id in enumerate(gamebag.game_ids()):
            table = open_table(client, game_id, _players_for(game_id), bots={1: "random"}, seed=index)
            play_whole_game(client, table, seed=index, spectate=True)
            assert client.get(f"/api/tables/{table['id']}").json()["result"] is not None
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.node is not None and manager.takeovers == 0


@pytest.mark.slow
def test_two_processes_seats_on_both_play_whole_games_of_every_game(tmp_path: Path, pg_url: str) -> None:
    servers = [
        ServerProcess(tmp_path / f"server{i}.db", db_url=pg_url, extra=("--lease-seconds", LEASE)) for i in range(2)
    ]
    for server in servers:
        server.start()
    try:
        for index, game_id in enumerate(gamebag.game_ids()):
            home = servers[index % 2]  # tables opened (so owned) by each process in turn
            players = _players_for(game_id)
            seats_json = [{"name": f"P{p}"} for p in range(players)]
            options = SHORT_OPTIONS.get(game_id, {})
            request = {"game": game_id, "players": players, "seats": seats_json, "seed": 7 + index, "options": options}
            response = httpx.post(f"{home.base}/api/tables", json=request, timeout=60)
            assert response.status_code == 201, response.text
            table = claim_seats(httpx, response.json(), home.base)
            seats = [
                ClusterSeat(servers[p % 2].ws_base, table["id"], table["seats"][p]["token"], 100 * index + p)
                for p in range(players)
            ]
            drive(seats, lambda seats=seats: all(s.over for s in seats))
            records = [httpx.get(f"{s.base}/api/tables/{table['id']}/record", timeout=30).json() for s in servers]
            assert records[0]["events"] == records[1]["events"]
            _check_record(records[0], [s.acked for s in seats])
            for seat in seats:
                seat.close()
    finally:
        for server in servers:
            server.stop()


@pytest.mark.slow
def test_sigkill_the_owner_mid_game_and_play_goes_on(tmp_path: Path, pg_url: str) -> None:
    owner, other = (
        ServerProcess(tmp_path / f"server{i}.db", db_url=pg_url, extra=("--lease-seconds", LEASE)) for i in range(2)
    )
    owner.start()
    other.start()
    engine = create_engine(pg_url)
    seats: list[ClusterSeat] = []
    try:
        table = httpx.post(
            f"{owner.base}/api/tables",
            json={
                "game": "wriggle-roulette",
                "players": 3,
                "options": {"target": 60},  # a long game, so that the owner dies in its middle
                "seats": [{}, {}, {"bot": "heuristic"}],
                "seed": 21,
            },
            timeout=60,
        ).json()
        claim_seats(httpx, table, owner.base)
        tokens = [s["token"] for s in table["seats"] if not s["bot"]]
        seats = [
            ClusterSeat(owner.ws_base, table["id"], tokens[0], 1),
            ClusterSeat(other.ws_base, table["id"], tokens[1], 2),
        ]
        drive(seats, lambda: sum(len(s.acked) for s in seats) >= 8 or any(s.over for s in seats))
        assert not any(s.over for s in seats), "the game should still be on when its owner dies"
        owner.kill()
        with engine.connect() as connection:
            before = [
                row[0]
                for row in connection.execute(
                    text("SELECT data FROM web_events WHERE table_id = :t ORDER BY idx"), {"t": table["id"]}
                )
            ]
        seats[0].connect(other.ws_base)  # the browser reconnects, here to the surviving process
        drive(seats, lambda: all(s.over for s in seats))
        record = httpx.get(f"{other.base}/api/tables/{table['id']}/record", timeout=30).json()
        assert [json.loads(e) for e in before] == record["events"][: len(before)]  # nothing committed was lost
        _check_record(record, [s.acked for s in seats])
        health = httpx.get(f"{other.base}/api/health", timeout=30).json()
        assert health["ok"] and health["takeovers"] >= 1  # the table moved to the surviving process
    finally:
        for seat in seats:
            seat.close()
        owner.stop()
        other.stop()
        engine.dispose()


@pytest.mark.slow
def test_serve_workers_runs_several_processes_on_one_port(tmp_path: Path, pg_url: str) -> None:
    server = ServerProcess(tmp_path / "workers.db", db_url=pg_url, extra=("--workers", "2", "--lease-seconds", LEASE))
    server.start(timeout=60)
    seats: list[ClusterSeat] = []
    try:
        request = {"game": "wriggle-roulette", "players": 3, "seats": [{}, {}, {"bot": "random"}], "seed": 5}
        opened = httpx.post(f"{server.base}/api/tables", json=request, timeout=60).json()
        table = claim_seats(httpx, opened, server.base)
        tokens = [s["token"] for s in table["seats"] if not s["bot"]]
        seats = [ClusterSeat(server.ws_base, table["id"], token, 10 + i) for i, token in enumerate(tokens)]
        drive(seats, lambda: all(s.over for s in seats))
        record = httpx.get(f"{server.base}/api/tables/{table['id']}/record", timeout=30).json()
        _check_record(record, [s.acked for s in seats])
        # The processes share the listening socket and whichever is free accepts, so on a busy
        # machine one process can take many connections in a row: ask until both have answered.
        nodes = set()
        deadline = time.monotonic() + 120
        while len(nodes) < 2 and time.monotonic() < deadline:
            with httpx.Client() as fresh:
                nodes.add(fresh.get(f"{server.base}/api/health", timeout=30).json()["node"])
        assert len(nodes) == 2, f"only {nodes} answered in 120 s"
    finally:
        for seat in seats:
            seat.close()
        server.stop()


def test_processes_starting_together_on_a_fresh_database_all_start(pg_url: str) -> None:
    """``serve --workers N`` on an empty database: every process creates the schema, one at a time."""
    from concurrent.futures import ThreadPoolExecutor

    from gamebag.web.store.db import Store

    def start() -> str:
        store = Store(pg_url)  # each with its own engine, as each process has
        store.close()
        return "started"

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda _: start(), range(4))) == ["started"] * 4
