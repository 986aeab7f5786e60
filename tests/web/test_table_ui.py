"""The table page as people use it, in a real browser, for every game at phone and desktop size.

Two people join one table (a 360x740 phone and a 1280x800 desktop; bots in the other seats;
four players in Wriggle Roulette (two heuristic bots), the Eel games to a target of 12, not the rulebook's 20)
and play it to the end by clicking. At every move of both pages: no horizontal overflow. At
each of the phone's decisions, and at the end, what ``table_checks.PhoneWatch`` checks: what
just happened since your last move is all there, the move panel never lies over the board
with choices out of reach, every event of the record has a line in the log, each game's own
facts are told in words (see there). On both: the "How to play" sheet opens with the game's
rules and this table's numbers, a choice survives another player
choosing meanwhile (the move buttons are the very same elements afterwards), axe-core finds no
serious or critical accessibility violation, the end summary shows (scores by round, the
rulebook's words) and a rematch with the same seats starts. Screenshots of each game at both
sizes go to ``artifacts/screenshots/``.

All waits are for conditions with generous timeouts (a loaded 2-core machine), never sleeps.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import gamebag

from .browsing import SHORT_OPTIONS, WAIT_S, new_context, settle, shot, wait_for
from .serverproc import ServerProcess
from .table_checks import PhoneWatch, guide_problems

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
GAMES = list(gamebag.game_ids())
# Options and player counts that differ from the rulebook's, so the texts must take their numbers
# from the table (and four players make the widest scores-by-round table).
OPTIONS = {**SHORT_OPTIONS, "wriggle-roulette": {"target": 12}, "eel-harvest": {"target": 12}}
PLAYERS = {"wriggle-roulette": 4}
BOTS = {"wriggle-roulette": "heuristic"}  # long names ("Bot 4 (heuristic)") in the widest table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("tableui") / "ui.db", bot_delay=0.05)
    process.start()
    yield process
    process.stop()


def _overflow(page: Any) -> int:
    """How many pixels the page is wider than the screen (0: no horizontal scroll).

    Measured against the screen's width, not ``innerWidth``: a phone browser widens its
    layout viewport to fit content that is too wide, which would hide the overflow.
    """
    width = page.viewport_size["width"]
    return int(page.evaluate("Math.max(document.documentElement.scrollWidth, window.innerWidth)")) - width


def _turn(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.turn || ''"))


def _axe_serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    page.bring_to_front()
    settle(page)
    results = Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation.get("impact") in ("serious", "critical"):
            targets = [node["target"] for node in violation["nodes"]][:3]
            found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets}")
    return found


def _take_turn(page: Any, rng: random.Random) -> None:
    step = page.evaluate("document.body.dataset.step")
    buttons = page.locator("#controls button[data-action]")
    count = buttons.count()
    if count == 0:  # Catch A Dragon's eggs: tap one that fits, then collect it
        page.locator("#controls button.die-pick.fits").first.click()
        page.locator("#collect").click()
    else:
        buttons.nth(rng.randrange(count)).click()
    wait_for(
        page,
        "step => document.body.dataset.step !== step || document.body.dataset.turn !== 'mine'"
        " || !!document.querySelector('#controls button.chosen')",
        step,
        timeout=WAIT_S,
    )


def _play_to_end(
    pages: list[Any], rng: random.Random, on_move: Any, timeout: float = 400.0, before_move: Any = None
) -> int:
    moves = 0
    deadline = time.monotonic() + timeout
    while not all(_turn(page) == "over" for page in pages):
        assert time.monotonic() < deadline, "the game did not end in the browser"
        progressed = False
        for page in pages:
            if _turn(page) == "mine" and not page.locator("#controls button.chosen").count():
                if before_move is not None:
                    before_move(page)
                _take_turn(page, rng)
                moves += 1
                progressed = True
                on_move(moves)
        if not progressed:
            pages[0].wait_for_timeout(40)
    return moves


def _open_rules(page: Any) -> str:
    """Open "How to play", check it, close it; return the quick guide's text."""
    page.click("#rules-open")
    page.wait_for_selector("#rules[open]", timeout=WAIT_S * 1000)
    assert page.locator("#rules-quick li").count() >= 3
    guide = page.inner_text("#rules-quick")
    page.click("#rules-details summary")
    wait_for(page, "() => document.querySelector('#rules-full').children.length >= 3", timeout=WAIT_S)
    assert _overflow(page) <= 0
    page.click("#rules-close")
    page.wait_for_selector("#rules:not([open])", state="attached", timeout=WAIT_S * 1000)
    return guide


def _keyboard_reaches_a_move(page: Any) -> None:
    """Tab from the top of the page reaches a move button, and the focus ring is visible."""
    page.locator("body").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        # A move button, or one of Catch A Dragon's dice to tap (data-pick)
        focused = (
            "() => !!document.activeElement.closest('#controls')"
            " && !!(document.activeElement.dataset.action || document.activeElement.dataset.pick)"
        )
        if page.evaluate(focused):
            break
    else:
        raise AssertionError("no move button is reachable with the Tab key")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", ""), "the focused move button shows no focus ring"


def _choice_survives_another_choosing(chooser: Any, other: Any, other_seat: int) -> bool:
    """``chooser`` is at a decision; ``other`` acts meanwhile; ``chooser``'s buttons are untouched.

    In a turn-based game nobody else can choose while you choose: then the test checks that
    premise (only one of the two pages offers moves at any time).
    """
    if _turn(chooser) != "mine" or _turn(other) != "mine":
        offering = [page.locator("#controls button[data-action]").count() > 0 for page in (chooser, other)]
        assert offering.count(True) <= 1, "two players were offered moves at a turn-based decision"
        return False
    chooser.evaluate(
        "() => document.querySelectorAll('#controls button[data-action]').forEach(b => { b.__kept = true; })"
    )
    chooser.locator("#controls button[data-action]").first.focus()
    other.locator("#controls button[data-action]").first.click()
    chooser.wait_for_selector(f'#seats [data-seat="{other_seat}"] .badge.chosen', timeout=WAIT_S * 1000)
    kept = chooser.evaluate(
        "() => [...document.querySelectorAll('#controls button[data-action]')].every(b => b.__kept === true)"
    )
    focused = chooser.evaluate("() => document.activeElement && document.activeElement.__kept === true")
    assert kept, "the move buttons were rebuilt while another player chose"
    assert focused, "the focused move button lost its focus while another player chose"
    return True


@pytest.mark.parametrize("game_id", GAMES)
def test_a_phone_and_a_desktop_play_a_whole_game(browser: Any, server: ServerProcess, game_id: str) -> None:
    cls = gamebag.entry(game_id).game_class
    players = PLAYERS.get(game_id, max(cls.min_players, min(3, cls.max_players)))
    # Names as long as people give them: the scores by round must still fit a phone.
    seats = [{"name": "Ann Marie"}, {"name": "Bob Vermeulen"}]
    seats += [{"bot": BOTS.get(game_id, "random")} for _ in range(players - 2)]
    request = {"game": game_id, "players": players, "seats": seats, "seed": 11}
    if game_id in OPTIONS:
        request["options"] = OPTIONS[game_id]
    answer = httpx.post(f"{server.base}/api/tables", json=request, timeout=30).json()
    errors: list[str] = []
    phone_context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    desktop_context = new_context(browser, viewport=DESKTOP)
    phone, desktop = phone_context.new_page(), desktop_context.new_page()
    sizes = {id(phone): "phone", id(desktop): "desktop"}
    for page, seat in ((phone, 0), (desktop, 1)):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.goto(f"{server.base}{answer['seats'][seat]['invite']}")
        wait_for(page, "() => document.body.dataset.turn", timeout=WAIT_S)

    # Ann opened the table in this browser (as the lobby does): her rematch is listed with it.
    phone.evaluate(
        "entry => sessionStorage.setItem('gamebag-hosted', JSON.stringify([entry]))",
        {"id": answer["id"], "game": cls.title, "host": answer["host"], "at": 0},
    )
    public_view = httpx.get(f"{server.base}/api/tables/{answer['id']}", timeout=30).json()["view"]
    # What the phone shows wrong is gathered to the end, so that one run tells every defect.
    watch = PhoneWatch(game_id)
    for page in (phone, desktop):
        watch.problems.extend(guide_problems(game_id, _open_rules(page), public_view))
        assert _overflow(page) <= 0, f"{sizes[id(page)]} scrolls sideways at the start"
        violations = _axe_serious(page)
        assert not violations, violations

    _keyboard_reaches_a_move(phone if _turn(phone) == "mine" else desktop)
    start = httpx.get(f"{server.base}/api/tables/{answer['id']}", timeout=30).json()
    both_choose = {0, 1} <= set(start["view"]["choices"]["waiting_for"])
    assert _choice_survives_another_choosing(phone, desktop, 1) == both_choose
    overflow_seen: list[str] = []
    mid_game: list[str] = []  # axe's serious findings in the middle of the game

    def check(moves: int) -> None:
        for page in (phone, desktop):
            extra = _overflow(page)
            if extra > 0:
                overflow_seen.append(f"{sizes[id(page)]} +{extra}px after {moves} moves")
        if moves == 4:
            shot(phone, f"{game_id}-360x740-play.png")
            shot(desktop, f"{game_id}-1280x800-play.png")
            for page in (phone, desktop):
                mid_game.extend(_axe_serious(page))

    rng = random.Random(game_id)
    _play_to_end([phone, desktop], rng, check, before_move=lambda page: page is phone and watch.before_my_move(page))
    assert not overflow_seen, overflow_seen
    assert not mid_game, mid_game
    assert watch.decisions > 1
    record = httpx.get(f"{server.base}/api/tables/{answer['id']}/record", timeout=30).json()
    phone.wait_for_selector("#summary:not([hidden]) #result-banner", timeout=WAIT_S * 1000)
    watch.at_the_end(phone, record)

    for page, size in ((phone, "360x740"), (desktop, "1280x800")):
        page.wait_for_selector("#summary:not([hidden]) #result-banner", timeout=WAIT_S * 1000)
        text = page.inner_text("#summary")
        assert "Game over" in text and "The rulebook" in text
        assert page.locator("#scores-by-round tbody tr").count() >= 1
        assert _overflow(page) <= 0, f"{size} scrolls sideways at the end"
        violations = _axe_serious(page)
        assert not violations, violations
        shot(page, f"{game_id}-{size}-end.png")

    # A rematch with the same seats: Ann starts it, Bob follows the link his page offers.
    phone.click("#rematch")
    phone.wait_for_url(lambda url: f"/play/{answer['id']}" not in url, timeout=WAIT_S * 1000)
    phone.wait_for_load_state()
    wait_for(phone, "() => document.body.dataset.turn && document.body.dataset.turn !== 'over'", timeout=WAIT_S)
    desktop.wait_for_selector("#rematch-join", timeout=WAIT_S * 1000)
    desktop.click("#rematch-join")
    desktop.wait_for_url(lambda url: f"/play/{answer['id']}" not in url, timeout=WAIT_S * 1000)
    desktop.wait_for_load_state()
    wait_for(desktop, "() => document.body.dataset.turn && document.body.dataset.turn !== 'over'", timeout=WAIT_S)
    assert phone.evaluate("location.pathname") == desktop.evaluate("location.pathname")
    assert "you are Ann" in phone.inner_text("#who") and "you are Bob" in desktop.inner_text("#who")
    rematch_id = phone.evaluate("location.pathname").rsplit("/", 1)[-1]
    phone.goto(f"{server.base}/")
    phone.wait_for_selector("#hosted li", timeout=WAIT_S * 1000)
    if not phone.locator(f'#hosted a[href^="/host/{rematch_id}"]').count():
        listed = phone.inner_text("#hosted")
        watch.problems.append(f"'Tables you opened in this tab' does not list the rematch: {listed}")
    phone_context.close()
    desktop_context.close()
    assert not errors, errors
    assert not watch.problems, "\n".join(watch.problems)


def test_the_host_invites_by_qr_code_and_hands_a_no_show_to_a_bot(browser: Any, server: ServerProcess) -> None:
    errors: list[str] = []
    context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    lobby = context.new_page()
    lobby.on("pageerror", lambda error: errors.append(str(error)))
    lobby.goto(f"{server.base}/?game=wriggle-roulette")
    lobby.locator('.game-card[data-game="wriggle-roulette"]').click()
    lobby.select_option("#players", "3")
    lobby.fill("#seat-name-0", "Ann")
    lobby.fill("#seat-name-1", "Bob")
    lobby.select_option("#seat-kind-1", "")
    lobby.select_option("#seat-kind-2", "heuristic")
    lobby.check("#my-seat-none")  # the host plays no seat here: every person's link is shown
    lobby.click("#create")
    lobby.wait_for_selector('.invite-card [data-invite="1"]', timeout=WAIT_S * 1000)
    assert lobby.locator("#invite-list svg.qr").count() == 2  # one QR code per person's seat
    assert "#invite=" in lobby.locator('[data-invite="0"]').input_value()
    assert _overflow(lobby) <= 0
    violations = _axe_serious(lobby)
    assert not violations, violations
    shot(lobby, "lobby-invites-360x740.png")

    # The host page (its link is kept in the lobby too) recovers the links later.
    lobby.click("#host-page")
    lobby.wait_for_selector('#host-seats [data-invite="1"]', timeout=WAIT_S * 1000)
    ann_link = lobby.locator('[data-invite="0"]').input_value()
    assert lobby.locator("#host-seats svg.qr").count() == 2
    violations = _axe_serious(lobby)
    assert not violations, violations
    shot(lobby, "host-page-360x740.png")

    ann = context.new_page()
    ann.goto(ann_link)
    wait_for(ann, "() => document.body.dataset.turn === 'mine'", timeout=WAIT_S)
    # Bob never comes: the host hands his seat to a bot, and Ann's game goes on.
    lobby.click("#to-bot-1")
    lobby.wait_for_selector('.invite-card[data-seat="1"] >> text=played by a bot', timeout=WAIT_S * 1000)
    rng = random.Random(1)
    _take_turn(ann, rng)
    wait_for(ann, "() => document.body.dataset.step !== '0' && document.body.dataset.turn !== 'wait'", timeout=WAIT_S)
    assert ann.locator('#seats [data-seat="1"] .badge').first.inner_text() == "bot"
    context.close()
    assert not errors, errors


BROKEN_RENDERER = """
import generic from "./generic.js";
export default { ...generic, render() { throw new Error("test renderer broke"); } };
"""


def test_a_renderer_failure_is_shown_and_logged_not_hidden(browser: Any, server: ServerProcess) -> None:
    answer = httpx.post(
        f"{server.base}/api/tables", json={"game": "pig", "players": 2, "seats": [{}, {"bot": "random"}]}, timeout=30
    ).json()
    context = new_context(browser, viewport=PHONE)
    page = context.new_page()
    page.route(
        "**/static/games/pig.js",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=BROKEN_RENDERER),
    )
    page.goto(f"{server.base}{answer['seats'][0]['invite']}")
    page.wait_for_selector("#render-error:not([hidden])", timeout=WAIT_S * 1000)
    assert "test renderer broke" in page.inner_text("#render-error")
    # The plain view stands in, with working move buttons.
    assert page.locator("#board .generic-view").count() == 1
    assert page.locator("#controls button[data-action]").count() >= 1
    deadline = time.monotonic() + WAIT_S
    while "test renderer broke" not in server.log_path.read_text(errors="replace"):
        assert time.monotonic() < deadline, "the server's log never got the browser's report"
        page.wait_for_timeout(100)
    context.close()


def test_the_replay_page_is_accessible_and_fits_a_phone(browser: Any, server: ServerProcess) -> None:
    seats = [{"bot": "random"}, {"bot": "random"}]
    answer = httpx.post(
        f"{server.base}/api/tables", json={"game": "pig", "options": {"goal": 20}, "seats": seats}, timeout=30
    ).json()
    deadline = time.monotonic() + WAIT_S
    while not httpx.get(f"{server.base}/api/tables/{answer['id']}", timeout=30).json()["table"]["finished"]:
        assert time.monotonic() < deadline, "two bots did not finish a game of Pig"
        time.sleep(0.2)
    context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server.base}/replay/{answer['id']}")
    page.wait_for_selector("#board .player", timeout=WAIT_S * 1000)
    page.click("#next")
    assert "step 2 of" in page.inner_text("#position")
    assert _overflow(page) <= 0
    violations = _axe_serious(page)
    assert not violations, violations
    context.close()
