"""The numbers of Pig's reference strategy, the heuristic agent's, kept once as data.

``agents/heuristics/pig.py`` plays it and the compiled engines (``gamebag.fast.pig``, its JAX
twin) copy it exactly; both read these numbers from here, so neither can drift from the other.
"""

from __future__ import annotations

# Hold once the turn's total reaches this: far from the goal it maximises a turn's expected
# points (the optimal-score solution finds the same threshold).
HOLD_AT = 20
