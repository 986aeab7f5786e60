"""Figures in the reader's language: glyphs for Japanese and Chinese (Debian's Noto CJK, when
installed) and tick numbers with the reader's decimal sign; used by simulation's plots and the lab's."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from gamebag.core.i18n import babel_locale, current_language
from gamebag.sim.translation import fmt

if TYPE_CHECKING:  # matplotlib is imported only when a figure is drawn
    from matplotlib.axes import Axes

__all__ = ["CJK_FONTS", "reader_fonts", "reader_numbers"]


# Fonts with Japanese and Chinese glyphs (Debian's Noto CJK), tried after matplotlib's own font for the
# characters it lacks; the first is the one whose glyph shapes suit the language.
CJK_FONTS = {
    "ja": ("Noto Sans CJK JP", "Noto Sans CJK SC", "Noto Serif CJK JP", "IPAexGothic", "IPAGothic"),
    "zh_Hans": ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Serif CJK SC", "WenQuanYi Zen Hei"),
}


@contextmanager
def reader_fonts() -> Iterator[None]:
    """Draw (make and save figures) inside this block so the reader's script has glyphs: for Japanese and
    Chinese, a CJK font after matplotlib's default; other languages, or no CJK font installed, as before."""
    wanted = CJK_FONTS.get(current_language())
    if not wanted:
        yield
        return
    from matplotlib import rc_context

    found = _installed_fonts(wanted)
    if not found:
        yield
        return
    with rc_context({"font.family": ["DejaVu Sans", *found]}):  # the fallback works on a list of families
        yield


# File names of CJK fonts worth adding to matplotlib's list when its cache predates them.
_CJK_FILES = ("cjk", "ipag", "ipaexg", "wqy")


@functools.cache
def _installed_fonts(wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The fonts of ``wanted`` matplotlib can draw with. Its font cache is made once and misses fonts
    installed later (Noto CJK added after the first figure): those are looked up among the system's
    font files and added, once per process."""
    from matplotlib import font_manager

    def found() -> tuple[str, ...]:
        installed = {entry.name for entry in font_manager.fontManager.ttflist}
        return tuple(name for name in wanted if name in installed)

    if found():
        return found()
    for path in font_manager.findSystemFonts(fontext="ttf"):
        if any(part in Path(path).name.lower() for part in _CJK_FILES):
            try:
                font_manager.fontManager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue
    return found()


def reader_numbers(axis: Axes, which: str = "y") -> None:
    """Write the tick numbers of ``axis`` (``"x"``, ``"y"`` or ``"both"``) with the reader's decimal
    sign (0,25 in Dutch, French and German); languages that write 0.25 keep matplotlib's own ticks."""
    from babel.numbers import get_decimal_symbol
    from matplotlib.ticker import FuncFormatter

    if str(get_decimal_symbol(babel_locale())) == ".":
        return
    formatter = FuncFormatter(lambda value, position: fmt(round(value, 10), "g"))
    for name in ("x", "y") if which == "both" else (which,):
        getattr(axis, f"{name}axis").set_major_formatter(formatter)
