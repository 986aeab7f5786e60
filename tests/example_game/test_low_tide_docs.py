"""docs/protocol.md walks through Low Tide: what it quotes of the example must be in the example,
and every file it names must exist, so the page cannot drift from the code it teaches."""

from __future__ import annotations

import re

from low_tide_support import LOW_TIDE_DIR, LOW_TIDE_FILE, ROOT

PAGE = ROOT / "docs" / "protocol.md"
QUOTED_FROM = "From `examples/low_tide/low_tide.py`:"
FENCE = re.compile(r"```(\w*)\n(.*?)```", re.DOTALL)
# Paths the page names in backticks: those under the repository's own folders.
NAMED_PATH = re.compile(r"`((?:examples|src|tests|docs)/[\w./-]+?)`")


def test_every_quoted_block_is_in_the_example() -> None:
    text = PAGE.read_text(encoding="utf-8")
    source = LOW_TIDE_FILE.read_text(encoding="utf-8")
    quoted = 0
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip().splitlines()[-1]
        if before == QUOTED_FROM:
            block = match.group(2)
            assert block in source, f"docs/protocol.md quotes what low_tide.py does not hold:\n{block}"
            quoted += 1
    assert quoted >= 2


def test_the_declarations_the_page_shows_are_the_examples() -> None:
    text = PAGE.read_text(encoding="utf-8")
    source = LOW_TIDE_FILE.read_text(encoding="utf-8")
    pyproject = (LOW_TIDE_DIR / "pyproject.toml").read_text(encoding="utf-8")
    for line in ("lower_score_wins: ClassVar[bool] = True", "class LowTide(Game[TideState, int, int])"):
        assert line in text and line in source
    register_call = next(line for line in text.splitlines() if line.startswith("register(LowTide"))
    assert register_call in source
    entry_point = next(block for lang, block in FENCE.findall(text) if lang == "toml")
    assert entry_point in pyproject


def test_every_file_the_page_names_exists() -> None:
    named = set(NAMED_PATH.findall(PAGE.read_text(encoding="utf-8")))
    # A path the page names inside the example's folder is written from there.
    missing = sorted(
        path for path in named
        if "<" not in path and "*" not in path and not (ROOT / path).exists() and not (LOW_TIDE_DIR / path).exists()
    )
    assert not missing, missing
