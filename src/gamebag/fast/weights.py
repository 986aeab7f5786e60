"""Learned policies that the compiled engines play, supplied by the layer that ships them.

The ``learned`` agent (``gamebag.agents.learned``) plays a small tanh MLP from a seat's
observation tensor to one score per action, taking the best-scored legal action. A
compiled engine plays the same network inside its kernels, but ``agents`` sits in a
layer above the kernels, so the kernels never import it: the agents side registers one
*source* here, a function ``game -> layers`` (``(weights [in, out], bias [out])`` pairs)
that raises ``LookupError`` with a one-line reason when no policy ships for the
configuration, and the engines ask :func:`shipped_layers` (dependency inversion, as
``gamebag.fast.solved``). The ``gamebag`` package registers the shipped policies when it
is imported (``gamebag/__init__.py``).

:func:`flat_net` packs a network into two arrays a kernel can take
(``gamebag.fast.mlp`` runs it in compiled code). This module imports no compiler: the
package root registers the source without paying for numba.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.core.protocol import Game

Layers = Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]
LayerSource = Callable[[Game[Any, Any, Any]], Layers]
Floats32 = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]

# Columns of a packed network's shape table: where a layer's weights and bias start, its widths.
S_WEIGHTS, S_BIAS, S_IN, S_OUT = 0, 1, 2, 3

_source: list[LayerSource] = []


def provide_learned(source: LayerSource) -> None:
    """Make ``source`` the one place the engines get shipped learned policies from (a later call replaces it)."""
    _source[:] = [source]


def shipped_layers(game: Game[Any, Any, Any]) -> Layers | str:
    """The layers of the ``learned`` policy shipped for ``game``, or why there is none (one line)."""
    if not _source:
        return "no source of learned policies is registered (gamebag.fast.weights.provide_learned)"
    try:
        return _source[0](game)
    except LookupError as error:
        return str(error.args[0]) if error.args else "no learned policy ships for this configuration"


def flat_net(layers: Layers) -> tuple[Floats32, Ints]:
    """``(values, shape)``: every weight and bias in one float32 array, and per layer its
    ``S_WEIGHTS``, ``S_BIAS`` offsets and ``S_IN``, ``S_OUT`` widths (weights row-major [in, out])."""
    if not layers:
        raise ValueError("a network needs at least one layer")
    shape = np.zeros((len(layers), 4), np.int64)
    parts: list[Floats32] = []
    at = 0
    width = int(layers[0][0].shape[0])
    for number, (weights, bias) in enumerate(layers):
        if weights.ndim != 2 or bias.shape != (weights.shape[1],) or weights.shape[0] != width:
            raise ValueError(f"layer {number} has weights {weights.shape} and bias {bias.shape}: not a chain")
        shape[number] = (at, at + weights.size, weights.shape[0], weights.shape[1])
        parts += [np.ascontiguousarray(weights, np.float32).ravel(), np.ascontiguousarray(bias, np.float32)]
        at += weights.size + bias.size
        width = int(weights.shape[1])
    return np.concatenate(parts).astype(np.float32), shape


def widest_hidden(shape: Ints) -> int:
    """The width a kernel's hidden buffers need (at least 1)."""
    return max([1, *(int(out) for out in shape[:-1, S_OUT])])
