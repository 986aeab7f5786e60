"""Shared fixtures and helpers for the gamebag test suite."""

from __future__ import annotations

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests one after another on a single xdist worker.

    ``make test`` runs pytest with ``-n auto --dist loadgroup``: every other test is
    spread over the workers, while two real browsers and servers at once on a small
    machine would only make each other time out.
    """
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.xdist_group("browser"))
