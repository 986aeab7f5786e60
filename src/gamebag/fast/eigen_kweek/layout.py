"""Where each field of an Eigen Kweek position lives in the kernels' integer arrays.

A position is one ``int32`` row of ``WIDTH`` entries. Cards are numbered in the
rulebook's order (``CARDS``), phases and steps in the order of ``nodes.Phase`` and
``nodes.Step``, coin values 1-5 by ``value - 1`` whatever set is in use, plant cards
by cost index (2, 4, 6, 8). Sets of the rules engine are bit masks: the stack (one bit
per card), ``knowledge`` (per observer and seat, one bit per card) and ``stack_known``
(per observer and place ``where + 2``, one bit per card). The public log and private
notes (text) are not part of a row. A rules configuration is one ``int64`` row of
``CONFIG_WIDTH`` entries plus two tables (actions and payments) built from the rules
engine's action catalogue, so every option is a kernel argument. Kernels read numbers
from the configuration or from ``gamebag.fast`` modules only (``gamebag.fast.cache``
stamps compiled kernels with those sources); ``tests/fast/test_kweek_equality.py``
checks every constant here against ``games/eigen_kweek``.
"""

from __future__ import annotations

MAX_SEATS = 4
VALUES = 5  # coin values 1..5, index value - 1
COSTS = 4  # plant cards costing 2, 4, 6, 8
NCARDS = 14
CORNERS = 4
TOTAL_TOKENS = 116
START_TOKENS = 10
SACKS_TO_WIN = 4
EMPTY = -1
SACK = -2
GROWTH = (1, 1, 2, 3)  # per cost index
PLANT_COSTS = (2, 4, 6, 8)

# ---- cards (rulebook order) ---------------------------------------------------------------
RIA, KEUN, FLUPPE, GRIET, PASTOOR, STEVEN, CHANTAL, LUCIEN, STEFAAN, FRANK, BERNARD, JOS, JULITA, OLLANDER = range(14)
CARD_NAMES = (
    "RIA", "KEUN", "FLUPPE", "GRIET", "PASTOOR", "STEVEN", "CHANTAL", "LUCIEN", "STEFAAN", "FRANK",
    "BERNARD", "JOS", "JULITA", "DEN OLLANDER",
)  # fmt: skip
# ---- phases and steps (``nodes`` order) --------------------------------------------------
PH_SETUP, PH_DEAL, PH_GROWTH, PH_TRADE, PH_CULTIVATE, PH_HAND_IN, PH_OVER = range(7)
PHASE_NAMES = ("setup", "deal", "growth", "trade", "cultivate", "hand_in", "over")
(
    ST_REFILL, ST_DEAL, ST_RIA_DRAW, ST_ROB_DRAW, ST_LUCIEN_DRAW, ST_CHOOSE, ST_WINDOW, ST_BID, ST_CULTIVATE,
    ST_KEEP, ST_RIA_CHOICE, ST_RIA_DIRECTION, ST_KEUN, ST_GRIET, ST_ROB, ST_BERNARD, ST_CORNER, ST_OVER,
) = range(18)  # fmt: skip
STEP_NAMES = (
    "refill", "deal", "ria_draw", "rob_draw", "lucien_draw", "choose", "window", "bid", "cultivate", "keep",
    "ria_choice", "ria_direction", "keun", "griet", "rob", "bernard", "corner", "over",
)  # fmt: skip
# The phase in which each card is played (-1: "Phase: All").
CARD_PHASE = (PH_DEAL, PH_GROWTH, PH_GROWTH, PH_GROWTH, PH_GROWTH, PH_TRADE, PH_TRADE, PH_TRADE, PH_TRADE,
              PH_CULTIVATE, PH_CULTIVATE, PH_CULTIVATE, -1, -1)  # fmt: skip
# Where a tracked card may be (``stack_known``): bit ``where + 2``.
WITH_RIA = -2
IN_STACK = -1
# How a game ended.
END_NONE = 0
END_FOUR_SACKS = 1
END_ROUND_CAP = 2
END_STEP_CAP = 3
ENDED_BY_NAMES = ("", "goal", "round_cap", "step cap")

# ---- single fields -------------------------------------------------------------------------
ROUND = 0
PHASE = 1
STEP = 2
POT = 3
HAS_BIDS = 4
REFILL_NEXT = 5
REFILL_LEFT = 6
STACK = 7  # bit mask of cards
WINDOW_STEP = 8
RIA_CARD = 9
RIA_SEAT = 10
CHOOSER = 11
ROB_TARGET = 12
BERNARD_TARGET = 13
HAS_TRADE = 14
T_ORDER_LEN = 15
T_CHOSEN_LEN = 16
T_LUCIEN = 17
WINNERS = 18  # bit mask of seats
ENDED_BY = 19
NPLAYS = 20
QLEN = 21
# ---- blocks ------------------------------------------------------------------------------
TOKENS = 24  # [seat]
BIDS = 28  # [seat]
BOARDS = 32  # [seat * 4 + cost index]
COINS = 48  # [seat * 5 + value - 1]
CORNER_COINS = 68  # [corner * 5 + value - 1]
BAG = 88  # [value - 1]
BAG_SEEN = 93
DEALT = 98  # [seat * 2 + i], -1 empty
HELD = 106  # [seat], -1 none
KEPT = 110
T_BIDS = 114
T_HANDS = 118
T_COUNTS = 122
T_ORDER = 126
T_CHOSEN = 130
KNOW = 134  # [observer * 4 + seat]: bit mask of cards
# [observer * PLACES + where + 2]: bit mask of the cards the observer knows to be there, so a card
# turned up or moved updates one entry per observer, not one per card.
STACK_KNOWN = 150
PLACES = MAX_SEATS + 2  # WITH_RIA, IN_STACK, then the seats
QUEUE = STACK_KNOWN + MAX_SEATS * PLACES  # [i]: card
PLAYS = QUEUE + 14  # [i * PLAY_WIDTH + field]
P_SEAT = 0
P_CARD = 1
P_PHASE = 2
P_STEP = 3
P_BLOCKED = 4
P_TKIND = 5  # 0: no target; 1: a seat (DEN OLLANDER); 2: a card (JULITA); 3: a named target
P_T1 = 6  # seat or card; KEUN: seat; GRIET: cost index; PASTOOR: seat; BERNARD: seat
P_T2 = 7  # KEUN: cost index; PASTOOR with open coins: the value (0: a blind draw)
P_TOOK = 8  # the card DEN OLLANDER took, -1 none
PLAY_WIDTH = 9
MAX_PLAYS = 14
WIDTH = PLAYS + MAX_PLAYS * PLAY_WIDTH

# ---- configuration row -------------------------------------------------------------------
C_PLAYERS = 0
C_CAPACITY = 1  # [cost index]
C_PLOUGH = 5  # [cost index]
C_MAX_ROUNDS = 9
C_OPEN_COINS = 10
C_STEFAAN_FIRST = 11
C_FLUPPE_SACKS = 12
C_COIN_COUNTS = 13  # [value - 1]
C_NUM_ACTIONS = 18
# Action indices (the rules engine's ``all_actions()`` positions).
C_A_CHOOSE = 19  # [card]
C_A_PASS = 33
C_A_PLAY = 34  # [card], -1 for JULITA and DEN OLLANDER
C_A_BLOCK = 48  # [card], -1 for JULITA
C_A_TAKE = 62  # [seat]
C_A_RIA_DRAW = 66
C_A_RIA_SKIP = 67
C_A_RIA_LEFT = 68
C_A_RIA_RIGHT = 69
C_A_KEUN = 70  # [seat * 4 + cost index]
C_A_GRIET = 86  # [cost index]
C_A_ROB = 90  # [seat * 6 + value]: value 0 with secret coins, 1..5 with open coins
C_A_BERNARD = 114  # [seat]
C_A_BID = 118  # bid:0; bid:k is this + k
C_A_CORNER = 119  # [corner]
C_A_HARVEST = 123  # [cost index]
C_A_HARVEST_ALL = 127
C_A_KEEP = 128
C_A_HAND_IN = 129
# Whether the kernels keep who-knows-which-card (``KNOW``, ``STACK_KNOWN``): only observations
# read it, so whole games without a ``learned`` seat turn it off (1: kept, as the rules engine does).
C_TRACK_KNOWLEDGE = 130
CONFIG_WIDTH = 131

# ---- action table: one row per action ---------------------------------------------------
A_KIND = 0
A_CARD = 1
A_SEAT = 2
A_COST = 3  # cost index
A_NUMBER = 4  # bid, corner, direction, value
A_PAY = 5  # [value - 1]: a payment's coins
A_CHEAP = 10  # rank of a payment by the heuristic's "cheapest" order
A_PACKED = 11  # a payment's coins packed 8 bits a value (``policies.fits``)
ACTION_WIDTH = 12
K_CHOOSE, K_PASS, K_PLAY, K_BLOCK, K_TAKE, K_RIA_DRAW, K_RIA_SKIP, K_RIA, K_KEUN, K_GRIET, K_ROB, K_BERNARD = range(12)
K_BID, K_CORNER, K_SOW, K_PLOUGH, K_HARVEST, K_HARVEST_ALL, K_KEEP, K_HAND_IN = range(12, 20)
KIND_NAMES = (
    "choose", "pass", "play", "block", "take", "ria_draw", "ria_skip", "ria", "keun", "griet", "rob", "bernard",
    "bid", "corner", "sow", "plough", "harvest", "harvest_all", "keep", "hand_in",
)  # fmt: skip
# ---- payment table: row (kind * 8 + cost index * 2 + frank), column 0 the count, column 1 the least
# value of a payment, then per payment its action index (column PAY_FIRST + PAY_STEP * i) and its
# coins packed as ``A_PACKED`` packs them (the next column): the menus read a row from start to end,
# not an action table row per payment.
PAY_FIRST = 2
PAY_STEP = 2
PAY_SOW = 0
PAY_PLOUGH = 1
PAY_ROWS = 16  # row PAY_ROWS + r: row r's actions cheapest first (``A_CHEAP``)
# The longest menu: a cultivate menu (pass, per plant card its harvest and every payment of its
# dearest row, harvest_all) reaches 918 with every coin value in play and ploughs at the options'
# 20; bids reach 116. ``tables.kernel_tables`` refuses a configuration whose menus could be longer.
MAX_LEGAL = 1024
# Policies of the compiled kernels, by code.
POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_NAMES = ("random", "heuristic")
# Cards in the order of their names (the order of the rules engine's ``choose:`` menus).
ALPHA_RANK = tuple(sorted(range(NCARDS), key=lambda c: CARD_NAMES[c]).index(c) for c in range(NCARDS))
# A game still running after this many decisions is stopped (guards runaway policies).
MAX_DECISIONS = 200_000
# ---- scratch: one int64 array the kernels write into (no allocation inside the rules) -------
W_PASSED = 0  # [seat]
W_KNOW = 4  # [16]
W_BLOCKS = 20  # [seat]
W_TAKES = 24  # [seat]
W_T1 = 28  # [24] targets
W_T2 = 52
W_TACT = 76
W_COUNTS = 100  # [seat] bid counts at the reveal
W_HANDS = 104
W_ORDER = 108
W_MOVES = 112  # [seat] a joint move
W_BEST = 116  # [MAX_LEGAL] ties of the heuristic
W_LEGAL = W_BEST + MAX_LEGAL  # [MAX_LEGAL] a menu
W_FILTER = W_LEGAL + MAX_LEGAL  # [MAX_LEGAL] a menu after abstaining
SCRATCH = W_FILTER + MAX_LEGAL
# ---- the last finished round, for card studies (not part of the rules' position) ----------
RULES_WIDTH = WIDTH  # the fields compared with the rules engine
REC_CHOSE = WIDTH  # [seat]: the card chosen from the deal this round (-1: kept one, or none)
REC_PLAYED = WIDTH + 4  # [seat]: bit mask of cards played (blocked ones included)
REC_BLOCKED = WIDTH + 8  # [seat]: bit mask of that seat's cards JULITA blocked
REC_KEPT = WIDTH + 12  # [seat]: the card kept for next round, -1 none
REC_READY = WIDTH + 16  # the round whose record is complete (0: none since last read)
X_CLOSE = 18  # an internal step: a window opened with no card held closes at once
WIDTH = WIDTH + 17
