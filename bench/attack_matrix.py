"""``bench/load_web.py --attack-matrix``: every attacker of issue 36 alone, then all together, on
each database, and the markdown table of the honest side's figures for docs/web.md.

One row per (database, attacker): ``none`` (the honest load alone), each name of
``web_attackers.ATTACKERS``, and ``all``. Each row is one ordinary ``load_web.py`` run with
that ``--attack`` (its servers started afresh), so a row reads like the runs documented above
it. The figures are the honest clients': acknowledgement p50 and p99, fallback moves at their
tables, the slowest table opening, the one analysis they asked for, how late the load
generator's own loops woke (the bench's noise floor), and the load average before and after.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from web_attackers import ATTACKERS

MATRIX = ("none", *ATTACKERS, "all")
DATABASES = ("sqlite", "postgres")


def matrix_databases(spec: str) -> list[str]:
    """``--attack-matrix`` value -> databases (``ValueError`` naming the allowed ones)."""
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if not names or any(name not in DATABASES for name in names):
        raise ValueError(
            f"--attack-matrix: databases are a comma-separated list of {', '.join(DATABASES)}, not {spec!r}"
        )
    return list(dict.fromkeys(names))


def matrix_attackers(spec: str | None) -> list[str]:
    """``--attack`` beside ``--attack-matrix``: only these rows (``none``, attacker names, ``all``)."""
    if spec is None:
        return list(MATRIX)
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if not names or any(name not in MATRIX for name in names):
        raise ValueError(f"--attack with --attack-matrix: rows are a comma-separated list of {', '.join(MATRIX)}")
    return names


def matrix_runs(
    run_one: Callable[[str | None, str], dict[str, Any]], databases: list[str], only: list[str] | None = None
) -> list[dict[str, Any]]:
    """One report per (database, attacker) of ``MATRIX`` (or ``only``), each with its own wall time."""
    rows = []
    for database in databases:
        for attacker in only or MATRIX:
            started = time.monotonic()
            report = run_one(None if attacker == "none" else attacker, database)
            rows.append(
                {"attacker": attacker, "database": database, **report, "run_seconds": time.monotonic() - started}
            )
    return rows


def _ms(value: Any) -> str:
    return "-" if value is None or value != value else f"{value:g} ms"


def matrix_markdown(rows: list[dict[str, Any]]) -> str:
    """The table docs/web.md shows (one line per run)."""
    lines = [
        "| attacker | database | honest ack p50 | honest ack p99 | fallback moves | honest table open (p50 / max) "
        "| honest analysis | bench's own lateness p99 | load average before / after | run |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        opening = f"{_ms(row.get('honest_table_open_ms_p50'))} / {_ms(row.get('honest_table_open_ms_max'))}"
        analysis = row.get("honest_analysis_seconds")
        lines.append(
            f"| {row['attacker']} | {row['database']} | {_ms(row['action_to_broadcast_ms_p50'])} "
            f"| {_ms(row['action_to_broadcast_ms_p99'])} | {row['bot_fallback_moves_at_honest_tables']} "
            f"| {opening} | {'-' if analysis is None else f'{analysis:g} s'} | {_ms(row['client_lateness_ms_p99'])} "
            f"| {row['load_average_1min_at_start']:g} / {row['load_average_1min']:g} | {row['run_seconds']:.0f} s |"
        )
    return "\n".join(lines)
