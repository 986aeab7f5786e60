"""The analysis in a real browser: the end screen's Analysis view and the replay page's step evaluations."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import WAIT_S, new_context, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1200, "height": 860}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("analysis") / "analysis.db", bot_delay=0.0)
    process.start()
    yield process
    process.stop()


def test_the_end_screen_and_the_replay_show_the_analysis(browser: Any, server: ServerProcess) -> None:
    request = {
        "game": "pig",
        "players": 2,
        "seats": [{"bot": "random"}, {"bot": "optimal-win"}],
        "seed": 5,
        "options": {"goal": 30},
    }
    table = httpx.post(f"{server.base}/api/tables", json=request, timeout=WAIT_S).json()
    deadline = time.monotonic() + 120
    while httpx.get(f"{server.base}/api/tables/{table['id']}", timeout=WAIT_S).json()["result"] is None:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
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
    assert "winning chance" in replay.inner_text("#evaluation")
    context.close()
    assert not errors, errors
