"""Schema migrations of the web database with Alembic: where a database stands, and bringing it to head.

The revisions live in the package (``store/migrations/``, read through ``importlib.resources``,
so an installed wheel carries them). A database is in one of four states:

* empty (no tables): the revisions create every table, up to the head revision;
* written before migrations existed (``web_tables`` but no ``alembic_version``): it is brought
  to the baseline schema once, the way those releases grew it on start (missing tables
  created, missing columns added, the lobby's summaries filled in), stamped with the baseline
  revision, then upgraded like any other;
* at a revision this code knows: upgraded to head (nothing to do at head);
* at a revision this code does not know (a newer gamebag upgraded it): refused, with the reason.

All of it happens in one transaction, so a failed upgrade changes nothing. On PostgreSQL the
transaction holds an advisory lock, so the processes of a cluster starting together upgrade
once: the first does it, the others wait, then find the database at head. On SQLite one
process owns the file (``sqlitelock.py``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import MetaData, inspect, text
from sqlalchemy.engine import Connection, Engine

from gamebag.web.store.base import Base
from gamebag.web.store.migrations import baseline
from gamebag.web.store.schema import only_on

MIGRATIONS_PACKAGE = "gamebag.web.store.migrations"
BASELINE_REVISION = "0001"
LEGACY_LABEL = "an unversioned schema (before migrations)"  # where a database written before them stands
# One upgrade at a time on a PostgreSQL database (the processes of a cluster starting together).
_UPGRADE_LOCK = "SELECT pg_advisory_xact_lock(hashtext('gamebag web schema'))"

# Messages to the operator, one sentence each (placeholders filled in with str.format).
TEXTS = {
    "newer": (
        "the database is at schema revision {revision}, which this gamebag does not know (its newest is "
        "{head}): a newer gamebag upgraded it, so run that version or restore the backup taken before the upgrade"
    ),
    "behind": (
        "the database is at {revision}, older than this gamebag's schema {head}; back it up, then run "
        "`gamebag db upgrade` with the same --db (or start the server without --no-upgrade)"
    ),
    "upgraded": "database upgraded from {before} to {after}",
    "created": "database created at schema revision {after}",
}


class SchemaError(RuntimeError):
    """The database's schema is not one this code can serve (newer than it, or older and not to be upgraded)."""


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """Alembic's configuration for the packaged migrations, on ``connection`` (or a URL)."""
    config = Config()
    config.set_main_option("script_location", str(resources.files(MIGRATIONS_PACKAGE)))
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def head_revision() -> str:
    """The newest revision this code knows."""
    head = _scripts().get_current_head()
    if head is None:
        raise RuntimeError("the packaged migrations have no revision")
    return head


@dataclass(frozen=True)
class SchemaState:
    """Where a database stands: its revision (None: none recorded) and what it holds."""

    revision: str | None
    has_tables: bool  # any of the web server's tables (without a revision: written before migrations)
    head: str
    known: bool  # the revision is one of this code's (or there is none)

    @property
    def at_head(self) -> bool:
        return self.revision == self.head

    @property
    def empty(self) -> bool:
        return self.revision is None and not self.has_tables

    @property
    def label(self) -> str:
        """The revision as an operator reads it."""
        if self.revision is not None:
            return f"schema revision {self.revision}"
        return "an empty database" if self.empty else LEGACY_LABEL


def read_state(connection: Connection) -> SchemaState:
    """Where the database on ``connection`` stands (it reads, never writes)."""
    revision = MigrationContext.configure(connection).get_current_revision()
    has_tables = inspect(connection).has_table("web_tables")
    known = True
    if revision is not None:
        try:
            known = _scripts().get_revision(revision) is not None
        except CommandError:
            known = False
    return SchemaState(revision, has_tables, head_revision(), known)


@dataclass(frozen=True)
class Migration:
    """What ``upgrade`` did: the state before and the revision after (equal: nothing)."""

    before: SchemaState
    after: str

    @property
    def changed(self) -> bool:
        return self.before.revision != self.after

    def describe(self) -> str | None:
        """The one line to log (None: nothing was done)."""
        if not self.changed:
            return None
        if self.before.empty:
            return TEXTS["created"].format(after=self.after)
        return TEXTS["upgraded"].format(before=self.before.label, after=self.after)


def upgrade(engine: Engine, allowed: bool = True) -> Migration:
    """Bring the database to the head revision (``allowed`` False: only an empty one is created,
    an older one is refused with ``SchemaError``); a newer one is always refused."""
    with _quiet_alembic(), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text(_UPGRADE_LOCK))
        elif connection.dialect.name == "sqlite":
            # Python's sqlite3 opens no transaction before DDL, so each CREATE or ALTER would
            # commit alone: one explicit transaction makes a failed upgrade change nothing.
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        state = read_state(connection)
        if not state.known:
            raise SchemaError(TEXTS["newer"].format(revision=state.revision, head=state.head))
        if state.at_head:
            return Migration(state, state.head)
        if not allowed and not state.empty:
            raise SchemaError(TEXTS["behind"].format(revision=state.label, head=state.head))
        if state.revision is None and state.has_tables:
            _adopt_unversioned(connection)
            command.stamp(alembic_config(connection), BASELINE_REVISION)
        command.upgrade(alembic_config(connection), "head")
        return Migration(state, state.head)


def comparison_options(dialect: str) -> dict[str, Any]:
    """How the models are compared with a database (autogenerate in ``env.py``, and ``differences``):
    column types too; a table of the PostgreSQL cluster alone only on PostgreSQL."""

    def include_object(item: Any, name: str | None, kind: str, reflected: bool, compare_to: Any) -> bool:
        return only_on(item, dialect) if kind == "table" and not reflected else True

    chosen: Callable[..., bool] = include_object
    return {"include_object": chosen, "compare_type": True}


def differences(connection: Connection, metadata: MetaData = Base.metadata) -> list[Any]:
    """What autogenerate would write for the database on ``connection`` (empty: the models match it)."""
    context = MigrationContext.configure(connection, opts=comparison_options(connection.dialect.name))
    return list(compare_metadata(context, metadata))


def current(engine: Engine) -> SchemaState:
    """Where the database stands now."""
    with engine.connect() as connection:
        return read_state(connection)


def _adopt_unversioned(connection: Connection) -> None:
    """Bring a database written before migrations to the baseline schema, as those releases did on
    start: the tables it lacks created, the columns added since its release, the lobby's summaries."""
    baseline.create(connection, checkfirst=True)
    inspector = inspect(connection)
    for table, added in baseline.ADDED_COLUMNS.items():
        present = {column["name"] for column in inspector.get_columns(table)}
        for name, kind in added.items():
            if name not in present:
                connection.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind}"))
    connection.execute(text(baseline.BACKFILL_SUMMARIES))


@contextlib.contextmanager
def _quiet_alembic() -> Iterator[None]:
    """Alembic logs each step at INFO; the server logs one line of its own instead."""
    logger = logging.getLogger("alembic")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)
