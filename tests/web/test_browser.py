"""Real-browser end-to-end tests: Playwright driving Debian's chromium against a real server.

Two browser contexts join one Wriggle Roulette table by their invite links (made in the lobby
form) and play it to the end with a bot, across a SIGKILL and restart of the server that the
pages survive by reconnecting by themselves. (Every game's table is played to its end in the
browser by test_table_ui.py, a phone and a desktop, and by test_languages_browser.py in the
pseudo-locale; a spectator's phone by test_phone_table.py.) Screenshots go to
``artifacts/screenshots/``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .browsing import new_context, shot, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 860}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("browser") / "browser.db", bot_delay=0.05)
    process.start()
    yield process
    process.stop()


def _watch_errors(page: Any, errors: list[str]) -> None:
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)


def _turn(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.turn || ''"))


def _take_turn(page: Any, rng: random.Random) -> None:
    """Click one of the move buttons, then wait until the page shows the move was taken."""
    step = page.evaluate("document.body.dataset.step")
    buttons = page.locator("#controls button[data-action]")
    if buttons.count() == 0:  # Catch A Dragon's eggs: tap one that fits, then collect it
        page.locator("#controls button.die-pick.fits").first.click()
        page.locator("#collect").click()
    else:
        buttons.nth(rng.randrange(buttons.count())).click()
    wait_for(page, "step => document.body.dataset.step !== step || document.body.dataset.turn !== 'mine'", step)


def _play(pages: list[Any], rng: random.Random, stop: Any, timeout: float = 150.0) -> int:
    moves = 0
    deadline = time.monotonic() + timeout
    while not stop(moves):
        assert time.monotonic() < deadline, "the game did not end in the browser"
        progressed = False
        for page in pages:
            if _turn(page) == "mine":
                _take_turn(page, rng)
                moves += 1
                progressed = True
                if stop(moves):
                    break
        if not progressed:
            pages[0].wait_for_timeout(30)
    return moves


def _all_over(pages: list[Any]) -> Any:
    return lambda _moves: all(_turn(page) == "over" for page in pages)


def test_two_friends_and_a_bot_play_wriggle_roulette_through_a_server_crash(
    browser: Any, server: ServerProcess
) -> None:
    errors: list[str] = []
    lobby_context = new_context(browser, viewport=DESKTOP)
    lobby = lobby_context.new_page()
    _watch_errors(lobby, errors)
    lobby.goto(f"{server.base}/?game=wriggle-roulette")
    lobby.locator('.game-card[data-game="wriggle-roulette"]').click()
    lobby.select_option("#players", "3")
    lobby.fill("#seat-name-0", "Ann")
    lobby.fill("#seat-name-1", "Bob")
    lobby.select_option("#seat-kind-1", "")
    lobby.select_option("#seat-kind-2", "heuristic")
    lobby.check("#my-seat-none")  # the host plays no seat here: every person's link is shown
    lobby.click("#create")
    lobby.wait_for_selector("[data-invite]")
    invites = [lobby.locator(f'[data-invite="{seat}"]').input_value() for seat in (0, 1)]
    assert all("#invite=" in link for link in invites)
    shot(lobby, "lobby-invites.png")

    ann_context = new_context(browser, viewport=DESKTOP)
    bob_context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    ann, bob = ann_context.new_page(), bob_context.new_page()
    for page, link in ((ann, invites[0]), (bob, invites[1])):
        _watch_errors(page, errors)
        page.goto(link)
        wait_for(page, "() => document.body.dataset.turn")
    assert "you are Ann" in ann.inner_text("#who") and "you are Bob" in bob.inner_text("#who")
    rng = random.Random(5)

    # Ann chooses in secret: Bob's page shows that she has chosen, never what.
    _take_turn(ann, rng)
    bob.wait_for_selector('#player-0 [data-chosen="0"]')
    assert "Your secret choice" in ann.inner_text("#controls-panel")
    assert "Your secret choice" not in bob.inner_text("body")
    shot(ann, "wriggle-roulette-ann-chosen.png")
    shot(bob, "wriggle-roulette-bob-phone-waiting.png")

    _play([ann, bob], rng, lambda moves: moves >= 5)
    shot(ann, "wriggle-roulette-ann-midgame.png")
    step_before = int(ann.evaluate("document.body.dataset.step"))

    # SIGKILL the server mid-game; both pages notice, reconnect by themselves and carry on.
    server.kill()
    for page in (ann, bob):
        page.wait_for_selector("#status.offline")
    server.start()
    for page in (ann, bob):
        page.wait_for_selector("#status.online")
    assert int(ann.evaluate("document.body.dataset.step")) >= step_before

    _play([ann, bob], rng, _all_over([ann, bob]))
    for page, name in ((ann, "ann"), (bob, "bob-phone")):
        banner = page.inner_text("#result-banner")
        assert "Game over" in banner
        log = page.locator("#log li")
        assert log.count() > 5
        assert "grabs" in page.inner_text("#log")
        shot(page, f"wriggle-roulette-{name}-final.png")

    # The finished game can be replayed step by step, as Ann saw it.
    ann.click("#result-banner a:text('Replay step by step')")
    ann.wait_for_selector("#board .player")
    for _ in range(3):
        ann.click("#next")
    assert "step 4 of" in ann.inner_text("#position")
    shot(ann, "wriggle-roulette-replay.png")
    for context in (lobby_context, ann_context, bob_context):
        context.close()
    # While the server was down, the reconnection attempts were refused: that is expected.
    unexpected = [e for e in errors if "ERR_CONNECTION_REFUSED" not in e]
    assert not unexpected, unexpected
