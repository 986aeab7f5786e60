"""Durability: SIGKILL a real server in the middle of games, start it again, and every table
continues exactly where it was (pending secret choices included), ending as the same games
played without the crash would have."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .helpers import SHORT_OPTIONS, Message, claim_seats
from .serverproc import HTTP_TIMEOUT, ServerProcess

# game, players, bots: the tables open when the server is killed
TABLES: list[tuple[str, int, dict[int, str]]] = [
    ("wriggle-roulette", 3, {2: "heuristic"}),
    ("eigen-kweek", 3, {2: "random"}),
    ("catch-a-dragon", 2, {1: "random"}),
]


def _request(game: str, players: int, bots: dict[int, str]) -> Message:
    """A table of ``game`` (short where its options allow: the crash still falls mid-game)."""
    seats = [{"bot": bots.get(p)} for p in range(players)]
    return {"game": game, "players": players, "seats": seats, "options": SHORT_OPTIONS.get(game, {})}


def policy(seat: int, step: int, legal: list[Any]) -> Any:
    """A fixed choice for (seat, step), so the same game can be played twice."""
    return legal[(step * 7 + seat * 3) % len(legal)]


class RemoteSeat:
    """One person's seat on a real server, over a real WebSocket."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        self.url = f"{base}/ws/tables/{table_id}"
        self.token = token
        self.ws: ClientConnection | None = None
        self._stack = contextlib.ExitStack()
        self.latest: Message | None = None
        self.acted: set[int] = set()

    def connect(self) -> Message:
        self.ws = self._stack.enter_context(connect(self.url, open_timeout=HTTP_TIMEOUT))
        self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        while True:
            message = json.loads(self.ws.recv(timeout=HTTP_TIMEOUT))
            if message["type"] == "state":
                self.latest = message
                return message

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()
        self.ws = None

    def pump(self) -> None:
        assert self.ws is not None
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0.005))
            except TimeoutError:
                return
            if message["type"] == "error":
                raise AssertionError(message)
            if message["type"] == "state":
                self.latest = message

    def wants_to_act(self) -> bool:
        m = self.latest
        return bool(
            m
            and m["result"] is None
            and m["seat"] in m["view"]["choices"]["waiting_for"]
            and m["step"] not in self.acted
        )

    def act(self) -> None:
        assert self.ws is not None and self.latest is not None
        step = self.latest["step"]
        self.acted.add(step)
        action = policy(self.latest["seat"], step, self.latest["legal"])
        self.ws.send(json.dumps({"type": "act", "action": action, "step": step}))

    @property
    def over(self) -> bool:
        return bool(self.latest and self.latest["result"] is not None)


def drive(seats: list[RemoteSeat], stop: Any, timeout: float = 300.0) -> None:
    """Let the seats play until ``stop(seats)`` is true."""
    deadline = time.monotonic() + timeout
    while not stop(seats):
        assert time.monotonic() < deadline, "the game stalled"
        for seat in seats:
            seat.pump()
            if seat.wants_to_act() and not stop(seats):
                seat.act()


def _awaits(seat: RemoteSeat, other: Message | None) -> bool:
    """Whether ``seat`` must choose at the step ``other`` shows."""
    mine = seat.latest
    return bool(
        mine and other and mine["step"] == other["step"] and mine["seat"] in mine["view"]["choices"]["waiting_for"]
    )


def _comparable(message: Message) -> Message:
    table = {k: v for k, v in message["table"].items() if k not in ("seats", "deadline_in")}
    return {"step": message["step"], "view": message["view"], "legal": message["legal"], "table": table}


@pytest.mark.slow
def test_sigkill_mid_game_then_restart_continues_every_table_exactly(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "durable.db")
    server.start()
    try:
        tables = []
        for index, (game, players, bots) in enumerate(TABLES):
            answer = httpx.post(
                f"{server.base}/api/tables",
                json={**_request(game, players, bots), "seed": 40 + index},
                timeout=HTTP_TIMEOUT,
            ).json()
            claim_seats(httpx, answer, server.base)
            remote = [RemoteSeat(server.ws_base, answer["id"], s["token"]) for s in answer["seats"] if not s["bot"]]
            for seat in remote:
                seat.connect()
            tables.append((answer, remote))
        # Play a while; leave the first table with a secret choice made (seat 0) and one awaited (seat 1).
        for _answer, remote in tables:
            drive(remote, lambda seats: sum(len(s.acted) for s in seats) >= 6)
        wriggle = tables[0][1]
        # A decision that waits for both people: seat 0's choice then stays pending whatever the bot does.
        deadline = time.monotonic() + 300.0
        while not (wriggle[0].wants_to_act() and _awaits(wriggle[1], wriggle[0].latest)):
            assert time.monotonic() < deadline, "no decision waited for both people"
            for seat in wriggle:
                seat.pump()
            steps = {seat.latest["step"] if seat.latest else None for seat in wriggle}
            if len(steps) == 1 and not (wriggle[0].wants_to_act() and _awaits(wriggle[1], wriggle[0].latest)):
                for seat in wriggle:  # both see the same step, and it is not the one wanted: move on
                    if seat.wants_to_act():
                        seat.act()
        wriggle[0].act()
        # Until both pages know: seat 1 sees that seat 0 chose, seat 0 sees its own pending choice.
        # Only reading: seat 1 must not choose meanwhile (that would resolve the decision).
        deadline = time.monotonic() + 300.0
        while not (
            wriggle[1].latest is not None
            and 0 in wriggle[1].latest["view"]["choices"]["chosen"]
            and wriggle[0].latest is not None
            and wriggle[0].latest["view"]["choices"].get("mine") is not None
        ):
            assert time.monotonic() < deadline, "the pages never learnt of seat 0's choice"
            for seat in wriggle:
                seat.pump()
        pending_action = wriggle[0].latest["view"]["choices"]["mine"] if wriggle[0].latest else None
        before = {}
        for answer, remote in tables:
            for seat in remote:
                seat.close()
                before[(answer["id"], seat.token)] = seat.connect()
        server.kill()
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"{server.base}/api/health", timeout=1.0)
        server.start()
        for answer, remote in tables:
            for seat in remote:
                after = seat.connect()
                assert _comparable(after) == _comparable(before[(answer["id"], seat.token)])
        mine = wriggle[0].latest["view"]["choices"]["mine"] if wriggle[0].latest else None
        assert mine == pending_action and mine is not None, "the pending secret choice survived the crash"
        for _answer, remote in tables:
            drive(remote, lambda seats: all(s.over for s in seats))
        records = [
            httpx.get(f"{server.base}/api/tables/{answer['id']}/record", timeout=HTTP_TIMEOUT).json()
            for answer, _ in tables
        ]
    finally:
        for _answer, remote in tables:
            for seat in remote:
                seat.close()
        server.stop()
    # The same games without a crash: a fresh server, same seeds, same choices.
    reference_server = ServerProcess(tmp_path / "reference.db")
    reference_server.start()
    try:
        for index, (game, players, bots) in enumerate(TABLES):
            answer = httpx.post(
                f"{reference_server.base}/api/tables",
                json={**_request(game, players, bots), "seed": 40 + index},
                timeout=HTTP_TIMEOUT,
            ).json()
            claim_seats(httpx, answer, reference_server.base)
            remote = [
                RemoteSeat(reference_server.ws_base, answer["id"], s["token"]) for s in answer["seats"] if not s["bot"]
            ]
            for seat in remote:
                seat.connect()
            drive(remote, lambda seats: all(s.over for s in seats))
            for seat in remote:
                seat.close()
            reference = httpx.get(
                f"{reference_server.base}/api/tables/{answer['id']}/record", timeout=HTTP_TIMEOUT
            ).json()
            assert records[index]["events"] == reference["events"], f"{game} did not continue exactly"
    finally:
        reference_server.stop()
