"""The web database as the command line opens it: ``--db`` checked, and its schema brought to head.

Shared by ``gamebag serve`` (which upgrades on start unless ``--no-upgrade``) and ``gamebag db``.
Server libraries are imported inside the functions, so the rest of the command line starts
without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gamebag.cli.common import check_output_file
from gamebag.core.errors import OptionError
from gamebag.core.translation import N_, _
from gamebag.web.settings import DB_ENV


def db_help() -> str:
    """The ``--db`` option's help in the reader's language."""
    return _(
        "SQLAlchemy database URL (default: ${variable}, else the SQLite file gamebag-web.db in the "
        "working folder). PostgreSQL: postgresql+psycopg://user:password@host/dbname; prefer "
        "${variable} for a URL with a password.",
        variable=DB_ENV,
    )

# Messages to the operator, one sentence each.
TEXTS = {
    "not_url": N_("--db is not a database URL; give sqlite:///FILE or postgresql+psycopg://user@host/dbname"),
    "not_folder": N_("--db {database}: {folder} is not a folder"),
    "no_file": N_("--db {database}: there is no such file (gamebag serve creates a new database)"),
    "unreachable": N_("the database {url} could not be opened ({reason}); check --db and that the server is up"),
}


def sqlite_file(url: str, must_exist: bool = False) -> Path | None:
    """The SQLite file of ``url`` (None for PostgreSQL), checked writable; ``OptionError`` otherwise."""
    from sqlalchemy.exc import ArgumentError

    from gamebag.web.store.sqlitelock import sqlite_path

    try:
        database = sqlite_path(url)
    except ArgumentError:
        raise OptionError(_(TEXTS["not_url"])) from None
    if database is None:
        return None
    path = Path(database)
    if not path.parent.is_dir():
        raise OptionError(_(TEXTS["not_folder"], database=database, folder=path.parent))
    if must_exist and not path.is_file():
        raise OptionError(_(TEXTS["no_file"], database=database))
    check_output_file("--db", path)  # the SQLite file, and its lock beside it
    return path


def open_engine(url: str, sync: str = "normal") -> Any:
    """An engine on ``url`` as the server opens it (SQLite: the same journal and sync settings)."""
    from gamebag.web.store.db import make_engine

    return make_engine(url, sync)


def unreachable(url: str, error: BaseException) -> str:
    """The one line saying why ``url`` could not be opened (never its password)."""
    from gamebag.web.store.db import safe_url

    return _(TEXTS["unreachable"], url=safe_url(url), reason=type(error).__name__)


def upgrade_schema(url: str, sync: str, allowed: bool) -> str | None:
    """Bring the database's schema to head (``allowed`` False: refuse an older one); the line to log.

    ``OptionError`` (one line, exit 2) for a database this gamebag must not serve: newer than it,
    or older while upgrades are not allowed. Nothing is changed then.
    """
    from gamebag.web.store.migrate import SchemaError, upgrade

    engine = open_engine(url, sync)
    try:
        return upgrade(engine, allowed).describe()
    except SchemaError as error:
        raise OptionError(str(error)) from None
    finally:
        engine.dispose()
