"""The analysis in a real browser: the end screen's Analysis view and the replay page's step evaluations."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import WAIT_S, new_context, settle, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1200, "height": 860}
PHONE = {"width": 360, "height": 740}
# What the analysis's first line never shows: the method's details and the old units.
JARGON = ("playouts", "information set", "estimate", "exact:", "percentage points", "winning chance")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("analysis") / "analysis.db", bot_delay=0.0)
    process.start()
    yield process
    process.stop()


def finished_table(server: ServerProcess) -> dict[str, Any]:
    """A Pig game between a random and an optimal bot, played to its end."""
    request = {
        "game": "pig",
        "players": 2,
        "seats": [{"bot": "random"}, {"bot": "optimal-win"}],
        "seed": 5,
        "options": {"goal": 30},
    }
    table: dict[str, Any] = httpx.post(f"{server.base}/api/tables", json=request, timeout=WAIT_S).json()
    deadline = time.monotonic() + 120
    while httpx.get(f"{server.base}/api/tables/{table['id']}", timeout=WAIT_S).json()["result"] is None:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return table


def test_the_end_screen_and_the_replay_show_the_analysis(browser: Any, server: ServerProcess) -> None:
    table = finished_table(server)
    errors: list[str] = []
    context = new_context(browser, viewport=DESKTOP)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}/play/{table['id']}")  # a spectator, after the end
    wait_for(page, "() => document.body.dataset.turn === 'over'", timeout=60.0)
    page.click("#analysis-open")
    page.wait_for_selector("#analysis-seats", timeout=120_000)
    text = page.inner_text("#analysis")
    assert "Accuracy" in text and "Luck" in text and "100.0%" in text  # the optimal seat
    assert page.locator("#analysis svg path").count() == 2  # one curve per seat
    assert page.locator("#analysis-worst li").count() >= 1
    replay = context.new_page()
    replay.on("pageerror", lambda error: errors.append(str(error)))
    replay.goto(f"{server.base}/replay/{table['id']}")
    wait_for(replay, "() => !document.getElementById('evaluation').hidden || false", timeout=60.0)
    evaluation = replay.inner_text("#evaluation")
    assert evaluation.startswith("How each choice here was judged") and "win chance" in evaluation
    assert "Round " in evaluation and ("roll the die" in evaluation or "hold: bank" in evaluation)
    context.close()
    assert not errors, errors


def test_on_a_phone_the_analysis_opens_with_plain_words_and_folds_the_method(
    browser: Any, server: ServerProcess
) -> None:
    """At 360x740: the first line says who played well and who was lucky, in words; luck has its unit;
    the method waits in a closed "How is this computed?" fold; axe finds nothing against WCAG 2.1 A/AA."""
    from axe_playwright_python.sync_playwright import Axe

    table = finished_table(server)
    errors: list[str] = []
    context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}/play/{table['id']}")
    wait_for(page, "() => document.body.dataset.turn === 'over'", timeout=60.0)
    page.click("#analysis-open")
    page.wait_for_selector("#analysis-seats", timeout=120_000)
    first = page.locator("#analysis h3 + p")  # the line under the heading
    assert first.get_attribute("id") == "analysis-headline"
    line = first.inner_text()
    assert "played most accurately" in line and "% win chance" in line, line
    assert not any(word in line.lower() for word in JARGON), line
    assert "Luck: how much the dice" in page.inner_text("#analysis-units")
    fold = page.locator("#analysis details#analysis-how")
    assert fold.count() == 1 and fold.get_attribute("open") is None
    assert fold.locator("summary").inner_text() == "How is this computed?"
    assert not fold.locator("p").first.is_visible()  # folded until asked for
    fold.locator("summary").focus()
    page.keyboard.press("Enter")  # keyboard reachable
    assert fold.get_attribute("open") is not None and "Method: " in fold.inner_text()
    worst = page.locator("#analysis-worst li").first.inner_text()
    assert worst.startswith("Round ") and "win chance" in worst, worst
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at 360 px wide"
    settle(page)
    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
    found = Axe().run(page, context="#analysis", options={"runOnly": {"type": "tag", "values": tags}})
    violations = [f"{v['id']}: {v['help']}" for v in found.response["violations"]]
    assert not violations, violations
    context.close()
    assert not errors, errors
