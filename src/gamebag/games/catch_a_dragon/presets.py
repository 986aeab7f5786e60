"""Catch A Dragon's named presets (``gamebag.core.presets``): a shorter game, and the rulebook's
bust words read the gentler way (``rules.md``, "Our readings of the rulebook")."""

from __future__ import annotations

from gamebag.core.presets import Preset

PRESETS: tuple[Preset, ...] = (
    Preset("quick", "A quick game", "Two rounds instead of the rulebook's four.", {"rounds": 2}),
    Preset(
        "gentle-bust",
        "Gentler busts",
        "A set of different colours busts only when no rolled egg shows a colour you do not hold yet.",
        {"duplicate_bust": "none-new"},
    ),
)
