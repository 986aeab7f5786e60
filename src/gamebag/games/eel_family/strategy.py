"""The numbers of the Eel family's reference strategy, the heuristic agent's, kept once as data.

``agents/heuristics/eel_family.py`` plays it and the compiled engines (``gamebag.fast.eel``,
its JAX twin) compute the same floats in the same order; both read these numbers from here,
so neither can drift from the other.
"""

from __future__ import annotations

# The count each other player still in is taken to grab.
TYPICAL_OTHER_GRAB = 2
# Chance that another player still in grabs the same count as this one (bots reason alike).
ALIKE = 0.5
