"""axe-core finds no WCAG 2.1 A/AA violation, of any impact, on any page a phone shows (issue 37).

One server (bots at delay 0) and one browser for the module, every page at 360x740: the lobby
with *Variants* open, with the invites of a table just opened and listing it, the host page, a
mistyped table's link; for every game, a person's table page waiting for the other person (the
turn clock waits for their link), with *How to play* open, in the middle of the game at a
decision with a choice (the coach offered; its log drawer open too), at the end and with a
rematch to join; Catch A Dragon's dice once some are picked and one cannot join them; the replay
page and the analysis; the home, account, leaderboard and rules pages as a guest sees them.

axe cannot tell the colour behind text on a gradient (the board's felt, the result banner, Eel's
bag), so it leaves that text unchecked ("incomplete"). Each check therefore runs axe with every
gradient painted in its lightest colour stop, then its contrast rule once more on those parts
with them painted in their darkest: where each channel runs one way between neighbouring stops,
the colours between lie between the stops in luminance, so text that passes on both passes
everywhere on the gradient (``GRADIENTS_AS``; a gradient of another kind is reported). Text of one
character (a die's number, a score of 0), which axe skips as too short, is checked too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import gamebag

from .browsing import new_context, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
WCAG21_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
GAMES = list(gamebag.game_ids())
# Short whole games: each game's own option for its length, at a small value.
QUICK_OPTIONS: dict[str, dict[str, int]] = {
    "pig": {"goal": 20},
    "eel-harvest": {"target": 8},
    "wriggle-roulette": {"target": 8},
    "catch-a-dragon": {"rounds": 2},
    "eigen-kweek": {"max_rounds": 1},
}
PLAYERS = {"eigen-kweek": 3}  # its fewest players

# Paints every gradient background in its lightest (``true``) or darkest colour stop and marks it
# ``data-axe-gradient``, keeping what it replaced so that ``RESTORE_GRADIENTS`` puts the page back.
# A colour between two stops whose channels all rise (or all fall) from one to the other lies
# between them in luminance, so the lightest and darkest stops bound the whole gradient; a gradient
# with two neighbouring stops whose channels go opposite ways (red to green: the middle is darker
# than both) has no such bound, and is returned in ``unbounded`` to be checked by a person.
GRADIENTS_AS = """(lightest) => {
  const luminance = ([r, g, b]) => {
    const linear = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const oneWay = (a, b) => {
    const steps = [0, 1, 2].map((i) => Math.sign(b[i] - a[i])).filter((d) => d !== 0);
    return steps.every((d) => d === steps[0]);
  };
  let painted = 0;
  const unbounded = [];
  for (const element of document.querySelectorAll('*')) {
    const image = element.__axeKept ? element.__axeKept[2] : getComputedStyle(element).backgroundImage;
    if (!image.includes('gradient(')) continue;
    const stops = [...image.matchAll(/rgba?\\(([^)]*)\\)/g)].map((m) => m[1].split(',').map(Number));
    if (!stops.length) continue;
    const bounded = stops.every((stop, i) => i === 0 || oneWay(stops[i - 1], stop));
    if (!bounded) unbounded.push(`${element.className}: ${image}`);
    const sorted = [...stops].sort((a, b) => luminance(a) - luminance(b));
    const [r, g, b, a = 1] = lightest ? sorted[sorted.length - 1] : sorted[0];
    element.__axeKept = element.__axeKept || [element.style.backgroundImage, element.style.backgroundColor, image];
    element.style.backgroundImage = 'none';
    element.style.backgroundColor = `rgba(${r}, ${g}, ${b}, ${a})`;
    element.dataset.axeGradient = '';
    painted += 1;
  }
  return { painted, unbounded };
}"""
RESTORE_GRADIENTS = """() => {
  for (const element of document.querySelectorAll('[data-axe-gradient]')) {
    [element.style.backgroundImage, element.style.backgroundColor] = element.__axeKept;
    delete element.__axeKept;
    delete element.dataset.axeGradient;
  }
}"""
# Every animation at its end (an infinite one stopped), as people see the page once it is still:
# axe measures colours as they are drawn, and a fading highlight is not the colour that stays.
FINISH_ANIMATIONS = """() => {
  for (const animation of document.getAnimations()) {
    if (animation.effect && animation.effect.getComputedTiming().endTime === Infinity) animation.cancel();
    else animation.finish();
  }
}"""


# axe leaves text of one or two characters unchecked ("too short to tell it is text"): a die's
# number, a score of 0. They are text people must read, so its contrast check takes them too.
EVERY_TEXT = {"checks": {"color-contrast": {"options": {"ignoreLength": True}}}}


def _findings(results: Any, where: str) -> list[str]:
    return [
        f"{where}: {v['id']} ({v.get('impact')}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
        for v in results.response["violations"]
    ]


def axe_wcag21(page: Any, where: str, within: str | None = None) -> list[str]:
    """axe-core's WCAG 2.1 A/AA findings (every impact), one line each: all its rules with the
    gradients at their lightest, then its contrast rule on them at their darkest. ``within``: a
    CSS selector to check only that part of the page (an overlay just opened)."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    page.evaluate(FINISH_ANIMATIONS)
    context = {"include": [[within]]} if within else None
    try:
        unbounded = page.evaluate(GRADIENTS_AS, True)["unbounded"]
        found = [f"{where}: a gradient its stops do not bound, check its text by hand: {g}" for g in unbounded]
        every_rule = {"runOnly": {"type": "tag", "values": WCAG21_A_AA}, **EVERY_TEXT}
        found += _findings(axe.run(page, context=context, options=every_rule), where)
        on_gradients = f"{within or ''} [data-axe-gradient]".strip()
        if page.evaluate(GRADIENTS_AS, False)["painted"] and page.locator(on_gradients).count():
            only_contrast = {"runOnly": ["color-contrast"], **EVERY_TEXT}
            contrast = axe.run(page, context={"include": [[on_gradients]]}, options=only_contrast)
            found += _findings(contrast, f"{where}, gradients at their darkest")
    finally:
        page.evaluate(RESTORE_GRADIENTS)
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("axe") / "axe.db", bot_delay=0.0)
    process.start()
    yield process
    process.stop()


@pytest.fixture
def phone(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A phone's page, and the script errors it meets (none allowed)."""
    context = new_context(browser, **PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, errors
    context.close()
    assert not errors, errors


def test_the_lobby_and_the_host_page(phone: tuple[Any, list[str]], server: ServerProcess) -> None:
    page, _ = phone
    found: list[str] = []
    page.goto(f"{server.base}/?game=wriggle-roulette")
    page.locator('.game-card[data-game="wriggle-roulette"]').tap()
    page.locator("#variants summary").tap()
    page.wait_for_selector("#options label")
    found += axe_wcag21(page, "the lobby, Variants open")
    page.fill("#seat-name-0", "Ann")
    page.fill("#seat-name-1", "Bob")
    page.select_option("#seat-kind-1", "")
    page.check("#my-seat-none")  # every person's invite is shown
    page.click("#create")
    page.wait_for_selector('.invite-card [data-invite="1"]')
    found += axe_wcag21(page, "the lobby's invites")
    page.click("#host-page")
    page.wait_for_selector('#host-seats [data-invite="1"]')
    found += axe_wcag21(page, "the host page")
    # A public table is listed in the lobby; hers is kept under "Tables you opened in this tab".
    listed = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "pig", "players": 2, "seats": [{"name": "Cleo"}, {"bot": "random"}], "public": True},
        timeout=30,
    )
    assert listed.status_code == 201, listed.text
    page.goto(f"{server.base}/")
    page.wait_for_selector(f'#tables tr[data-table="{listed.json()["id"]}"]')
    page.wait_for_selector("#hosted li")
    found += axe_wcag21(page, "the lobby listing tables")
    page.goto(f"{server.base}/play/nosuchtable")  # a mistyped link: the table page says so
    page.wait_for_selector("#gone")
    found += axe_wcag21(page, "a table that does not exist")
    assert not found, "\n".join(found)


def test_the_home_account_leaderboard_and_rules_pages(phone: tuple[Any, list[str]], server: ServerProcess) -> None:
    page, _ = phone
    found: list[str] = []
    for path, ready in (("/home", "main"), ("/account", "main"), ("/leaderboard", "main"),
                        ("/rules/eigen-kweek", "main h2")):  # the longest rules page
        page.goto(f"{server.base}{path}")
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")  # what the page asks the server for is drawn
        found += axe_wcag21(page, f"{path} (a guest)")
    assert not found, "\n".join(found)


# Ann's move: a die that fits (then Collect, once what is picked is a collection) in Catch A
# Dragon; else the move button at ``index`` (modulo their number). Returns what she did, or null.
MOVE = """(index) => {
  const die = document.querySelector('#controls button.die-pick.fits[aria-pressed="false"]');
  if (die) {
    die.click();
    const collect = document.getElementById('collect');
    if (collect && !collect.disabled) collect.click();
    return 'die';
  }
  const buttons = [...document.querySelectorAll('#controls button[data-action]')]
    .filter((b) => b.offsetParent && !b.disabled);
  if (!buttons.length) return null;
  const button = buttons[index % buttons.length];
  button.click();
  return button.dataset.action;
}"""
CHOICES = "() => document.querySelectorAll('#controls button[data-action], #controls button.die-pick').length"
MINE = "() => document.body.dataset.turn === 'mine' && !document.querySelector('#controls button.chosen')"


def _open_table(server: ServerProcess, game_id: str) -> dict[str, Any]:
    players = PLAYERS.get(game_id, 2)
    seats: list[dict[str, Any]] = [{"name": "Ann"}, {"name": "Bob"}]
    seats += [{"bot": "random"} for _ in range(players - 2)]
    request = {
        "game": game_id, "players": players, "seats": seats, "seed": 5, "turn_seconds": 120,
        "options": QUICK_OPTIONS.get(game_id, {}),
    }
    response = httpx.post(f"{server.base}/api/tables", json=request, timeout=30)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.parametrize("game_id", GAMES)
def test_every_state_of_a_table_page(phone: tuple[Any, list[str]], server: ServerProcess, game_id: str) -> None:
    page, _ = phone
    table = _open_table(server, game_id)
    found: list[str] = []
    page.goto(f"{server.base}{table['seats'][0]['invite']}")
    # Waiting for players: Bob has not opened his link, so the turn clock waits for him.
    page.wait_for_selector("#clock-waits:not([hidden])")
    found += axe_wcag21(page, f"{game_id} waiting for Bob")
    page.click("#rules-open")
    page.wait_for_selector("#rules[open] #rules-quick li")
    page.click("#rules-details summary")
    wait_for(page, "() => document.querySelector('#rules-full').children.length >= 3")
    found += axe_wcag21(page, f"{game_id} How to play", within="#rules")
    page.click("#rules-close")
    # Bob never comes: the host hands his seat to a bot, and Ann plays on to the end.
    handed = httpx.post(
        f"{server.base}/api/tables/{table['id']}/seats/1/bot",
        json={"agent": "random"}, headers={"x-host-token": table["host_token"]}, timeout=30,
    )
    assert handed.status_code == 200, handed.text
    # The host offers the coach: the move panel's neighbour asks Ann to agree (checked mid-game).
    offered = httpx.post(
        f"{server.base}/api/tables/{table['id']}/coach",
        json={"on": True}, headers={"x-host-token": table["host_token"]}, timeout=30,
    )
    assert offered.status_code == 200, offered.text
    page.wait_for_selector("#coach-consent")
    rng = random.Random(game_id)
    moves, mid_game_checked = 0, False
    while page.evaluate("document.body.dataset.turn") != "over":
        wait_for(page, f"() => ({MINE})() || document.body.dataset.turn === 'over'")
        if page.evaluate("document.body.dataset.turn") == "over":
            break
        if moves >= 2 and not mid_game_checked and page.evaluate(CHOICES) >= 2:
            found += axe_wcag21(page, f"{game_id} mid-game at a choice")
            page.click("#log-open")
            wait_for(page, "() => document.getElementById('log-open').ariaExpanded === 'true'")
            found += axe_wcag21(page, f"{game_id} mid-game, the log open", within="#log-panel")
            page.click("#log-close")
            mid_game_checked = True
        step = page.evaluate("document.body.dataset.step")
        assert page.evaluate(MOVE, rng.randrange(64)) is not None, "Ann's turn offers no move"
        moves += 1
        wait_for(page, f"step => document.body.dataset.step !== step || !({MINE})()", step)
    assert mid_game_checked, f"Ann never had a choice after her second move in {moves} moves"
    page.wait_for_selector("#summary:not([hidden]) #result-banner #rematch")  # her seat's end screen
    found += axe_wcag21(page, f"{game_id} the end")
    # The host opens the rematch: her end screen offers to join it and says who started it.
    rematch = httpx.post(
        f"{server.base}/api/tables/{table['id']}/rematch", headers={"x-host-token": table["host_token"]}, timeout=30
    )
    assert rematch.status_code == 200, rematch.text
    page.wait_for_selector("#rematch-join")
    page.wait_for_selector("#rematch-news")
    found += axe_wcag21(page, f"{game_id} the end, a rematch to join")
    assert not found, "\n".join(found)


def test_catch_a_dragon_s_dice_that_cannot_join_stay_legible(
    phone: tuple[Any, list[str]], server: ServerProcess
) -> None:
    # Seed 2: her first roll holds a pair, so once dice are picked some die cannot join them.
    request = {"game": "catch-a-dragon", "players": 2, "seed": 2, "seats": [{"name": "Ann"}, {"bot": "random"}]}
    table = httpx.post(f"{server.base}/api/tables", json=request, timeout=30).json()
    page, _ = phone
    page.goto(f"{server.base}{table['seats'][0]['invite']}")
    wait_for(page, "() => document.body.dataset.turn === 'mine' && !!document.querySelector('#controls .die-pick')")
    loose = page.locator("#controls button.die-pick.no-fit")
    for _ in range(page.locator("#controls button.die-pick").count()):
        if loose.count():
            break
        page.locator("#controls button.die-pick.fits[aria-pressed='false']").first.tap()
    assert loose.count(), "seed 2 no longer rolls a pair for her: choose another seed"
    loose.first.tap()  # refused: the reason shows under the dice
    page.wait_for_selector("#collect-why:not([hidden])")
    found = axe_wcag21(page, "Catch A Dragon, dice picked, one that cannot join")
    assert not found, "\n".join(found)


def test_the_replay_page_and_the_analysis_view(phone: tuple[Any, list[str]], server: ServerProcess) -> None:
    page, _ = phone
    # Three seats: the chart's legend names each in its own colour.
    # (Random bots to a target of 5: its analysis takes 2.9 s of the server's time, 4.3 s with a
    # heuristic bot to 8.)
    request = {"game": "wriggle-roulette", "players": 3, "seed": 3, "options": {"target": 5},
               "seats": [{"bot": "random"} for _ in range(3)]}
    table = httpx.post(f"{server.base}/api/tables", json=request, timeout=30).json()
    found: list[str] = []
    page.goto(f"{server.base}/play/{table['id']}")
    page.wait_for_selector("#summary:not([hidden]) #result-banner")
    page.click("#analysis-open")
    page.wait_for_selector("#analysis table")
    found += axe_wcag21(page, "the analysis view")
    page.goto(f"{server.base}/replay/{table['id']}")
    page.wait_for_selector("#board .player")
    page.click("#next")
    found += axe_wcag21(page, "the replay page")
    assert not found, "\n".join(found)
