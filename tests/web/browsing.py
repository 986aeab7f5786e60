"""What the real-browser tests share: Debian's chromium, polling waits, screenshots, short games.

Playwright's own ``wait_for_function`` evaluates a string inside the page, which the server's
content security policy (no eval) rightly refuses; :func:`wait_for` polls from outside instead.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .helpers import SHORT_OPTIONS

__all__ = [
    "SHORT_OPTIONS", "launched_chromium", "new_context", "pseudo_findings", "settle", "shot", "wait_for",
]

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
# Seconds any one wait may take: generous, so a loaded 2-core machine slows the tests down
# instead of failing them.
WAIT_S = 60.0


@contextmanager
def launched_chromium() -> Iterator[Any]:
    """Debian's chromium under Playwright; skipped where it is missing (a failure on CI)."""
    if not CHROMIUM.exists():
        message = "Debian's chromium is missing: run scripts/install-chromium.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_context(browser: Any, **options: Any) -> Any:
    """A browser context whose every Playwright wait (clicks, selectors, navigation) allows ``WAIT_S``."""
    context = browser.new_context(**options)
    context.set_default_timeout(WAIT_S * 1000)
    context.set_default_navigation_timeout(WAIT_S * 1000)
    return context


def wait_for(page: Any, expression: str, arg: Any = None, timeout: float = WAIT_S) -> None:
    """Poll ``expression`` (a function of ``arg``) until it is truthy."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression, arg):
        assert time.monotonic() < deadline, f"the page never showed {expression}"
        page.wait_for_timeout(50)


def settle(page: Any) -> None:
    """Wait until no animation runs (colours are measured as they end)."""
    wait_for(page, "() => !document.getAnimations().some(a => a.playState === 'running')")


def shot(page: Any, name: str) -> None:
    """Save a full-page screenshot as it looks once every animation has ended.

    Playwright's ``animations="disabled"`` runs finite animations to their end and cancels
    infinite ones for the picture, so no wait is needed for the reveal animations.
    """
    page.bring_to_front()
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True, animations="disabled")


# Every visible text of a page in the pseudo-locale (en_XA) and what overflows a narrow viewport.
# A text from the catalogues is accented there ("Roll" is "[Ŕöļļ·]"), so a plain Latin letter left
# in a visible text, once the allowed words (people's and characters' names, the brand) are taken
# out, escaped the catalogues. An element overflows when its right edge is past the viewport's and
# no ancestor that clips or scrolls sideways (a table's scroll region) holds it within the viewport.
PSEUDO_CHECK = r"""(allowed) => {
  const escape = (word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const words = [...allowed].sort((a, b) => b.length - a.length).map(escape);
  const names = words.length ? new RegExp(`(?<![A-Za-z])(?:${words.join('|')})(?![A-Za-z])`, 'gi') : null;
  const plain = (text) => /[A-Za-z]/.test(names ? text.replace(names, ' ') : text);
  const describe = (element) => {
    let said = element.tagName.toLowerCase();
    if (element.id) said += `#${element.id}`;
    const classes = typeof element.className === 'string' ? element.className.trim() : '';
    if (classes) said += `.${classes.split(/\s+/).join('.')}`;
    const parent = element.parentElement;
    if (!element.id && parent && parent !== document.body) said = `${describe(parent)} > ${said}`;
    return said;
  };
  const shown = (element) => element.checkVisibility({ checkVisibilityCSS: true })
    && element.getClientRects().length > 0;
  const texts = [];
  if (plain(document.title)) texts.push(`title: ${JSON.stringify(document.title)}`);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION', 'OPTGROUP'].includes(element.tagName)) continue;
    if (!/[A-Za-z]/.test(node.textContent) || !shown(element)) continue;
    // A name drawn word by word (a column header's span.word) is read whole.
    const text = element.classList.contains('word') ? element.parentElement.textContent : node.textContent;
    if (plain(text)) texts.push(`${describe(element)}: ${JSON.stringify(node.textContent.trim())}`);
  }
  for (const select of document.querySelectorAll('select')) {
    if (!shown(select)) continue;
    for (const option of select.options) {
      if (plain(option.text)) texts.push(`${describe(select)} option: ${JSON.stringify(option.text.trim())}`);
    }
    for (const group of select.querySelectorAll('optgroup')) {
      if (plain(group.label)) texts.push(`${describe(select)} optgroup: ${JSON.stringify(group.label)}`);
    }
  }
  const width = document.documentElement.clientWidth;
  const overflow = [];
  const scrolled = document.documentElement.scrollWidth;
  if (scrolled > width) overflow.push(`the document is ${scrolled} px wide`);
  const over = new Set();
  for (const element of document.body.querySelectorAll('*')) {
    if (!shown(element)) continue;
    const right = element.getBoundingClientRect().right;
    if (right <= width + 0.5) continue;
    let held = false;
    for (let above = element.parentElement; above && above !== document.body; above = above.parentElement) {
      if (getComputedStyle(above).overflowX !== 'visible') {
        held = above.getBoundingClientRect().right <= width + 0.5;
        break;
      }
    }
    if (held) continue;
    over.add(element);
    if (!over.has(element.parentElement)) overflow.push(`${describe(element)} ends at ${Math.round(right)} px`);
  }
  return { texts, overflow };
}"""


def pseudo_findings(page: Any, where: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """What on ``page`` (shown in the pseudo-locale) is not from the catalogues or does not fit:
    each visible text with plain letters left once ``allowed`` words and "gamebag" are taken out,
    with its element, and each element past the viewport's right edge; one line each, ``where`` first."""
    found = page.evaluate(PSEUDO_CHECK, ["gamebag", *allowed])
    return [f"{where}: text outside the catalogues: {text}" for text in found["texts"]] + [
        f"{where}: overflows: {line}" for line in found["overflow"]
    ]
