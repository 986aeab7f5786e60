"""Databases written by release 66427e3 (before schema migrations), and how to restore one for a test."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
MANIFEST: dict[str, Any] = json.loads((HERE / "manifest.json").read_text())


def restore_release(database: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The release's database (``database``: "sqlite" or "postgresql") as it was written; its URL.

    SQLite: a copy of the file in ``tmp_path``; PostgreSQL: its ``pg_dump`` restored with ``psql``
    into a fresh database of the test cluster (the ``pg_url`` and ``postgres`` fixtures).
    """
    if database == "sqlite":
        shutil.copy(HERE / "release-66427e3.sqlite", tmp_path / "web.db")
        return f"sqlite:///{tmp_path / 'web.db'}"
    url: str = request.getfixturevalue("pg_url")
    cluster = request.getfixturevalue("postgres")
    command = [str(cluster.bin / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(cluster.port)]
    command += ["-U", cluster.user, "-d", url.rsplit("/", 1)[1], "-f", str(HERE / "release-66427e3.postgresql.sql")]
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    return url
