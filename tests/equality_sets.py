"""Every engine's equality option sets, in one place.

The replay and distribution tests of each engine play the sets listed here for it, and
``tests/test_engine_coverage.py`` checks that, for every game and every engine kind its
declaration names (``gamebag.core.engines``), each option the engine is declared to play
beyond its default is given a non-default value by one of these sets. Adding an option or
an engine means adding a set here (see docs/protocol.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import gamebag
from gamebag.core.protocol import Game


def rules_games_for_power(fast: int, rules: int, fast_now: int) -> int:
    """Rules-engine games that, beside ``fast_now`` fast-engine games, keep the power of a
    distribution test designed with ``fast`` and ``rules`` games.

    Each two-sample comparison (Welch's test of means, Kolmogorov-Smirnov of distributions)
    sees the samples through ``1 / fast + 1 / rules``: the variance of a difference of means
    is ``sigma**2`` times it, and the KS statistic scales with ``sqrt(fast * rules / (fast +
    rules))``, its inverse. Keeping the sum keeps every test's power for any given
    difference. Fast games are cheap per game but not free (a JAX batch costs in proportion
    to its width), so a few hundred more rules games can replace thousands of fast ones.
    """
    return math.ceil(1 / (1 / fast + 1 / rules - 1 / fast_now))


@dataclass(frozen=True)
class OptionSet:
    """A game id, a player count, options, and the seatings (agent names) cycled over replayed games.

    No seating: uniformly random choices (the Eel family's replays draw every count alike).
    """

    game_id: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seatings: tuple[tuple[str, ...], ...] = ()

    def label(self) -> str:
        text = ",".join(f"{k}={v}" for k, v in sorted(self.options.items())) or "defaults"
        return f"{self.game_id}-{self.players}p-{text}"

    def make(self) -> Game[Any, Any, Any]:
        return gamebag.make(self.game_id, self.players, **self.options)


def _eel(game_id: str, players: int, **options: Any) -> OptionSet:
    return OptionSet(game_id, players, options)


# The numba Eel kernel: every option of both rule sets, each on its own and in combination, 2-8 players.
EEL_NUMBA = [
    _eel("wriggle-roulette", 2),
    _eel("wriggle-roulette", 3, rotate_start=True),
    _eel("wriggle-roulette", 4),
    _eel("wriggle-roulette", 5, rotate_start=True),
    _eel("wriggle-roulette", 8),
    _eel("eel-harvest", 2),
    _eel("eel-harvest", 4),
    _eel("eel-harvest", 3, outbreak_scores_reserve=True),
    _eel("eel-harvest", 4, rotate_start=True),
    _eel("eel-harvest", 2, lone_player_grabs=0),
    _eel("eel-harvest", 3, lone_player_grabs=2),
    _eel("eel-harvest", 5, draw="dice"),
    _eel("eel-harvest", 6, draw="dice", lone_player_grabs=1),
    _eel("eel-harvest", 4, draw="dice", lone_player_grabs=1, outbreak_scores_reserve=True, rotate_start=True),
    _eel("eel-harvest", 7, lone_player_grabs=3, outbreak_scores_reserve=True),
    _eel("eel-harvest", 8, rotate_start=True),
    _eel("wriggle-roulette", 4, eels=30, snakes=12, target=15, max_grab=3, outbreak_snakes=8),
    _eel("eel-harvest", 3, eels=80, snakes=25, target=30, max_grab=7, outbreak_snakes=10),
    _eel("eel-harvest", 2, draw="dice", max_grab=2, target=12, lone_player_grabs=4),
]

# The JAX Eel engine: every option, each at least once, on several player counts.
EEL_JAX = [
    _eel("wriggle-roulette", 4),
    _eel(
        "eel-harvest",
        3,
        outbreak_scores_reserve=True,
        lone_player_grabs=2,
        eels=40,
        snakes=20,
        target=25,
        max_grab=5,
        outbreak_snakes=9,
    ),
    _eel("eel-harvest", 4, draw="dice", lone_player_grabs=1, outbreak_scores_reserve=True, rotate_start=True),
    _eel("wriggle-roulette", 4, rotate_start=True, eels=30, snakes=12, target=15, max_grab=3, outbreak_snakes=8),
]

# The two-player equilibrium round model (tests/agents/test_equilibrium.py): its values against
# the rules engine's, position by position.
EQUILIBRIUM = [
    _eel("eel-harvest", 2),
    _eel("eel-harvest", 2, outbreak_scores_reserve=True),
    _eel("eel-harvest", 2, draw="dice"),
    _eel("eel-harvest", 2, lone_player_grabs=2),
    _eel("eel-harvest", 2, lone_player_grabs=0),
    _eel("wriggle-roulette", 2),
    _eel("eel-harvest", 2, rotate_start=True, eels=30, snakes=14, target=12, max_grab=4, outbreak_snakes=5),
    _eel("wriggle-roulette", 2, rotate_start=True, eels=30, snakes=14, target=12, max_grab=4, outbreak_snakes=5),
]

# Seat agents for the Pig replays: random play reaches odd corners, the others the usual ones.
_PIG_SEATINGS = (("random", "random"), ("heuristic", "random"), ("optimal-win", "optimal-score"))
PIG_NUMBA = [
    OptionSet("pig", 2, {}, _PIG_SEATINGS),
    OptionSet("pig", 2, {"goal": 30}, _PIG_SEATINGS),
    OptionSet("pig", 2, {"goal": 7}, _PIG_SEATINGS),
    OptionSet("pig", 2, {"goal": 30, "die_sides": 2}, _PIG_SEATINGS),
    OptionSet("pig", 2, {"goal": 60, "die_sides": 20}, _PIG_SEATINGS),
]
PIG_JAX = [PIG_NUMBA[0], PIG_NUMBA[2], PIG_NUMBA[3], PIG_NUMBA[4]]

DRAGON_NUMBA = [
    OptionSet(
        "catch-a-dragon",
        2,
        {},
        (("random", "random"), ("heuristic", "optimal-score"), ("optimal-win", "random")),
    ),
    OptionSet("catch-a-dragon", 3, {"duplicate_bust": "none-new"}, (("random", "heuristic", "optimal-score"),)),
    OptionSet("catch-a-dragon", 1, {"cyclic": False}, (("random",), ("heuristic",), ("optimal-score",))),
    OptionSet("catch-a-dragon", 4, {"dice": 6, "rounds": 2}, (("random", "heuristic", "random", "heuristic"),)),
    OptionSet("catch-a-dragon", 2, {"dice": 1, "max_tiebreak_rounds": 0}, (("random", "heuristic"),)),
    OptionSet(
        "catch-a-dragon",
        2,
        {"max_tiebreak_rounds": 0, "rounds": 1, "dice": 2},
        (("random", "optimal-win"), ("heuristic", "random")),
    ),
    OptionSet(
        "catch-a-dragon",
        8,
        {"dice": 3, "rounds": 3, "duplicate_bust": "none-new", "cyclic": False, "max_tiebreak_rounds": 1},
        (("random", "heuristic") * 4,),
    ),
    OptionSet(
        "catch-a-dragon", 2, {"faces": "white,black,orange,yellow,pink,brown", "dice": 5}, (("heuristic", "random"),)
    ),
]
# The JAX engine has no compiled optimal policies: the same sets, seated with random and heuristic.
DRAGON_JAX = [
    OptionSet(
        "catch-a-dragon", 2, {}, (("random", "random"), ("heuristic", "optimal-score"), ("optimal-win", "random"))
    ),
    DRAGON_NUMBA[1],
    OptionSet("catch-a-dragon", 1, {"cyclic": False}, (("random",), ("heuristic",))),
    DRAGON_NUMBA[3],
    DRAGON_NUMBA[4],
    OptionSet(
        "catch-a-dragon",
        2,
        {"max_tiebreak_rounds": 0, "rounds": 1, "dice": 2},
        (("random", "random"), ("heuristic", "random")),
    ),
    DRAGON_NUMBA[6],
    DRAGON_NUMBA[7],
]

# The numba Eigen Kweek kernels: every option, each on its own and in combination, extreme numbers,
# a small round cap. tests/fast/test_kweek_equality.py replays each at 2, 3 and 4 players with mixed
# random, heuristic and abstaining seats; bench/kweek_equality.py 1,000 games per set.
_KWEEK = (
    "heuristic",
    "random",
    "heuristic:abstain=BERNARD+JULITA",
    "heuristic:abstain=DEN OLLANDER",
)
KWEEK_NUMBA = [
    OptionSet("eigen-kweek", players, options, (_KWEEK[:players],))
    for players, options in zip(
        (4, 2, 3, 4, 2, 3, 4, 2, 3, 4),
        (
            {},
            {"coin_visibility": "open"},
            {"stefaan_order": "tie"},
            {"fluppe_counts_sacks": False},
            {"max_rounds": 3},
            {"coins_worth_1": 35, "coins_worth_2": 0, "coins_worth_3": 0, "coins_worth_5": 0},
            {
                "coins_worth_1": 0, "coins_worth_2": 0, "coins_worth_3": 0, "coins_worth_4": 30, "coins_worth_5": 5,
                "coin_visibility": "open",
            },
            {
                **{f"capacity_{c}": 1 for c in (2, 4, 6, 8)}, **{f"plough_cost_{c}": 20 for c in (2, 4, 6, 8)},
                "max_rounds": 25,
            },
            {**{f"capacity_{c}": 40 for c in (2, 4, 6, 8)}, **{f"plough_cost_{c}": 1 for c in (2, 4, 6, 8)}},
            {
                "coins_worth_1": 5, "coins_worth_2": 5, "coins_worth_3": 5, "coins_worth_4": 10, "coins_worth_5": 10,
                "stefaan_order": "tie", "fluppe_counts_sacks": False, "coin_visibility": "open", "max_rounds": 12,
            },
        ),
        strict=True,
    )
]  # fmt: skip

# engine kind -> game id -> its equality option sets.
EQUALITY_SETS: dict[str, dict[str, list[OptionSet]]] = {}
for _kind, _sets in (
    ("numba", EEL_NUMBA + PIG_NUMBA + DRAGON_NUMBA + KWEEK_NUMBA),
    ("jax", EEL_JAX + PIG_JAX + DRAGON_JAX),
    ("equilibrium", EQUILIBRIUM),
):
    for _set in _sets:
        EQUALITY_SETS.setdefault(_kind, {}).setdefault(_set.game_id, []).append(_set)
