"""The lobby's table list (issue 37, point 4): when each table was opened, who played, who won;
an abandoned table (unfinished, nobody connected, nothing played for hours) left out; the
options in players' words (a label and the first sentence of the option's documentation)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from gamebag.web.tables.tablelist import ABANDONED_AFTER_S, listed
from gamebag.web.variants import option_label, option_summary

from .helpers import hello, open_table, play_whole_game, receive_until, web_client


def test_the_list_says_when_who_and_who_won_and_leaves_abandoned_tables_out(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        finished = open_table(client, "pig", 2, bots={1: "random"}, seed=5, options={"goal": 12}, public=True)
        play_whole_game(client, finished, seed=5)
        waiting = open_table(client, "pig", 2, bots={1: "heuristic"}, seed=6, public=True)
        before = time.time()
        rows = client.get("/api/tables").json()
    listed_now = {table["id"]: table for table in rows}
    assert set(listed_now) == {finished["id"], waiting["id"]}
    done = listed_now[finished["id"]]
    assert done["finished"] and done["winner_names"] and set(done["winner_names"]) <= {"P0", "P1"}
    assert before - 120 < done["created_at"] <= time.time()
    assert listed_now[waiting["id"]]["winner_names"] is None
    # Hours later nobody came back to the unfinished table: it is no longer offered.
    later = listed(rows, now=time.time() + ABANDONED_AFTER_S + 60)
    assert [table["id"] for table in later] == [finished["id"]]
    # Someone connected to it keeps it listed however long nothing was played.
    rows[[table["id"] for table in rows].index(waiting["id"])]["seats"][0]["connected"] = True
    assert {table["id"] for table in listed(rows, now=time.time() + ABANDONED_AFTER_S + 60)} == set(listed_now)


def test_options_read_in_players_words() -> None:
    assert option_label("max_grab") == "Most tokens one grab may take"
    assert option_label("plough_cost_6") == "Ploughing over the 6-card costs"
    assert option_label("some_new_rule") == "Some new rule"
    doc = "Rounds in a game (each player has one turn per round), before any tie-break rounds. More here."
    assert option_summary(doc) == "Rounds in a game (each player has one turn per round), before any tie-break rounds."


def test_a_rematch_is_announced_to_the_table_with_who_started_it(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "pig", 2, seed=5, options={"goal": 12})
        play_whole_game(client, table, seed=5)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, table["seats"][1]["token"])
            started = client.post(
                f"/api/tables/{table['id']}/rematch", headers={"x-seat-token": table["seats"][0]["token"]}
            )
            assert started.status_code == 200
            # A sync asked after the rematch opened is answered after everything the opening sent.
            ws.send_text(json.dumps({"type": "sync"}))
            with_next = [0]

            def second_state_with_next(message: dict[str, Any]) -> bool:
                with_next[0] += message["type"] == "state" and bool(message.get("next"))
                return with_next[0] == 2

            seen = receive_until(ws, second_state_with_next)
            announced = [message for message in seen if message["type"] == "rematch"]
            assert announced == [{"type": "rematch", "by": "P0"}], [message["type"] for message in seen]
            # Asking again opens nothing new and announces nothing more.
            again = client.post(
                f"/api/tables/{table['id']}/rematch", headers={"x-seat-token": table["seats"][1]["token"]}
            )
            assert again.json()["id"] == started.json()["id"]
