"""Accounts in the browser at 360 px (issue 38): sign up, seats on two devices, export, delete, passkeys.

One server for the module, opened at ``localhost`` (a passkey's relying party is a host name,
never an address). A person signs up on one phone and claims a seat; signed in on a second phone,
the same seat opens there without any link; the data downloads as JSON; the account is deleted.
A passkey made by Chromium's virtual authenticator (CDP ``WebAuthn``) signs up and signs in.
A guest still opens the lobby and plays an invite link without any sign-up wall. The account
page passes axe (WCAG 2.1 A/AA) in both of its views and is used by keyboard.
"""

from __future__ import annotations

import json
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
