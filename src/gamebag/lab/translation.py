"""The ``lab``'s translation functions: its own catalogue (``gamebag/lab/locale``), the words of
the design lab: balance, metrics, design search and their reports, and the designer's commands
(``_("...")``, ``ngettext(...)``; see ``core/i18n.py``).

``fmt`` writes a number as Python's format ``spec`` does (``.3f``, ``+.2f``, ``.3g``, ``,``), with
the reader's decimal sign and digit grouping (0.512 / 0,512), so a table of figures reads the same
in every language and exactly as before in English.
"""

from __future__ import annotations

from gamebag.core.i18n import N_, babel_locale, catalogue

_, ngettext = catalogue("lab", "gamebag.lab")

__all__ = ["N_", "_", "fmt", "ngettext"]


def fmt(value: float, spec: str) -> str:
    """``format(value, spec)`` with the reader's decimal sign and group separator."""
    text = format(value, spec)
    from babel.numbers import get_decimal_symbol, get_group_symbol

    locale = babel_locale()
    point, group = str(get_decimal_symbol(locale)), str(get_group_symbol(locale))
    if (point, group) == (".", ","):
        return text
    return text.replace(",", "\0").replace(".", point).replace("\0", group)
