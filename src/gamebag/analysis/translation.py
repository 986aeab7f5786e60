"""The ``analysis``'s translation functions: its own catalogue (``gamebag/analysis/locale``), the words of
the analysis of finished games and the coach (``_("...")``, ``ngettext(...)``; see ``core/i18n.py``)."""

from __future__ import annotations

from gamebag.core.i18n import N_, catalogue

_, ngettext = catalogue("analysis", "gamebag.analysis")

__all__ = ["N_", "_", "ngettext"]
