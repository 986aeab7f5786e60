"""A counter-based generator for the kernels, keyed by (seed, game index).

Each game owns a 64-bit key derived from the run's seed and its index; draw ``c``
of that game is ``mix64(key + c * GOLDEN)`` (SplitMix64's output function over a
Weyl sequence), so a game's draws never depend on which batch or worker plays it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from gamebag.core.rng import derive_seed
from gamebag.fast import cache as _cache  # noqa: F401  (kernel caches stamped with all kernel sources)

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0
# How the functions a kernel calls are compiled (``@helper``, ``@inlined_helper``): they only
# read and write arrays their caller owns, so they are compiled without numba's reference
# counting; with it, every call paid atomic increments and decrements on each array it was
# handed, which cost more than the rules themselves (most of a whole-game kernel's time).
# Functions that allocate arrays (the kernels' entry points) keep ``cache=True`` alone.
_HELPER_OPTIONS: dict[str, Any] = {"cache": True, "_nrt": False}
_F = TypeVar("_F", bound=Callable[..., Any])


def helper(function: _F) -> _F:
    """Compile ``function`` for the kernels to call, without reference counting."""
    return cast(_F, numba.njit(**_HELPER_OPTIONS)(function))


def inlined_helper(function: _F) -> _F:
    """``helper``, and inlined into each caller (the rules a hot loop runs every step)."""
    return cast(_F, numba.njit(inline="always", **_HELPER_OPTIONS)(function))


def run_key(seed: int | str) -> np.uint64:
    """The 64-bit key of a run; every kernel derives game keys from it."""
    return np.uint64(derive_seed(seed, "fast"))


@numba.njit(cache=True, inline="always")
def mix64(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@numba.njit(cache=True)
def game_key(run: np.uint64, index: np.int64) -> np.uint64:
    """The key of game ``index`` of the run keyed ``run``."""
    return mix64(run ^ mix64(np.uint64(index) * GOLDEN + GOLDEN))


@numba.njit(cache=True, inline="always")
def draw_u64(key: np.uint64, counter: np.uint64) -> np.uint64:
    return mix64(key + counter * GOLDEN)


@numba.njit(cache=True, inline="always")
def draw_below(key: np.uint64, counter: np.uint64, n: np.int64) -> np.int64:
    """An integer uniform on ``0 .. n - 1`` (53-bit float scaling: bias below 2**-40 for n < 2**13)."""
    # The top 53 bits fit a signed integer, whose conversion is one instruction on any CPU.
    u = np.float64(np.int64(draw_u64(key, counter) >> _S11)) * _INV53
    return np.int64(u * n)


@numba.njit(cache=True, inline="always")
def draw_uniform(key: np.uint64, counter: np.uint64) -> np.float64:
    """A float uniform on [0, 1)."""
    return np.float64(np.int64(draw_u64(key, counter) >> _S11)) * _INV53
