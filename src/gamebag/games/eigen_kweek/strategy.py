"""The numbers of Eigen Kweek's reference strategy, the heuristic agent's, kept once as data.

``agents/heuristics/eigen_kweek.py`` plays it and the compiled engine
(``gamebag.fast.eigen_kweek``) copies its decisions exactly; both read these numbers from
here, so neither can drift from the other.
"""

from __future__ import annotations

# Cards worth keeping for next round rather than being dealt two new ones.
KEEP_WORTH = 3.0
# How much a revealed opponent card hurts, for JULITA (a card not named: 0, never worth a block).
HARM = {
    "BERNARD": 5.0,
    "PASTOOR": 3.0,
    "KEUN": 3.0,
    "CHANTAL": 2.5,
    "STEVEN": 2.0,
    "STEFAAN": 1.5,
    "FRANK": 2.0,
    "JOS": 1.5,
    "DEN OLLANDER": 2.5,
    "FLUPPE": 1.0,
    "GRIET": 1.0,
    "LUCIEN": 0.5,
    "RIA": 1.0,
}
# JULITA blocks a revealed card only if it hurts at least this much.
BLOCK_AT = 2.0
