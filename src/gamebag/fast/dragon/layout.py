"""Where each field of a Catch A Dragon position lives in the kernels' arrays, and the codes they use.

A position is one row of an int32 *board* mirroring ``DragonState``: eight score
columns (seats past the player count stay 0), the round, the seat to move, the
phase, the collected and the rolled dice as counts per face, the winners as a
bit mask, and the last finished turn (its seat, round, dice, roll, points and how
it ended). A configuration is a tuple of arrays (``RulesArrays``, indexed by
``CONFIG`` ... ``LEGAL_LIST``); the policies read ``TablesArrays`` (``HEURISTIC_VALUE``
... ``WIN_WIDTH``).

A set is named by a *set code* below ``SET_CODES``: the bit mask of its faces for
the empty set, one dragon and different colours, ``64 + 6 * (face - 1) + count - 1``
for two or more identical dragons. A roll is named by its rank among the 924
rolls of at most six dice (``tables.roll_tables``).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from gamebag.core.traits import Termination
from gamebag.games.catch_a_dragon.rules import (
    MARGIN_REACH,
    ROUNDS_LEFT,
)

SIDES = 6
MAX_PLAYERS = 8
MAX_DICE = 6
# Board columns: scores first, then the position, then the last finished turn.
SCORES = 0
ROUND = 8
SEAT = 9
PHASE = 10
COLLECTED = 11  # six counts, faces 1 to 6
ROLLED = 17  # six counts
WINNERS = 23  # bit mask of the winning seats
LAST = 24  # 1 once a turn has finished
LAST_SEAT = 25
LAST_ROUND = 26
LAST_COLLECTED = 27  # six counts
LAST_ROLL = 33  # six counts
LAST_POINTS = 39
LAST_ENDED = 40  # index into TURN_ENDINGS
FIELDS = 41
TURN_ENDINGS = ("bust", "stop", "four")
BUST, STOP_END, FOUR = 0, 1, 2
# Phases, in the order of the rules engine's ``Phase`` enum.
ROLLING, COLLECTING, DECIDING, OVER = 0, 1, 2, 3
# Action indices: ``CatchADragon.all_actions()`` is (stop, roll, *collections).
STOP, ROLL = 0, 1
DUPLICATE_RULES = ("any", "none-new")
SET_CODES = 64 + 36
ROLL_CODES = 7**6  # base-7 numbers of six face counts
ROLL_RANKS = 924  # rolls of at most six dice
POLICIES: tuple[str, ...] = ("random", "heuristic", "optimal-score", "optimal-win")
RANDOM, HEURISTIC, OPTIMAL_SCORE, OPTIMAL_WIN = range(4)
# How a game ended (BatchResult.ended_by), as the rules' ``termination()`` names it.
DRAGON_ENDINGS = (Termination.ROUNDS.value, Termination.TIEBREAK_CAP.value)
# Where the observation's end-game part starts: the seat one-hot, the rounds left, the two thermometers.
OWN_SEAT = 29
ROUNDS_LEFT_AT = OWN_SEAT + MAX_PLAYERS
MARGIN_AT = ROUNDS_LEFT_AT + ROUNDS_LEFT
TURN_AT = MARGIN_AT + 2 * MARGIN_REACH + 1

IntArray = npt.NDArray[np.int32]
Int8Array = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]
FloatArray32 = npt.NDArray[np.float32]
U64Array = npt.NDArray[np.uint64]


# The rules as arrays: CONFIG holds (players, dice, rounds, most tie-break rounds); the
# others are the points of every set code, the dice each action collects, the rank of
# every roll code, and the legal collections of every (set code, roll rank) as ranges
# of LEGAL_LIST (an empty range: the roll busts the set), built from the rules' own
# ``legal_collections``.
CONFIG: Final = 0
POINTS: Final = 1
COLLECTIONS: Final = 2
ROLL_RANK: Final = 3
LEGAL_START: Final = 4
LEGAL_LIST: Final = 5
PLAYERS, DICE, ROUNDS, TIEBREAKS = range(4)
# The policies' tables (see ``policy_tables``), in this order.
HEURISTIC_VALUE: Final = 0
HEURISTIC_ROLL: Final = 1
SCORE_COLLECT: Final = 2
SCORE_DECIDE: Final = 3
WIN_SLOT: Final = 4
WIN_CHOICES: Final = 5
WIN_OFFSET: Final = 6
WIN_LOW: Final = 7
WIN_WIDTH: Final = 8
RulesArrays = tuple[IntArray, IntArray, Int8Array, npt.NDArray[np.int16], IntArray, Int8Array]
TablesArrays = tuple[
    FloatArray, Int8Array, Int8Array, Int8Array, IntArray, Int8Array, npt.NDArray[np.int64], IntArray, IntArray
]
