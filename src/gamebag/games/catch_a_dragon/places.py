"""Where a Catch A Dragon decision stands, for the analysis and the coach: the round, and whether the
player collects from a roll or chooses to stop or roll the dice left."""

from __future__ import annotations

from gamebag.core.protocol import JsonDict
from gamebag.core.words import counted

# Per phase of a turn (rules.Phase's values): one phrase each, whole.
PLACE_TEXT = {
    "collect": "round {round}, collecting from a roll of {rolled}",
    "decide": "round {round}, stop or roll with {dice_left} left",
}
OTHER_PLACE_TEXT = "round {round}"


def locate(view: JsonDict) -> JsonDict:
    """The decision's place in the game, language-neutral (``place_words`` says it)."""
    return {
        "round": int(view["round"]),
        "phase": str(view["phase"]),
        "rolled": len(view.get("rolled") or ()),
        "dice_left": int(view["dice_left"]),
    }


def place_words(place: JsonDict) -> str:
    dice = {key: counted(int(place.get(key, 0)), "die", "dice") for key in ("rolled", "dice_left")}
    return PLACE_TEXT.get(str(place.get("phase")), OTHER_PLACE_TEXT).format(round=place["round"], **dice)
