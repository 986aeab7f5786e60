"""Options of the Eel family rule sets (named in rulings.md, Eel Harvest family).

Every number of the rulebooks is an option whose default is the rulebook's: the bag
(51 eels, 17 snakes), the score that ends the game (20), the most one grab may take
(4, or 6 with two players) and the snakes that make an outbreak (the per-player-count
table). The bounds keep every cost a user controls finite.

``WRIGGLE_ROULETTE_ENGINES`` and ``EEL_HARVEST_ENGINES`` declare which engines play each
option (``gamebag.core.engines``): the numba kernels (``gamebag.fast.eel``) and the JAX
engine (``gamebag.fast.jax.eel``) play every option; the two-player equilibrium model
(``gamebag.agents.equilibrium``) plays every option too (with two players the start
player never matters, so ``rotate_start`` changes nothing it models).
"""

from __future__ import annotations

from dataclasses import dataclass

from gamebag.core.engines import ANY, EngineSupport, Support
from gamebag.core.options import Option
from gamebag.games.eel_family.translation import N_

EELS = 51
SNAKES = 17
TARGET = 20
SNAKE_THRESHOLD = {2: 6, 3: 7, 4: 9, 5: 11, 6: 13, 7: 15, 8: 17}
MAX_EELS = 200
MAX_SNAKES = 100
MAX_TARGET = 200
MAX_GRAB_LIMIT = 10


def default_max_grab(players: int) -> int:
    """The rulebook's most one grab may take: 6 with two players, else 4."""
    return 6 if players == 2 else 4


ROTATE_START = Option("rotate_start", "bool", False, N_("The start player moves one seat to the left each round."))

NUMBER_OPTIONS: tuple[Option, ...] = (
    Option("eels", "int", EELS, N_("Eels in the bag at the start of every round."), minimum=1, maximum=MAX_EELS),
    Option(
        "snakes",
        "int",
        SNAKES,
        N_("Snakes in the bag at the start of every round (at least the outbreak threshold)."),
        minimum=1,
        maximum=MAX_SNAKES,
    ),
    Option("target", "int", TARGET, N_("The score that ends the game."), minimum=1, maximum=MAX_TARGET),
    Option(
        "max_grab",
        "int",
        None,
        N_("The most tokens one grab may take (none: the rulebook's 6 with two players, else 4)."),
        minimum=1,
        maximum=MAX_GRAB_LIMIT,
        nullable=True,
    ),
    Option(
        "outbreak_snakes",
        "int",
        None,
        N_(
            "Snakes in the centre that make an outbreak (none: the rulebook's table, "
            "2:6 3:7 4:9 5:11 6:13 7:15 8:17 players:snakes); at most the snakes in the bag."
        ),
        minimum=1,
        maximum=MAX_SNAKES,
        nullable=True,
    ),
)

WRIGGLE_ROULETTE_OPTIONS: tuple[Option, ...] = (ROTATE_START, *NUMBER_OPTIONS)

EEL_HARVEST_OPTIONS: tuple[Option, ...] = (
    ROTATE_START,
    Option(
        "outbreak_scores_reserve",
        "bool",
        False,
        N_("At an outbreak the players who did not lose score their whole reserve, not just the eels of this grab."),
    ),
    Option(
        "lone_player_grabs",
        "int",
        None,
        N_(
            "When one player is left in the round, they may grab this many more times, then exit "
            "automatically scoring their reserve (none: no limit)."
        ),
        minimum=0,
        nullable=True,
    ),
    Option(
        "draw",
        "choice",
        "bag",
        N_(
            "bag: tokens come from the bag; dice: each token is a D4 roll, a snake with chance 1/4, "
            "and the bag never runs out."
        ),
        choices=("bag", "dice"),
    ),
    *NUMBER_OPTIONS,
)


@dataclass(frozen=True, slots=True)
class EelOptions:
    """The options of one game of the family, typed (the specs above hold their bounds and defaults).

    Wriggle Roulette has no ``outbreak_scores_reserve``, ``lone_player_grabs`` or ``draw``: their
    defaults here are its fixed rules (the bag, no lone-player limit, only the grab's eels).
    ``None`` for ``max_grab`` or ``outbreak_snakes`` means the rulebook's number for the player count.
    """

    rotate_start: bool
    eels: int
    snakes: int
    target: int
    max_grab: int | None
    outbreak_snakes: int | None
    outbreak_scores_reserve: bool = False
    lone_player_grabs: int | None = None
    draw: str = "bag"


# Every engine that plays the Eel family plays every value of every option.
_EVERYWHERE: dict[str, Support] = {"numba": ANY, "jax": ANY, "equilibrium": ANY}

WRIGGLE_ROULETTE_ENGINES = EngineSupport(
    WRIGGLE_ROULETTE_OPTIONS, {spec.name: _EVERYWHERE for spec in WRIGGLE_ROULETTE_OPTIONS}
)
EEL_HARVEST_ENGINES = EngineSupport(
    EEL_HARVEST_OPTIONS,
    {
        "rotate_start": _EVERYWHERE,
        "outbreak_scores_reserve": _EVERYWHERE,
        "lone_player_grabs": _EVERYWHERE,
        "draw": _EVERYWHERE,
        "eels": _EVERYWHERE,
        "snakes": _EVERYWHERE,
        "target": _EVERYWHERE,
        "max_grab": _EVERYWHERE,
        "outbreak_snakes": _EVERYWHERE,
    },
)
