"""The web schema as release 66427e3 left it: the baseline revision's tables, frozen.

This copy never changes (the live models in ``store/schema.py`` do, each change with its own
revision): the baseline revision creates these tables on an empty database, and a database
written before migrations existed is brought to exactly this schema once (``migrate.py``)
before it is stamped with the baseline revision. Every table a server of that release made
is here: the ones ``create_all`` made on start, the lobby's summaries, and on PostgreSQL the
cluster's bus key, shared rate counts and socket counts with their two functions.
"""

from __future__ import annotations

from sqlalchemy import (
    ARRAY,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import DOUBLE_PRECISION
from sqlalchemy.engine import Connection

metadata = MetaData()

Table(
    "web_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("turn_seconds", Float, nullable=True),
    Column("timeout_agent", String(200), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("finished", Boolean, nullable=False),
    Column("host_token", String(64), nullable=True),
    Column("last_active", Float, nullable=True),
    Column("closed", String(16), nullable=True),
    Column("owner", String(64), nullable=True),
    Column("lease_until", Float, nullable=True),
    Column("next_id", String(32), nullable=True),
    Column("clock_step", Integer, nullable=True),
    Column("clock_deadline", Float, nullable=True),
    Column("coach", Text, nullable=True),
)
Table(
    "web_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("web_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token", String(64), nullable=False, unique=True),
    Column("name", String(64), nullable=False),
    Column("agent", String(200), nullable=True),
    Column("claimed", Boolean, nullable=True),
)
Table(
    "web_events",
    metadata,
    Column("table_id", String(32), ForeignKey("web_tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("data", Text, nullable=False),
)
Table(
    "web_pending",
    metadata,
    Column("table_id", String(32), ForeignKey("web_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("action", Text, nullable=False),
)
Table(
    "web_nodes",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("alive_until", Float, nullable=False),
)
Table(
    "web_summaries",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("step", Integer, nullable=False),
    Column("winners", Text, nullable=True),
    Column("updated_at", Float, nullable=False),
)
Table(
    "people_accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("name_key", String(64), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
    Column("disabled", Boolean, nullable=False),
)
people_seat_owners = Table(
    "people_seat_owners",
    metadata,
    Column("table_id", String(32), ForeignKey("web_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("people_accounts.id"), nullable=False),
)
Index("ix_people_seat_owners_account_id", people_seat_owners.c.account_id)

# PostgreSQL only: what a cluster of processes shares.
CLUSTER_TABLES = ("web_bus_key", "web_rate_hits", "web_open_sockets")
Table(
    "web_bus_key",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("secret", Text, nullable=False),
)
Table(
    "web_rate_hits",
    metadata,
    Column("key", String(200), primary_key=True),
    Column("hits", ARRAY(DOUBLE_PRECISION), nullable=False),
    Column("accepted", Boolean, nullable=False, server_default=text("true")),
)
Table(
    "web_open_sockets",
    metadata,
    Column("kind", String(16), primary_key=True),
    Column("key", Text, primary_key=True),
    Column("node", String(64), primary_key=True),
    Column("n", Integer, nullable=False),
)

# Separate statements in a VOLATILE function each see what was committed before them, so the
# sums are read after the locks are held (one statement would read them from before).
TAKE_SOCKETS_FUNCTION = """
CREATE OR REPLACE FUNCTION gamebag_take_sockets(p_node TEXT, p_kinds TEXT[], p_keys TEXT[], p_limits INTEGER[])
RETURNS TEXT[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    full_kinds TEXT[];
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('gamebag socket ' || w.kind), hashtext(w.key))
    FROM unnest(p_kinds, p_keys) WITH ORDINALITY AS w(kind, key, i) ORDER BY w.i;
    SELECT coalesce(array_agg(w.kind), CAST(ARRAY[] AS TEXT[])) INTO full_kinds
    FROM unnest(p_kinds, p_keys, p_limits) AS w(kind, key, lim)
    WHERE (SELECT coalesce(sum(s.n), 0) FROM web_open_sockets AS s JOIN web_nodes AS a ON a.id = s.node
           WHERE s.kind = w.kind AND s.key = w.key
             AND a.alive_until >= EXTRACT(EPOCH FROM clock_timestamp())) >= w.lim;
    IF cardinality(full_kinds) = 0 THEN
        INSERT INTO web_open_sockets AS s (kind, key, node, n)
        SELECT w.kind, w.key, p_node, 1 FROM unnest(p_kinds, p_keys) AS w(kind, key)
        ON CONFLICT (kind, key, node) DO UPDATE SET n = s.n + 1;
    END IF;
    RETURN full_kinds;
END $$
"""
RELEASE_SOCKETS_FUNCTION = """
CREATE OR REPLACE FUNCTION gamebag_release_sockets(p_node TEXT, p_kinds TEXT[], p_keys TEXT[])
RETURNS VOID LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    UPDATE web_open_sockets AS s SET n = s.n - 1 FROM unnest(p_kinds, p_keys) AS w(kind, key)
    WHERE s.node = p_node AND s.kind = w.kind AND s.key = w.key;
    DELETE FROM web_open_sockets AS s USING unnest(p_kinds, p_keys) AS w(kind, key)
    WHERE s.node = p_node AND s.kind = w.kind AND s.key = w.key AND s.n <= 0;
END $$
"""

# What the releases before migrations added to an older database on start, by hand: the
# columns each table gained after the first schema (a database before the first of them
# still has its rows; the new columns are all nullable).
ADDED_COLUMNS = {
    "web_tables": {
        "host_token": "VARCHAR(64)",
        "last_active": "FLOAT",
        "closed": "VARCHAR(16)",
        "owner": "VARCHAR(64)",
        "lease_until": "FLOAT",
        "next_id": "VARCHAR(32)",
        "clock_step": "INTEGER",
        "clock_deadline": "FLOAT",
        "coach": "TEXT",
    },
    "web_seats": {"claimed": "BOOLEAN"},
}

# The lobby's summary row of each table without one (a database from before the summaries),
# its step counted from its events.
BACKFILL_SUMMARIES = (
    "INSERT INTO web_summaries (table_id, step, winners, updated_at) "
    "SELECT t.id, (SELECT count(*) FROM web_events e WHERE e.table_id = t.id), NULL, "
    "COALESCE(t.last_active, t.created_at) FROM web_tables t "
    "WHERE NOT EXISTS (SELECT 1 FROM web_summaries s WHERE s.table_id = t.id) "
    "ON CONFLICT (table_id) DO NOTHING"
)


def tables_for(dialect: str) -> list[Table]:
    """The baseline's tables on a database of ``dialect`` (the cluster's only on PostgreSQL)."""
    return [t for t in metadata.sorted_tables if dialect == "postgresql" or t.name not in CLUSTER_TABLES]


def create(connection: Connection, checkfirst: bool) -> None:
    """Create the baseline schema (``checkfirst``: only the tables missing, as an older database needs)."""
    dialect = connection.dialect.name
    metadata.create_all(connection, tables=tables_for(dialect), checkfirst=checkfirst)
    if dialect == "postgresql":
        connection.execute(text(TAKE_SOCKETS_FUNCTION))
        connection.execute(text(RELEASE_SOCKETS_FUNCTION))


def drop(connection: Connection) -> None:
    """Drop every table and function of the baseline (a downgrade to an empty database)."""
    dialect = connection.dialect.name
    if dialect == "postgresql":
        connection.execute(text("DROP FUNCTION IF EXISTS gamebag_take_sockets(TEXT, TEXT[], TEXT[], INTEGER[])"))
        connection.execute(text("DROP FUNCTION IF EXISTS gamebag_release_sockets(TEXT, TEXT[], TEXT[])"))
    metadata.drop_all(connection, tables=tables_for(dialect))
