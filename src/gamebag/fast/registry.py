"""Which games have a compiled engine, and whether the compiler works here.

Engines register themselves by game id when their module is imported; the lookup
never fails loudly: a missing or broken compiler means "use the rules engine".
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import cache
from typing import Any

from gamebag.core.protocol import Game
from gamebag.fast.base import FastEngine

_ENGINES: dict[str, FastEngine] = {}
# Modules that register engines; imported on first lookup so that importing
# gamebag never pays for numba.
_ENGINE_MODULES: tuple[str, ...] = (
    "gamebag.fast.eel",
    "gamebag.fast.pig",
    "gamebag.fast.dragon",
    "gamebag.fast.eigen_kweek",
)


def register_engine(engine: FastEngine) -> FastEngine:
    """Make ``engine`` the compiled engine of its game id."""
    _ENGINES[engine.game_id] = engine
    return engine


@cache
def compiler_problem() -> str | None:
    """``None`` when numba imports and compiles here, else a one-line reason."""
    try:
        import numba

        if getattr(numba.config, "DISABLE_JIT", False):
            # The kernels would run as plain Python: right, but far slower than the rules engine.
            return "numba's compiler is switched off here (NUMBA_DISABLE_JIT)"

        @numba.njit(cache=False)
        def _probe(x: int) -> int:
            return x + 1

        if _probe(1) != 2:
            return "numba compiled a wrong result"
    except Exception as error:  # any failure of the compiler means: use the rules engine
        return f"numba is not usable here ({type(error).__name__}: {error})"
    return None


def _load_engines() -> None:
    for module in _ENGINE_MODULES:
        importlib.import_module(module)


def unavailable_reason(game: Game[Any, Any, Any], agents: Sequence[str]) -> str | None:
    """Why ``game`` with ``agents`` cannot run on a compiled engine, or ``None`` when it can."""
    problem = compiler_problem()
    if problem is not None:
        return problem
    _load_engines()
    engine = _ENGINES.get(game.game_id)
    if engine is None:
        return f"{game.game_id} has no compiled engine"
    return engine.unsupported(game, agents)


def engine_for(game: Game[Any, Any, Any], agents: Sequence[str]) -> FastEngine | None:
    """The compiled engine that plays ``game`` with ``agents``, or ``None`` (use the rules engine)."""
    if unavailable_reason(game, agents) is not None:
        return None
    return _ENGINES[game.game_id]
