"""The table and the lobby on a 360x740 phone (issue 37, points 3 and 4): tap what you mean.

One server for the module; each test opens its own table and browser context (short: a few
seconds each). Catch A Dragon's eggs are dice to tap, an illegal tap says why; the move panel
stays a bottom sheet whatever "What just happened" holds; the top bar is one row; the lobby's
game cards are buttons a keyboard reaches, and it passes axe (WCAG 2.1 A/AA); a broken link
explains itself and leads back to the lobby. The lobby's "Variants" offer the game's presets above
the fields, and rules changed by hand are saved under a name on this device and offered again
after a reload; the players' rules page shows a table's numbers and fits the phone. Issue 38: a
free seat taken from the lobby, the home page, a profile's rating plot and a leaderboard, at the
same width.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

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
    answer = _open(
        server, {"game": "catch-a-dragon", "players": 2, "seed": 2, "seats": [{"name": "Ann"}, {"bot": "random"}]}
    )
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


SHEET = """() => {
  const panel = document.getElementById('controls-panel');
  const rect = panel.getBoundingClientRect();
  const list = document.getElementById('happened-list');
  const moves = [...document.querySelectorAll('#controls button')].map((b) => b.getBoundingClientRect());
  return {
    fixed: getComputedStyle(panel).position === 'fixed',
    inFlow: document.body.classList.contains('panel-in-flow'),
    bottom: rect.bottom, height: rect.height, viewport: window.innerHeight,
    panelScrolls: panel.scrollHeight - panel.clientHeight,
    lines: Number(document.getElementById('happened').dataset.count || 0),
    listScrolls: !!list && list.scrollHeight > list.clientHeight + 1,
    listShown: list ? list.clientHeight : 0,
    movesOnScreen: moves.length > 0 && moves.every((r) => r.top >= rect.top && r.bottom <= window.innerHeight),
  };
}"""

# One row: every part of the top bar that shows is centred on one line, and the bar is one button high.
TOP_BAR = """() => {
  const bar = document.querySelector('header.topbar');
  const parts = [...bar.children].filter((c) => c.getClientRects().length && getComputedStyle(c).display !== 'none')
    .map((c) => c.getBoundingClientRect());
  const middles = parts.map((r) => (r.top + r.bottom) / 2);
  return { spread: Math.max(...middles) - Math.min(...middles), height: bar.getBoundingClientRect().height,
           wide: document.documentElement.scrollWidth - window.innerWidth };
}"""


def test_the_move_panel_stays_a_bottom_sheet_whatever_what_just_happened_holds(
    browser: Any, server: ServerProcess
) -> None:
    # Eight players: every grab tells eight lines, so "What just happened" runs long.
    seats = [{"name": "Ann"}] + [{"bot": "random"} for _ in range(7)]
    answer = _open(server, {"game": "wriggle-roulette", "players": 8, "seed": 4, "seats": seats})
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}{answer['seats'][0]['invite']}")
    for _ in range(2):  # two grabs: the second decision comes after a long run of lines
        wait_for(page, "() => document.body.dataset.turn === 'mine'")
        step = page.evaluate("document.body.dataset.step")
        page.locator("#controls button[data-action='1']").tap()
        wait_for(page, "step => document.body.dataset.step !== step", step)
    wait_for(page, "() => document.body.dataset.turn === 'mine'")
    settle(page)
    sheet = page.evaluate(SHEET)
    assert sheet["lines"] >= 6, sheet  # a long run of lines since her last move
    assert sheet["fixed"] and not sheet["inFlow"], sheet
    assert abs(sheet["bottom"] - sheet["viewport"]) <= 1 and sheet["height"] <= 0.5 * sheet["viewport"], sheet
    assert sheet["panelScrolls"] <= 1, sheet  # nothing out of reach inside the sheet itself
    assert sheet["listScrolls"] and sheet["listShown"] >= 30, sheet  # the long text scrolls in its box
    assert sheet["movesOnScreen"], sheet
    context.close()
    assert not errors, errors


def test_the_top_bar_is_one_row_on_a_phone(browser: Any, server: ServerProcess) -> None:
    answer = _open(server, {"game": "catch-a-dragon", "players": 2, "seats": [{"name": "Ann"}, {"bot": "random"}]})
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}{answer['seats'][0]['invite']}")
    wait_for(page, "() => !!document.body.dataset.turn")
    assert page.locator("#forget-seat").is_visible() and page.locator("#sound").is_visible()
    bar = page.evaluate(TOP_BAR)
    assert bar["spread"] <= 4 and bar["height"] <= 60 and bar["wide"] <= 0, bar
    context.close()
    assert not errors, errors


def test_a_spectator_sees_that_they_watch_in_a_one_row_top_bar(browser: Any, server: ServerProcess) -> None:
    answer = _open(server, {"game": "pig", "players": 2, "seats": [{"name": "Ann"}, {"bot": "random"}]})
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}/play/{answer['id']}")
    wait_for(page, "() => !!document.body.dataset.turn")
    assert page.locator("#who").is_visible() and page.inner_text("#who") == "watching"
    bar = page.evaluate(TOP_BAR)
    assert bar["spread"] <= 4 and bar["height"] <= 60 and bar["wide"] <= 0, bar
    context.close()
    assert not errors, errors


def test_a_broken_link_explains_and_leads_back_to_the_lobby(browser: Any, server: ServerProcess) -> None:
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}/play/nosuchtable")
    page.wait_for_selector("#gone")
    assert page.inner_text("#title") == "There is no such table"
    assert "Loading" not in page.title() and "Loading" not in page.inner_text("body")
    assert "online" not in (page.get_attribute("#status", "class") or "")  # no green dot
    assert "mistyped" in page.inner_text("#gone")
    page.locator("#back-to-lobby").tap()
    page.wait_for_url(f"{server.base}/")
    page.wait_for_selector("#games")
    context.close()
    assert not errors, errors


def _axe_wcag21(page: Any) -> list[str]:
    """axe-core's findings against WCAG 2.1 A and AA (every impact), in one line each."""
    from axe_playwright_python.sync_playwright import Axe

    settle(page)
    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": tags}})
    return [
        f"{v['id']} ({v.get('impact')}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
    ]


def test_the_lobby_s_game_cards_are_buttons_a_keyboard_reaches(browser: Any, server: ServerProcess) -> None:
    seats = [{"name": "Ann"}, {"bot": "heuristic"}]
    table = _open(server, {"game": "pig", "players": 2, "seats": seats, "public": True})  # listed: public
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}/")
    page.wait_for_selector("#games .game-card")
    # The table list names a bot once ("Bot 2 (heuristic)", not "... (heuristic) (bot)") and dates the table.
    row = page.locator(f'#tables tr[data-table="{table["id"]}"]')
    assert "Bot 2 (heuristic)" in row.inner_text() and "(bot)" not in row.inner_text()
    assert row.locator(".opened").inner_text().strip()
    wait_for(page, "() => !!document.querySelector('.game-card[aria-pressed=\"true\"]')")
    # Tab from the top of the page to Catch A Dragon's card (not the one preselected), Enter picks it.
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.game === 'catch-a-dragon'"):
            break
    else:
        raise AssertionError("the keyboard never reaches Catch A Dragon's game card")
    assert page.evaluate("() => document.activeElement.tagName") == "BUTTON"
    page.keyboard.press("Enter")
    wait_for(page, "() => document.querySelector('.game-card[data-game=\"catch-a-dragon\"]').ariaPressed === 'true'")
    # Its options: folded under "Variants", in players' words, each with its one line.
    assert not page.evaluate("() => document.getElementById('variants').open")
    page.locator("#variants summary").tap()
    labels = page.locator("#options label").all_inner_texts()
    assert "Rounds" in labels and not any("_" in label for label in labels), labels
    assert "the rulebook's setup" in page.inner_text("#variants-note")
    page.fill("#option-rounds", "2")
    page.locator("#option-rounds").dispatch_event("change")
    wait_for(page, "() => document.getElementById('variants-note').textContent.includes('1 rule changed')")
    violations = _axe_wcag21(page)
    assert not violations, violations
    context.close()
    assert not errors, errors


# Every word of every column header lies on one line (a word broken over two has two boxes).
BROKEN_HEADER_WORDS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll('#scores-by-round thead th')) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


def test_the_scores_by_round_never_break_a_word_in_their_headers(browser: Any, server: ServerProcess) -> None:
    # Four heuristic bots (the widest names: "Bot 4 (heuristic)"), a short game watched on a phone.
    seats = [{"bot": "heuristic"} for _ in range(4)]
    request = {"game": "wriggle-roulette", "players": 4, "seed": 3, "seats": seats, "options": {"target": 8}}
    answer = _open(server, request)
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}/play/{answer['id']}")
    page.wait_for_selector("#summary:not([hidden]) #scores-by-round", timeout=120_000)  # four bots play it out
    headers = page.locator("#scores-by-round thead th").all_inner_texts()
    assert any("(heuristic)" in text or "(heuris" in text for text in headers), headers
    assert page.evaluate(BROKEN_HEADER_WORDS) == []
    fits = (
        "() => { const t = document.getElementById('scores-by-round');"
        " return t.parentElement.scrollWidth - t.parentElement.clientWidth; }"
    )
    assert page.evaluate(fits) <= 0
    context.close()
    assert not errors, errors


def test_the_host_lands_in_her_own_seat_and_shares_the_others_links(browser: Any, server: ServerProcess) -> None:
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}/?game=pig")
    page.locator('.game-card[data-game="pig"]').tap()
    page.fill("#seat-name-0", "Ann")
    page.fill("#seat-name-1", "Bob")
    page.select_option("#seat-kind-1", "")
    assert page.locator("#my-seat-0").is_checked()  # the host plays the first seat unless she says otherwise
    page.click("#create")
    # Bob's link to send (Share where the phone has it, Copy here); Ann's own seat is hers already.
    page.wait_for_selector('.invite-card [data-invite="1"]')
    assert not page.locator('[data-invite="0"]').count()
    card = page.locator('.invite-card[data-seat="1"]')
    assert card.get_by_role("button", name="Copy Bob's link").count() == 1
    page.locator("#take-my-seat").tap()
    page.wait_for_url(lambda url: "/play/" in url)
    page.wait_for_load_state()
    wait_for(page, "() => !!document.body.dataset.turn")
    assert page.inner_text("#who") == "you are Ann"
    # With nobody else to invite, the lobby takes her straight to her seat.
    page.goto(f"{server.base}/?game=pig")
    page.locator('.game-card[data-game="pig"]').tap()
    page.fill("#seat-name-0", "Ann")
    page.select_option("#seat-kind-1", "random")
    page.click("#create")
    page.wait_for_url(lambda url: "/play/" in url)
    page.wait_for_load_state()
    wait_for(page, "() => !!document.body.dataset.turn")
    assert page.inner_text("#who") == "you are Ann"
    context.close()
    assert not errors, errors


# ---- presets, house rules and the players' rules page (issue 37, point 4) ----------------------
def _variants_of(page: Any, game: str) -> None:
    page.locator(f'.game-card[data-game="{game}"]').click()
    wait_for(page, "(game) => document.querySelector(`.game-card[data-game='${game}']`).ariaPressed === 'true'", game)
    if not page.evaluate("() => document.getElementById('variants').open"):
        page.locator("#variants summary").click()


def test_the_lobby_offers_presets_and_keeps_house_rules_on_this_device(browser: Any, server: ServerProcess) -> None:
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}/")
    page.wait_for_selector("#games .game-card")
    _variants_of(page, "catch-a-dragon")
    offered = page.locator("#preset option").all_inner_texts()
    assert offered == ["The rulebook", "A quick game", "Gentler busts", "Your own changes"], offered
    assert page.input_value("#preset") == "preset:rulebook"
    assert page.get_attribute("#rules-link", "href") == "/rules/catch-a-dragon"
    # A preset sets the fields; the fold says which setup it is.
    page.select_option("#preset", "preset:quick")
    wait_for(page, "() => document.getElementById('option-rounds').value === '2'")
    assert "A quick game" in page.inner_text("#variants-note")
    assert "Two rounds" in page.inner_text("#preset-says")
    # A rule changed by hand is "your own"; saved under a name, it is offered again after a reload.
    page.locator("#option-cyclic").uncheck()
    wait_for(page, "() => document.getElementById('preset').value === 'custom'")
    page.fill("#house-name", "Our kitchen table")
    page.locator("#house-save").click()
    wait_for(page, "() => document.getElementById('preset').selectedOptions[0].textContent === 'Our kitchen table'")
    violations = _axe_wcag21(page)
    assert not violations, violations
    page.reload()
    page.wait_for_selector("#games .game-card")
    _variants_of(page, "catch-a-dragon")
    assert page.input_value("#option-rounds") == "4" and page.is_checked("#option-cyclic")  # the rulebook again
    saved = page.locator("#preset optgroup[label='House rules you saved'] option")
    assert saved.all_inner_texts() == ["Our kitchen table"]
    page.select_option("#preset", label="Our kitchen table")
    wait_for(page, "() => document.getElementById('option-rounds').value === '2'")
    assert not page.is_checked("#option-cyclic")
    # Another game keeps its own list: nothing saved for Pig.
    _variants_of(page, "pig")
    assert not page.locator("#preset optgroup[label='House rules you saved']").count()
    context.close()
    assert not errors, errors


def test_the_rules_page_shows_the_table_s_numbers_and_fits_a_phone(browser: Any, server: ServerProcess) -> None:
    context, page, errors = _phone_page(browser)
    query = urlencode({"players": 3, "options": json.dumps({"max_rounds": 15})})
    page.goto(f"{server.base}/rules/eigen-kweek?{query}")
    wait_for(page, "() => document.getElementById('rules-title').textContent === 'Eigen Kweek: the rules'")
    headings = page.locator("#rules-text h2").all_inner_texts()
    assert {"Setup", "A round", "Scoring", "The end of the game", "The options of this table"} <= set(headings)
    text = page.inner_text("#rules-text")
    assert "after 15 rounds" in " ".join(text.split()) and "--" not in text
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    violations = _axe_wcag21(page)
    assert not violations, violations
    page.goto(f"{server.base}/rules/chess")
    wait_for(page, "() => document.querySelector('#rules-text .notice') !== null")
    context.close()
    assert not errors, errors


def _fits(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_a_guest_takes_a_free_seat_and_finds_it_at_home(browser: Any, server: ServerProcess, tmp_path: Path) -> None:
    """Issue 38: a guest takes a free seat of a public table from the lobby with the keyboard and
    finds the table on the home page; Play now seats them with a bot at once; a profile's rating
    plot is SVG; all axe clean at 360 px."""
    from sqlalchemy import create_engine, insert

    from gamebag.web.people.schema import AccountRow
    from gamebag.web.people.standingrows import RatingHistoryRow, RatingRow

    opened = httpx.post(f"{server.base}/api/tables", json={"game": "pig", "players": 2, "public": True}, timeout=30)
    private = httpx.post(f"{server.base}/api/tables", json={"game": "pig", "players": 2}, timeout=30)
    table_id = opened.json()["id"]
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}/")
    row = page.locator(f'#tables tr[data-table="{table_id}"]')
    row.wait_for()
    assert not page.locator(f'#tables tr[data-table="{private.json()["id"]}"]').count()
    assert "2 free seats" in row.inner_text()
    row.locator("button.take-seat").focus()  # a button: the keyboard reaches it and Enter presses it
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/play/{table_id}")
    assert page.evaluate(f"() => !!window.localStorage.getItem('gamebag-seat:{table_id}')")

    page.goto(f"{server.base}/home")
    wait_for(page, f"() => !!document.querySelector('#home-open li[data-table=\"{table_id}\"]')")
    assert _fits(page) and _axe_wcag21(page) == []

    # A rated person's profile: the rating with its range, provisional, and its plot, on a server of
    # its own: its rows go in while it is stopped (a server holds its SQLite file for itself while
    # it runs, unix-excl), and the module's server is never restarted under the other tests.
    rated = ServerProcess(tmp_path / "profile.db", bot_delay=0.0)
    rated.start()
    try:
        played = _open(rated, {"game": "pig", "players": 2, "seats": [{"name": "Ann"}, {"bot": "random"}]})["id"]
    finally:
        rated.stop()
    engine = create_engine(rated.db_url)
    now = time.time()
    with engine.begin() as connection:
        account = {"id": "ann", "name": "Ann", "name_key": "ann", "created_at": now, "disabled": False}
        connection.execute(insert(AccountRow).values(**account))
        rating = {"account_id": "ann", "game": "pig", "players": 2, "mu": 27.0, "sigma": 6.0, "games": 3}
        connection.execute(insert(RatingRow).values(**rating, updated_at=now))
        for index, (mu, sigma) in enumerate([(26.0, 7.5), (25.0, 6.8), (27.0, 6.0)]):
            connection.execute(
                insert(RatingHistoryRow).values(
                    account_id="ann", game="pig", players=2, table_id=played, mu=mu, sigma=sigma, at=now + index
                )
            )
    engine.dispose()
    rated.start()  # the same port and file
    try:
        page.goto(f"{rated.base}/people/ann")
        wait_for(page, "() => !!document.querySelector('svg.rating-plot polyline')")
        text = page.locator("#profile-ratings").inner_text()
        assert "Rating 27" in text and "15 and 39" in text and "Provisional" in text
        assert page.locator("svg.rating-plot circle").count() == 3
        assert _fits(page) and _axe_wcag21(page) == []
        page.goto(f"{rated.base}/leaderboard?game=pig&players=2")
        wait_for(page, "() => document.querySelectorAll('#board tr a').length === 1")
        assert "Ann" in page.locator("#board").inner_text()
        assert _fits(page) and _axe_wcag21(page) == []
    finally:
        rated.stop()

    # Play now from the lobby, with no wait: a seat of a new pig table, its other seat a bot at once.
    page.goto(f"{server.base}/")
    page.wait_for_selector("#quick-game option", state="attached")
    page.select_option("#quick-game", "pig")
    page.select_option("#quick-wait", "0")
    page.click("#quick-play")
    page.wait_for_url("**/play/*")
    quick_id = page.url.rsplit("/", 1)[1]
    assert page.evaluate(f"() => !!window.localStorage.getItem('gamebag-seat:{quick_id}')")
    deadline = time.monotonic() + 30
    while not httpx.get(f"{server.base}/api/tables/{quick_id}", timeout=10).json()["table"]["seats"][1]["bot"]:
        assert time.monotonic() < deadline, "Play now's free seat got no bot"
        time.sleep(0.1)
    assert errors == []
    context.close()


def test_time_banks_show_on_every_seat_and_a_vacation_is_a_key_press_away(browser: Any, server: ServerProcess) -> None:
    """Issue 40: a turn-based table's banks on the seat list at 360 px, beside (not over) the board;
    the vacation button is reached by keyboard and its effect is shown to everyone; axe clean."""
    clock = {"mode": "turn", "bank_seconds": 3 * 86400, "increment_seconds": 3600, "vacation_days": 2}
    seats = [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}]
    answer = _open(server, {"game": "eel-harvest", "players": 3, "seats": seats, "clock": clock})
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}{answer['seats'][0]['invite']}")
    wait_for(page, "() => document.querySelectorAll('#seats [data-bank]').length === 3")
    assert "3 d 0 h" in page.inner_text("#seats") or "2 d 23 h" in page.inner_text("#seats")
    assert "Ann's bank" in page.inner_text("#seats .visually-hidden >> nth=0")
    overlap = page.evaluate(
        """() => { const b = document.getElementById('board').getBoundingClientRect();
        return [...document.querySelectorAll('#seats .badge.bank')].some((e) => { const r = e.getBoundingClientRect();
        return r.bottom > b.top + 1 && r.top < b.bottom - 1 && r.right > b.left && r.left < b.right; }); }"""
    )
    assert not overlap
    assert _fits(page)
    button = page.locator("#vacation")
    assert button.is_visible() and button.inner_text() == "Take a vacation"
    for _ in range(60):  # the keyboard reaches it
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.id") == "vacation":
            break
    else:
        raise AssertionError("Tab never reached the vacation button")
    page.keyboard.press("Enter")
    wait_for(page, "() => document.getElementById('vacation').textContent === 'End my vacation'")
    assert "on vacation until" in page.inner_text("#bank-own-says")
    assert "vacation" in page.inner_text("#seats")
    assert _axe_wcag21(page) == []
    context.close()
    assert not errors, errors


def test_the_lobby_opens_a_turn_based_table_with_the_host_s_bank(browser: Any, server: ServerProcess) -> None:
    """The lobby's time bank fields appear for the mode chosen (in its units), pass axe, and open the table."""
    context, page, errors = _phone_page(browser)
    page.goto(f"{server.base}/?game=pig")
    page.locator('.game-card[data-game="pig"]').tap()
    page.fill("#seat-name-0", "Ann")
    page.select_option("#seat-kind-1", "random")
    assert not page.locator("#clock-bank").is_visible()
    page.select_option("#clock-mode", "turn")
    assert page.inner_text("#clock-bank-unit") == "days per player" and page.locator("#clock-vacation").is_visible()
    page.fill("#clock-bank", "2")
    page.fill("#clock-increment", "6")
    page.select_option("#clock-empty", "forfeit")
    page.fill("#clock-vacation", "1")
    assert _fits(page) and _axe_wcag21(page) == []
    page.click("#create")
    page.wait_for_url(lambda url: "/play/" in url)
    wait_for(page, "() => document.querySelectorAll('#seats [data-bank]').length === 1")  # Ann's; the bot has none
    table_id = page.url.split("/play/", 1)[1].split("#", 1)[0]
    banks = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=30).json()["table"]["banks"]
    assert banks["settings"] == {
        "mode": "turn", "bank_seconds": 172800.0, "increment_seconds": 21600.0, "on_empty": "forfeit",
        "vacation_days": 1,
    }
    context.close()
    assert not errors, errors
