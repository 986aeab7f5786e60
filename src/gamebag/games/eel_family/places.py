"""Where an Eel family decision stands, for the analysis and the coach: the round and the grab in it."""

from __future__ import annotations

from gamebag.core.protocol import JsonDict
from gamebag.games.eel_family.translation import N_, _

PLACE_TEXT = N_("round {round}, grab {grab}")


def locate(view: JsonDict) -> JsonDict:
    """The decision's place in the game, language-neutral (``place_words`` says it)."""
    return {"round": int(view["round"]), "grab": int(view["grab"])}


def place_words(place: JsonDict) -> str:
    """The place in the reader's language: "round 2, grab 3"."""
    return _(PLACE_TEXT, round=place["round"], grab=place["grab"])
