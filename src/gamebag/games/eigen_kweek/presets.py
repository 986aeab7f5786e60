"""Eigen Kweek's named presets (``gamebag.core.presets``): a game with a shorter round cap, open
coins (a table option the rules name), and STEFAAN's other reading (``rules.md``, STEFAAN).
Names and descriptions are catalogue messages (``N_``), shown through ``game_text``."""

from __future__ import annotations

from gamebag.core.presets import Preset
from gamebag.games.eigen_kweek.translation import N_

PRESETS: tuple[Preset, ...] = (
    Preset(
        "quick",
        N_("A quick game"),
        N_("At most 15 rounds; if nobody has four potato sacks by then, the most sacks win."),
        {"max_rounds": 15},
    ),
    Preset(
        "open-coins",
        N_("Open coins"),
        N_("Coins in collections lie face up, so everyone knows what everyone can pay."),
        {"coin_visibility": "open"},
    ),
    Preset(
        "stefaan-in-place",
        N_("STEFAAN chooses in place"),
        N_("STEFAAN wins a tie but chooses a corner in that bid's place, not before everyone."),
        {"stefaan_order": "tie"},
    ),
)
