"""The passes a seat may ask the server to make for it, game by game (a table of rules, no code per game name).

Eigen Kweek's character windows ask every holder of a character, many times a round, whether
to play it; a player who means to play nothing this round can ask the server to pass those
windows for the rest of the round unless she acts herself. A rule reads the seat's own view
only, so what it decides for one seat never depends on what that seat may not know.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamebag.core.protocol import JsonDict
from gamebag.web.words.text import N_


@dataclass(frozen=True)
class PassRule:
    """Which decisions a seat's standing pass covers, for how long, and the move it makes."""

    label: str  # the words of the toggle on the table page
    covers: Callable[[JsonDict], bool]  # the seat's view: a decision the pass is made at
    period: Callable[[JsonDict], Any]  # the seat's view: the period the toggle lasts (it resets after)
    action: Any  # the move made (the JSON encoding of the game's pass)


PASS_RULES: dict[str, PassRule] = {
    "eigen-kweek": PassRule(
        # Translators: the toggle of Eigen Kweek's standing pass (its "windows": the characters' turns to act).
        label=N_("Pass the character windows this round unless I act"),
        covers=lambda view: view.get("step") == "window",
        period=lambda view: view.get("round"),
        action="pass",
    ),
}


def pass_rule(game_id: str) -> PassRule | None:
    """The standing pass a game offers its players, if any."""
    return PASS_RULES.get(game_id)
