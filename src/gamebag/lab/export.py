"""Writing a study's per-game rows to CSV or Parquet (pyarrow), and its figures to JSON-ready form."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from gamebag.core.errors import GamebagError

SUFFIXES = (".csv", ".parquet")


def check_table_path(path: Path) -> None:
    if path.suffix.lower() not in SUFFIXES:
        raise GamebagError(f"--per-game {path.name!r}: name a file ending in .csv or .parquet")


def write_table(table: pa.Table, path: Path) -> None:
    """Write ``table`` as CSV (winners as ``0;2``) or Parquet (winners as a list), by the file's suffix."""
    check_table_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        pq.write_table(table, path)
        return
    import pyarrow.csv as pcsv

    if "winners" in table.column_names:
        index = table.column_names.index("winners")
        as_text = pc.binary_join(pc.cast(table["winners"], pa.list_(pa.string())), ";")
        table = table.set_column(index, "winners", as_text)
    pcsv.write_csv(table, path)
