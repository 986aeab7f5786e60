"""The numbers of Catch A Dragon's reference strategy, the heuristic agent's, kept once as data.

``agents/heuristics/catch_a_dragon.py`` plays it and the compiled engines
(``gamebag.fast.dragon``, its JAX twin) copy its arithmetic exactly; both read these
numbers from here, so neither can drift from the other.
"""

from __future__ import annotations

# What one more successful roll typically adds to a set of different colours, or to one dragon
# (two or more identical dragons gain exactly the next square).
DIFFERENT_GAIN = 2.0
ONE_DRAGON_GAIN = 1.5
