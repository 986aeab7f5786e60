"""Turn-based tables with time banks: played over simulated days through the banks' one clock
(``BankClock.shift``), a bank running out (a bot takes the seat, or the seat forfeits and is
placed last), the vacation bound, idle expiry skipped, a restart and a cluster takeover keeping
every deadline to the second, and bad settings refused."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from gamebag.web.store.clockstore import running_banks
from web.helpers import Message, hello, open_table, receive_until, web_client

DAY = 86400.0
HOUR = 3600.0
TURN = {"mode": "turn", "bank_seconds": 2 * DAY, "increment_seconds": 12 * HOUR, "vacation_days": 1}


def _manager(client: Any) -> Any:
    return client.app.state.manager


def _table(client: Any, table_id: str) -> Any:
    return client.portal.call(_manager(client).get_async, table_id)


def _person_waiting(client: Any, table_id: str) -> int | None:
    table = _table(client, table_id)
    people = set(table.human_seats())
    return next((seat for seat in table.waiting_for() if seat in people), None)


def _move(client: Any, table_id: str, seat: int) -> None:
    """``seat`` plays its first legal action through the door people use (``act``)."""
    manager = _manager(client)
    table = _table(client, table_id)
    client.portal.call(manager.act, table, seat, table.legal_json(seat)[0], table.step)


def _deadlines(client: Any, table_id: str) -> dict[int, float | None]:
    banks = _manager(client).banks[table_id]
    return {seat: bank.deadline() for seat, bank in banks.seats.items()}


def _play_to_end(client: Any, table_id: str, hours_per_move: float) -> None:
    """People move after ``hours_per_move`` simulated hours each; bots move on their own."""
    manager = _manager(client)
    for _ in range(2000):
        table = _table(client, table_id)
        if table.is_over:
            return
        seat = _person_waiting(client, table_id)
        if seat is None:
            time.sleep(0.01)  # a bot (or the timeout agent) chooses in the workers
            continue
        manager.bank_clock.shift += hours_per_move * HOUR
        _move(client, table_id, seat)
    raise AssertionError("the game did not end")


def _wait_for_bot_turn_to_pass(client: Any, table_id: str) -> int:
    for _ in range(3000):
        seat = _person_waiting(client, table_id)
        if seat is not None:
            return seat
        time.sleep(0.01)
    raise AssertionError("no person's turn came")


def _run_out(client: Any, consequence: str) -> tuple[Message, int]:
    """A 3-person turn-based Eel Harvest table where one person's bank runs out after moves over days."""
    table = open_table(client, "eel-harvest", 3, seed=7, clock={**TURN, "on_empty": consequence})
    manager = _manager(client)
    first = _person_waiting(client, table["id"])
    assert first is not None
    before = manager.banks[table["id"]].seats[first].bank
    manager.bank_clock.shift += 20 * HOUR
    _move(client, table["id"], first)
    after = manager.banks[table["id"]].seats[first]
    # 20 hours spent, 12 hours of increment back: to the second
    assert after.bank == pytest.approx(before - 20 * HOUR + 12 * HOUR, abs=1.0)
    assert not after.running
    sleeper = _wait_for_bot_turn_to_pass(client, table["id"])
    for _ in range(20):  # the others choose (in a simultaneous step): only the sleeper's bank runs on
        others = [s for s in _table(client, table["id"]).waiting_for() if s != sleeper]
        if not others:
            break
        _move(client, table["id"], others[0])
    deadline = _deadlines(client, table["id"])[sleeper]
    assert deadline is not None
    manager.bank_clock.shift += deadline - manager.bank_clock.now() - 60  # a minute before: nothing happens
    client.portal.call(manager.check_due_banks)
    assert _table(client, table["id"]).seats[sleeper].agent is None
    manager.bank_clock.shift += 120  # a minute after: the host's consequence
    client.portal.call(manager.check_due_banks)
    assert _table(client, table["id"]).seats[sleeper].agent is not None
    return table, sleeper


def test_a_turn_based_table_over_days_a_bank_runs_out_and_a_bot_takes_the_seat(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table, sleeper = _run_out(client, "bot")
        facts = _manager(client).bank_facts(_table(client, table["id"]))
        seat_bank = facts["seats"][sleeper]
        assert seat_bank["bank_left"] == 0 and not seat_bank["out"] and not seat_bank["running"]
        _play_to_end(client, table["id"], hours_per_move=5)
        live = _table(client, table["id"])
        assert live.is_over
        state = client.get(f"/api/tables/{table['id']}").json()
        assert "forfeited" not in (state.get("result") or {})
        rematch = client.post(f"/api/tables/{table['id']}/rematch", headers={"X-Host-Token": table["host_token"]})
        assert rematch.status_code == 200, rematch.text
        following = _table(client, rematch.json()["id"])
        assert _manager(client).banks[following.id].settings == _manager(client).banks[table["id"]].settings


def test_a_forfeited_seat_is_placed_last(tmp_path: Path) -> None:
    from gamebag.web.tables.messages import state_message

    with web_client(tmp_path) as client:
        table, sleeper = _run_out(client, "forfeit")
        _play_to_end(client, table["id"], hours_per_move=5)
        manager = _manager(client)
        live = _table(client, table["id"])
        result = state_message(live, None, manager.meta(live))["result"]
        assert result["forfeited"] == [sleeper]
        assert result["places"][sleeper] == 3
        assert sleeper not in result["winners"]
        assert sorted(p for seat, p in enumerate(result["places"]) if seat != sleeper)[0] == 1
        meta = client.get(f"/api/tables/{table['id']}/record").json()["meta"]
        assert meta["forfeited"] == [sleeper] and meta["places"] == result["places"]
        assert meta["winners"] == result["winners"]
        # the outcome that ratings and home pages read places the seat last too
        from gamebag.web.people.ratings import settle

        settle(manager.store.engine, table["id"])  # (or the upkeep did already)
        with manager.store.engine.connect() as connection:
            places = dict(connection.execute(
                text("SELECT seat, place FROM people_outcomes WHERE table_id = :t"), {"t": table["id"]}
            ).all())
        assert places == dict(enumerate(result["places"]))


def test_vacation_pauses_the_bank_within_the_host_s_bound(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "eel-harvest", 3, seed=3, clock=TURN)
        manager = _manager(client)
        seat = _person_waiting(client, table["id"])
        assert seat is not None
        token = table["seats"][seat]["token"]
        url = f"/api/tables/{table['id']}/vacation"
        before = _deadlines(client, table["id"])[seat]
        assert before is not None
        marked = client.post(url, json={"on": True}, headers={"X-Seat-Token": token})
        assert marked.status_code == 200, marked.text
        assert marked.json()["vacation"] is True
        after = _deadlines(client, table["id"])[seat]
        assert after == pytest.approx(before + DAY, abs=1.0)  # the whole allowance (1 day) is ahead
        manager.bank_clock.shift += 30 * HOUR  # past the allowance: the vacation ended by itself
        assert manager.bank_facts(_table(client, table["id"]))["seats"][seat]["vacation"] is False
        again = client.post(url, json={"on": True}, headers={"X-Seat-Token": token})
        assert again.status_code == 403 and "used up" in again.json()["error"]
        bad = client.post(url, json={"on": "yes"}, headers={"X-Seat-Token": token})
        assert bad.status_code == 400 and "error" in bad.json()
        nobody = client.post(url, json={"on": True})
        assert nobody.status_code == 403


def test_a_running_bank_keeps_its_table_from_idle_expiry(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        banked = open_table(client, "eel-harvest", 3, seed=5, clock=TURN)
        plain = open_table(client, "eel-harvest", 3, seed=5)
        manager = _manager(client)
        with manager.store.engine.begin() as connection:
            connection.execute(text("UPDATE web_tables SET last_active = 0, created_at = 0"))
        manager.sweep()
        assert client.get(f"/api/tables/{plain['id']}").status_code == 410
        assert client.get(f"/api/tables/{banked['id']}").status_code == 200


BAD_CLOCKS: list[tuple[Any, str]] = [
    ({"mode": "turn", "bank_seconds": 60}, "from 3600 to 2.592e+06 seconds"),
    ({"mode": "realtime", "bank_seconds": 7200}, "from 10 to 3600 seconds"),
    ({"mode": "blitz", "bank_seconds": 60}, "realtime or turn"),
    ({"mode": "turn", "bank_seconds": DAY, "on_empty": "cry"}, "bot or forfeit"),
    ({"mode": "turn", "bank_seconds": DAY, "vacation_days": 99}, "from 0 to 30"),
    ({"mode": "turn", "bank_seconds": DAY, "vacation_days": 1.5}, "whole number"),
    ({"mode": "realtime", "bank_seconds": 60, "vacation_days": 1}, "turn-based tables only"),
    ({"mode": "turn", "bank_seconds": DAY, "increment_seconds": -1}, "'clock.increment_seconds'"),
    ({"mode": "turn", "bank_seconds": "lots"}, "'clock.bank_seconds' must be a number"),
    ({"mode": "turn", "bank_seconds": DAY, "colour": "red"}, "unknown field"),
    ("fast", "must be an object"),
]


def test_bad_clock_settings_are_refused_with_what_is_allowed(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        for clock, words in BAD_CLOCKS:
            response = client.post("/api/tables", json={"game": "eel-harvest", "players": 3, "clock": clock})
            assert response.status_code == 400, clock
            error = response.json()["error"]
            assert words in error and error.count("\n") == 0, (clock, error)
        both = client.post(
            "/api/tables", json={"game": "eel-harvest", "players": 3, "turn_seconds": 30, "clock": TURN}
        )
        assert both.status_code == 400 and "not both" in both.json()["error"]
        with _manager(client).store.engine.connect() as connection:  # nothing was opened
            assert connection.execute(text("SELECT count(*) FROM web_tables")).scalar() == 0
            assert connection.execute(text("SELECT count(*) FROM web_clock_settings")).scalar() == 0


def test_a_restart_keeps_every_bank_to_the_second(tmp_path: Path) -> None:
    shift = 0.0
    with web_client(tmp_path) as client:
        table = open_table(client, "eel-harvest", 3, seed=11, clock={**TURN, "mode": "turn"})
        manager = _manager(client)
        for _ in range(3):
            seat = _wait_for_bot_turn_to_pass(client, table["id"])
            manager.bank_clock.shift += 7 * HOUR
            _move(client, table["id"], seat)
        _wait_for_bot_turn_to_pass(client, table["id"])
        before = _deadlines(client, table["id"])
        shift = manager.bank_clock.shift
        assert any(deadline is not None for deadline in before.values())
    with web_client(tmp_path) as client:
        _manager(client).bank_clock.shift = shift
        _table(client, table["id"])
        after = _deadlines(client, table["id"])
        assert after.keys() == before.keys()
        # what the notifications read: the seats that must act now, from the database alone
        live = _table(client, table["id"])
        assert dict(_manager(client).seats_to_act(live)) == {s: d for s, d in after.items() if d is not None}
        stored = running_banks(_manager(client).store.engine, [table["id"], "no-such-table"])
        assert stored == {table["id"]: {s: pytest.approx(d) for s, d in after.items() if d is not None}}
        for seat, deadline in before.items():
            assert (deadline is None) == (after[seat] is None)
            if deadline is not None:
                assert abs(after[seat] - deadline) < 1.0


def test_a_cluster_takeover_keeps_every_bank_to_the_second(tmp_path: Path, pg_url: str) -> None:
    with web_client(tmp_path, url=pg_url) as first, web_client(tmp_path, url=pg_url) as second:
        table = open_table(first, "eel-harvest", 3, seed=13, clock=TURN)
        manager = _manager(first)
        second_manager = _manager(second)
        replica = _table(second, table["id"])
        assert not second_manager.owns(replica)
        for _ in range(2):
            seat = _wait_for_bot_turn_to_pass(first, table["id"])
            manager.bank_clock.shift += 9 * HOUR
            _move(first, table["id"], seat)
        seat = _wait_for_bot_turn_to_pass(first, table["id"])
        before = _deadlines(first, table["id"])
        for _ in range(500):  # the replica's readers see the owner's banks (told on the bus)
            if _deadlines(second, table["id"]) == before:
                break
            time.sleep(0.01)
        assert _deadlines(second, table["id"]) == before
        # the owner stops renewing (as if it froze): its lease runs out by the database's clock
        if manager._leases is not None:
            first.portal.call(_cancel, manager._leases)
        engine = create_engine(pg_url)
        with engine.begin() as connection:
            connection.execute(text("UPDATE web_tables SET lease_until = 0 WHERE id = :t"), {"t": table["id"]})
        engine.dispose()
        second_manager.bank_clock.shift = manager.bank_clock.shift  # one clock for the cluster
        assert second.portal.call(_promote, second_manager, table["id"])
        after = _deadlines(second, table["id"])
        assert after.keys() == before.keys()
        for seat_number, deadline in before.items():
            assert (deadline is None) == (after[seat_number] is None)
            if deadline is not None:
                assert abs(after[seat_number] - deadline) < 1.0


async def _cancel(task: Any) -> None:
    task.cancel()


async def _promote(manager: Any, table_id: str) -> bool:
    return bool(manager._promote(table_id))


def test_a_real_time_bank_waits_for_everyone_then_runs(tmp_path: Path) -> None:
    clock = {"mode": "realtime", "bank_seconds": 300, "increment_seconds": 5, "on_empty": "forfeit"}
    with web_client(tmp_path) as client:
        table = open_table(client, "eel-harvest", 3, seed=2, clock=clock)
        manager = _manager(client)
        manager.bank_clock.shift += 3600  # an hour before anyone comes: nothing is spent
        _table(client, table["id"])
        assert _deadlines(client, table["id"]) == {0: None, 1: None, 2: None}
        with (
            client.websocket_connect(f"/ws/tables/{table['id']}") as first,
            client.websocket_connect(f"/ws/tables/{table['id']}") as second,
            client.websocket_connect(f"/ws/tables/{table['id']}") as third,
        ):
            for ws, seat in ((first, 0), (second, 1), (third, 2)):
                hello(ws, table["seats"][seat]["token"])
            state = receive_until(third, lambda m: m["type"] == "state" and any(
                b["running"] for b in (m["table"]["banks"] or {"seats": []})["seats"]
            ))[-1]
            running = [b for b in state["table"]["banks"]["seats"] if b["running"]]
            assert running and all(b["bank_left"] == pytest.approx(300, abs=2) for b in running)
