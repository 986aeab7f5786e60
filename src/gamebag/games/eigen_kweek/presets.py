"""Eigen Kweek's named presets (``gamebag.core.presets``): a game with a shorter round cap, open
coins (a table option the rules name), and STEFAAN's other reading (``rules.md``, STEFAAN)."""

from __future__ import annotations

from gamebag.core.presets import Preset

PRESETS: tuple[Preset, ...] = (
    Preset(
        "quick",
        "A quick game",
        "At most 15 rounds; if nobody has four potato sacks by then, the most sacks win.",
        {"max_rounds": 15},
    ),
    Preset(
        "open-coins",
        "Open coins",
        "Coins in collections lie face up, so everyone knows what everyone can pay.",
        {"coin_visibility": "open"},
    ),
    Preset(
        "stefaan-in-place",
        "STEFAAN chooses in place",
        "STEFAAN wins a tie but chooses a corner in that bid's place, not before everyone.",
        {"stefaan_order": "tie"},
    ),
)
