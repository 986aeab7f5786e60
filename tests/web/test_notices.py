"""'Your move' notices (``gamebag.web.notices``): the list of tables where it is your move, and
e-mails through a real SMTP exchange with a local server on loopback (aiosmtpd).

The delays and the clock are injected: the service's own loop never runs here (its tick is an
hour); each test runs a round when it wants one, at the time it sets. People are signed in by the
real sessions of ``test_standing.add_accounts`` (a session cookie and its CSRF token).
"""

from __future__ import annotations

import email
import email.policy
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy import select

from gamebag.web.app import create_app
from gamebag.web.notices.mailer import Mail, Mailer, SmtpTarget, SmtpUrlError
from gamebag.web.notices.rounds import NoticeTiming
from gamebag.web.notices.rows import MailAddressRow, NoticeSentRow
from gamebag.web.people.accounts import delete_account, export_account
from gamebag.web.settings import Limits
from web.helpers import hello
from web.test_standing import add_accounts, as_account, engine_of

ANN = "ann"
SEED = 1  # the opening roll gives Pig's first move to the first seat
ADDRESS = "ann@example.test"
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC).timestamp()  # a Monday, noon UTC


class Sink:
    """The local SMTP server's handler: keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        return "250 OK"

    def wait_for(self, count: int, seconds: float = 10.0) -> list[EmailMessage]:
        deadline = time.monotonic() + seconds
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(self.messages) == count, [m["Subject"] for m in self.messages]
        return self.messages


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Sink, int]]:
    sink, port = Sink(), free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    yield sink, port
    controller.stop()


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@contextmanager
def notices_client(
    tmp_path: Path, smtp_url: str | None, clock: Clock, limits: Limits | None = None
) -> Iterator[TestClient]:
    timing = NoticeTiming(delay=60.0, tick=3600.0, clock=clock, retry_pauses=(0.05,))
    app = create_app(
        f"sqlite:///{tmp_path / 'web.db'}",
        bot_delay=0.0,
        allow_seed=True,
        host_names=("testserver",),
        smtp=smtp_url,
        notice_timing=timing,
        limits=limits,
    )
    with TestClient(app) as client:
        add_accounts(client, ANN)
        yield client


def run_round(client: TestClient) -> int:
    service = client.app.state.notices  # type: ignore[attr-defined]
    handed: int = client.portal.call(service.round)  # type: ignore[union-attr]
    return handed


def pig_for_ann(client: TestClient) -> dict[str, Any]:
    """A Pig table whose first seat (to move first) is Ann's account; the second a guest's."""
    seats = [{"name": "Ann"}, {"name": "Bob"}]
    table: dict[str, Any] = client.post(
        "/api/tables", json={"game": "pig", "players": 2, "seats": seats, "seed": SEED}
    ).json()
    for seat, account in ((0, ANN), (1, None)):
        code = table["seats"][seat]["invite"].split("#invite=", 1)[1]
        headers = as_account(account) if account else {}
        claimed = client.post(f"/api/tables/{table['id']}/claim", json={"invite": code}, headers=headers)
        assert claimed.status_code == 200, claimed.text
        table["seats"][seat]["token"] = claimed.json()["token"]
    live = client.app.state.manager.tables[table["id"]]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 5
    while 0 not in live.waiting_for() and time.monotonic() < deadline:
        time.sleep(0.01)  # the opening roll (a chance event) is applied by the server's own task
    assert 0 in live.waiting_for()
    return table


def code_after(text: str, mark: str) -> str:
    return text.split(mark, 1)[1].split()[0]


def body_of(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def test_e_mail_notices_over_a_real_smtp_exchange(tmp_path: Path, smtp: tuple[Sink, int]) -> None:
    sink, port = smtp
    sink.messages.clear()
    clock = Clock()
    with notices_client(tmp_path, f"smtp://127.0.0.1:{port}?from=games@example.test", clock) as client:
        ann = as_account(ANN)
        assert client.post("/api/notices/email", json={"address": ADDRESS}).status_code == 401  # a guest
        refused = client.post("/api/notices/email", json={"address": "not an address"}, headers=ann)
        assert refused.status_code == 400 and "e-mail address" in refused.json()["error"]
        assert client.get("/api/notices/email", headers=ann).json()["address"] is None  # refused: nothing kept

        # Double opt-in: a confirmation mail first, and nothing else until its link is opened.
        assert client.post("/api/notices/email", json={"address": ADDRESS}, headers=ann).status_code == 200
        (confirmation,) = sink.wait_for(1)
        assert confirmation["To"] == ADDRESS and confirmation["From"] == "games@example.test"
        code = code_after(body_of(confirmation), "#confirm=")
        first = pig_for_ann(client)
        run_round(client)
        clock.now += 120
        assert run_round(client) == 0  # not confirmed yet: no notice
        assert client.post("/api/notices/confirm", json={"code": "wrong"}).status_code == 400
        assert client.post("/api/notices/confirm", json={"code": code}).status_code == 200

        # A move left past the delay while Ann is at the table: nothing; once she has gone: one mail.
        table = pig_for_ann(client)
        run_round(client)  # noted: due after the delay
        clock.now += 61
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, table["seats"][0]["token"])
            assert run_round(client) == 0
        clock.now += 61
        assert run_round(client) == 1
        assert run_round(client) == 0  # one mail per move
        mails = sink.wait_for(2)
        notice = mails[1]
        body = body_of(notice)
        assert notice["Subject"] == "Your move in Pig" and notice["To"] == ADDRESS
        assert f"http://testserver/play/{table['id']}" in body
        assert first["id"] not in body  # the table before the confirmation was not mailed about
        assert table["seats"][0]["token"] not in str(notice)  # no seat token, nor anything of the seat's view
        unsubscribe = notice["List-Unsubscribe"]
        assert unsubscribe.startswith("<http://testserver/api/notices/unsubscribe?token=")
        assert notice["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

        # Quiet hours (in Ann's time zone, UTC+1 in March in Amsterdam): a move at 13:00 local waits for 15:00.
        quiet = {"quiet_start": 13, "quiet_end": 15, "time_zone": "Europe/Amsterdam"}
        assert client.post("/api/notices/settings", json=quiet, headers=ann).status_code == 200
        clock.now = START + 600  # 13:10 in Amsterdam
        quiet_table = pig_for_ann(client)
        run_round(client)
        clock.now += 3600  # past the delay, 14:10 there: still quiet
        assert run_round(client) == 0
        clock.now = START + 2 * 3600 + 1  # 15:00:01 there
        assert run_round(client) == 1
        assert quiet_table["id"] in body_of(sink.wait_for(3)[2])

        # A digest: one mail for every table where it is her move, then none until the next one is due.
        digest = {"mode": "digest", "digest_hours": 2, "quiet_start": None, "quiet_end": None}
        assert client.post("/api/notices/settings", json=digest, headers=ann).status_code == 200
        bad = client.post("/api/notices/settings", json={"digest_hours": 0}, headers=ann)
        assert bad.status_code == 400 and "digest_hours" in bad.json()["error"]
        tables = [pig_for_ann(client) for _ in range(2)]
        run_round(client)
        clock.now += 61
        assert run_round(client) == 1
        digest_mail = sink.wait_for(4)[3]
        assert digest_mail["Subject"] == "Your move at 2 tables"
        assert all(f"/play/{t['id']}" in body_of(digest_mail) for t in tables)
        pig_for_ann(client)
        run_round(client)
        clock.now += 3600
        assert run_round(client) == 0  # the next digest is due two hours after the last
        clock.now += 3600
        assert run_round(client) == 1
        sink.wait_for(5)

        # Her export holds the address and the log; one-click unsubscribe (RFC 8058's form POST) ends it.
        with engine_of(client).begin() as connection:
            exported = export_account(connection, ANN, lambda _table: None)
        assert exported["notices"]["address"]["address"] == ADDRESS
        assert {row["kind"] for row in exported["notices"]["sent"]} == {"confirm", "move", "digest"}
        url = unsubscribe.strip("<>").removeprefix("http://testserver")
        opened = client.get(url, follow_redirects=False)  # a GET never unsubscribes: it shows the page's button
        assert opened.status_code == 303 and opened.headers["location"].startswith("/notices#unsubscribe=")
        wrong = client.post("/api/notices/unsubscribe", json={"token": "forged"})
        assert wrong.status_code == 400
        one_click = client.post(
            url, content=b"List-Unsubscribe=One-Click", headers={"content-type": "application/x-www-form-urlencoded"}
        )
        assert one_click.status_code == 200, one_click.text
        assert client.get("/api/notices/email", headers=ann).json()["address"] is None
        pig_for_ann(client)
        run_round(client)
        clock.now += 3 * 3600
        assert run_round(client) == 0
        time.sleep(0.2)
        assert len(sink.messages) == 5

        # Deleting the account deletes its address and its log.
        with engine_of(client).begin() as connection:
            delete_account(connection, ANN)
            assert connection.execute(select(NoticeSentRow)).first() is None
            assert connection.execute(select(MailAddressRow)).first() is None


def test_the_page_unsubscribes_with_a_json_body(tmp_path: Path, smtp: tuple[Sink, int]) -> None:
    sink, port = smtp
    sink.messages.clear()
    with notices_client(tmp_path, f"smtp://127.0.0.1:{port}", Clock()) as client:
        assert client.post("/api/notices/email", json={"address": ADDRESS}, headers=as_account(ANN)).status_code == 200
        with engine_of(client).connect() as connection:
            token = connection.execute(select(MailAddressRow.unsubscribe_token)).scalar_one()
        assert client.post("/api/notices/unsubscribe", json={"token": token}).status_code == 200
        assert client.post("/api/notices/unsubscribe", json={"token": token}).status_code == 400  # used up
        sink.wait_for(1)  # the confirmation only


def test_nothing_is_sent_without_a_mail_server(tmp_path: Path) -> None:
    with notices_client(tmp_path, None, Clock()) as client:
        assert client.app.state.notices is None  # type: ignore[attr-defined]
        answer = client.get("/api/notices/email", headers=as_account(ANN)).json()
        assert answer["available"] is False
        refused = client.post("/api/notices/email", json={"address": ADDRESS}, headers=as_account(ANN))
        assert refused.status_code == 409 and "not available" in refused.json()["error"]
        with engine_of(client).connect() as connection:
            assert connection.execute(select(MailAddressRow)).first() is None


def test_a_dead_mail_server_slows_nothing(tmp_path: Path) -> None:
    with notices_client(tmp_path, f"smtp://127.0.0.1:{free_port()}", Clock()) as client:  # nobody listens
        started = time.monotonic()
        answer = client.post("/api/notices/email", json={"address": ADDRESS}, headers=as_account(ANN))
        assert answer.status_code == 200 and time.monotonic() - started < 2.0  # queued, not sent while waiting
        mailer = client.app.state.notices.mailer  # type: ignore[attr-defined]
        deadline = time.monotonic() + 5
        while mailer.failed == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert (mailer.sent, mailer.failed) == (0, 1)  # tried twice (one pause), then given up


def test_the_your_move_list_for_a_guest_and_an_account(tmp_path: Path) -> None:
    with notices_client(tmp_path, None, Clock(), Limits(your_move_lists_per_minute=6)) as client:
        table = pig_for_ann(client)
        own, other = table["seats"][0]["token"], table["seats"][1]["token"]
        listed = client.post("/api/yourmove", json={}, headers=as_account(ANN)).json()
        assert [(row["id"], row["seat"], row["play"]) for row in listed["tables"]] == [
            (table["id"], 0, f"/play/{table['id']}")
        ]
        guest = client.post("/api/yourmove", json={"seats": [{"table": table["id"], "token": own}]}).json()
        assert [row["id"] for row in guest["tables"]] == [table["id"]]
        waiting = client.post("/api/yourmove", json={"seats": [{"table": table["id"], "token": other}]}).json()
        assert waiting["tables"] == []  # Bob's seat: not his move
        forged = client.post("/api/yourmove", json={"seats": [{"table": table["id"], "token": "x" * 40}]}).json()
        assert forged["tables"] == []
        assert client.post("/api/yourmove", json={"seats": "all"}).status_code == 400
        closed = client.post(f"/api/tables/{table['id']}/close", headers={"x-host-token": table["host_token"]})
        assert closed.status_code == 200
        assert client.post("/api/yourmove", json={}, headers=as_account(ANN)).json()["tables"] == []
        refused = client.post("/api/yourmove", json={})  # the 7th this minute: the list has its own bound
        assert refused.status_code == 429 and '"your move" lists' in refused.json()["error"]
        assert client.get("/api/tables").status_code == 200  # the lobby's own listing is not spent by it


def test_the_mailer_tries_again_and_gives_up() -> None:
    target = SmtpTarget.parse("smtp://127.0.0.1:1")
    tries: list[str] = []

    def flaky(_target: SmtpTarget, mail: Mail) -> None:
        tries.append(mail.to)
        if len(tries) < 3:
            raise ConnectionRefusedError("down")

    mailer = Mailer(target, pauses=(0.01, 0.01, 0.01), send=flaky)
    mailer.start()
    assert mailer.offer(Mail("a@example.test", "s", "b"))
    deadline = time.monotonic() + 5
    while not mailer.idle() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (mailer.sent, mailer.failed, len(tries)) == (1, 0, 3)
    mailer.stop()

    full = Mailer(target, pauses=(), send=flaky, limit=1)  # not started: the queue fills
    assert full.offer(Mail("a@example.test", "s", "b")) and not full.offer(Mail("b@example.test", "s", "b"))


def test_smtp_urls() -> None:
    secure = SmtpTarget.parse("smtps://me:p%40ss@mail.example.org?from=games@example.org")
    assert (secure.port, secure.implicit_tls, secure.user, secure.password) == (465, True, "me", "p@ss")
    assert SmtpTarget.parse("smtp://mail.example.org:587").sender == "gamebag@mail.example.org"
    for bad in ("http://mail.example.org", "smtp://", "smtp://host:99999", "smtp://host?from=nobody"):
        with pytest.raises(SmtpUrlError):
            SmtpTarget.parse(bad)


def test_done_when_a_turn_based_eel_harvest_table_over_days_with_e_mails_and_a_bank_run_out(
    tmp_path: Path, smtp: tuple[Sink, int]
) -> None:
    """Issue 40's "Done when": three people at a turn-based Eel Harvest table, played to its end over
    simulated days (the notices' clock and the banks' clock moved together). Ann is signed in with
    a confirmed address: each move of hers left waiting past the delay is one mail, captured by the
    local SMTP server. Cat never comes back: her bank runs out and, as the host chose, a bot takes
    her seat; the game goes on to its end."""
    sink, port = smtp
    sink.messages.clear()
    clock = Clock()
    with notices_client(tmp_path, f"smtp://127.0.0.1:{port}?from=games@example.test", clock) as client:
        ann = as_account(ANN)
        assert client.post("/api/notices/email", json={"address": ADDRESS}, headers=ann).status_code == 200
        (confirmation,) = sink.wait_for(1)
        code = code_after(body_of(confirmation), "#confirm=")
        assert client.post("/api/notices/confirm", json={"code": code}).status_code == 200
        manager = client.app.state.manager  # type: ignore[attr-defined]
        day, hour = 86400.0, 3600.0
        bank = {"mode": "turn", "bank_seconds": 2 * day, "increment_seconds": 12 * hour, "on_empty": "bot"}
        seats = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]
        request = {"game": "eel-harvest", "players": 3, "seats": seats, "seed": 7, "clock": bank}
        table = client.post("/api/tables", json=request).json()
        table_id = table["id"]
        for seat, account in ((0, ANN), (1, None), (2, None)):
            invite = table["seats"][seat]["invite"].split("#invite=", 1)[1]
            headers = as_account(account) if account else {}
            claimed = client.post(f"/api/tables/{table_id}/claim", json={"invite": invite}, headers=headers)
            assert claimed.status_code == 200, claimed.text
            table["seats"][seat]["token"] = claimed.json()["token"]

        def later(seconds: float) -> None:
            clock.now += seconds
            manager.bank_clock.shift += seconds

        sleeper, ann_moves, mailed = 2, 0, 0
        for _ in range(5000):
            live = client.portal.call(manager.get_async, table_id)
            if live.is_over:
                break
            waiting = [seat for seat in live.waiting_for() if live.seats[seat].agent is None]
            if not waiting:
                time.sleep(0.01)  # a chance event or the bot's move, made by the server itself
                continue
            seat = next((s for s in waiting if s != sleeper), sleeper)
            if seat == sleeper:  # only Cat is waited for: days pass until her bank runs out
                deadline = manager.banks[table_id].seats[sleeper].deadline()
                assert deadline is not None
                later(deadline - manager.bank_clock.now() + 60)
                client.portal.call(manager.check_due_banks)
                assert live.seats[sleeper].agent is not None  # the host's choice: a bot took the seat
                continue
            if seat == 0:  # Ann's move waits: noted, then mailed once the delay has passed
                run_round(client)
                later(61)
                mailed += run_round(client)
                ann_moves += 1
            later(3 * hour)
            client.portal.call(manager.act, live, seat, live.legal_json(seat)[0], live.step)
        live = client.portal.call(manager.get_async, table_id)
        assert live.is_over and live.seats[sleeper].agent is not None
        assert ann_moves > 0 and mailed == ann_moves
        notices = sink.wait_for(1 + ann_moves)[1:]
        assert all(m["Subject"] == "Your move in Eel Harvest" and m["To"] == ADDRESS for m in notices)
        assert all(f"/play/{table_id}" in body_of(m) for m in notices)
        assert all(table["seats"][0]["token"] not in str(m) for m in notices)
