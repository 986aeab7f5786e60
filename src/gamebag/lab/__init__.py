"""The designer's balance lab: seat balance, option effects and game length, with intervals.

>>> from gamebag import lab
>>> result = lab.balance("wriggle-roulette", players="2-4", vary={"rotate_start": [False, True]}, games=2000)
>>> result.cells[0].win_share, result.cells[0].fairness_p          # doctest: +SKIP
>>> frame = result.per_game.to_pandas()                           # doctest: +SKIP

See :func:`balance` for the arguments, :class:`BalanceResult` for what comes back,
and ``docs/designers.md`` for worked studies.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamebag.lab.api import balance, plan
    from gamebag.lab.cards import CardRow, CardStudy, card_study
    from gamebag.lab.cells import Cell
    from gamebag.lab.results import BalanceResult, CellResult, Comparison

# The names are imported when first used (PEP 562), so a module that only needs the lab's catalogue
# (``gamebag.lab.translation``, used by ``gamebag.sim`` too) does not import the whole lab.
_HOMES = {
    "balance": "api",
    "plan": "api",
    "CardRow": "cards",
    "CardStudy": "cards",
    "card_study": "cards",
    "Cell": "cells",
    "BalanceResult": "results",
    "CellResult": "results",
    "Comparison": "results",
}

__all__ = [
    "BalanceResult",
    "CardRow",
    "CardStudy",
    "Cell",
    "CellResult",
    "Comparison",
    "balance",
    "card_study",
    "plan",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"gamebag.lab.{home}"), name)
    globals()[name] = value
    return value
