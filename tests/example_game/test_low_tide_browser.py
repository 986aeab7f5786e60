"""Low Tide, a plugin game with no heuristic agent, opened from the lobby and finished in Chromium.

The server is a real ``gamebag serve`` process that loads the plugin from ``GAMEBAG_PLUGINS``. The
lobby's own choices are kept (its preselected bot, its default turn timer), so a game whose only
agents are the generic ones must get a table with bots that exist. The game is played to its end by
clicking the generic table's buttons; the banner names the seats with the lowest total as winners.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from low_tide_support import GAME_ID, LOW_TIDE_FILE

from gamebag import plugins
from web.browsing import launched_chromium, new_context, shot, wait_for
from web.serverproc import ServerProcess

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1200, "height": 860}
GAME_S = 120.0  # the whole game, every click waited for
ANALYSIS_S = 120.0


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium under Playwright, as the web tests launch it."""
    with launched_chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("low-tide") / "web.db", bot_delay=0.0)
    before = os.environ.get(plugins.PLUGIN_ENV)
    os.environ[plugins.PLUGIN_ENV] = str(LOW_TIDE_FILE)  # the server process inherits it, as a user's shell would
    try:
        process.start()
    finally:
        if before is None:
            os.environ.pop(plugins.PLUGIN_ENV, None)
        else:
            os.environ[plugins.PLUGIN_ENV] = before
    yield process
    process.stop()


def _turn(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.turn || ''"))


def test_a_table_is_opened_from_the_lobby_and_played_to_the_end(browser: Any, server: ServerProcess) -> None:
    errors: list[str] = []
    context = new_context(browser, viewport=DESKTOP)
    lobby = context.new_page()
    lobby.on("pageerror", lambda error: errors.append(str(error)))
    lobby.goto(f"{server.base}/?game={GAME_ID}")
    lobby.locator(f'.game-card[data-game="{GAME_ID}"]').click()
    lobby.select_option("#players", "3")
    lobby.fill("#seat-name-0", "Ann")
    # Seat 2 keeps the bot the lobby preselects; seat 1 gets the same one.
    preselected = lobby.locator("#seat-kind-2").input_value()
    assert preselected, "the lobby preselects no bot for the third seat"
    lobby.select_option("#seat-kind-1", preselected)
    lobby.check("#my-seat-none")  # the host plays no seat here: every person's link is shown
    lobby.click("#create")
    created = "() => document.querySelector('[data-invite]') || document.getElementById('lobby-error').textContent"
    wait_for(lobby, created)
    refusal = lobby.inner_text("#lobby-error")
    assert not refusal, f"the lobby refused the table: {refusal}"
    invite = lobby.locator('[data-invite="0"]').input_value()
    shot(lobby, "low-tide-lobby.png")

    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(invite)
    wait_for(page, "() => document.body.dataset.turn")
    rng = random.Random(7)
    deadline = time.monotonic() + GAME_S
    while _turn(page) != "over":
        assert time.monotonic() < deadline, "the game did not end in the browser"
        if _turn(page) != "mine":
            page.wait_for_timeout(30)
            continue
        step = page.evaluate("document.body.dataset.step")
        buttons = page.locator("#controls button[data-action]")
        buttons.nth(rng.randrange(buttons.count())).click()
        wait_for(page, "step => document.body.dataset.step !== step || document.body.dataset.turn !== 'mine'", step)
    banner = page.inner_text("#result-banner")
    shot(page, "low-tide-final.png")
    # "Game over: Ann wins." then "Ann 12 · Bot 2 20 · Bot 3 17": the winners hold the lowest total.
    headline, scores_line = banner.splitlines()[0], page.inner_text("#result-banner .scores")
    # Standings best first, then the game's direction: "Bot 3 5 · Ann 14 · Bot 2 32 (the lowest score wins)".
    assert scores_line.endswith("(the lowest score wins)"), scores_line
    listed = scores_line.rsplit(" (", 1)[0]
    totals = {name.strip(): int(points) for name, points in re.findall(r"([^·]+?) (\d+)(?: ·|$)", listed)}
    assert len(totals) == 3, scores_line
    assert list(totals.values()) == sorted(totals.values()), scores_line
    lowest = min(totals.values())
    winners = [name for name, points in totals.items() if points == lowest]
    assert all(name in headline for name in winners), (headline, totals)

    # The finished table's other pages: the analysis of every decision, and the step-by-step replay.
    page.click("#analysis-open")
    page.wait_for_selector("#analysis-seats", timeout=ANALYSIS_S * 1000)
    assert "Accuracy" in page.inner_text("#analysis")
    replay = context.new_page()
    replay.on("pageerror", lambda error: errors.append(str(error)))
    replay.goto(invite.split("#")[0].replace("/play/", "/replay/"))
    replay.wait_for_selector("#board")
    for _ in range(3):
        replay.click("#next")
    assert "step 4 of" in replay.inner_text("#position")
    shot(replay, "low-tide-replay.png")
    context.close()
    assert not errors, errors
