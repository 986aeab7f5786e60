"""Pig's own line ("You: ..."): the points at risk are the player's only on their own turn.

pig.js runs under node with a minimal DOM stand-in (``js/pig_private.mjs``); skipped where node
is missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import gamebag
from gamebag.core.match import Match

SCRIPT = Path(__file__).parent / "js" / "pig_private.mjs"
NODE = shutil.which("node")


def _line(view: dict[str, object], seat: int) -> str:
    assert NODE is not None
    table = {"seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]}
    done = subprocess.run(
        [NODE, str(SCRIPT), json.dumps(view), json.dumps(table), str(seat)],
        capture_output=True, text=True, timeout=60, check=True,
    )
    text: str = json.loads(done.stdout)
    return text


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_waiting_player_is_not_told_the_opponents_points_are_at_risk_for_him() -> None:
    game = gamebag.make("pig", 2, goal=30)
    views = [Match(game, 3).view(seat) for seat in (0, 1)]
    for view in views:  # Ann's turn, 7 at risk, 5 banked each (the views as the server sends them)
        view.update(turn_seat=0, turn_total=7, scores=[5, 5])
    at_risk, banked = 7, 5
    waiting = _line(views[1], 1)
    assert f"{at_risk} at risk" not in waiting.split(".")[0], waiting
    assert f"{banked} banked; {30 - banked} more to reach 30." in waiting
    assert f"Ann has {at_risk} at risk this turn." in waiting
    own = _line(views[0], 0)
    need = 30 - 5 - at_risk
    assert f"{at_risk} at risk; {need} more to reach 30." in own
