"""Smoke runs of the bench scripts: ``GAMEBAG_BENCH_SMOKE=1`` makes every script run to its end in seconds.

``tests/bench_smoke`` runs each script in ``bench/`` as a subprocess with tiny budgets (its own
flags, listed there) and this variable set, so that a changed bound or API breaks a test rather
than the next real run. Work a script does at a size written into it (a number of games, the
default search budget, a solve of the full game) shrinks here, through ``smoke_or``; where such
a size must respect a bound of gamebag's (``simulate``'s games), the script checks the full size
against the bound before playing the small one. The figures of a smoke run mean nothing.
"""

from __future__ import annotations

import os
from typing import TypeVar

SMOKE_ENV = "GAMEBAG_BENCH_SMOKE"
SMOKE = os.environ.get(SMOKE_ENV) == "1"

T = TypeVar("T")


def smoke_or(full: T, small: T) -> T:
    """``small`` in a smoke run, else ``full``."""
    return small if SMOKE else full
