"""Eigen Kweek on a 360x740 phone (issue 37): a person plays her decisions between two bots until
she may sow or plough; the move panel then offers one button per plant card with its price and
the coins chosen for her, and the board draws the characters and the plant cards as pictures.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browsing import SCREENSHOTS, new_context, shot, wait_for
from .serverproc import ServerProcess

pytestmark = pytest.mark.browser

# Her choice at each decision: a plant card to pay for when she can (the check below), else a bid
# of at least 2 (to win corners and so coins), else the first button the page offers.
PICK = """() => {
  const buttons = [...document.querySelectorAll('#controls button[data-action]')].filter((b) => b.offsetParent);
  const bid = buttons.find((b) => /^"bid:[2-4]"$/.test(b.dataset.action));
  const target = bid || buttons.find((b) => !/^"pass"$/.test(b.dataset.action)) || buttons[0];
  if (!target) return null;
  target.click();
  return target.dataset.action;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("kweek") / "kweek.db", bot_delay=0.02)
    process.start()
    yield process
    process.stop()


def test_grouped_payment_buttons_with_prices_and_card_art_on_a_phone(browser: Any, server: ServerProcess) -> None:
    request = {"game": "eigen-kweek", "players": 3, "seed": 4,
               "seats": [{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}]}
    answer = httpx.post(f"{server.base}/api/tables", json=request, timeout=30).json()
    context = new_context(browser, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}{answer['seats'][0]['invite']}")
    seen_character_art = False
    for _ in range(80):
        wait_for(page, "() => ['mine', 'over'].includes(document.body.dataset.turn)")
        assert page.locator("#board svg.plant-art").count() >= 4  # her board's four plant cards, drawn
        if not seen_character_art and page.locator("#controls svg.character-art").count():
            seen_character_art = True
            shot(page, "eigen-kweek-360x740-choose.png")
        if page.locator("#controls button.pay").count() or page.evaluate("document.body.dataset.turn") == "over":
            break
        before = page.evaluate("() => document.querySelector('#controls').innerHTML")
        assert page.evaluate(PICK) is not None
        wait_for(page, "(html) => document.body.dataset.turn !== 'mine' || "
                       "document.querySelector('#controls').innerHTML !== html", before)
    pay = page.locator("#controls button.pay")
    assert pay.count(), "she never had a plant card to pay for"
    assert seen_character_art  # the characters she chose between were drawn
    texts = pay.all_inner_texts()
    keys = [b.get_attribute("data-action") for b in pay.all()]
    assert len({k.rsplit(":", 1)[0] for k in keys}) == len(keys), keys  # one button per plant card
    for text in texts:
        assert " coin" in text and "pay " in text, text  # the price and the coins paid
    for box in pay.all():
        right = box.evaluate("b => b.getBoundingClientRect().right")
        assert right <= 360, right  # no button wider than the phone
    shot(page, "eigen-kweek-360x740-sow.png")
    pay.first.click()
    wait_for(page, "() => document.body.dataset.turn !== 'mine' || !document.querySelector('#controls button.pay')")
    # "How to play": this table's numbers, the hand-in phase and the characters.
    page.locator("#rules-open").click()
    guide = page.locator("#rules-quick").inner_text()
    assert "no change" in guide and "Hand in characters" in guide and "DEN OLLANDER (Any phase)" in guide, guide
    # The plough-over costs of this table:
    assert "2-card 1 coin, 4-card 2 coins, 6-card 3 coins and 8-card 4 coins" in guide  # a list in words
    page.locator("#rules-close").click()
    # The fourteen characters and the four states of a plant card, side by side: each picture its own.
    drawn = page.evaluate("""async () => {
      const art = await import("/static/games/eigen-kweek-art.js");
      const sheet = document.createElement("div");
      sheet.id = "art-sheet";
      sheet.style.cssText = "display:flex;flex-wrap:wrap;gap:6px;padding:8px;background:#fff";
      for (const card of Object.keys(art.CARD_PHASES)) sheet.appendChild(art.characterArt(card, 64));
      for (const [status, tokens] of [["empty", 0], ["growing", 2], ["growing", 6], ["sack", 0]]) {
        sheet.appendChild(art.plantArt(6, status, tokens, 6));
      }
      document.body.replaceChildren(sheet);
      return [...sheet.querySelectorAll("svg")].map((svg) => svg.innerHTML);
    }""")
    assert len(drawn) == 18 and len(set(drawn)) == 18
    page.locator("#art-sheet").screenshot(path=str(SCREENSHOTS / "eigen-kweek-art.png"))
    context.close()
    assert not errors, errors
