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

__all__ = ["SHORT_OPTIONS", "launched_chromium", "new_context", "settle", "shot", "wait_for"]

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
