"""Shared fixtures and helpers for the gamebag test suite."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator

import pytest

import gamebag
from gamebag.core.rng import make_rng
from gamebag.sim.play import random_walk


def configurations() -> list[tuple[str, int]]:
    """(game id, players) pairs the conformance suite covers: min, default and max players."""
    configs: list[tuple[str, int]] = []
    for game_id in gamebag.game_ids():
        cls = gamebag.entry(game_id).game_class
        for n in sorted({cls.min_players, cls.default_players, cls.max_players}):
            configs.append((game_id, n))
    return configs


__all__ = ["configurations", "make_rng", "random_walk"]


@pytest.fixture(autouse=True)
def _one_browser_at_a_time(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Browser tests run one at a time, even when ``make test`` spreads the suite over workers.

    Two real browsers and servers at once on a small machine would only make each other
    time out. pytest-xdist's ``xdist_group`` does not group tests under pytest 9.2, so
    the workers share a file lock instead, in the run's common temporary folder.
    """
    if request.node.get_closest_marker("browser") is None:
        yield
        return
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # each worker's folder sits in the run's folder
    with open(shared / "browser.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
