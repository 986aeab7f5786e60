"""Post-game analysis: every decision of a finished game judged, and each seat's accuracy and luck.

``analyse_record(record)`` replays a record (``gamebag.core.records``) and, for each decision of each
seat, values the action taken and the best action in winning chance; per seat it sums the labels
(inaccuracy, mistake, blunder), an accuracy figure and the luck of the chance events
(``figures``). How the values are had depends on what gamebag can solve (``select``):

* exactly, from the turn-level win solvers (two-player Pig and Catch A Dragon, ``turns``) or the
  two-player Eel equilibrium (``eel``);
* otherwise estimated by playouts from the seat's own information (``estimate``), with intervals;
  games with a turn model (Catch A Dragon with 3+ players) also get the exact expected-points loss.

``docs/analysis.md`` says how to read one and how the figures are defined.
"""

from gamebag.analysis.figures import Analysis, DecisionReport, SeatReport
from gamebag.analysis.run import DEFAULT_PLAYOUTS, MAX_PLAYOUTS, AnalysisSettings, analyse_record

__all__ = [
    "DEFAULT_PLAYOUTS",
    "MAX_PLAYOUTS",
    "Analysis",
    "AnalysisSettings",
    "DecisionReport",
    "SeatReport",
    "analyse_record",
]
