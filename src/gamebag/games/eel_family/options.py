"""Options of the Eel family rule sets (named in rulings.md, Eel Harvest family)."""

from __future__ import annotations

from gamebag.core.options import Option

ROTATE_START = Option("rotate_start", "bool", False, "The start player moves one seat to the left each round.")

WRIGGLE_ROULETTE_OPTIONS: tuple[Option, ...] = (ROTATE_START,)

EEL_HARVEST_OPTIONS: tuple[Option, ...] = (
    ROTATE_START,
    Option(
        "outbreak_scores_reserve",
        "bool",
        False,
        "At an outbreak the players who did not lose score their whole reserve, "
        "not just the eels of this grab.",
    ),
    Option(
        "lone_player_grabs",
        "int",
        None,
        "When one player is left in the round, they may grab this many more times, then exit "
        "automatically scoring their reserve (none: no limit).",
        minimum=0,
        nullable=True,
    ),
    Option(
        "draw",
        "choice",
        "bag",
        "bag: tokens come from the bag; dice: each token is a D4 roll, a snake with chance 1/4, "
        "and the bag never runs out.",
        choices=("bag", "dice"),
    ),
)
