"""Where a Pig decision stands, for the analysis and the coach: the round and the turn total at stake."""

from __future__ import annotations

from gamebag.core.i18n import number
from gamebag.core.protocol import JsonDict
from gamebag.games.pig.translation import N_, _

PLACE_TEXT = N_("round {round}, with {turn_total} in the turn")


def locate(view: JsonDict) -> JsonDict:
    """The decision's place in the game, language-neutral (``place_words`` says it)."""
    return {"round": int(view["round"]), "turn_total": int(view["turn_total"])}


def place_words(place: JsonDict) -> str:
    """The place in the reader's words."""
    return _(PLACE_TEXT, round=number(int(place["round"])), turn_total=number(int(place["turn_total"])))
