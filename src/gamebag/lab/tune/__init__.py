"""``gamebag tune``: search a game's options for a design that meets the designer's goals.

``space`` reads what may change (``--search``), ``metrics`` what a cell of games measures and
with what interval, ``goals`` what to optimise and which limits must hold, ``search`` runs the
Optuna study, re-measures the leaders and confirms the recommendation at a fresh seed, and
``report`` draws it.
"""

from gamebag.lab.stats import Estimate
from gamebag.lab.tune.goals import Goal, Limit, parse_goals, parse_limits
from gamebag.lab.tune.metrics import METRICS, Measurement
from gamebag.lab.tune.search import TuneResult, TuneSettings, TuneTrial, tune
from gamebag.lab.tune.space import Dimension, parse_search

__all__ = [
    "METRICS",
    "Dimension",
    "Estimate",
    "Goal",
    "Limit",
    "Measurement",
    "TuneResult",
    "TuneSettings",
    "TuneTrial",
    "parse_goals",
    "parse_limits",
    "parse_search",
    "tune",
]
