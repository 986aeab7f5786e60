"""The terminal's words for the bag games (issue 37): an exit is never credited to an outbreak,
and the colours are the game's own (eels green, snakes red), not Rich's number highlighting.

Both run ``gamebag play`` as a user does (a real process). Seed 3 of four random bots has a
grab where one seat exits (scoring its reserve) and the others' grab makes an outbreak.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

GAMEBAG = [sys.executable, "-m", "gamebag.cli"]
EXITED = re.compile(r"(?:: |; )([^;:]+?) exited scoring (\d+)")
RICH_NUMBER = "\x1b[1;36m"  # Rich's generic highlighting of numbers (bold cyan)


def play(tmp_path: Path, seats: str, seed: int, stdin: str = "", colour: bool = False) -> str:
    env = {**os.environ, "COLUMNS": "300"}
    env.pop("NO_COLOR", None)
    if colour:
        env["FORCE_COLOR"] = "1"
    else:
        env.pop("FORCE_COLOR", None)
    result = subprocess.run(
        [
            *GAMEBAG,
            "play",
            "wriggle-roulette",
            "--players",
            "4",
            "--seats",
            seats,
            "--seed",
            str(seed),
            "--auto-delay",
            "0",
            "--record",
            str(tmp_path / "game.json"),
        ],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_an_exit_in_the_outbreak_grab_is_not_credited_to_the_outbreak(tmp_path: Path) -> None:
    lines = play(tmp_path, "random,random,random,random", seed=3).splitlines()
    checked = 0
    for grab, after in pairwise(lines):
        if not after.startswith("Snake outbreak!"):
            continue
        for name, _points in EXITED.findall(grab):
            checked += 1
            # The grab's line tells the exit and its score; the outbreak's line does not name it.
            assert name not in after, (grab, after)
        assert "Spared by the outbreak: " in after or "Nobody else was still in the round." in after, after
    assert checked, "seed 3 no longer has an exit in an outbreak's grab: choose another seed"


def test_eels_green_snakes_red_and_no_generic_number_colours(tmp_path: Path) -> None:
    # A person at the table (exiting at every grab) sees the board, where Rich used to colour numbers.
    out = play(tmp_path, "human,random,random,random", seed=0, stdin="0\n" * 200, colour=True)
    assert "Snakes in the centre:" in out  # the board was shown
    assert RICH_NUMBER not in out
    assert re.search(r"\x1b\[32m\d+ eels?\x1b\[0m", out), "eels are not green"
    assert re.search(r"\x1b\[31m\d+ snakes?\x1b\[0m", out), "snakes are not red"
