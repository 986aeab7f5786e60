"""The turn-level models of gamebag's own games, each registered for its game class on import.

The rules (``gamebag.games``) hold no solver code; each model here reads its game's rules
(``turn_models`` says how a model is found, and how a plugin game registers its own).
"""

from __future__ import annotations

from gamebag.agents.solvers.models import catch_a_dragon, pig

__all__ = ["catch_a_dragon", "pig"]
