"""A packed tanh MLP (``gamebag.fast.weights.flat_net``) run inside compiled kernels.

:func:`hidden_forward` computes every layer but the last over its whole width, and
:func:`output_score` one column of the last layer, so a policy scores only the legal
actions. Sums are taken in float64 and each layer's output rounded to float32, so the
scores are NumPy's float32 products to within rounding; ``tests/fast`` proves the picks
equal to ``NumpyPolicy``'s on the positions the games meet.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from gamebag.fast.rng import helper
from gamebag.fast.weights import S_BIAS, S_IN, S_OUT, S_WEIGHTS

Floats32 = npt.NDArray[np.float32]
Floats64 = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@helper
def hidden_forward(x: Floats32, values: Floats32, shape: Ints, buffers: Floats64) -> int:  # pragma: no cover
    """Every layer but the last, from input ``x``; returns the row of ``buffers`` ``[2, width]``
    holding the last hidden layer's outputs (float32 values; ``-1``: one layer only, read ``x``)."""
    source = -1
    for number in range(shape.shape[0] - 1):
        w_at = shape[number, S_WEIGHTS]
        b_at = shape[number, S_BIAS]
        width_out = shape[number, S_OUT]
        target = 0 if source != 0 else 1
        for j in range(width_out):
            buffers[target, j] = 0.0
        for i in range(shape[number, S_IN]):
            value = np.float64(x[i]) if source < 0 else buffers[source, i]
            if value == 0.0:
                continue  # observations are mostly zeros: skip their rows
            row = w_at + i * width_out
            for j in range(width_out):
                buffers[target, j] += value * values[row + j]
        for j in range(width_out):
            before = np.float32(buffers[target, j] + values[b_at + j])
            buffers[target, j] = np.float32(math.tanh(before))
        source = target
    return source


@helper
def output_score(
    x: Floats32, values: Floats32, shape: Ints, buffers: Floats64, source: int, column: int
) -> np.float32:  # pragma: no cover - compiled
    """The last layer's output ``column``, from what ``hidden_forward`` left in row ``source``."""
    last = shape.shape[0] - 1
    w_at = shape[last, S_WEIGHTS]
    width_out = shape[last, S_OUT]
    total = 0.0
    for i in range(shape[last, S_IN]):
        value = np.float64(x[i]) if source < 0 else buffers[source, i]
        total += value * values[w_at + i * width_out + column]
    return np.float32(total + values[shape[last, S_BIAS] + column])
