"""``gamebag db``: the web database's schema revision, its upgrade, and (for developers) a new revision."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import typer

from gamebag.cli.database import db_help, open_engine, sqlite_file, unreachable, upgrade_schema
from gamebag.core.errors import OptionError
from gamebag.core.translation import N_, _
from gamebag.web.settings import database_url

# Messages to the operator, one sentence each.
TEXTS = {
    "at_head": N_("database at schema revision {revision}, the newest this gamebag knows"),
    "behind": N_("database at {label}; `gamebag db upgrade` brings it to {head} (back it up first)"),
    "newer": N_("database at schema revision {revision}, which this gamebag does not know (its newest is {head})"),
    "empty": N_("empty database; `gamebag db upgrade` or `gamebag serve` creates it at {head}"),
    "nothing": N_("database already at schema revision {head}"),
    "message": N_("--message must be a few words saying what the revision changes, not {given!r}"),
    "written": N_("new revision {revision}: {path} (read it through before committing it)"),
}


def register(app: typer.Typer) -> None:
    from gamebag.cli.app import GamebagGroup  # the group that turns mistakes into one line

    group = typer.Typer(
        help=_("The web server's database: where its schema stands, and upgrading it (see docs/web.md)."),
        no_args_is_help=True,
        cls=GamebagGroup,
    )

    @group.command("current", help=_("Print the database's schema revision and whether it needs an upgrade."))
    def current(db: str | None = typer.Option(None, "--db", help=db_help(), show_default=False)) -> None:
        """Print the database's schema revision and whether it needs an upgrade."""
        from sqlalchemy.exc import SQLAlchemyError

        from gamebag.web.store.migrate import current as current_state

        url = database_url(db)
        sqlite_file(url, must_exist=True)
        engine = open_engine(url)
        try:
            state = current_state(engine)
        except SQLAlchemyError as error:
            raise OptionError(unreachable(url, error)) from None
        finally:
            engine.dispose()
        if not state.known:
            typer.echo(_(TEXTS["newer"], revision=state.revision, head=state.head))
        elif state.at_head:
            typer.echo(_(TEXTS["at_head"], revision=state.revision))
        elif state.empty:
            typer.echo(_(TEXTS["empty"], head=state.head))
        else:
            typer.echo(_(TEXTS["behind"], label=state.label, head=state.head))

    @group.command(
        "upgrade", help=_("Upgrade the database's schema to this gamebag's newest revision (back it up first).")
    )
    def upgrade(db: str | None = typer.Option(None, "--db", help=db_help(), show_default=False)) -> None:
        """Upgrade the database's schema to this gamebag's newest revision (back it up first)."""
        from sqlalchemy.exc import SQLAlchemyError

        from gamebag.web.store.migrate import head_revision
        from gamebag.web.store.sqlitelock import DatabaseInUseError, lock_sqlite, unlock_sqlite

        url = database_url(db)
        sqlite_file(url, must_exist=True)
        try:
            lock = lock_sqlite(url)  # not while a server uses the file
        except DatabaseInUseError as error:
            typer.echo(_("error: {reason}", reason=error), err=True)
            sys.exit(1)
        try:
            line = upgrade_schema(url, "full", allowed=True)
        except SQLAlchemyError as error:
            raise OptionError(unreachable(url, error)) from None
        finally:
            unlock_sqlite(lock)
        typer.echo(line or _(TEXTS["nothing"], head=head_revision()))

    @group.command(
        "revision",
        help=_("For developers: write a new revision from the differences between the models and the newest one."),
    )
    def revision(
        message: str = typer.Option(..., "--message", "-m", help=_("What the revision changes, in a few words.")),
        db: str | None = typer.Option(
            None,
            "--db",
            help=_("For developers: compare the models with this database (at the newest revision) instead of "
                   "a scratch SQLite file; a PostgreSQL one also compares the cluster's tables."),
            show_default=False,
        ),
    ) -> None:
        """For developers: write a new revision from the differences between the models and the newest one."""
        if not 0 < len(message.strip()) <= 80:
            raise OptionError(_(TEXTS["message"], given=message[:40]))
        with tempfile.TemporaryDirectory(prefix="gamebag-revision-") as scratch:
            url = db or f"sqlite:///{Path(scratch) / 'head.db'}"
            sqlite_file(url)
            upgrade_schema(url, "normal", allowed=False)
            written = _autogenerate(url, message.strip())
        typer.echo(_(TEXTS["written"], revision=written[0], path=written[1]))

    app.add_typer(group, name="db")


def _autogenerate(url: str, message: str) -> tuple[str, str]:
    """Alembic's ``revision --autogenerate`` on ``url``, numbered after the newest revision."""
    from alembic import command
    from alembic.script import Script

    from gamebag.web.store.migrate import alembic_config, head_revision

    head = head_revision()
    number = f"{int(head) + 1:04d}" if head.isdigit() else None
    engine = open_engine(url)
    try:
        with engine.begin() as connection:
            written = command.revision(alembic_config(connection), message=message, autogenerate=True, rev_id=number)
    finally:
        engine.dispose()
    if not isinstance(written, Script):
        raise RuntimeError("alembic wrote no revision")
    return written.revision, written.path
