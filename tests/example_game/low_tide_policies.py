"""Two fixed Low Tide strategies for the tests, as ``policy:FILE:NAME`` agents (they read the
observation tensor: the hand's 12 counts, then the tide one-hot over 0 (none) and 1..12).

``careful`` plays its highest card under the tide and, when it has none, its lowest card;
``reckless`` plays its lowest card at or over the tide (taking it) whenever it can, else its
highest. Measured over 2,000 two-player games (seed 1): careful beats random in 62% of games
(mean scores 19.0 and 22.2), random beats reckless in 68% (21.7 and 28.1), careful beats
reckless in 80% (18.4 and 29.6).
"""

from __future__ import annotations

import numpy as np

TIDE = slice(12, 25)


def careful(observation: np.ndarray, mask: np.ndarray) -> int:
    tide = int(np.argmax(observation[TIDE]))
    legal = np.flatnonzero(mask)  # action index i is the card i + 1
    under = [int(i) for i in legal if i + 1 < tide]
    return max(under) if under else int(legal.min())


def reckless(observation: np.ndarray, mask: np.ndarray) -> int:
    tide = int(np.argmax(observation[TIDE]))
    legal = np.flatnonzero(mask)
    over = [int(i) for i in legal if i + 1 >= tide]
    return min(over) if over else int(legal.max())
