"""The table page of a person whose only move is made for them (issue 37), on a 360x740 phone.

Eigen Kweek, seed 10, one person (seat 1) between two bots: she keeps FRANK, so the deal
phase's character window leaves her only "Pass". Nobody taps it: the server passes for her,
and her own log says so. The standing-pass tick box is there and the server takes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import WAIT_S, new_context, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("forced") / "forced.db", bot_delay=0.05)
    process.start()
    yield process
    process.stop()


def test_the_only_move_is_made_and_told_in_her_own_log(browser: Any, server: ServerProcess) -> None:
    request = {"game": "eigen-kweek", "players": 3, "seed": 10,
               "seats": [{"bot": "random"}, {"name": "Ann"}, {"bot": "random"}]}
    answer = httpx.post(f"{server.base}/api/tables", json=request, timeout=30).json()
    context = new_context(browser, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}{answer['seats'][1]['invite']}")
    wait_for(page, "() => document.body.dataset.turn === 'mine'")
    box = page.locator("#standing-pass")
    assert box.is_visible() and "Pass the character windows this round unless I act" in box.inner_text()
    page.locator("#controls button[data-action='\"choose:FRANK\"']").click()
    # The window's lone "Pass": she is told it will be made for her (about 3 s here, the pace
    # drawn for her seat at that step), then it is made and her log tells it.
    page.wait_for_selector("#hint:has-text('Your only possible move: it is made for you')", timeout=WAIT_S * 1000)
    # (the log is a drawer on a phone: the line is there, shown when the drawer opens)
    page.wait_for_selector("#log li:has-text('Done for you: ')", state="attached", timeout=WAIT_S * 1000)
    line = page.locator("#log li:has-text('Done for you: ')").first.text_content() or ""
    assert "it was your only possible move" in line, line
    page.locator("#standing-pass-box").check()
    wait_for(page, "() => document.getElementById('standing-pass-box').checked")
    context.close()
    assert not errors, errors
