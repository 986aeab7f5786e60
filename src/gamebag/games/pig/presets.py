"""Pig's named presets (``gamebag.core.presets``): shorter races than the classic 100."""

from __future__ import annotations

from gamebag.core.presets import Preset

PRESETS: tuple[Preset, ...] = (
    Preset("quick", "A quick game", "The first to 50 points wins, half the classic race.", {"goal": 50}),
    Preset("sprint", "A sprint", "The first to 20 points wins: a game of a few turns.", {"goal": 20}),
)
