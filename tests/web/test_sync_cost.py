"""What a client can make the server compute: a full sync never replays the game, heavy reads
are made once off the event loop and rate-limited, and each socket has a budget of syncs (quick)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

import gamebag.web.tables.live as live_module
from gamebag.web.lobby import parse_table_request
from gamebag.web.settings import Limits
from gamebag.web.store.db import StoredTable
from gamebag.web.tables.hub import SYNC_BURST
from gamebag.web.tables.live import HISTORY_STEPS, LiveTable

from .helpers import hello, open_table, receive_until, web_client

GAMES = [("wriggle-roulette", 3, {}), ("eigen-kweek", 3, {"max_rounds": 5}), ("catch-a-dragon", 2, {})]


def _table(game: str, players: int, options: dict[str, Any], seed: int) -> LiveTable:
    request = {"game": game, "players": players, "seats": [{}] * players, "seed": seed, "options": options}
    config = parse_table_request(request, allow_seed=True)
    return LiveTable.rebuild(StoredTable(config, [], {}), None)


def _step(table: LiveTable, rng: random.Random) -> None:
    for seat in table.waiting_for():
        table.apply(table.stage(seat, rng.choice(table.legal_json(seat))))


def _expected(table: LiveTable, seat: int | None) -> str:
    return json.dumps(table.step_views(seat, HISTORY_STEPS, every_event=True), separators=(",", ":"), allow_nan=False)


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_the_kept_history_is_the_replayed_one_for_owners_replicas_and_rebuilt_tables(
    game: str, players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(3)
    owned = _table(game, players, options, seed=11)
    replica = _table(game, players, options, seed=11)
    readers: list[int | None] = [None, *range(players)]
    checked = 0
    while not owned.is_over:
        before = owned.step
        _step(owned, rng)
        replica.catch_up(owned.match.record.events[before:], {})
        if owned.step % 7 == 0 or owned.is_over:  # now and then: every reader, each way the table was built
            events = list(owned.match.record.events)
            rebuilt = LiveTable.rebuild(StoredTable(owned.config, events, {}), None)
            for seat in readers:
                expected = _expected(owned, seat)
                assert owned.history_json(seat) == expected
                assert replica.history_json(seat) == expected
                assert rebuilt.history_json(seat) == expected
            checked += 1
    assert checked > 3
    if game == "eigen-kweek":  # long enough for the history to be cut to its last steps
        assert sum("moves" in event for event in owned.match.record.events) > HISTORY_STEPS


def test_a_sync_replays_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The views of a long game's history come from the kept states: no rule is applied for a
    sync, however often it is asked for (the old code replayed the whole game each time)."""
    rng = random.Random(5)
    table = _table("eigen-kweek", 3, {"max_rounds": 3}, seed=4)
    while not table.is_over:
        _step(table, rng)
    table.history_json(0)  # the views of the kept states, serialized once
    applied = 0
    real = live_module.apply_event

    def counting(*args: Any) -> Any:
        nonlocal applied
        applied += 1
        return real(*args)

    monkeypatch.setattr(live_module, "apply_event", counting)
    monkeypatch.setattr(table.game, "apply", lambda *a: pytest.fail("a sync applied a rule"))
    for _ in range(20):
        for seat in (None, 0, 1, 2):
            json.loads(table.history_json(seat))
    assert applied == 0


def _finished_bot_table(client: Any, limit_seconds: float = 60.0) -> str:
    table = open_table(client, "pig", 2, bots={0: "random", 1: "random"}, options={"goal": 30})
    deadline = time.monotonic() + limit_seconds
    while client.get(f"/api/tables/{table['id']}").json()["result"] is None:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)
    return str(table["id"])


def test_downloads_are_built_once_off_the_loop_and_rate_limited(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(downloads_per_minute=4, bot_workers=1)) as client:
        table_id = _finished_bot_table(client)
        downloads = client.app.state.downloads  # type: ignore[attr-defined]
        first = client.get(f"/api/tables/{table_id}/replay")
        again = client.get(f"/api/tables/{table_id}/replay")
        assert first.status_code == again.status_code == 200
        assert first.content == again.content and downloads.builds == 1  # the second came from the cache
        answer = first.json()
        assert set(answer) == {"table", "seat", "steps", "result"} and answer["seat"] is None
        assert answer["table"]["id"] == table_id and answer["result"]["winners"]
        table = client.app.state.manager.get(table_id)  # type: ignore[attr-defined]
        assert answer["steps"] == table.step_views(None)
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200 and record.json()["events"] == table.match.record.events
        client.get(f"/api/tables/{table_id}/record")
        refused = client.get(f"/api/tables/{table_id}/replay")  # the fifth download in a minute
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert "downloads" in refused.json()["error"] and "at most 4 per minute" in refused.json()["error"]
        assert downloads.builds == 2
        # Another table is served all the while.
        assert client.get("/api/health").status_code == 200


def test_a_socket_has_a_budget_of_full_syncs(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(bot_workers=1)) as client:
        table = open_table(client, "wriggle-roulette", 3)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, None)
            for _ in range(20):
                ws.send_text(json.dumps({"type": "sync"}))
            ws.send_text(json.dumps({"type": "ping", "ref": "end"}))
            seen = receive_until(ws, lambda m: m["type"] == "pong")
        synced = [m for m in seen if m["type"] == "state" and "history" in m]
        refused = [m for m in seen if m["type"] == "error"]
        # The hello's sync took one of the burst; a second's refill may add one more.
        assert SYNC_BURST - 1 <= len(synced) <= SYNC_BURST + 1
        assert len(refused) == 1 and "too many syncs" in refused[0]["message"]
