"""An action naming an old step is refused in a few bytes; the state follows only within the
seat's own budget of them, so stale actions cannot make the server send whole states."""

from __future__ import annotations

import json
from pathlib import Path

from gamebag.web.settings import Limits
from gamebag.web.tables.hub import SEAT_SYNC_BURST

from .helpers import hello, open_table, receive_until, web_client

STALE_ACTS = 30


def test_stale_acts_get_short_refusals_and_few_states(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(bot_workers=1)) as client:
        table = open_table(client, "wriggle-roulette", 3)
        token = table["seats"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            joined = hello(ws, token)
            step = joined[-1]["step"]
            legal = joined[-1]["legal"] or [None]
            for ref in range(STALE_ACTS):
                ws.send_text(json.dumps({"type": "act", "action": legal[0], "step": step + 100, "ref": ref}))
            ws.send_text(json.dumps({"type": "ping", "ref": "end"}))
            texts = []
            for _ in range(200):
                text = ws.receive_text()
                texts.append(text)
                if json.loads(text)["type"] == "pong":
                    break
        seen = [json.loads(text) for text in texts]
        refusals = [m for m in seen if m["type"] == "error"]
        states = [m for m in seen if m["type"] == "state"]
        assert len(refusals) == STALE_ACTS
        assert all(m["code"] == "stale" and m["step"] == step for m in refusals)
        assert all(len(json.dumps(m)) < 300 for m in refusals)
        assert len(states) <= SEAT_SYNC_BURST  # the seat's budget; the old code sent one per stale act
        late = refusals[-1]
        assert late["retry_after"] >= 1 and "choose again" in late["message"]


def test_the_seat_budget_is_shared_by_its_sockets(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(bot_workers=1)) as client:
        table = open_table(client, "wriggle-roulette", 3)
        token = table["seats"][1]["token"]
        states = 0
        with client.websocket_connect(f"/ws/tables/{table['id']}") as keeper:
            hello(keeper, None)  # the table keeps a member, so its budgets are kept
            for _ in range(3):  # one socket after another: the budget stays the seat's
                with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                    step = hello(ws, token)[-1]["step"]
                    ws.send_text(json.dumps({"type": "ping", "ref": "joined"}))
                    receive_until(ws, lambda m: m["type"] == "pong")  # the presence news, if any
                    for _ in range(4):
                        ws.send_text(json.dumps({"type": "act", "action": None, "step": step - 1}))
                    ws.send_text(json.dumps({"type": "ping", "ref": "end"}))
                    seen = receive_until(ws, lambda m: m["type"] == "pong")
                    states += sum(m["type"] == "state" for m in seen)
        assert states <= SEAT_SYNC_BURST
