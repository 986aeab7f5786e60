"""The ``lab``'s translation functions: the ones simulation uses too (``gamebag.sim.translation``),
so the whole designer's workflow speaks from one catalogue, ``gamebag/lab/locale``."""

from __future__ import annotations

from gamebag.sim.translation import *  # noqa: F403 - the same functions, under the lab's name
from gamebag.sim.translation import __all__ as __all__
