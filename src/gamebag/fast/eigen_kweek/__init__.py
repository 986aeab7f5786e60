"""The compiled engine of Eigen Kweek (``eigen-kweek``).

``layout`` places a position's fields in an integer row, ``tables`` reads a rules
configuration and position into the kernels' arrays, ``cards``, ``phases`` and
``kernel`` hold the rules, ``policies`` and ``heuristic`` the compiled ``random`` and
``heuristic`` agents, ``batch`` the whole-game and step kernels, and ``engine`` the
:class:`~gamebag.fast.FastEngine` that importing this package registers.
"""

from __future__ import annotations

from gamebag.fast.eigen_kweek.engine import EigenKweekEngine
from gamebag.fast.registry import register_engine

register_engine(EigenKweekEngine())

__all__ = ["EigenKweekEngine"]
