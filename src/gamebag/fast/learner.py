"""What every engine's compiled ``StepBatch.learner_step`` shares: the check of the learner's choices."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gamebag.fast.rng import helper


@helper
def first_refused_choice(
    chosen: npt.NDArray[np.int64], acting: npt.NDArray[np.bool_], masks: npt.NDArray[np.bool_]
) -> int:  # pragma: no cover - compiled
    """The first env whose acting learner chose an action outside its mask (out of range
    included), or ``-1`` where every choice is allowed."""
    top = masks.shape[1]
    for k in range(chosen.shape[0]):
        if acting[k] and (chosen[k] < 0 or chosen[k] >= top or not masks[k, chosen[k]]):
            return k
    return -1
