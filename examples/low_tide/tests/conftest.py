"""Low Tide is loaded the way a user loads it, through gamebag's public plugin path, and forgotten
after each test module, so that tests of the package's own games never see it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from gamebag import plugins
from gamebag.core import registry

LOW_TIDE_FILE = Path(__file__).resolve().parents[1] / "low_tide.py"
GAME_ID = "low-tide"


@pytest.fixture(scope="module")
def low_tide() -> Iterator[ModuleType]:
    """The plugin module, loaded (and checked by the conformance suite) with ``plugins.load_file``."""
    loaded_here = GAME_ID not in registry.game_ids()
    if loaded_here:
        assert plugins.load_file(LOW_TIDE_FILE) == (GAME_ID,)
    yield sys.modules[registry.entry(GAME_ID).game_class.__module__]
    if loaded_here:
        registry.unregister(GAME_ID)
        plugins._loaded_files.pop(str(LOW_TIDE_FILE), None)
        plugins._checked.discard(GAME_ID)
