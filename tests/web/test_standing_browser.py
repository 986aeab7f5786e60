"""Open tables, the home page, leaderboards and profiles on a 360 px phone (issue 38, points 3 to 5).

One server for the module. A guest takes a free seat of a public table from the lobby with the
keyboard, finds the table on the home page, and the home, leaderboard and profile pages (its
rating plot drawn as SVG) pass axe (WCAG 2.1 A/AA).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, insert

from .browsing import new_context, settle, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("standing") / "standing.db", bot_delay=0.05)
    process.start()
    yield process
    process.stop()


def _axe(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    settle(page)
    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": tags}})
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in results.response["violations"]]


def _fits(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_a_guest_takes_a_free_seat_and_finds_it_at_home(browser: Any, server: ServerProcess) -> None:
    from gamebag.web.people.schema import AccountRow
    from gamebag.web.people.standingrows import RatingHistoryRow, RatingRow

    opened = httpx.post(f"{server.base}/api/tables", json={"game": "pig", "players": 2, "public": True}, timeout=30)
    private = httpx.post(f"{server.base}/api/tables", json={"game": "pig", "players": 2}, timeout=30)
    table_id = opened.json()["id"]
    context = new_context(browser, **PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
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
    assert _fits(page) and _axe(page) == []

    # A rated person's profile: the rating with its range, provisional, and its plot.
    engine = create_engine(server.db_url)
    now = time.time()
    with engine.begin() as connection:
        connection.execute(insert(AccountRow).values(id="ann", name="Ann", name_key="ann", created_at=now, disabled=False))
        connection.execute(
            insert(RatingRow).values(account_id="ann", game="pig", players=2, mu=27.0, sigma=6.0, games=3, updated_at=now)
        )
        for index, (mu, sigma) in enumerate([(26.0, 7.5), (25.0, 6.8), (27.0, 6.0)]):
            connection.execute(
                insert(RatingHistoryRow).values(
                    account_id="ann", game="pig", players=2, table_id=table_id, mu=mu, sigma=sigma, at=now + index
                )
            )
    engine.dispose()
    page.goto(f"{server.base}/people/ann")
    wait_for(page, "() => !!document.querySelector('svg.rating-plot polyline')")
    text = page.locator("#profile-ratings").inner_text()
    assert "Rating 27" in text and "15 and 39" in text and "Provisional" in text
    assert page.locator("svg.rating-plot circle").count() == 3
    assert _fits(page) and _axe(page) == []

    page.goto(f"{server.base}/leaderboard?game=pig&players=2")
    wait_for(page, "() => document.querySelectorAll('#board tr a').length === 1")
    assert "Ann" in page.locator("#board").inner_text()
    assert _fits(page) and _axe(page) == []
    assert errors == []
    context.close()
