"""Where an Eigen Kweek decision stands, for the analysis and the coach: the round, the phase and
what the table waits for (the rulebook's phase names and the page's step words, ``render.py``)."""

from __future__ import annotations

from gamebag.core.protocol import JsonDict
from gamebag.games.eigen_kweek.render import PHASE_NAMES, STEP_WORDS

PLACE_TEXT = "round {round}, {phase}: {step}"
PLACE_WITHOUT_STEP_TEXT = "round {round}, {phase}"


def locate(view: JsonDict) -> JsonDict:
    """The decision's place in the game, language-neutral (``place_words`` says it)."""
    return {"round": int(view["round"]), "phase": str(view["phase"]), "step": str(view["step"])}


def place_words(place: JsonDict) -> str:
    phase = PHASE_NAMES.get(str(place.get("phase")), str(place.get("phase")))
    step = STEP_WORDS.get(str(place.get("step")))
    if step is None:
        return PLACE_WITHOUT_STEP_TEXT.format(round=place["round"], phase=phase)
    return PLACE_TEXT.format(round=place["round"], phase=phase, step=step)
