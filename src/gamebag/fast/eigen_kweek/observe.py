"""Each seat's observation tensor, compiled: ``views.observation_tensor`` entry for entry.

The layout (``OBSERVATION_SIZE`` floats) is the rules engine's: the phase and step one-hot,
the game's public numbers, the seat's own secrets (tokens, sealed bid, coins, card,
dealt cards, RIA's drawn card), then one block per seat starting from the observer's
own. ``tests/fast/test_kweek_equality.py`` compares both in replayed games.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek.kernel import acting
from gamebag.fast.eigen_kweek.layout import (
    BAG,
    BERNARD_TARGET,
    BIDS,
    BOARDS,
    C_CAPACITY,
    C_MAX_ROUNDS,
    C_PLAYERS,
    CHOOSER,
    COINS,
    CORNER_COINS,
    CORNERS,
    DEALT,
    HAS_BIDS,
    HAS_TRADE,
    HELD,
    KEPT,
    KNOW,
    NCARDS,
    NPLAYS,
    P_BLOCKED,
    P_CARD,
    P_SEAT,
    PHASE,
    PLAY_WIDTH,
    PLAYS,
    POT,
    RIA_CARD,
    RIA_SEAT,
    ROUND,
    SACK,
    STEP,
    T_COUNTS,
    T_ORDER,
    T_ORDER_LEN,
    TOKENS,
    TOTAL_TOKENS,
    VALUES,
    WINDOW_STEP,
    WINNERS,
)
from gamebag.fast.rng import helper

Row = npt.NDArray[np.int32]
Config = npt.NDArray[np.int64]
Out = npt.NDArray[np.float32]
PHASES = 7
STEPS = 18
TOTAL_COINS = 35
GAME_AT = PHASES + STEPS
SEAT_WIDTH = 4 + 3 * 4 + 1 + 3 * NCARDS + 5
OWN_AT = GAME_AT + 5 + CORNERS + 2 + VALUES + 3 * NCARDS
OBSERVATION_SIZE = OWN_AT + 4 * SEAT_WIDTH


@helper
def observe_row(s: Row, cfg: Config, player: int, out: Out) -> None:  # pragma: no cover - compiled
    """``player``'s observation of ``s`` into ``out`` (``OBSERVATION_SIZE`` floats)."""
    n = cfg[C_PLAYERS]
    for i in range(OBSERVATION_SIZE):
        out[i] = 0.0
    out[s[PHASE]] = 1.0
    out[PHASES + s[STEP]] = 1.0
    at = GAME_AT
    out[at] = s[ROUND] / cfg[C_MAX_ROUNDS]
    out[at + 1] = min(s[WINDOW_STEP], 10) / 10
    out[at + 2] = 1.0 if acting(s, cfg, player) else 0.0
    out[at + 3] = s[POT] / TOTAL_TOKENS
    bag = 0
    for v in range(VALUES):
        bag += s[BAG + v]
    out[at + 4] = bag / TOTAL_COINS
    at += 5
    for c in range(CORNERS):
        total = 0
        for v in range(VALUES):
            total += s[CORNER_COINS + c * VALUES + v]
        out[at + c] = total / TOTAL_COINS
    at += CORNERS
    out[at] = s[TOKENS + player] / TOTAL_TOKENS
    out[at + 1] = (s[BIDS + player] if s[HAS_BIDS] else 0) / TOTAL_TOKENS
    at += 2
    for v in range(VALUES):
        out[at + v] = s[COINS + player * VALUES + v] / TOTAL_COINS
    at += VALUES
    if s[HELD + player] >= 0:
        out[at + s[HELD + player]] = 1.0
    at += NCARDS
    for i in range(2):
        if s[DEALT + 2 * player + i] >= 0:
            out[at + s[DEALT + 2 * player + i]] = 1.0
    at += NCARDS
    if s[RIA_SEAT] == player and s[RIA_CARD] >= 0:
        out[at + s[RIA_CARD]] = 1.0
    at += NCARDS
    for offset in range(n):
        seat = (player + offset) % n
        base = at + offset * SEAT_WIDTH
        out[base] = 1.0
        coins = 0
        for v in range(VALUES):
            coins += s[COINS + seat * VALUES + v]
        out[base + 1] = coins / TOTAL_COINS
        out[base + 2] = 1.0 if s[HELD + seat] >= 0 else 0.0
        out[base + 3] = 1.0 if s[KEPT + seat] else 0.0
        slot_at = base + 4
        sacks = 0
        for c in range(4):
            slot = s[BOARDS + seat * 4 + c]
            out[slot_at] = 1.0 if slot >= 0 else 0.0
            out[slot_at + 1] = max(slot, 0) / cfg[C_CAPACITY + c]
            out[slot_at + 2] = 1.0 if slot == SACK else 0.0
            if slot == SACK:
                sacks += 1
            slot_at += 3
        out[slot_at] = sacks / 4
        played_at = slot_at + 1
        blocked_at = played_at + NCARDS
        for i in range(s[NPLAYS]):
            b = PLAYS + i * PLAY_WIDTH
            if s[b + P_SEAT] == seat:
                out[played_at + s[b + P_CARD]] = 1.0
                if s[b + P_BLOCKED]:
                    out[blocked_at + s[b + P_CARD]] = 1.0
        known_at = blocked_at + NCARDS
        known = s[KNOW + player * 4 + seat]
        for card in range(NCARDS):
            if (known >> card) & 1:
                out[known_at + card] = 1.0
        tail = known_at + NCARDS
        if s[HAS_TRADE]:
            out[tail] = s[T_COUNTS + seat] / TOTAL_TOKENS
            for i in range(s[T_ORDER_LEN]):
                if s[T_ORDER + i] == seat:
                    out[tail + 1] = 1.0
        out[tail + 2] = 1.0 if seat == s[BERNARD_TARGET] else 0.0
        out[tail + 3] = 1.0 if seat == s[CHOOSER] else 0.0
        out[tail + 4] = 1.0 if (s[WINNERS] >> seat) & 1 else 0.0
