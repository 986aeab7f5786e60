"""Fixtures of the web tests: one throw-away PostgreSQL cluster per test session, a database per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .postgres import PostgresCluster, postgres_cluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture
def pg_url(postgres: PostgresCluster) -> str:
    """The SQLAlchemy URL of a fresh, empty database."""
    return postgres.create_database()
