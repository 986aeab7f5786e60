"""The ``lab`` domain's translation functions, for simulation and the design lab alike (its
catalogue is ``gamebag/lab/locale``; ``gamebag.lab.translation`` re-exports these): the words of
simulation, the design lab: balance, metrics, design search and their reports, and the designer's commands
(``_("...")``, ``ngettext(...)``; see ``core/i18n.py``).

``fmt`` writes a number as Python's format ``spec`` does (``.3f``, ``+.2f``, ``.3g``, ``,``), with
the reader's decimal sign and digit grouping (0.512 / 0,512), so a table of figures reads the same
in every language and exactly as before in English.

A study's warnings and notes are kept in English in its results (its JSON is language-neutral) and
said in the reader's language when shown: ``say(N_("..."), **params)`` makes such a sentence (a
``Said``, a ``str``), ``shown(text)`` translates it; ``Figure`` is a number written the reader's way.
"""

from __future__ import annotations

from typing import Any

from gamebag.core.i18n import N_, SOURCE_LANGUAGE, babel_locale, catalogue, formatted, use_language

# The catalogue lives with the lab (gamebag/lab/locale), named by path: simulation sits below the lab.
_, ngettext = catalogue("lab", "gamebag", folder="lab/locale")

__all__ = ["N_", "Choices", "Figure", "Said", "_", "fmt", "joined", "ngettext", "or_list", "say", "shown"]


def fmt(value: float, spec: str) -> str:
    """``format(value, spec)`` with the reader's decimal sign and group separator."""
    return formatted(value, spec)


class Figure:
    """A number to be written in the reader's notation when a sentence is shown (``fmt``), not when
    the sentence is made: ``say(N_("{mean} rounds"), mean=Figure(4.25, ".1f"))``."""

    def __init__(self, value: float, spec: str = ",") -> None:
        self.value, self.spec = value, spec

    def __str__(self) -> str:
        return fmt(self.value, self.spec)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Figure({self.value!r}, {self.spec!r})"


class Said(str):
    """A sentence kept in English, the language-neutral text a result's JSON carries, that ``shown``
    says again in the reader's language (its message and parameters travel with it)."""

    message: str
    params: dict[str, Any]


def say(message: str, /, **params: Any) -> Said:
    """``message`` (marked with ``N_``) filled with ``params``, in English, remembering both so that
    ``shown`` can translate it for whoever reads it later (warnings, notes, notices of a study)."""
    with use_language(SOURCE_LANGUAGE):
        english = _(message, **{name: _english(value) for name, value in params.items()})
    said = Said(english)
    said.message, said.params = message, params
    return said


def shown(text: str) -> str:
    """``text`` in the current language: a ``Said`` sentence translated, any other text as it is."""
    parts = getattr(text, "parts", None)
    if parts is not None:
        return str(getattr(text, "separator", "; ")).join(shown(part) for part in parts)
    message = getattr(text, "message", None)
    if message is None:
        return str(text)
    params = getattr(text, "params", {})
    return _(message, **{name: shown(value) if isinstance(value, str) else value for name, value in params.items()})


def joined(parts: list[str], separator: str = "; ") -> Said:
    """Sentences kept together (each said in the reader's language when shown)."""
    said = Said(separator.join(str(part) for part in parts))
    said.parts, said.separator = list(parts), separator  # type: ignore[attr-defined]
    return said


def _english(value: Any) -> Any:
    return str(value) if isinstance(value, (Said, Figure)) else value


def or_list(items: Any) -> str:
    """Alternatives as the reader lists them: ``heuristic or learned`` / ``heuristic of learned``."""
    from babel.lists import format_list

    return str(format_list([str(item) for item in items], style="or", locale=babel_locale()))


class Choices(Figure):
    """Alternatives (``or_list``) listed in the reader's language when a sentence is shown."""

    def __init__(self, items: Any) -> None:
        super().__init__(0.0)
        self.items = [str(item) for item in items]

    def __str__(self) -> str:
        return or_list(self.items)
