"""The continuation tables of the equilibrium agent, read from ``tables.json`` (package data).

``TABLES[key][s0][s1]``: seat 0's chance to win when a two-player round starts
at scores ``(s0, s1)`` and both seats play the solved equilibrium, for each
configuration key of ``RoundRules``. ``EXPLOITABILITY[key]``: seat 0's value
from the start, each seat's best-response gain and their mean, and the seconds
the build took. ``gamebag.agents.equilibrium.build`` writes the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

TABLES_FILE = "tables.json"
TABLES_FORMAT = "gamebag-equilibrium-tables/1"


@dataclass(frozen=True)
class ShippedTables:
    """The decoded contents of a tables file."""

    tables: dict[str, tuple[tuple[float, ...], ...]]
    exploitability: dict[str, dict[str, float]]


def read_tables(text: str) -> ShippedTables:
    """Decode a tables file; ``ValueError`` if it is not one."""
    data: Any = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != TABLES_FORMAT:
        raise ValueError(f"not a {TABLES_FORMAT} file")
    tables = {
        str(key): tuple(tuple(float(v) for v in row) for row in rows) for key, rows in data["tables"].items()
    }
    figures = {
        str(key): {str(name): float(v) for name, v in values.items()} for key, values in data["exploitability"].items()
    }
    return ShippedTables(tables, figures)


_SHIPPED = read_tables(resources.files(__package__).joinpath(TABLES_FILE).read_text(encoding="utf-8"))
TABLES = _SHIPPED.tables
EXPLOITABILITY = _SHIPPED.exploitability
