"""Catch A Dragon's named presets (``gamebag.core.presets``): a shorter game, and the rulebook's
bust words read the gentler way (``rules.md``, "Our readings of the rulebook").

Labels and summaries are marked with ``N_`` and shown in the reader's language through
``core.i18n.game_text`` (the game's ``text_domain``)."""

from __future__ import annotations

from gamebag.core.presets import Preset
from gamebag.games.catch_a_dragon.translation import N_

PRESETS: tuple[Preset, ...] = (
    Preset("quick", N_("A quick game"), N_("Two rounds instead of the rulebook's four."), {"rounds": 2}),
    Preset(
        "gentle-bust",
        N_("Gentler busts"),
        N_("A set of different colours busts only when no rolled egg shows a colour you do not hold yet."),
        {"duplicate_bust": "none-new"},
    ),
)
