"""The ``lab``'s translation functions: its own catalogue (``gamebag/lab/locale``), the words of
the design lab: balance, metrics, design search and their reports (``_("...")``,
``ngettext(...)``; see ``core/i18n.py``)."""

from __future__ import annotations

from gamebag.core.i18n import N_, catalogue

_, ngettext = catalogue("lab", "gamebag.lab")

__all__ = ["N_", "_", "ngettext"]
