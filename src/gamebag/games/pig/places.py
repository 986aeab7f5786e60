"""Where a Pig decision stands, for the analysis and the coach: the round and the turn total at stake."""

from __future__ import annotations

from gamebag.core.protocol import JsonDict

PLACE_TEXT = "round {round}, with {turn_total} in the turn"


def locate(view: JsonDict) -> JsonDict:
    """The decision's place in the game, language-neutral (``place_words`` says it)."""
    return {"round": int(view["round"]), "turn_total": int(view["turn_total"])}


def place_words(place: JsonDict) -> str:
    return PLACE_TEXT.format(**place)
