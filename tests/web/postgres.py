"""A throw-away PostgreSQL cluster for the multi-process web tests.

Debian's server binaries (``scripts/install-postgres.sh`` installs them when
missing; ``make test`` runs it) are started on a free loopback port in a fresh
temporary folder, with trust authentication on a socket only this cluster uses.
PostgreSQL refuses to run as root, so under root the cluster runs as the
``postgres`` system user (created by Debian's package) through ``runuser``.
Each test gets its own database.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from .serverproc import free_port

SERVICE_USER = "postgres"


def _binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(os.path.realpath(initdb)).parent
    raise RuntimeError("PostgreSQL is not installed: run scripts/install-postgres.sh (make test does)")


class PostgresCluster:
    """``initdb`` + ``pg_ctl start`` in a temporary folder; ``url(db)`` for SQLAlchemy."""

    def __init__(self) -> None:
        self.bin = _binaries()
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="gamebag-pg-"))
        self.data = self.folder / "data"
        self.user = "gamebag"
        self._as_service = os.geteuid() == 0

    def _run(self, *command: str) -> None:
        argv = [str(self.bin / command[0]), *command[1:]]
        if self._as_service:
            argv = ["runuser", "-u", SERVICE_USER, "--", *argv]
        subprocess.run(argv, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        if self._as_service:
            account = pwd.getpwnam(SERVICE_USER)
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        os.chmod(self.folder, 0o700)
        self._run("initdb", "-D", str(self.data), "-U", self.user, "-A", "trust", "--no-sync", "-E", "UTF8")
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "server.log"), "-w", "start")

    def stop(self) -> None:
        with suppress(subprocess.SubprocessError, OSError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database; its SQLAlchemy URL."""
        import psycopg

        name = "t" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@contextmanager
def postgres_cluster() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
