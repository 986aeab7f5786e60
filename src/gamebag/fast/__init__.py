"""Compiled fast engines: numba kernels that play many games at once.

``games/<id>`` stays the specification; each kernel here is proven equal to it by
the tests in ``tests/fast``. Callers ask :func:`engine_for` for a game's kernel and
fall back to the rules engine when it returns ``None`` (no kernel for the game,
options or agents, or no working compiler), printing :func:`unavailable_reason`.
"""

from __future__ import annotations

from gamebag.fast.base import BatchResult, FastEngine, StepBatch
from gamebag.fast.registry import compiler_problem, engine_for, register_engine, unavailable_reason

__all__ = [
    "BatchResult",
    "FastEngine",
    "StepBatch",
    "compiler_problem",
    "engine_for",
    "register_engine",
    "unavailable_reason",
]
