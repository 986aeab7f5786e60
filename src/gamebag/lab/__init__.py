"""The designer's balance lab: seat balance, option effects and game length, with intervals.

>>> from gamebag import lab
>>> result = lab.balance("wriggle-roulette", players="2-4", vary={"rotate_start": [False, True]}, games=2000)
>>> result.cells[0].win_share, result.cells[0].fairness_p          # doctest: +SKIP
>>> frame = result.per_game.to_pandas()                           # doctest: +SKIP

See :func:`balance` for the arguments, :class:`BalanceResult` for what comes back,
and ``docs/designers.md`` for worked studies.
"""

from __future__ import annotations

from gamebag.lab.api import balance, plan
from gamebag.lab.cards import CardRow, CardStudy, card_study
from gamebag.lab.cells import Cell
from gamebag.lab.results import BalanceResult, CellResult, Comparison

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
