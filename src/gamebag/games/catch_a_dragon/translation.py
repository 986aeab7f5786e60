"""This game's translation functions: its own catalogue (``locale/``), which travels with the game
(``_("...")``, ``ngettext(...)``; see ``core/i18n.py``)."""

from __future__ import annotations

from gamebag.core.i18n import N_, catalogue

_, ngettext = catalogue("catch_a_dragon", __package__ or __name__)

__all__ = ["N_", "_", "ngettext"]
