"""The table features pages build on: rules sheets, end summaries, rematches, host pages, bots for
no-shows, QR codes and the LAN invite address."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gamebag
from gamebag.web.tables.invites import invite_base, lan_address, qr_rows

from .helpers import claim_seats, hello, open_table, play_whole_game, receive_until, web_client


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_every_game_serves_its_rules_page(tmp_path: Path, game_id: str) -> None:
    with web_client(tmp_path) as client:
        answer = client.get(f"/api/games/{game_id}/rules").json()
    assert answer["game"] == game_id
    assert answer["markdown"].startswith("# ")
    assert len(answer["markdown"]) > 500


def test_an_unknown_game_has_no_rules_page_and_says_which_exist(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        response = client.get("/api/games/chess/rules")
    assert response.status_code == 400
    assert "wriggle-roulette" in response.json()["error"]


def test_the_end_summary_has_scores_by_round_and_every_seats_final_view(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 3, bots={2: "random"}, seed=4)
        players = play_whole_game(client, table, seed=4)
    result = players[0].messages[-1]["result"]
    rounds = result["rounds"]
    assert [row["round"] for row in rounds] == list(range(1, len(rounds) + 1))
    assert rounds[-1]["scores"] == result["scores"]
    assert all(len(row["scores"]) == 3 for row in rounds)
    assert [view["seat"] for view in result["final_views"]] == [0, 1, 2]


def test_a_rematch_keeps_the_seats_and_gives_each_seat_its_own_new_link(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "pig", 2, seed=5, options={"goal": 12})
        seat_header = {"x-seat-token": table["seats"][0]["token"]}
        refused = client.post(f"/api/tables/{table['id']}/rematch", headers=seat_header)
        assert refused.status_code == 400 and "over" in refused.json()["error"]
        play_whole_game(client, table, seed=5)
        nobody = client.post(f"/api/tables/{table['id']}/rematch")
        assert nobody.status_code == 403
        first = client.post(f"/api/tables/{table['id']}/rematch", headers={"x-seat-token": table["seats"][0]["token"]})
        again = client.post(f"/api/tables/{table['id']}/rematch", headers={"x-seat-token": table["seats"][1]["token"]})
        assert first.status_code == 200 and again.status_code == 200
        first_path, again_path = first.json()["path"], again.json()["path"]
        assert first.json()["id"] == again.json()["id"] != table["id"]  # opened once
        tokens = [first_path.split("#seat=")[1], again_path.split("#seat=")[1]]
        assert tokens[0] != tokens[1] and not set(tokens) & {s["token"] for s in table["seats"]}
        # Each reader of the old table is told where it continues: its own seat's link only.
        for seat, token in enumerate(tokens):
            with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                state = hello(ws, table["seats"][seat]["token"])[-1]
                assert state["next"]["path"] == f"/play/{first.json()['id']}#seat={token}"
                assert tokens[1 - seat] not in json.dumps(state)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            watcher = hello(ws, None)[-1]
            assert watcher["next"]["path"] == f"/play/{first.json()['id']}"
        with client.websocket_connect(f"/ws/tables/{first.json()['id']}") as ws:
            state = hello(ws, tokens[1])[-1]
            assert state["seat"] == 1 and state["result"] is None
            assert [s["name"] for s in state["table"]["seats"]] == ["P0", "P1"]


def test_the_host_page_recovers_links_and_hands_a_no_show_to_a_bot(tmp_path: Path) -> None:
    with web_client(tmp_path, invite_base="http://192.168.1.20:8000") as client:
        answer = client.post(
            "/api/tables", json={"game": "wriggle-roulette", "players": 3, "seats": [{"name": "Ann"}, {}, {}]}
        ).json()
        table_id, host_token = answer["id"], answer["host_token"]
        assert answer["host"] == f"/host/{table_id}#host={host_token}"
        assert client.get(f"/api/tables/{table_id}/host").status_code == 403
        host = client.get(f"/api/tables/{table_id}/host", headers={"x-host-token": host_token}).json()
        links = [seat["invite"] for seat in host["seats"]]
        assert links == [f"http://192.168.1.20:8000{s['invite']}" for s in answer["seats"]]
        assert host["seats"][0]["qr"] == qr_rows(links[0])
        claim_seats(client, answer)  # each person opens their link
        wrong = client.get(f"/api/tables/{table_id}/host", headers={"x-host-token": answer["seats"][0]["token"]})
        assert wrong.status_code == 403
        assert client.get(f"/host/{table_id}").status_code == 200

        bad = client.post(
            f"/api/tables/{table_id}/seats/1/bot", headers={"x-host-token": host_token}, json={"agent": "nonsense"}
        )
        assert bad.status_code == 400
        with client.websocket_connect(f"/ws/tables/{table_id}") as ann:
            hello(ann, answer["seats"][0]["token"])
            for seat in (1, 2):  # the two no-shows are handed to bots; Ann plays on
                handed = client.post(
                    f"/api/tables/{table_id}/seats/{seat}/bot", headers={"x-host-token": host_token}, json={}
                )
                assert handed.status_code == 200, handed.text
                assert handed.json()["table"]["seats"][seat]["bot"] is True
            twice = client.post(f"/api/tables/{table_id}/seats/1/bot", headers={"x-host-token": host_token}, json={})
            assert twice.status_code == 403
            ann.send_text(json.dumps({"type": "act", "action": 1}))
            moved = receive_until(
                ann, lambda m: (m["type"] == "state" and m["view"]["grab"] > 1) or m.get("result") is not None
            )
            assert moved[-1]["type"] == "state"
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": answer["seats"][1]["token"]}))
            refused = receive_until(ws, lambda m: m["type"] in ("error", "state"))
            assert refused[-1]["type"] == "error"


def test_qr_codes_and_the_invite_address() -> None:
    rows = qr_rows("http://192.168.1.20:8000/play/abc#seat=xyz")
    assert len(rows) == len(rows[0]) >= 21 and set("".join(rows)) == {"0", "1"}
    with pytest.raises(ValueError, match="1 to 1024"):
        qr_rows("x" * 2000)
    assert invite_base("127.0.0.1", 8000) is None
    assert invite_base("0.0.0.0", 8000, "https://games.example.org/") == "https://games.example.org"
    address = lan_address()
    assert invite_base("0.0.0.0", 8000) == (None if address is None else f"http://{address}:8000")
