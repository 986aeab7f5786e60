"""The ``gamebag`` domain's translation functions: the words of core, the command line, the lab,
simulation, analysis and the agents (``_("...")``, ``ngettext(...)``; see ``core/i18n.py``)."""

from __future__ import annotations

from gamebag.core.i18n import N_, catalogue

_, ngettext = catalogue("gamebag", "gamebag")

__all__ = ["N_", "_", "ngettext"]
