"""Fixtures of the web tests: one throw-away PostgreSQL cluster per test session, a database per test;
Debian's chromium for the browser tests, launched once per module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .browsing import launched_chromium
from .postgres import PostgresCluster, postgres_cluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture
def pg_url(postgres: PostgresCluster) -> str:
    """The SQLAlchemy URL of a fresh, empty database."""
    return postgres.create_database()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless chromium under Playwright (each test opens its own contexts in it)."""
    with launched_chromium() as launched:
        yield launched
