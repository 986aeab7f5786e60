"""The Eel family's named presets (``gamebag.core.presets``), from the rulebooks.

Eel Harvest's rulebook names "Optional Additional Rules" (the start player rotates; at an
outbreak the others score their whole reserve; the last player left may grab only a few more
times) and an "Additional Variant Rule Set" (dice instead of the bag). Both games also have a
quick game, to 10 points instead of 20.
"""

from __future__ import annotations

from gamebag.core.presets import Preset
from gamebag.games.eel_family.translation import N_

QUICK = Preset("quick", N_("A quick game"), N_("The game ends at 10 points instead of 20."), {"target": 10})

EEL_HARVEST_PRESETS: tuple[Preset, ...] = (
    QUICK,
    Preset(
        "optional-rules",
        N_("The rulebook's optional rules"),
        N_(
            "The start player rotates, an outbreak scores the spared players' whole reserve, and the last "
            "player left in a round may grab once more."
        ),
        {"rotate_start": True, "outbreak_scores_reserve": True, "lone_player_grabs": 1},
    ),
    Preset(
        "dice",
        N_("Dice instead of the bag"),
        N_(
            "The rulebook's variant set: each token is a die roll, a snake one time in four, "
            "and the bag never runs out."
        ),
        {"draw": "dice"},
    ),
)

WRIGGLE_ROULETTE_PRESETS: tuple[Preset, ...] = (
    QUICK,
    Preset(
        "rotating-start",
        N_("Rotating start player"),
        N_("The start player moves one seat to the left each round, as in Eel Harvest's optional rules."),
        {"rotate_start": True},
    ),
)
