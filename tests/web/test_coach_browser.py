"""The coach in a real browser on a 360x740 phone: the host offers it, each person agrees, the advice shows.

One Pig table (to 30) with two people: the host page offers the coach; the phone of the seat to move
sees the offer and agrees; the other person agrees over the API; the phone then shows "Coach on"
and the advice at its decision (the win chance after roll and hold, in Pig's words), with no horizontal overflow,
while a spectator sees that the coach is on and gets no advice.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import WAIT_S, new_context, wait_for
from .helpers import claim_seats
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("coach") / "coach.db", bot_delay=0.0)
    process.start()
    yield process
    process.stop()


def test_the_coach_is_offered_agreed_to_and_advises_on_a_phone(browser: Any, server: ServerProcess) -> None:
    request = {"game": "pig", "players": 2, "seats": [{"name": "Ann"}, {"name": "Ben"}], "options": {"goal": 30}}
    opened = httpx.post(f"{server.base}/api/tables", json=request, timeout=WAIT_S).json()
    table = claim_seats(httpx, opened, server.base)
    tokens = {seat["seat"]: seat["token"] for seat in table["seats"]}
    errors: list[str] = []
    phone = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    # One page per seat, both open at once: a page may show "wait" before its seat's first view has
    # arrived, so the seat to move is the one whose page comes to show "mine".
    pages = {}
    for seat in (0, 1):
        pages[seat] = phone.new_page()
        pages[seat].on("pageerror", lambda error: errors.append(str(error)))
        pages[seat].goto(f"{server.base}/play/{table['id']}#seat={tokens[seat]}")
    deadline = time.monotonic() + WAIT_S
    movers: list[int] = []
    while not movers and time.monotonic() < deadline:
        movers = [seat for seat, shown in pages.items() if shown.evaluate("document.body.dataset.turn") == "mine"]
        pages[0].wait_for_timeout(50)
    assert movers, "neither seat is to move"
    mover = movers[0]
    pages[1 - mover].close()
    page = pages[mover]
    assert page.locator("#coach").is_hidden()  # off by default: nothing to see
    host = new_context(browser, viewport=PHONE).new_page()
    host.on("pageerror", lambda error: errors.append(str(error)))
    host.goto(f"{server.base}/host/{table['id']}#host={table['host_token']}")
    host.click("#host-coach-toggle")
    wait_for(host, "() => document.getElementById('host-coach-state').textContent.includes('offered')")
    wait_for(page, "() => !document.getElementById('coach').hidden")
    assert "0 of 2" in page.inner_text("#coach-status")
    page.click("#coach-consent")
    wait_for(page, "() => document.getElementById('coach-status').textContent.includes('1 of 2')")
    assert page.locator("#coach-advice").count() == 0  # not on yet: no advice
    answer = httpx.post(
        f"{server.base}/api/tables/{table['id']}/coach/consent",
        json={"agree": True},
        headers={"x-seat-token": tokens[1 - mover]},
        timeout=WAIT_S,
    )
    assert answer.json()["coach"]["on"] is True
    wait_for(page, "() => document.getElementById('coach-status').textContent.includes('Coach on')")
    said = "Win chance after each choice"
    advised = f"() => (document.getElementById('coach-advice') || {{}}).textContent?.includes('{said}')"
    wait_for(page, advised, timeout=120.0)
    advice = page.inner_text("#coach-advice")
    assert "roll the die" in advice and "hold: bank your turn total" in advice and "%" in advice  # Pig's words
    assert int(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]
    watcher = new_context(browser, viewport=PHONE).new_page()
    watcher.goto(f"{server.base}/play/{table['id']}")
    wait_for(watcher, "() => !document.getElementById('coach').hidden")
    assert "Coach on" in watcher.inner_text("#coach") and watcher.locator("#coach-advice").count() == 0
    assert watcher.locator("#coach-consent").count() == 0
    assert not errors, errors
