"""Screenshots of every game on a 360x740 phone, for docs/web.md (issue 37): one command, nothing else running.

It starts its own ``gamebag serve`` (a throw-away SQLite file, a free loopback port, bots at no
delay), opens one table per game with Ann (a person) and random bots, and plays Ann's seat in
Debian's chromium, a phone's screen (360x740, touch): a seeded random move at each of her
decisions. Two pictures per game, of the screen as the phone shows it:

* ``phone-<game>-play.png``: a typical decision in the middle of the game (the first at which
  she has at least two moves after her ``MOVES_BEFORE_THE_PICTURE``-th move): the board, what
  just happened, the hint and the move buttons;
* ``phone-<game>-end.png``: the end screen (winner and why, in the rulebook's words).

The pictures are reduced to 128 colours (Pillow), as the others in docs/img. The page's text is
in DejaVu Sans (``style.css``); glyphs DejaVu lacks fall back to Noto: install Debian's
``fonts-dejavu-core`` and ``fonts-noto-core`` for pictures that match the committed ones (the
script says which is missing). The same seed gives the same games.

With ``--languages`` it pictures one table per language instead, in a browser set to that
language's locale (``phone-<locale>-<game>-play.png`` and ``-end.png``; Japanese and Chinese need
Debian's ``fonts-noto-cjk``).

Run: ``.venv/bin/python bench/phone_screenshots.py [--only GAME ...] [--languages] [--out docs/img] [--seed 7]``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from smoke import smoke_or

import gamebag

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
FONTS = {"DejaVu Sans": "fonts-dejavu-core", "Noto Sans": "fonts-noto-core", "Noto Sans CJK JP": "fonts-noto-cjk"}
# ``--languages``: one table per language, each in a game its readers know (the browser's locale).
LANGUAGE_TABLES = {"nl-BE": "eigen-kweek", "fr-FR": "catch-a-dragon", "de-DE": "eel-harvest",
                   "ja-JP": "wriggle-roulette", "zh-CN": "pig"}
COLOURS = 128
WAIT_S = 60.0
# Per game: its players (a common table of it) and the moves Ann makes before the picture of a decision.
PLAYERS = {"eel-harvest": 3, "wriggle-roulette": 3, "eigen-kweek": 4}
MOVES_BEFORE_THE_PICTURE = {"eigen-kweek": 8}
# A smoke run (bench/smoke.py) plays short games: each game's own option for its length, small.
SHORT = {"pig": {"goal": 20}, "eel-harvest": {"target": 8}, "wriggle-roulette": {"target": 8},
         "catch-a-dragon": {"rounds": 2}, "eigen-kweek": {"max_rounds": 1}}

# Ann's move: a die that fits (then Collect, once what is picked is a collection) in Catch A Dragon;
# else the move button at ``index`` (modulo their number). Returns what she did, or null.
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
# The page's socket is up and every seat shows as connected (a bot always does): the dots are
# the same from one run to the next.
CONNECTED = ("() => document.getElementById('status').classList.contains('online')"
             " && !document.querySelector('#seats .status-dot:not(.online)')")
MINE = "document.body.dataset.turn === 'mine' && !document.querySelector('#controls button.chosen')"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """``gamebag serve`` on a free port and an SQLite file in ``folder``; yields its address."""
    port = free_port()
    command = [sys.executable, "-c", "from gamebag.cli.app import main; main()", "serve", "--port", str(port),
               "--db", f"sqlite:///{folder / 'screenshots.db'}", "--bot-delay", "0", "--allow-seed"]
    log_path = folder / "server.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                raise SystemExit(f"the server exited at once:\n{log_path.read_text()}")
            try:
                if httpx.get(f"{base}/api/health", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"the server did not answer within 90 s:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def missing_fonts() -> list[str]:
    """The Debian font packages whose family fontconfig does not know."""
    if shutil.which("fc-list") is None:
        return list(FONTS.values())
    families = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=False).stdout
    return [package for family, package in FONTS.items() if family not in families]


def wait_for(page: Any, expression: str, arg: Any = None) -> None:
    """Poll ``expression`` (a function of ``arg``) until it is truthy (the pages' CSP forbids eval)."""
    deadline = time.monotonic() + WAIT_S
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise SystemExit(f"the page never showed {expression}")
        page.wait_for_timeout(50)


def save(page: Any, path: Path) -> None:
    """The phone's screen as it shows once its animations have ended, in ``COLOURS`` colours."""
    from PIL import Image

    wait_for(page, CONNECTED)
    page.screenshot(path=str(path), animations="disabled")
    with Image.open(path) as picture:
        reduced = picture.convert("RGB").quantize(colors=COLOURS, dither=Image.Dither.NONE)
    reduced.save(path, optimize=True)
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size // 1024} KiB")


def open_table(base: str, game_id: str, seed: int) -> dict[str, Any]:
    players = PLAYERS.get(game_id, 2)
    seats: list[dict[str, Any]] = [{"name": "Ann"}] + [{"bot": "random"} for _ in range(players - 1)]
    request = {"game": game_id, "players": players, "seats": seats, "seed": seed,
               "options": smoke_or({}, SHORT.get(game_id, {}))}
    response = httpx.post(f"{base}/api/tables", json=request, timeout=30)
    if response.status_code != 201:
        raise SystemExit(f"{game_id}: the server refused the table: {response.text}")
    answer: dict[str, Any] = response.json()
    return answer


def play_and_picture(browser: Any, base: str, game_id: str, seed: int, out: Path, locale: str | None = None) -> None:
    """Ann's game of ``game_id`` in a phone browser (set to ``locale``: the pictures are named by it)."""
    table = open_table(base, game_id, seed)
    context = browser.new_context(**PHONE, **({"locale": locale} if locale else {}))
    name = f"phone-{locale}-{game_id}" if locale else f"phone-{game_id}"
    context.set_default_timeout(WAIT_S * 1000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}{table['seats'][0]['invite']}")
    rng = random.Random(f"{game_id}:{seed}")
    moves, pictured = 0, False
    before = smoke_or(MOVES_BEFORE_THE_PICTURE.get(game_id, 3), 0)  # a smoke run's short game: her first choice
    while True:
        wait_for(page, f"() => ({MINE}) || document.body.dataset.turn === 'over'")
        if page.evaluate("document.body.dataset.turn") == "over":
            break
        if not pictured and moves >= before and page.evaluate(CHOICES) >= 2:
            # Where the move panel follows the board in the page (Eigen Kweek), the phone shows it.
            page.locator("#controls-panel").scroll_into_view_if_needed()
            save(page, out / f"{name}-play.png")
            pictured = True
        step = page.evaluate("document.body.dataset.step")
        if page.evaluate(MOVE, rng.randrange(1 << 16)) is None:
            raise SystemExit(f"{game_id}: Ann's turn offers no move to tap")
        moves += 1
        wait_for(page, f"step => document.body.dataset.step !== step || !({MINE})", step)
    if not pictured:
        raise SystemExit(f"{game_id}: the game ended before Ann had a choice after {before} moves")
    page.wait_for_selector("#summary:not([hidden]) #result-banner")
    page.evaluate("window.scrollTo(0, 0)")
    save(page, out / f"{name}-end.png")
    context.close()
    if errors:
        raise SystemExit(f"{game_id}: the page failed: {errors}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=list(gamebag.game_ids()), help="this game (repeatable)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="the folder for the PNGs")
    parser.add_argument("--seed", type=int, default=7, help="the tables' seed (the same seed, the same games)")
    parser.add_argument("--languages", action="store_true",
                        help="one table per language instead (phone-<locale>-<game>-*.png: " +
                        ", ".join(f"{locale} {game}" for locale, game in LANGUAGE_TABLES.items()) + ")")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        parser.exit(2, "Debian's chromium is missing: run scripts/install-chromium.sh\n")
    for package in missing_fonts():
        print(f"note: Debian's {package} is not installed, so the pictures may differ from docs/img's", file=sys.stderr)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="gamebag-screenshots-") as scratch:
        out = smoke_or(args.out, Path(scratch))  # a smoke run leaves docs/img alone
        out.mkdir(parents=True, exist_ok=True)
        with served(Path(scratch)) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                if args.languages:
                    for locale, game_id in LANGUAGE_TABLES.items():
                        play_and_picture(browser, base, game_id, args.seed, out, locale)
                for game_id in [] if args.languages else args.only or gamebag.game_ids():
                    play_and_picture(browser, base, game_id, args.seed, out)
            finally:
                browser.close()


if __name__ == "__main__":
    main()
