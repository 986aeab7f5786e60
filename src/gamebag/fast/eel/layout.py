"""Where each field of an Eel family position lives in the kernels' integer arrays.

A position is one ``int32`` row of ``WIDTH`` entries (a batch is ``[games, WIDTH]``):
per-seat blocks of ``MAX_SEATS`` entries, then single fields. A rules configuration is
one ``int64`` row of ``CONFIG_WIDTH`` entries, so every option is a kernel argument and
one compiled kernel serves both rule sets and every option set. Kernels read numbers from
the configuration, from ``gamebag.fast`` modules, or from ``gamebag.games`` (the rules' own
data): ``gamebag.fast.cache`` stamps compiled kernels with the sources of both packages, so
no constant from elsewhere may be read, or it could go stale in the cache.
"""

from __future__ import annotations

# A player still in the round when it ends exits "last": the rules engine's own marker.
from gamebag.games.eel_family.state import STILL_IN as STILL_IN

MAX_SEATS = 8
# Policies of the compiled kernels, by code.
POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_NAMES = ("random", "heuristic")

# ---- per-seat blocks (offset of seat 0) ----------------------------------------------------
SCORES = 0
RESERVES = 8
IN_ROUND = 16
EXIT_GRAB = 24  # 0: still in; 2g: exited by choosing 0 in grab g; 2g + 1: lone exit after grab g
WINNER = 32  # 1 for each winner once the game is over
LAST_COUNT = 40  # the last grab, as the rules engine's GrabResult holds it
LAST_EELS = 48
LAST_SNAKES = 56
LAST_SCORED = 64
LAST_EXITED = 72
LAST_LOSER = 80
# ---- single fields ------------------------------------------------------------------------
BAG_EELS = 88
BAG_SNAKES = 89
CENTRE = 90
ROUND = 91
START = 92
GRAB = 93
LONE_LEFT = 94  # -1: none (the rules engine's None)
OVER = 95
HAS_LAST = 96  # 0 before the first grab of the game
LAST_OUTBREAK = 97
LAST_ROUND_OVER = 98
WIDTH = 99

SEAT_BLOCKS = {
    "scores": SCORES,
    "reserves": RESERVES,
    "in_round": IN_ROUND,
    "exit_grab": EXIT_GRAB,
    "winner": WINNER,
    "last_counts": LAST_COUNT,
    "last_eels": LAST_EELS,
    "last_snakes": LAST_SNAKES,
    "last_scored": LAST_SCORED,
    "last_exited": LAST_EXITED,
    "last_losers": LAST_LOSER,
}
FIELDS = {
    "bag_eels": BAG_EELS,
    "bag_snakes": BAG_SNAKES,
    "centre": CENTRE,
    "round_no": ROUND,
    "start": START,
    "grab_no": GRAB,
    "lone_left": LONE_LEFT,
    "over": OVER,
    "has_last": HAS_LAST,
    "last_outbreak": LAST_OUTBREAK,
    "last_round_over": LAST_ROUND_OVER,
}

# ---- configuration row --------------------------------------------------------------------
C_PLAYERS = 0
C_MAX_GRAB = 1
C_THRESHOLD = 2
C_DICE = 3
C_ROTATE_START = 4
C_LONE_LIMIT = 5  # -1: no limit
C_OUTBREAK_SCORES_RESERVE = 6
C_WRIGGLE = 7  # 1: wriggle-roulette rules, 0: eel-harvest rules
C_EELS = 8
C_SNAKES = 9
C_TARGET = 10
C_GRAB_SCALE = 11  # what the observation divides the grab limit by (the largest grab limit allowed)
CONFIG_WIDTH = 12

# How a kernel game ended (BatchResult.ended_by): a normal end is the rules engine's
# ``termination()`` of a finished Eel game, ``Termination.GOAL``; a capped game is an error.
END_NORMAL = 0
END_STEP_CAP = 1
ENDED_BY_NAMES = ("goal", "step cap")
# A game still running after this many grabs is stopped (no sensible policy comes close;
# it guards policies that never grab, which can make a round end with no points forever).
MAX_GRABS_PER_GAME = 100_000
