"""Players' words for the games' options in the lobby's "Variants": a label and one line each.

The options' own names are the programmers' (``max_grab``, ``stefaan_order``); a player reads
"Most tokens one grab may take". Labels are keyed by option name (the bag games share theirs),
numbered ones by pattern (``coins_worth_3``); an option of a game added later without a label
here reads as its name in words. The one-line explanation is the first sentence of the
option's own documentation, so it cannot drift from what the option does.
"""

from __future__ import annotations

import re

from gamebag.web.words.text import N_, _

__all__ = ["option_label", "option_summary"]

LABELS = {
    # the bag games
    "rotate_start": N_("Start player moves one seat left each round"),
    "outbreak_scores_reserve": N_("Spared players score their whole reserve at an outbreak"),
    "lone_player_grabs": N_("Extra grabs for the last player in the round"),
    "draw": N_("Tokens come from"),
    "eels": N_("Eels in the bag"),
    "snakes": N_("Snakes in the bag"),
    "target": N_("Score that ends the game"),
    "max_grab": N_("Most tokens one grab may take"),
    "outbreak_snakes": N_("Snakes in the centre that make an outbreak"),
    # Catch A Dragon
    "faces": N_("The die's colours, in ring order"),
    "dice": N_("Dragon eggs (dice) a turn rolls"),
    "rounds": N_("Rounds"),
    "cyclic": N_("Face 6 links back to face 1"),
    "duplicate_bust": N_("When a set of different colours busts"),
    "max_tiebreak_rounds": N_("Most tie-break rounds"),
    # Eigen Kweek
    "max_rounds": N_("Most rounds"),
    "coin_visibility": N_("Coin values"),
    "stefaan_order": N_("STEFAAN in a tied bid"),
    "fluppe_counts_sacks": N_("FLUPPE counts potato sacks too"),
    # Pig
    "goal": N_("Score that wins"),
    "die_sides": N_("Sides of the die"),
}
NUMBERED = (
    (re.compile(r"coins_worth_(\d+)"), N_("Coins worth {value}")),
    (re.compile(r"capacity_(\d+)"), N_("Weed tokens the {value}-card holds")),
    (re.compile(r"plough_cost_(\d+)"), N_("Ploughing over the {value}-card costs")),
)
# The end of a documentation's first sentence: a full stop before a space and a capital (or the end).
FIRST_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s+(?=[A-Z(])|$)", re.DOTALL)
# Japanese and Chinese end a sentence with a full-width stop, with no space after it.
FIRST_SENTENCE_CJK = re.compile(r"^(.+?[。！？])", re.DOTALL)


def option_label(name: str) -> str:
    """A player's label for the option ``name``, in the reader's language."""
    if name in LABELS:
        return _(LABELS[name])
    for pattern, words in NUMBERED:
        found = pattern.fullmatch(name)
        if found:
            return _(words, value=found.group(1))
    spaced = name.replace("_", " ")
    return spaced[:1].upper() + spaced[1:]


def option_summary(doc: str) -> str:
    """The first sentence of an option's documentation (its one-line explanation); ``doc`` is
    already in the reader's language (``game_text``)."""
    text = " ".join(doc.split())
    found = FIRST_SENTENCE.match(text) or FIRST_SENTENCE_CJK.match(text)
    return found.group(1) if found else text
