"""Table chat and reactions in the browser on a 360x740 phone (issue 40, point 3).

One server for the module and one table: two seats and a spectator, each in a browser context of
its own, and the host page. A line holding markup shows as literal text and creates no element; a
reaction shows as its emoji with a name; the chat drawer opens from the top bar by keyboard,
counts unread lines, and covers neither the board nor the move sheet; a flood is refused next to
the input with the text given back; the spectators' input explains that their chat is off, and
their channel (once the host turns it on) never reaches a seat; a seat the host mutes on the host
page is told why; every page passes axe (WCAG 2.1 A/AA).
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
MARKUP = "<img src=x onerror=\"document.body.dataset.pwned='yes'\"> Bob loses"

# Where the chat panel lies against the board and the move sheet, in the page's own coordinates.
LAYOUT = """() => {
  const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();
    return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right,
             viewTop: r.top, viewBottom: r.bottom }; };
  return { chat: box('chat-panel'), board: box('board-wrap'), sheet: box('controls-panel'),
           sheetFixed: getComputedStyle(document.getElementById('controls-panel')).position === 'fixed',
           viewport: window.innerHeight };
}"""


def _overlap(a: dict[str, float], b: dict[str, float], top: str = "top", bottom: str = "bottom") -> bool:
    return a[top] < b[bottom] - 0.5 and b[top] < a[bottom] - 0.5 and a["left"] < b["right"] and b["left"] < a["right"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("chat") / "chat.db", bot_delay=0.05)
    process.start()
    yield process
    process.stop()


def _axe_wcag21(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    settle(page)
    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": tags}})
    return [
        f"{v['id']} ({v.get('impact')}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
    ]


def _chat_texts(page: Any, list_id: str = "chat-lines") -> list[str]:
    return list(page.locator(f"#{list_id} li").all_inner_texts())


def test_chat_and_reactions_at_a_phone_table(browser: Any, server: ServerProcess) -> None:
    opened = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "pig", "players": 2, "seats": [{"name": "Ann"}, {"name": "Bob"}]},
        timeout=60,
    )
    assert opened.status_code == 201, opened.text
    table = opened.json()
    errors: list[str] = []
    contexts = [new_context(browser, **PHONE) for _ in range(3)]
    ann, bob, watcher = (context.new_page() for context in contexts)
    for page in (ann, bob, watcher):
        page.on("pageerror", lambda error: errors.append(str(error)))
    ann.goto(f"{server.base}{table['seats'][0]['invite']}")
    bob.goto(f"{server.base}{table['seats'][1]['invite']}")
    watcher.goto(f"{server.base}/play/{table['id']}")
    for page in (ann, bob, watcher):
        wait_for(page, "() => !!document.body.dataset.turn && !!document.getElementById('chat-input').maxLength")
    assert ann.evaluate("document.getElementById('chat-input').maxLength") == 200  # the server's limit

    # Ann opens the drawer from the top bar by keyboard: it lies under the board, above the move sheet.
    assert not ann.locator("#chat-panel").is_visible()
    ann.focus("#chat-open")
    ann.keyboard.press("Enter")
    wait_for(ann, "() => document.activeElement && document.activeElement.id === 'chat-input'")
    assert ann.get_attribute("#chat-open", "aria-expanded") == "true"
    layout = ann.evaluate(LAYOUT)
    assert layout["sheetFixed"], layout  # Ann is playing: her moves are in the bottom sheet
    assert not _overlap(layout["chat"], layout["board"]), layout
    assert not _overlap(layout["chat"], layout["sheet"], "viewTop", "viewBottom"), layout  # on screen, too
    assert layout["chat"]["viewTop"] >= 0 and layout["chat"]["viewBottom"] <= layout["viewport"], layout

    # A line holding markup: typed and sent with Enter; everyone reads it as text, no element is made.
    ann.keyboard.type(MARKUP)
    ann.keyboard.press("Enter")
    for page in (ann, bob, watcher):
        wait_for(page, "() => document.querySelectorAll('#chat-lines li').length === 1")
        assert _chat_texts(page) == [f"Ann: {MARKUP}"]
        assert page.evaluate("document.querySelectorAll('#chat-lines img, #chat-lines [onerror]').length") == 0
        assert page.evaluate("document.body.dataset.pwned") is None
        # Apart from the game's lines: its own list, under the author's name.
        assert page.inner_text("#chat-lines .chat-name") == "Ann"
        assert not page.locator("#log .chat-line").count()
    # Bob's drawer is closed: the top bar counts the line, in its accessible name too.
    assert bob.inner_text("#chat-unread") == "1"
    assert bob.get_attribute("#chat-open", "aria-label") == "Chat, 1 unread"
    assert bob.inner_text("#chat-announce") == "1 unread chat message."

    # A reaction: its emoji, named for screen readers.
    ann.locator("#chat-reactions button[data-reaction='party']").click()
    wait_for(bob, "() => !!document.querySelector('#chat-lines .chat-reaction')")
    assert bob.get_attribute("#chat-lines .chat-reaction", "aria-label") == "reacted: party"
    assert bob.inner_text("#chat-lines .chat-reaction") == "🎉"
    bob.locator("#chat-open").tap()
    assert bob.locator("#chat-panel").is_visible() and not bob.locator("#chat-unread").is_visible()

    # Spectators: their input says their chat is off, until the host turns it on.
    assert not watcher.locator("#chat-form").is_visible()
    watcher.locator("#chat-open").tap()
    assert "Spectators' chat is off" in watcher.inner_text("#chat-state")
    violations = _axe_wcag21(watcher)
    assert not violations, violations

    host = contexts[2].new_page()
    host.on("pageerror", lambda error: errors.append(str(error)))
    host.goto(f"{server.base}{table['host']}")
    host.wait_for_selector("#host-chat-spectators")
    host.locator("#host-chat-spectators").tap()
    wait_for(host, "() => document.getElementById('host-chat-spectators').ariaPressed === 'true'")
    host.locator("#host-chat-mute-1").tap()  # Bob
    wait_for(host, "() => document.getElementById('host-chat-mute-1').ariaPressed === 'true'")
    violations = _axe_wcag21(host)
    assert not violations, violations
    host.close()

    wait_for(bob, "() => document.getElementById('chat-form').hidden")
    assert "muted" in bob.inner_text("#chat-state")
    watcher.bring_to_front()
    wait_for(watcher, "() => !document.getElementById('chat-form').hidden")
    assert watcher.inner_text("#chat-input-label") == "Message to the other spectators"
    watcher.fill("#chat-input", "hello from the stands")
    watcher.keyboard.press("Enter")
    wait_for(watcher, "() => document.querySelectorAll('#chat-spectator-lines li').length === 1")
    assert _chat_texts(watcher, "chat-spectator-lines") == ["Spectator: hello from the stands"]
    # Ann's page never gets it (a reaction of hers, sent after it, arrives first and alone).
    ann.locator("#chat-reactions button[data-reaction='think']").click()
    wait_for(ann, "() => !!document.querySelector('#chat-lines [aria-label=\"reacted: thinking\"]')")
    assert "stands" not in ann.inner_text("#chat-panel") and not ann.locator("#chat-spectators").is_visible()

    # A flood: refused next to the input, in words, with the text given back to send again.
    for number in range(6):
        ann.fill("#chat-input", f"line {number}")
        ann.keyboard.press("Enter")
    wait_for(ann, "() => document.getElementById('chat-notice').textContent.includes('try again in')")
    assert ann.input_value("#chat-input").startswith("line ")
    ann.bring_to_front()
    violations = _axe_wcag21(ann)
    assert not violations, violations
    for context in contexts:
        context.close()
    assert not errors, errors


def test_the_replay_shows_each_line_at_the_step_it_was_said(browser: Any, server: ServerProcess) -> None:
    opened = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "pig", "players": 2, "options": {"goal": 20}, "seats": [{"name": "Ann"}, {"bot": "random"}]},
        timeout=60,
    )
    assert opened.status_code == 201, opened.text
    table = opened.json()
    errors: list[str] = []
    context = new_context(browser, **PHONE)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}{table['seats'][0]['invite']}")
    wait_for(page, "() => document.body.dataset.turn === 'mine'")
    page.locator("#chat-open").tap()
    page.fill("#chat-input", "good luck")
    page.keyboard.press("Enter")
    wait_for(page, "() => document.querySelectorAll('#chat-lines li').length === 1")
    step = page.evaluate("document.body.dataset.step")
    page.locator("#controls button", has_text="Roll").first.tap()
    wait_for(page, "step => document.body.dataset.step !== step", step)
    page.fill("#chat-input", "here we go")
    page.keyboard.press("Enter")
    wait_for(page, "() => document.querySelectorAll('#chat-lines li').length === 2")
    # A bot plays Ann's seat to the end; the replay shows each line from the step it was said at.
    handed = httpx.post(
        f"{server.base}/api/tables/{table['id']}/seats/0/bot",
        json={"agent": "random"}, headers={"x-host-token": table["host_token"]}, timeout=60,
    )
    assert handed.status_code == 200 or "game is over" in handed.text, handed.text  # the bot may have won already
    wait_for(page, "() => document.body.dataset.turn === 'over'")
    context.close()  # Ann's seat is a bot's now: the replay as spectators saw it, on another phone
    context = new_context(browser, **PHONE)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    lines = httpx.get(f"{server.base}/api/tables/{table['id']}/chat", timeout=60).json()["lines"]
    said = [line["replay_step"] for line in lines]
    assert 0 <= said[0] < said[1], lines  # the step of the first line (a bot may have moved first), then a later one
    page.goto(f"{server.base}/replay/{table['id']}")
    page.wait_for_selector("#slider")
    page.locator("#slider").fill(str(said[0]))
    first = (
        "() => !document.getElementById('replay-chat').hidden"
        " && document.querySelectorAll('#chat-lines li').length === 1"
    )
    wait_for(page, first)
    assert _chat_texts(page) == ["Ann: good luck"]
    page.locator("#slider").fill(str(said[1]))
    wait_for(page, "() => document.querySelectorAll('#chat-lines li').length === 2")
    page.locator("#slider").fill(str(said[1] - 1))
    wait_for(page, "() => document.querySelectorAll('#chat-lines li').length === 1")
    assert _chat_texts(page) == ["Ann: good luck"]
    page.locator("#last").tap()
    wait_for(page, "() => document.querySelectorAll('#chat-lines li').length === 2")
    assert "2 lines of the game's 2" in page.inner_text("#replay-chat-count")
    violations = _axe_wcag21(page)
    assert not violations, violations
    context.close()
    assert not errors, errors
