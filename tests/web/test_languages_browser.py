"""The pages in the reader's language, in Chromium (issue 39).

A browser whose locale is Flemish Dutch gets the lobby in Dutch; the language switcher, used with
the keyboard only, changes it to Japanese, and the choice is remembered on the device (the next
page comes in Japanese too). In the pseudo-locale (``en_XA``: every catalogue text accented,
lengthened and bracketed) at 360x740 the lobby, the host page, a table of every game played to
its end (a person tapping the first move offered, bots in the other seats), the analysis and the
replay show no visible text outside the catalogues and nothing wider than the screen
(:func:`browsing.pseudo_findings`). One server for the module, bots at delay 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import gamebag
from gamebag.core.i18n import LANGUAGES
from gamebag.games.eigen_kweek.components import CARDS

from .browsing import new_context, pseudo_findings, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
# The quickest whole games: each game's own option for its length, the fewest players.
QUICK_OPTIONS: dict[str, dict[str, int]] = {
    "pig": {"goal": 20},
    "eel-harvest": {"target": 5},
    "wriggle-roulette": {"target": 5},
    "catch-a-dragon": {"rounds": 1},
    "eigen-kweek": {"max_rounds": 1},
}
PLAYERS = {"eigen-kweek": 3}
# The person's move: a die that fits (Catch A Dragon, then its collect button), else the first
# move button offered.
FIRST_MOVE = """() => {
  const die = document.querySelector('#controls button.die-pick.fits[aria-pressed="false"]');
  if (die) {
    die.click();
    const collect = document.getElementById('collect');
    if (collect && !collect.disabled) collect.click();
    return true;
  }
  const button = [...document.querySelectorAll('#controls button[data-action]')]
    .find((b) => b.offsetParent && !b.disabled);
  if (button) button.click();
  return !!button;
}"""
MINE = "() => document.body.dataset.turn === 'mine' && !document.querySelector('#controls button.chosen')"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("languages") / "languages.db", bot_delay=0.0)
    process.start()
    yield process
    process.stop()


def test_a_flemish_browser_reads_dutch_and_switches_to_japanese_by_keyboard(
    browser: Any, server: ServerProcess
) -> None:
    context = new_context(browser, locale="nl-BE")
    page = context.new_page()
    try:
        page.goto(f"{server.base}/")
        page.wait_for_selector("#games .game-card")
        assert page.get_attribute("html", "lang") == "nl"
        assert page.inner_text("#play-now-title") == "Nu spelen"
        assert page.inner_text("#choose-game") == "1. Kies een spel"
        # The keyboard only: from the page's start, Shift+Tab reaches the switcher at its end.
        page.locator("body").focus()
        for _ in range(4):
            page.keyboard.press("Shift+Tab")
            if page.evaluate("document.activeElement.id") == "language-choice":
                break
        assert page.evaluate("document.activeElement.id") == "language-choice"
        for _ in range(8):  # the arrows move through the languages; nothing reloads meanwhile
            if page.evaluate("document.activeElement.value") == "ja":
                break
            page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.value") == "ja"
        assert page.get_attribute("html", "lang") == "nl"
        page.keyboard.press("Tab")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        page.wait_for_selector("#games .game-card")
        assert page.get_attribute("html", "lang") == "ja"
        assert page.inner_text("#play-now-title") == "今すぐ遊ぶ"
        # Remembered on the device: the next page (any page) comes in Japanese, Accept-Language aside.
        page.goto(f"{server.base}/leaderboard")
        assert page.get_attribute("html", "lang") == "ja"
        assert page.inner_text("h1.title") == "ランキング"
        assert any(cookie["name"] == "gb_lang" and cookie["value"] == "ja" for cookie in context.cookies())
    finally:
        context.close()


def _allowed(server: ServerProcess) -> tuple[str, ...]:
    """Words a page shows as they are in every language: people's and characters' names and the
    bots' names (agent codes, like option names), each language's own name in the switcher, and
    the server's command-line option in the address note."""
    games = httpx.get(f"{server.base}/api/games", timeout=30).json()
    agents = {agent for game in games for agent in game.get("agents", [])}
    # "Eigen Kweek" is the Flemish game's own name, kept in every language as its characters' are.
    return ("Ann", "Bob", "--host", "Eigen Kweek", *CARDS, *LANGUAGES.values(), *sorted(agents))


def _play_to_the_end(page: Any, where: str, allowed: tuple[str, ...]) -> list[str]:
    """Tap the first move offered at each of the person's decisions until the game ends; the page
    is checked at her first decision and at the end."""
    found: list[str] = []
    checked = False
    while page.evaluate("document.body.dataset.turn") != "over":
        wait_for(page, f"() => ({MINE})() || document.body.dataset.turn === 'over'")
        if page.evaluate("document.body.dataset.turn") == "over":
            break
        if not checked:
            found += pseudo_findings(page, f"{where}, her first decision", allowed)
            checked = True
        step = page.evaluate("document.body.dataset.step")
        assert page.evaluate(FIRST_MOVE), f"{where}: her turn offers no move"
        wait_for(page, f"step => document.body.dataset.step !== step || !({MINE})()", step)
    page.wait_for_selector("#summary:not([hidden]) #result-banner")
    found += pseudo_findings(page, f"{where}, the end", allowed)
    return found


def test_the_pseudo_locale_finds_every_text_in_the_catalogues_and_nothing_too_wide(
    browser: Any, server: ServerProcess
) -> None:
    context = new_context(browser, **PHONE)
    context.add_cookies([{"name": "gb_lang", "value": "en_XA", "url": server.base}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    allowed = _allowed(server)
    found: list[str] = []
    try:
        page.goto(f"{server.base}/")
        page.wait_for_selector("#games .game-card")
        page.wait_for_selector("#seat-rows .seat-row")
        assert page.get_attribute("html", "lang") == "en-XA"
        found += pseudo_findings(page, "the lobby", allowed)
        for path, ready in (("/home", "#home-open li"), ("/account", "#guest-view:not([hidden])"),
                            ("/leaderboard", "#board tr"), ("/rules/pig", "#rules-text h2")):
            page.goto(f"{server.base}{path}")
            page.wait_for_selector(ready)
            found += pseudo_findings(page, path, allowed)
        # Wriggle Roulette first: its analysis (worked out as its game ends) and replay come next,
        # before the other games' analyses queue up on the server.
        order = sorted(gamebag.game_ids(), key=lambda game: game != "wriggle-roulette")
        for number, game_id in enumerate(order):
            players = PLAYERS.get(game_id, 2)
            request = {"game": game_id, "players": players, "seed": 7, "options": QUICK_OPTIONS.get(game_id, {}),
                       "seats": [{"name": "Ann"}] + [{"bot": "random"} for _ in range(players - 1)]}
            table = httpx.post(f"{server.base}/api/tables", json=request, timeout=30).json()
            # A table's id is a code, and its seats' names (a bot's "Bot 2 (random)" too) are names:
            # both are shown as they are in every language.
            allowed = (*allowed, table["id"], *(seat["name"] for seat in table["seats"]))
            if number == 0:
                page.goto(f"{server.base}{table['host']}")
                page.wait_for_selector("#host-seats .invite-card")
                page.wait_for_selector("#host-coach .actions")
                found += pseudo_findings(page, "the host page", allowed)
            page.goto(f"{server.base}{table['seats'][0]['invite']}")
            page.wait_for_selector("body[data-turn]")
            found += _play_to_the_end(page, f"{game_id}'s table", allowed)
            if number == 0:
                page.click("#analysis-open")
                page.wait_for_selector("#analysis table")
                found += pseudo_findings(page, "the analysis", allowed)
                page.goto(f"{server.base}/replay/{table['id']}")
                page.wait_for_selector("#position:not(:empty)")
                page.click("#next")
                found += pseudo_findings(page, "the replay", allowed)
    finally:
        context.close()
    assert not errors, errors
    assert not found, "\n".join(found)
