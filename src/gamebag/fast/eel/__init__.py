"""The compiled engine of the Eel family (``eel-harvest`` and ``wriggle-roulette``).

``layout`` places a position's fields in an integer row, ``kernel`` holds the rules,
``policies`` the compiled ``random`` and ``heuristic`` agents, ``batch`` the whole-game
and step kernels, and ``engine`` the :class:`~gamebag.fast.FastEngine` classes that
importing this package registers.
"""

from __future__ import annotations

from gamebag.fast.eel.engine import EelHarvestEngine, EelStepBatch, WriggleRouletteEngine
from gamebag.fast.registry import register_engine

register_engine(EelHarvestEngine())
register_engine(WriggleRouletteEngine())

__all__ = ["EelHarvestEngine", "EelStepBatch", "WriggleRouletteEngine"]
