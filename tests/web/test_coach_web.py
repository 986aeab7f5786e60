"""The coach at a web table: off by default, on only with the host's offer and every person's consent,
never advising spectators, its advice worked out in the pool from the seat's information, noted in the record."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

import gamebag
from gamebag.analysis.coach import advise
from gamebag.core.records import Record, replay
from gamebag.web.lobby import rematch_config
from gamebag.web.settings import Limits
from gamebag.web.tables.coachsetting import CoachError, CoachSetting

from .helpers import open_table, web_client


def test_the_setting_needs_every_person_and_notes_when_it_was_on() -> None:
    humans = (0, 2)
    setting = CoachSetting()
    assert not setting.is_on(humans) and setting.note() is None
    with pytest.raises(CoachError, match="not offered"):
        setting.changed(humans, 0, seat=0, agree=True)
    with pytest.raises(CoachError, match="not a person's seat"):
        setting.changed(humans, 0, offer=True).changed(humans, 0, seat=1, agree=True)
    setting = setting.changed(humans, 1, offer=True).changed(humans, 2, seat=0, agree=True)
    assert not setting.is_on(humans)  # seat 2 has not agreed
    setting = setting.changed(humans, 3, seat=2, agree=True)
    assert setting.is_on(humans) and setting.note() == {"on": [[3, None]]}
    setting = setting.changed(humans, 7, forget=2)  # seat 2's link re-issued: asked afresh
    assert not setting.is_on(humans) and setting.note() == {"on": [[3, 7]]}
    setting = setting.changed(humans, 8, seat=2, agree=True).changed(humans, 9, offer=False)
    assert not setting.is_on(humans) and setting.note() == {"on": [[3, 7], [8, 9]]}
    assert CoachSetting.parse(setting.dump()) == setting
    offered_again = setting.changed(humans, 10, offer=True)
    assert offered_again.agreed == frozenset() and not offered_again.is_on(humans)  # a new offer asks again


def test_the_coach_is_enforced_by_the_server(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(bot_workers=2)) as client:
        table = open_table(client, "pig", 2, options={"goal": 30})
        table_id, host = table["id"], {"x-host-token": table["host_token"]}
        seat = {s["seat"]: {"x-seat-token": s["token"]} for s in table["seats"]}
        url = f"/api/tables/{table_id}/coach"
        live = client.app.state.manager.get(table_id)  # type: ignore[attr-defined]
        mover = live.acting()[0]
        other = 1 - mover

        def public() -> dict[str, Any]:
            coach: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()["table"]["coach"]
            return coach

        assert public() == {"offered": False, "agreed": [], "humans": [0, 1], "on": False}  # off by default
        assert client.get(f"{url}/advice", headers=seat[mover]).status_code == 409
        assert client.post(f"{url}/consent", json={"agree": True}, headers=seat[mover]).status_code == 400
        assert client.post(url, json={"on": True}).status_code == 403  # only the host offers it
        assert client.post(url, json={"on": "yes"}, headers=host).status_code == 400
        assert client.post(url, json={"on": True}, headers=host).json()["coach"]["on"] is False
        assert client.post(f"{url}/consent", json={"agree": True}).status_code == 403  # a seat agrees, with its token
        client.post(f"{url}/consent", json={"agree": True}, headers=seat[mover])
        refused = client.get(f"{url}/advice", headers=seat[mover])
        assert refused.status_code == 409 and f"seat {other} has not agreed" in refused.json()["error"]
        answer = client.post(f"{url}/consent", json={"agree": True}, headers=seat[other]).json()
        assert answer["coach"] == {"offered": True, "agreed": [0, 1], "humans": [0, 1], "on": True}
        assert public()["on"] is True  # spectators see that it is on
        assert client.get(f"{url}/advice").status_code == 403  # ... but never get advice
        assert client.get(f"{url}/advice", headers=seat[other]).status_code == 409  # not its decision
        deadline = time.monotonic() + 120
        reply = client.get(f"{url}/advice", headers=seat[mover]).json()
        while reply["status"] == "running":
            assert time.monotonic() < deadline, "the advice did not come"
            time.sleep(0.05)
            reply = client.get(f"{url}/advice", headers=seat[mover]).json()
        assert reply["status"] == "done", reply
        # The pool's advice is the analysis's, from the events so far.
        game, state = replay(Record.from_json(live.match.record.to_json()), gamebag.make)
        assert reply["advice"] == advise(game, state, mover, step=live.step)
        assert {c["action"] for c in reply["advice"]["choices"]} == {"roll", "hold"}
        assert reply["advice"]["exact"] is True and reply["advice"]["words"].startswith("The solver's choice here: ")
        assert client.app.state.coach.started == 1  # type: ignore[attr-defined]
        client.get(f"{url}/advice", headers=seat[mover])
        assert client.app.state.coach.started == 1  # type: ignore[attr-defined]  # kept
        # The same advice said to a Dutch reader: its words in Dutch, the figures the same, no new job.
        dutch = client.get(f"{url}/advice", headers={**seat[mover], "Accept-Language": "nl"}).json()["advice"]
        assert dutch["words"].startswith("De keuze van de solver hier: ") and "Winkans na elke keuze" in dutch["words"]
        assert [c["value"] for c in dutch["choices"]] == [c["value"] for c in reply["advice"]["choices"]]
        assert client.app.state.coach.started == 1  # type: ignore[attr-defined]
        # The host re-issues a link: a new person may hold the seat, so the coach is off until it agrees.
        client.post(f"/api/tables/{table_id}/seats/{other}/reissue", headers=host)
        assert public() == {"offered": True, "agreed": [mover], "humans": [0, 1], "on": False}
        assert client.get(f"{url}/advice", headers=seat[mover]).status_code == 409
        assert live.record_json()["meta"]["coach"] == {"on": [[live.step, live.step]]}
        # A rematch is a new game with new links: its coach starts off.
        assert rematch_config(live.config).coach == "" and live.config.coach != ""


def test_the_coach_setting_on_postgresql_is_stored_and_shared(tmp_path: Path, pg_url: str) -> None:
    """On PostgreSQL (a cluster's database): every change is one locked transaction, and a table loaded
    afresh (as another process would) finds the same setting."""
    with web_client(tmp_path, url=pg_url) as client:
        table = open_table(client, "pig", 2, options={"goal": 30})
        table_id, url = table["id"], f"/api/tables/{table['id']}/coach"
        client.post(url, json={"on": True}, headers={"x-host-token": table["host_token"]})
        for seat in table["seats"]:
            client.post(f"{url}/consent", json={"agree": True}, headers={"x-seat-token": seat["token"]})
        manager = client.app.state.manager  # type: ignore[attr-defined]
        stored = manager.store.load(table_id)
        assert CoachSetting.parse(stored.config.coach).is_on((0, 1))
        mover = manager.get(table_id).acting()[0]
        token = table["seats"][mover]["token"]
        assert client.get(f"{url}/advice", headers={"x-seat-token": token}).status_code == 200
        client.post(f"{url}/consent", json={"agree": False}, headers={"x-seat-token": token})
        assert client.get(f"{url}/advice", headers={"x-seat-token": token}).status_code == 409
        assert not CoachSetting.parse(manager.store.load(table_id).config.coach).is_on((0, 1))
