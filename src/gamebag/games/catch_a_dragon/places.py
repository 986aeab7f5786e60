"""Where a Catch A Dragon decision stands, for the analysis and the coach: the round, and whether the
player collects from a roll or chooses to stop or roll the dice left."""

from __future__ import annotations

from gamebag.core.i18n import number
from gamebag.core.protocol import JsonDict
from gamebag.games.catch_a_dragon.translation import N_, _, ngettext

# Per phase of a turn (rules.Phase's values): one phrase each, whole ({dice}: a count of dice).
PLACE_TEXT = {
    "collect": N_("round {round}, collecting from a roll of {dice}"),
    "decide": N_("round {round}, stop or roll with {dice} left"),
}
OTHER_PLACE_TEXT = N_("round {round}")
# Which count each phase's phrase names.
PLACE_COUNT = {"collect": "rolled", "decide": "dice_left"}


def locate(view: JsonDict) -> JsonDict:
    """The decision's place in the game, language-neutral (``place_words`` says it)."""
    return {
        "round": int(view["round"]),
        "phase": str(view["phase"]),
        "rolled": len(view.get("rolled") or ()),
        "dice_left": int(view["dice_left"]),
    }


def place_words(place: JsonDict) -> str:
    """The place in the reader's words."""
    phase = str(place.get("phase"))
    count = int(place.get(PLACE_COUNT.get(phase, "rolled"), 0))
    dice = ngettext("{n} die", "{n} dice", count)
    return _(PLACE_TEXT.get(phase, OTHER_PLACE_TEXT), round=number(int(place["round"])), dice=dice)
