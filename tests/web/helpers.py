"""Helpers for the web tests: an in-process server, seat players on sockets, replays of records."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import gamebag
from gamebag.core.protocol import Game
from gamebag.core.records import apply_event
from gamebag.web.app import create_app

Message = dict[str, Any]
# Short games where the game allows it (a lower goal, fewer rounds): still whole games, played
# to their end, in a fraction of the moves.
SHORT_OPTIONS: dict[str, dict[str, Any]] = {"pig": {"goal": 30}, "eigen-kweek": {"max_rounds": 3}}


@contextmanager
def web_client(tmp_path: Path, name: str = "web.db", url: str | None = None, **options: Any) -> Iterator[TestClient]:
    """An in-process server on an SQLite file in ``tmp_path`` (or on the database ``url``)."""
    options.setdefault("bot_delay", 0.0)
    options.setdefault("allow_seed", True)
    options.setdefault("host_names", ("testserver",))  # the name the test client sends
    app = create_app(url or f"sqlite:///{tmp_path / name}", **options)
    with TestClient(app) as client:
        yield client


def open_table(
    client: TestClient,
    game: str,
    players: int,
    bots: dict[int, str] | None = None,
    seed: int = 1,
    **extra: Any,
) -> Message:
    bots = bots or {}
    seats = [{"name": f"P{p}", "bot": bots.get(p)} for p in range(players)]
    response = client.post(
        "/api/tables", json={"game": game, "players": players, "seats": seats, "seed": seed, **extra}
    )
    assert response.status_code == 201, response.text
    answer: Message = response.json()
    claim_seats(client, answer)
    return answer


def claim_seats(client: Any, table: Message, base: str = "") -> Message:
    """Open every person's invite once, as the device that plays it: each seat's own token goes
    into ``table["seats"][i]["token"]`` (an invite is a one-time claim). ``client``: a test client,
    or ``httpx`` with the server's ``base`` address. Returns ``table``."""
    for seat in table["seats"]:
        if not seat["bot"]:
            code = seat["invite"].split("#invite=", 1)[1]
            claimed = client.post(f"{base}/api/tables/{table['id']}/claim", json={"invite": code})
            assert claimed.status_code == 200, claimed.text
            assert claimed.json()["seat"] == seat["seat"]
            seat["token"] = claimed.json()["token"]
    return table


def receive(ws: Any) -> Message:
    message: Message = json.loads(ws.receive_text())
    return message


def receive_until(ws: Any, predicate: Callable[[Message], bool], limit: int = 500) -> list[Message]:
    """Read messages until one satisfies ``predicate``; return all read (that one last)."""
    seen = []
    for _ in range(limit):
        message = receive(ws)
        seen.append(message)
        if predicate(message):
            return seen
    raise AssertionError(f"no matching message among {limit}: last {seen[-3:]}")


def hello(ws: Any, token: str | None) -> list[Message]:
    ws.send_text(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
    return receive_until(ws, lambda m: m["type"] == "state")


class SeatPlayer(threading.Thread):
    """Plays one seat over its own socket: a random legal action whenever the seat must choose.

    Every message received is kept in ``messages``; ``submitted`` maps each step to the
    action sent there.
    """

    def __init__(
        self, client: TestClient, table_id: str, token: str | None, seed: int, max_actions: int = 5000
    ) -> None:
        super().__init__(daemon=True)
        self.client = client
        self.table_id = table_id
        self.token = token
        self.rng = random.Random(seed)
        self.max_actions = max_actions
        self.messages: list[Message] = []
        self.submitted: dict[int, Any] = {}
        self.error: BaseException | None = None
        self.finished = False
        self.socket: Any = None

    def run(self) -> None:
        try:
            with self.client.websocket_connect(f"/ws/tables/{self.table_id}") as ws:
                self.socket = ws
                ws.send_text(json.dumps({"type": "hello", "token": self.token} if self.token else {"type": "hello"}))
                while True:
                    message = receive(ws)
                    self.messages.append(message)
                    if message["type"] == "error":
                        raise AssertionError(f"server error to seat: {message}")
                    if message["type"] != "state":
                        continue
                    if message["result"] is not None:
                        self.finished = True
                        return
                    seat = message["seat"]
                    waiting = message["view"]["choices"]["waiting_for"]
                    step = message["step"]
                    if seat is not None and seat in waiting and step not in self.submitted and message["legal"]:
                        if len(self.submitted) >= self.max_actions:
                            raise AssertionError("the game did not end")
                        action = self.rng.choice(message["legal"])
                        self.submitted[step] = action
                        ws.send_text(json.dumps({"type": "act", "action": action, "step": step}))
        except BaseException as error:
            self.error = error

    def hang_up(self) -> None:
        """Close this player's socket from outside: a read waiting for a message that never
        comes ends with an error instead of blocking the test client's shutdown for ever."""
        socket = self.socket
        if socket is not None:
            socket.__exit__(None, None, None)


def run_players(players: list[SeatPlayer], timeout: float = 120.0) -> None:
    """Start ``players`` and wait for all of them, at most ``timeout`` seconds in all.

    A player still waiting then is hung up (so the test fails with this message rather than
    hanging in the test client's shutdown); a player's own error is raised as it is.
    """
    for player in players:
        player.start()
    deadline = time.monotonic() + timeout
    for player in players:
        player.join(max(0.0, deadline - time.monotonic()))
    stalled = [player for player in players if player.is_alive()]
    for player in stalled:
        player.hang_up()
    for player in stalled:
        player.join(10)
    if stalled:
        last = [player.messages[-1]["type"] if player.messages else "nothing" for player in stalled]
        raise AssertionError(
            f"{len(stalled)} seat player(s) still waiting after {timeout:g} s: the game stalled "
            f"(the last message each received: {', '.join(last)})"
        )
    for player in players:
        if player.error is not None:
            raise player.error


def play_whole_game(
    client: TestClient, table: Message, seed: int, spectate: bool = True, timeout: float = 120.0
) -> list[SeatPlayer]:
    """Run one player per person's seat (and a spectator) until the game ends."""
    players = [
        SeatPlayer(client, table["id"], seat["token"], seed * 100 + seat["seat"])
        for seat in table["seats"]
        if not seat["bot"]
    ]
    if spectate:
        players.append(SeatPlayer(client, table["id"], None, seed))
    run_players(players, timeout)
    for player in players:
        assert player.finished
    return players


def record_of(client: TestClient, table_id: str) -> Message:
    response = client.get(f"/api/tables/{table_id}/record")
    assert response.status_code == 200, response.text
    record: Message = response.json()
    return record


def states_by_step(record: Message) -> tuple[Game[Any, Any, Any], list[Any]]:
    """The game and its state after each prefix of the record's events."""
    game = gamebag.make(record["game"], record["players"], **record["options"])
    states = [game.initial_state()]
    for event in record["events"]:
        states.append(apply_event(game, states[-1], event))
    return game, states


def without_choices(view: Message) -> Message:
    return {k: v for k, v in view.items() if k != "choices"}


def as_before_migrations(connection: Any) -> None:
    """Make a database look as a release from before migrations left it: no revision stamp, and
    none of the tables later revisions added (a real one never had them)."""
    from sqlalchemy import inspect, text

    from gamebag.web.store.migrations import baseline
    from gamebag.web.store.schema import Base

    dialect = connection.dialect.name
    kept = {table.name for table in baseline.tables_for(dialect)}
    present = set(inspect(connection).get_table_names())
    for table in reversed(Base.metadata.sorted_tables):  # dependants first
        if table.name in present and table.name not in kept:
            connection.execute(text(f"DROP TABLE {table.name}"))
    for table in baseline.tables_for(dialect):  # and none of the columns later revisions added
        if table.name in present:
            columns = {column["name"] for column in inspect(connection).get_columns(table.name)}
            known = set(table.columns.keys()) | set(baseline.ADDED_COLUMNS.get(table.name, {}))
            for name in sorted(columns - known):
                connection.execute(text(f"ALTER TABLE {table.name} DROP COLUMN {name}"))
    connection.execute(text("DROP TABLE alembic_version"))
