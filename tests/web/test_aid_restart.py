"""A seat's standing pass and its "done for you" notes survive a restart of the server (issue 37).

Eigen Kweek, 3 people, seed 10 (as ``test_forced.py``): seat 1 keeps RIA, so at the first
character window it could play and is not passed for unless it asks. It asks for its standing
pass while the server's pace is far too slow to use it; the server is stopped and started again
on the same database: the pass is still on, and the new server passes the window for seat 1.
Started a third time, the note of that pass is still told to seat 1, and to nobody else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from gamebag.web.settings import Limits

from .helpers import Message, hello, open_table, receive_until, web_client

SEED = 10
PLAYERS = 3
ASKING = 1  # the seat that asks for its standing pass
NEVER = (600.0, 600.0)  # a pace no test waits for: nothing is moved for anyone before the restart
QUICK = (0.2, 0.4)


def _at_window(message: Message) -> bool:
    return message["type"] == "state" and message["view"].get("step") == "window"


@contextmanager
def _seated(client: Any, table_id: str, tokens: list[str | None]) -> Iterator[tuple[list[Any], list[Message]]]:
    """A socket per token (None: a spectator), each past its hello, and the first state each got."""
    with ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}")) for _ in tokens]
        yield sockets, [hello(ws, token)[-1] for ws, token in zip(sockets, tokens, strict=True)]


@pytest.mark.timeout(60)
def test_a_standing_pass_and_its_note_survive_a_restart_for_that_seat_only(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(forced_pace=NEVER)) as client:
        table = open_table(client, "eigen-kweek", PLAYERS, seed=SEED)
        tokens: list[str | None] = [seat["token"] for seat in table["seats"]]
        with _seated(client, table["id"], tokens) as (sockets, states):
            for seat, ws in enumerate(sockets):
                action = "choose:RIA" if seat == ASKING else states[seat]["legal"][0]
                ws.send_text(json.dumps({"type": "act", "action": action, "step": states[seat]["step"]}))
            opened = receive_until(sockets[ASKING], _at_window)[-1]
            assert "play:RIA" in opened["legal"] and opened["standing_pass"]["on"] is False
            window = opened["step"]
            sockets[ASKING].send_text(json.dumps({"type": "standing_pass", "on": True}))
            receive_until(sockets[ASKING], lambda m: m["type"] == "state" and m["standing_pass"]["on"])

    with (
        web_client(tmp_path, limits=Limits(forced_pace=QUICK)) as client,
        _seated(client, table["id"], tokens) as (sockets, states),
    ):
        assert states[ASKING]["step"] == window
        assert states[ASKING]["standing_pass"]["on"] is True, "the restart forgot the standing pass"
        assert all(states[seat]["standing_pass"]["on"] is False for seat in range(PLAYERS) if seat != ASKING)
        revealed = receive_until(sockets[ASKING], lambda m: m["type"] == "state" and m["step"] > window)[-1]
        assert {"step": window, "action": "pass", "why": "asked"} in revealed["done_for_you"]

    with (
        web_client(tmp_path, limits=Limits(forced_pace=QUICK)) as client,
        _seated(client, table["id"], [None, *tokens]) as (_, states),
    ):
        spectator, *seats = states
        assert {"step": window, "action": "pass", "why": "asked"} in seats[ASKING]["done_for_you"]
        for seat, state in enumerate(seats):
            if seat != ASKING:
                assert all(note["why"] != "asked" for note in state.get("done_for_you", []))
        assert "done_for_you" not in spectator and "standing_pass" not in spectator


def test_in_a_cluster_only_the_process_holding_the_lease_stores_a_seat_s_aid(pg_url: str) -> None:
    """PostgreSQL: a process writes a seat's standing pass and notes only while it holds the table's
    lease; another process's write is refused and changes nothing."""
    from gamebag.web.lobby import parse_table_request
    from gamebag.web.store.db import Store
    from gamebag.web.store.seataid import LeaseHeldElsewhereError, load_seat_aid, save_seat_aid

    owner, other = Store(pg_url), Store(pg_url)
    try:
        owner.node, other.node = "owner", "other"
        config = parse_table_request({"game": "eigen-kweek", "players": PLAYERS}, allow_seed=False)
        owner.create_table(config)
        assert owner.acquire(config.id, 30.0)
        note = {"step": 4, "action": "pass", "why": "asked"}
        save_seat_aid(owner.engine, owner.node, config.id, ASKING, 1, [note])
        with pytest.raises(LeaseHeldElsewhereError):
            save_seat_aid(other.engine, other.node, config.id, ASKING, None, [])
        notes, passing = load_seat_aid(other.engine, config.id, 20)
        assert passing == {ASKING: 1} and list(notes[ASKING]) == [note]
        save_seat_aid(owner.engine, owner.node, config.id, ASKING, None, [])  # nothing left: no row
        assert load_seat_aid(owner.engine, config.id, 20) == ({}, {})
    finally:
        owner.close()
        other.close()
