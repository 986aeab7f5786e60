"""Accounts in the browser at 360 px (issue 38): sign up, seats on two devices, export, delete, passkeys.

One server for the module, opened at ``localhost`` (a passkey's relying party is a host name,
never an address). The issue's "Done when" end to end: a person signs up by keyboard on one phone
and plays a rated game against a friend who stays a guest; signed in on a second phone, the same
seat opens there without any link, and Play now seats her against a bot; both games are on her
home page and her rating on the leaderboard; the data downloads as JSON; the account is deleted.
A passkey made by Chromium's virtual authenticator (CDP ``WebAuthn``) signs up and signs in.
A guest still opens the lobby and plays an invite link without any sign-up wall. The account
page passes axe (WCAG 2.1 A/AA) in both of its views and is used by keyboard. The "your move"
widget lists a guest's table on the lobby at 360 px, and its button asks for notifications
only when pressed (notices, issue 40).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .browsing import new_context, settle, shot, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
PASSWORD = "eleven quiet herons at dawn"
SEAT_OF = "(id) => window.localStorage.getItem('gamebag-seat:' + id)"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("accounts") / "accounts.db", bot_delay=0.05)
    process.start()
    yield process
    process.stop()


def _base(server: ServerProcess) -> str:
    return f"http://localhost:{server.port}"


def _open_table(server: ServerProcess) -> dict[str, Any]:
    request = {"game": "pig", "players": 2, "seats": [{"name": "Ann"}, {"name": "Ben"}], "options": {"goal": 30}}
    response = httpx.post(f"{server.base}/api/tables", json=request, timeout=30)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _axe_wcag21(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    settle(page)
    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": tags}})
    return [
        f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in results.response["violations"]
    ]


def _phone(browser: Any) -> tuple[Any, Any, list[str]]:
    context = new_context(browser, **PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _signed_in_as(page: Any) -> str | None:
    answer: dict[str, Any] = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
    return None if answer["account"] is None else str(answer["account"]["name"])


def test_a_guest_plays_by_link_without_a_wall_and_keeps_the_seat_later(browser: Any, server: ServerProcess) -> None:
    table = _open_table(server)
    context, page, errors = _phone(browser)
    page.goto(f"{_base(server)}/")
    link = page.locator("#account-link")
    assert link.inner_text() == "Sign in" and link.get_attribute("href") == "/account"
    page.goto(f"{_base(server)}{table['seats'][0]['invite']}")
    wait_for(page, SEAT_OF, table["id"])
    assert page.url.startswith(f"{_base(server)}/play/{table['id']}")  # no detour to any sign-up page
    assert _signed_in_as(page) is None
    # Afterwards the guest signs up and moves the seat this device played into the new account.
    page.goto(f"{_base(server)}/account")
    page.fill("#sign-up-name", "Guy")
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up-form button[type=submit]")
    wait_for(page, "() => !document.getElementById('guest-seats').hidden")
    page.click("#adopt-seats")
    wait_for(page, "() => document.querySelectorAll('#seat-list a').length === 1")
    assert page.locator("#guest-seats").is_hidden()
    assert not errors, errors
    context.close()


def test_the_your_move_widget_and_its_notification_button(browser: Any, server: ServerProcess) -> None:
    request = {"game": "pig", "players": 2, "seats": [{"name": "Ann"}, {"name": "Bot", "bot": "random"}]}
    table = httpx.post(f"{server.base}/api/tables", json=request, timeout=30).json()
    context, page, errors = _phone(browser)
    page.goto(f"{_base(server)}{table['seats'][0]['invite']}")
    wait_for(page, SEAT_OF, table["id"])
    # On the table's own page the panel lists the other tables only (this page says whose move it is).
    others = "() => document.querySelector('.your-move-summary').textContent === 'Your move at other tables: none'"
    wait_for(page, others)
    page.goto(f"{_base(server)}/")
    # The bot's first move, if the opening roll gave it the first one, comes within a poll or two.
    wait_for(page, "(id) => !!document.querySelector(`#your-move a[href='/play/${id}']`)", table["id"], timeout=60)
    assert page.locator(".your-move-summary").inner_text() == "Your move: 1 table"
    on_summary = "() => document.activeElement.classList.contains('your-move-summary')"
    for _ in range(8):  # reachable by keyboard, right after the top bar's links
        page.keyboard.press("Tab")
        if page.evaluate(on_summary):
            break
    assert page.evaluate(on_summary)
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.getElementById('your-move').open")
    button = page.locator(".your-move-notify")
    assert button.is_visible() and page.evaluate("() => Notification.permission") == "default"  # never asked unprompted
    box = page.locator("#your-move").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360
    assert _axe_wcag21(page) == []
    shot(page, "your-move-360.png")
    context.grant_permissions(["notifications"])
    button.click()
    wait_for(page, "() => document.querySelector('.your-move-permission').textContent.includes('on')")
    assert button.is_hidden()
    assert not errors, errors
    context.close()


def test_sign_up_play_on_two_devices_export_and_delete(browser: Any, server: ServerProcess, tmp_path: Path) -> None:
    first, page, errors = _phone(browser)
    page.goto(f"{_base(server)}/account")
    wait_for(page, "() => !document.getElementById('guest-view').hidden")
    assert _axe_wcag21(page) == []
    shot(page, "account-guest-360.png")
    # By keyboard: the name, the password, then Enter submits the form.
    page.locator("#sign-up-name").focus()
    page.keyboard.type("Kim")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    wait_for(page, "() => !document.getElementById('profile-view').hidden")
    assert page.locator("#codes li").count() == 10
    assert page.locator("#profile-name").inner_text() == "Kim"
    assert _axe_wcag21(page) == []
    shot(page, "account-profile-360.png")
    # This server has no --smtp: the e-mail notices panel says so and offers no address field.
    wait_for(page, "() => document.getElementById('notice-state').textContent.includes('not available')")
    assert page.locator("#notice-address").is_hidden()
    box = page.locator("#delete-account").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360  # nothing past the phone's edge
    # The lobby's header names her; a seat she claims is hers.
    page.goto(f"{_base(server)}/")
    wait_for(page, "() => document.getElementById('account-link').textContent === 'Kim'")
    table = _open_table(server)
    page.goto(f"{_base(server)}{table['seats'][0]['invite']}")
    wait_for(page, SEAT_OF, table["id"])
    token = page.evaluate(SEAT_OF, table["id"])
    # Her second phone: signed in, the seat opens from her account, no link needed.
    second, other, other_errors = _phone(browser)
    other.goto(f"{_base(server)}/account")
    other.fill("#sign-in-name", "kim")
    other.fill("#sign-in-password", PASSWORD)
    other.click("#sign-in-form button[type=submit]")
    wait_for(other, "() => document.querySelectorAll('#seat-list a').length === 1")
    other.click("#seat-list a")
    wait_for(other, SEAT_OF, table["id"])
    assert other.evaluate(SEAT_OF, table["id"]) == token
    # Export: every record of hers as JSON.
    page.goto(f"{_base(server)}/account")
    wait_for(page, "() => !document.getElementById('profile-view').hidden")
    with page.expect_download() as download:
        page.click("#export-link")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["account"]["name"] == "Kim"
    assert [(s["table"], s["seat"]) for s in exported["seats"]] == [(table["id"], 0)]
    assert token not in json.dumps(exported)
    # Delete: her name typed; the page goes back to the guest's forms, the other phone is signed out.
    page.fill("#delete-name", "Kim")
    page.click("#delete-account")
    wait_for(page, "() => !document.getElementById('guest-view').hidden")
    assert _signed_in_as(page) is None and _signed_in_as(other) is None
    assert not errors and not other_errors, errors + other_errors
    first.close()
    second.close()


def test_passkey_sign_up_and_sign_in(browser: Any, server: ServerProcess) -> None:
    context, page, errors = _phone(browser)
    page.goto(f"{_base(server)}/account")
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    page.fill("#sign-up-name", "Lea")
    page.click("#passkey-sign-up")
    wait_for(page, "() => /passkeys: 1/.test(document.getElementById('profile-facts').textContent)")
    assert page.locator("#codes li").count() == 10
    page.click("#sign-out")
    wait_for(page, "() => !document.getElementById('guest-view').hidden")
    assert _signed_in_as(page) is None
    page.click("#passkey-sign-in")
    wait_for(page, "() => !document.getElementById('profile-view').hidden")
    assert _signed_in_as(page) == "Lea"
    assert not errors, errors
    context.close()


class PigSeat:
    """One seat of a Pig table played over its own socket with the seat's token (as the device that
    holds it would): roll until 20 points this turn, then hold."""

    def __init__(self, server: ServerProcess, table_id: str, token: str) -> None:
        from websockets.sync.client import connect

        self._stack = contextlib.ExitStack()
        self.socket = self._stack.enter_context(connect(f"{server.ws_base}/ws/tables/{table_id}", open_timeout=30))
        self.socket.send(json.dumps({"type": "hello", "token": token}))
        self.over = False
        self.sent: set[int] = set()

    def pump(self) -> None:
        """Read what has come, and act when it is this seat's move."""
        while not self.over:
            try:
                message = json.loads(self.socket.recv(timeout=0.02))
            except TimeoutError:
                return
            if message["type"] == "error":
                raise AssertionError(message)
            if message["type"] != "state":
                continue
            if message["result"] is not None:
                self.over = True
                self._stack.close()
                return
            step, view = message["step"], message["view"]
            if message["seat"] in view["choices"]["waiting_for"] and message["legal"] and step not in self.sent:
                action = "hold" if view.get("turn_total", 0) >= 20 else "roll"
                self.sent.add(step)
                self.socket.send(json.dumps({"type": "act", "action": action, "step": step}))


def _play_to_the_end(seats: list[PigSeat]) -> None:
    deadline = time.monotonic() + 120
    while not all(seat.over for seat in seats):
        assert time.monotonic() < deadline, "the Pig game did not end"
        for seat in seats:
            seat.pump()


def _sign_in(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/account")
    page.fill("#sign-in-name", name)
    page.fill("#sign-in-password", PASSWORD)
    page.click("#sign-in-form button[type=submit]")
    wait_for(page, "() => !document.getElementById('profile-view').hidden")


def test_done_when_rated_games_on_two_devices_reach_home_and_leaderboard_then_the_data_goes(
    browser: Any, server: ServerProcess
) -> None:
    """Issue 38's "Done when", at 360 px: Mia signs up on one phone and plays a rated Pig game against
    a friend who stays a guest (invite link, no sign-up wall), then on her second phone presses Play
    now for a rated game against a bot; both games are on her home page, her rating (two games) is
    on the leaderboard; she downloads her data and deletes her account."""
    base = _base(server)
    one, page, errors = _phone(browser)
    page.goto(f"{base}/account")
    wait_for(page, "() => !document.getElementById('guest-view').hidden")
    assert _axe_wcag21(page) == []
    shot(page, "account-guest-360.png")
    # By keyboard: the name, the password, then Enter submits the form.
    page.locator("#sign-up-name").focus()
    page.keyboard.type("Mia")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    wait_for(page, "() => !document.getElementById('profile-view').hidden")
    assert page.locator("#codes li").count() == 10
    assert page.locator("#profile-name").inner_text() == "Mia"
    wait_for(page, "() => document.querySelector('#passkey-list li') !== null")
    assert _axe_wcag21(page) == []  # the profile, its list of passkeys included
    shot(page, "account-profile-360.png")
    box = page.locator("#delete-account").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360  # nothing past the phone's edge
    page.goto(f"{base}/")  # the lobby's header names her
    wait_for(page, "() => document.getElementById('account-link').textContent === 'Mia'")
    # A rated Pig game (the rulebook's) against a friend, who plays by the link as a guest.
    request = {"game": "pig", "players": 2, "seats": [{"name": "M."}, {"name": "Friend"}], "rated": True}
    with_friend = httpx.post(f"{server.base}/api/tables", json=request, timeout=30).json()
    assert with_friend["rated"], with_friend
    page.goto(f"{base}{with_friend['seats'][0]['invite']}")
    wait_for(page, SEAT_OF, with_friend["id"])
    friend, friend_page, friend_errors = _phone(browser)
    friend_page.goto(f"{base}{with_friend['seats'][1]['invite']}")
    wait_for(friend_page, SEAT_OF, with_friend["id"])
    assert friend_page.url.startswith(f"{base}/play/") and _signed_in_as(friend_page) is None  # no wall
    names = [s["name"] for s in httpx.get(f"{server.base}/api/tables/{with_friend['id']}").json()["table"]["seats"]]
    assert names == ["Mia", "Friend"]  # her seat shows her account's name, not the one the host typed
    _play_to_the_end(
        [
            PigSeat(server, with_friend["id"], page.evaluate(SEAT_OF, with_friend["id"])),
            PigSeat(server, with_friend["id"], friend_page.evaluate(SEAT_OF, with_friend["id"])),
        ]
    )
    # Her second phone: signed in, her seat opens from her account's list, no link needed ...
    two, other, other_errors = _phone(browser)
    _sign_in(other, base, "mia")
    wait_for(other, "() => document.querySelectorAll('#seat-list a').length === 1")
    other.click("#seat-list a")
    wait_for(other, SEAT_OF, with_friend["id"])
    assert other.evaluate(SEAT_OF, with_friend["id"]) == page.evaluate(SEAT_OF, with_friend["id"])
    # ... and "Play now" (no wait) seats her against a bot at a rated table.
    other.goto(f"{base}/")
    wait_for(other, "() => [...document.querySelectorAll('#quick-game option')].some((o) => o.value === 'pig')")
    other.select_option("#quick-game", "pig")
    other.select_option("#quick-wait", "0")
    other.click("#quick-play")
    other.wait_for_url(f"{base}/play/**")  # the lobby sends her to her seat
    with_bot = other.url.split("/play/", 1)[1].split("#", 1)[0]
    wait_for(other, SEAT_OF, with_bot)
    _play_to_the_end([PigSeat(server, with_bot, other.evaluate(SEAT_OF, with_bot))])

    def rated_games() -> int:
        board = httpx.get(f"{server.base}/api/leaderboard", params={"game": "pig", "players": 2}).json()
        return sum(entry["games"] for entry in board["entries"] if entry["name"] == "Mia")

    deadline = time.monotonic() + 60
    while rated_games() < 2:  # both tables settled by the server's rounds
        assert time.monotonic() < deadline, "the two games were not both rated"
        time.sleep(0.1)
    # The first phone's home page has both games, the one played on the other phone too.
    page.goto(f"{base}/home")
    finished = "(ids) => ids.every((id) => document.querySelector(`#home-finished li[data-table='${id}']`))"
    wait_for(page, finished, [with_friend["id"], with_bot])
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    page.goto(f"{base}/leaderboard?game=pig&players=2")
    wait_for(page, "() => /Mia/.test(document.getElementById('board').textContent)")
    # Her data: both ratings' history in the download; then the account is deleted.
    page.goto(f"{base}/account")
    wait_for(page, "() => !document.getElementById('profile-view').hidden")
    with page.expect_download() as download:
        page.click("#export-link")
    exported = json.loads(Path(download.value.path()).read_text())
    assert [(r["game"], r["games"]) for r in exported["ratings"]["ratings"]] == [("pig", 2)]
    assert {point["table"] for point in exported["ratings"]["history"]} == {with_friend["id"], with_bot}
    page.fill("#delete-name", "Mia")
    page.click("#delete-account")
    wait_for(page, "() => !document.getElementById('guest-view').hidden")
    assert rated_games() == 0 and _signed_in_as(page) is None and _signed_in_as(other) is None
    assert not errors and not friend_errors and not other_errors, errors + friend_errors + other_errors
    for context in (one, friend, two):
        context.close()
