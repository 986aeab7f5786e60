"""Players' words for the games' options in the lobby's "Variants": a label and one line each.

The options' own names are the programmers' (``max_grab``, ``stefaan_order``); a player reads
"Most tokens one grab may take". Labels are keyed by option name (the bag games share theirs),
numbered ones by pattern (``coins_worth_3``); an option of a game added later without a label
here reads as its name in words. The one-line explanation is the first sentence of the
option's own documentation, so it cannot drift from what the option does.
"""

from __future__ import annotations

import re

__all__ = ["option_label", "option_summary"]

LABELS = {
    # the bag games
    "rotate_start": "Start player moves one seat left each round",
    "outbreak_scores_reserve": "Spared players score their whole reserve at an outbreak",
    "lone_player_grabs": "Extra grabs for the last player in the round",
    "draw": "Tokens come from",
    "eels": "Eels in the bag",
    "snakes": "Snakes in the bag",
    "target": "Score that ends the game",
    "max_grab": "Most tokens one grab may take",
    "outbreak_snakes": "Snakes in the centre that make an outbreak",
    # Catch A Dragon
    "faces": "The die's colours, in ring order",
    "dice": "Dragon eggs (dice) a turn rolls",
    "rounds": "Rounds",
    "cyclic": "Face 6 links back to face 1",
    "duplicate_bust": "When a set of different colours busts",
    "max_tiebreak_rounds": "Most tie-break rounds",
    # Eigen Kweek
    "max_rounds": "Most rounds",
    "coin_visibility": "Coin values",
    "stefaan_order": "STEFAAN in a tied bid",
    "fluppe_counts_sacks": "FLUPPE counts potato sacks too",
    # Pig
    "goal": "Score that wins",
    "die_sides": "Sides of the die",
}
NUMBERED = (
    (re.compile(r"coins_worth_(\d+)"), "Coins worth {}"),
    (re.compile(r"capacity_(\d+)"), "Weed tokens the {}-card holds"),
    (re.compile(r"plough_cost_(\d+)"), "Ploughing over the {}-card costs"),
)
# The end of a documentation's first sentence: a full stop before a space and a capital (or the end).
FIRST_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s+(?=[A-Z(])|$)", re.DOTALL)


def option_label(name: str) -> str:
    """A player's label for the option ``name``."""
    if name in LABELS:
        return LABELS[name]
    for pattern, words in NUMBERED:
        found = pattern.fullmatch(name)
        if found:
            return words.format(found.group(1))
    spaced = name.replace("_", " ")
    return spaced[:1].upper() + spaced[1:]


def option_summary(doc: str) -> str:
    """The first sentence of an option's documentation (its one-line explanation)."""
    text = " ".join(doc.split())
    found = FIRST_SENTENCE.match(text)
    return found.group(1) if found else text
