"""Schema migrations: the models match the head revision; newer and older databases; the CLI; a cluster."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Column, Integer, MetaData, create_engine, inspect, text
from typer.testing import CliRunner

from gamebag.cli.app import app
from gamebag.cli.commands import serve
from gamebag.web.store import migrate
from gamebag.web.store.base import Base
from gamebag.web.store.db import Store
from gamebag.web.store.migrations import baseline
from web.release_db import restore_release


def _url(database: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return request.getfixturevalue("pg_url") if database == "postgresql" else f"sqlite:///{tmp_path / 'web.db'}"


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_models_match_the_head_revision(database: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """A column or table added to a model without a revision fails here (docs/web.md says how to add one)."""
    store = Store(_url(database, request, tmp_path))
    try:
        with store.engine.connect() as connection:
            assert migrate.differences(connection) == []
            tables = set(inspect(connection).get_table_names())
    finally:
        store.close()
    cluster_only = {"web_bus_key", "web_rate_hits", "web_open_sockets"}
    expected = {table.name for table in Base.metadata.sorted_tables} | {"alembic_version"}
    assert tables == (expected if database == "postgresql" else expected - cluster_only)


def test_a_model_changed_without_a_revision_is_caught(tmp_path: Path) -> None:
    changed = MetaData()
    for table in Base.metadata.sorted_tables:
        table.to_metadata(changed)
    changed.tables["web_tables"].append_column(Column("rating", Integer, nullable=True))
    store = Store(f"sqlite:///{tmp_path / 'web.db'}")
    try:
        with store.engine.connect() as connection:
            found = migrate.differences(connection, changed)
    finally:
        store.close()
    assert [(d[0], d[2], d[3].name) for d in found] == [("add_column", "web_tables", "rating")]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_failed_upgrade_changes_nothing(
    database: str, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    create = baseline.create

    def create_then_fail(connection: Any, checkfirst: bool) -> None:
        create(connection, checkfirst)
        raise RuntimeError("the disk filled up")

    monkeypatch.setattr(baseline, "create", create_then_fail)
    engine = create_engine(_url(database, request, tmp_path))
    with pytest.raises(RuntimeError, match="disk filled up"):
        migrate.upgrade(engine)
    assert inspect(engine).get_table_names() == [], "the tables made before the failure were rolled back"
    engine.dispose()


def test_a_database_newer_than_the_code_is_refused_and_left_alone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))  # as a newer gamebag left it
    with pytest.raises(migrate.SchemaError, match="revision f00d, which this gamebag does not know"):
        Store(url)
    assert migrate.current(engine).revision == "f00d"
    engine.dispose()


def _never_serve(*_args: Any, **_kwargs: Any) -> None:
    raise AssertionError("the server started on a database it should have refused")


def test_an_older_database_is_refused_without_upgrades_and_left_alone(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = restore_release("sqlite", request, tmp_path)
    engine = create_engine(url)
    before = sorted(inspect(engine).get_table_names())
    with pytest.raises(migrate.SchemaError, match="run `gamebag db upgrade` with the same --db"):
        migrate.upgrade(engine, allowed=False)
    assert sorted(inspect(engine).get_table_names()) == before and "alembic_version" not in before
    engine.dispose()
    monkeypatch.setattr(serve, "_run", _never_serve)  # a refusal that failed fails here, never hangs
    refused = CliRunner().invoke(app, ["serve", "--no-upgrade", "--db", url])
    assert refused.exit_code == 2, refused.output
    assert len(refused.stderr.strip().splitlines()) == 1 and "gamebag db upgrade" in refused.stderr


def test_gamebag_db_current_and_upgrade(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    url = restore_release("sqlite", request, tmp_path)
    runner = CliRunner()
    head = migrate.head_revision()
    said = runner.invoke(app, ["db", "current", "--db", url])
    assert said.exit_code == 0 and "before migrations" in said.stdout and "gamebag db upgrade" in said.stdout
    said = runner.invoke(app, ["db", "upgrade", "--db", url])
    assert said.exit_code == 0 and said.stdout.strip() == f"database upgraded from {migrate.LEGACY_LABEL} to {head}"
    said = runner.invoke(app, ["db", "upgrade", "--db", url])
    assert said.exit_code == 0 and said.stdout.strip() == f"database already at schema revision {head}"
    said = runner.invoke(app, ["db", "current", "--db", url])
    assert said.exit_code == 0 and f"revision {head}, the newest" in said.stdout
    missing = runner.invoke(app, ["db", "upgrade", "--db", f"sqlite:///{tmp_path / 'typo.db'}"])
    assert missing.exit_code == 2 and "no such file" in missing.stderr and not (tmp_path / "typo.db").exists()
    assert runner.invoke(app, ["db", "current", "--db", "nonsense"]).exit_code == 2


def test_serve_upgrades_on_start_and_says_so(
    request: pytest.FixtureRequest, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = restore_release("sqlite", request, tmp_path)
    with caplog.at_level(logging.INFO, logger="gamebag.web"):
        serve._upgrade_schema(url, "normal", allowed=True)
        serve._upgrade_schema(url, "normal", allowed=True)  # at head: nothing to say
    said = [r.getMessage() for r in caplog.records if r.name == "gamebag.web"]
    assert said == [f"database upgraded from {migrate.LEGACY_LABEL} to {migrate.head_revision()}"]


def test_processes_of_a_cluster_starting_together_upgrade_once(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = restore_release("postgresql", request, tmp_path)
    results: list[migrate.Migration | BaseException] = []

    def start() -> None:
        try:
            store = Store(url)
            results.append(store.migration)
            store.close()
        except BaseException as error:
            results.append(error)

    starting = [threading.Thread(target=start) for _ in range(4)]
    for thread in starting:
        thread.start()
    for thread in starting:
        thread.join(60)
    assert all(isinstance(r, migrate.Migration) for r in results) and len(results) == 4, results
    assert sorted(r.changed for r in results if isinstance(r, migrate.Migration)) == [False, False, False, True]
    engine = create_engine(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [
            migrate.head_revision()
        ]
    engine.dispose()
