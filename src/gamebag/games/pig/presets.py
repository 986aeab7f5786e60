"""Pig's named presets (``gamebag.core.presets``): shorter races than the classic 100.

Labels and summaries are marked with ``N_`` and shown in the reader's language through
``core.i18n.game_text`` (the game's ``text_domain``)."""

from __future__ import annotations

from gamebag.core.presets import Preset
from gamebag.games.pig.translation import N_

PRESETS: tuple[Preset, ...] = (
    Preset("quick", N_("A quick game"), N_("The first to 50 points wins, half the classic race."), {"goal": 50}),
    Preset("sprint", N_("A sprint"), N_("The first to 20 points wins: a game of a few turns."), {"goal": 20}),
)
