"""Alembic's environment of the web schema, run by every migration command.

``migrate.py`` hands it the connection to work on (``config.attributes["connection"]``),
already inside the transaction that holds the upgrade lock; Alembic's own command line
(``alembic -c``, as the developer docs show) gives a URL instead. The models compared by
``--autogenerate`` are ``store/schema.py``'s, where every room's tables are registered; a table
of the PostgreSQL cluster alone is compared on PostgreSQL only.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from gamebag.web.settings import database_url
from gamebag.web.store.base import Base
from gamebag.web.store.migrate import comparison_options  # its import registers every room's tables


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=True,  # SQLite changes a column by copying its table: batch operations do that
        **comparison_options(connection.dialect.name),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    given = context.config.attributes.get("connection")
    if given is not None:
        run(given)
        return
    engine = create_engine(context.config.get_main_option("sqlalchemy.url") or database_url(None))
    try:
        with engine.begin() as connection:
            run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("error: the web schema's migrations run on a database; SQL scripts (--sql) are not offered")
run_online()
