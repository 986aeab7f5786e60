"""The table and the lobby on a 360x740 phone (issue 37, points 3 and 4): tap what you mean.

One server for the module; each test opens its own table and browser context (short: a few
seconds each). Catch A Dragon's eggs are dice to tap, an illegal tap says why; the move panel
stays a bottom sheet whatever "What just happened" holds; the top bar is one row; the lobby's
game cards are buttons a keyboard reaches, and it passes axe (WCAG 2.1 A/AA); a broken link
explains itself and leads back to the lobby.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import new_context, settle, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("phone") / "phone.db", bot_delay=0.05)
    process.start()
    yield process
    process.stop()


def _open(server: ServerProcess, request: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{server.base}/api/tables", json=request, timeout=30)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _phone_page(browser: Any) -> tuple[Any, Any, list[str]]:
    context = new_context(browser, **PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def test_catch_a_dragon_dice_are_tapped_and_an_illegal_tap_is_explained(browser: Any, server: ServerProcess) -> None:
    # Seed 2: her first roll holds a pair, so some die cannot join once the pair is picked.
    answer = _open(server, {"game": "catch-a-dragon", "players": 2, "seed": 2,
                            "seats": [{"name": "Ann"}, {"bot": "random"}]})
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}{answer['seats'][0]['invite']}")
    wait_for(page, "() => document.body.dataset.turn === 'mine' && !!document.querySelector('#controls .die-pick')")
    assert not page.locator("#controls select").count()  # no dropdown of sets any more
    dice = page.locator("#controls button.die-pick")
    assert dice.count() >= 2
    assert page.locator("#collect").is_disabled()
    # Tap dice that fit until one no longer does; tap that one: refused, and why in one line.
    refused = None
    for _ in range(dice.count()):
        loose = page.locator("#controls button.die-pick.no-fit")
        if loose.count():
            refused = loose.first
            break
        page.locator("#controls button.die-pick.fits[aria-pressed='false']").first.tap()
    assert refused is not None, "seed 2 no longer rolls a pair for her: choose another seed"
    picked = page.locator("#controls button.die-pick[aria-pressed='true']").count()
    refused.tap()
    why = page.locator("#collect-why").inner_text()
    assert "does not fit" in why and why.count(".") <= 2, why
    assert page.locator("#controls button.die-pick[aria-pressed='true']").count() == picked
    # The dice picked make a legal collection: Collect names them and takes them.
    button = page.locator("#collect")
    assert button.is_enabled() and button.inner_text().startswith("Collect ")
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740  # within reach on the screen
    step = page.evaluate("document.body.dataset.step")
    button.tap()
    wait_for(page, "step => document.body.dataset.step !== step", step)
    wait_for(page, "n => document.querySelectorAll('#collected .die').length === n", picked)
    context.close()
    assert not errors, errors
