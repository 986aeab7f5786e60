"""Where an Eigen Kweek decision stands, for the analysis and the coach: the round, the phase and
what the table waits for (the rulebook's phase names and the page's step words, ``render.py``)."""

from __future__ import annotations

from gamebag.core.protocol import JsonDict
from gamebag.games.eigen_kweek.render import PHASE_NAMES, STEP_WORDS
from gamebag.games.eigen_kweek.translation import N_, _

PLACE_TEXT = N_("round {round}, {phase}: {step}")
PLACE_WITHOUT_STEP_TEXT = N_("round {round}, {phase}")


def locate(view: JsonDict) -> JsonDict:
    """The decision's place in the game, language-neutral (``place_words`` says it)."""
    return {"round": int(view["round"]), "phase": str(view["phase"]), "step": str(view["step"])}


def place_words(place: JsonDict) -> str:
    """The place in the reader's words: ``round 3, Trade: secret bids``."""
    code = str(place.get("phase"))
    phase = _(PHASE_NAMES[code]) if code in PHASE_NAMES else code
    step = STEP_WORDS.get(str(place.get("step")))
    if step is None:
        return _(PLACE_WITHOUT_STEP_TEXT, round=place["round"], phase=phase)
    return _(PLACE_TEXT, round=place["round"], phase=phase, step=_(step))
