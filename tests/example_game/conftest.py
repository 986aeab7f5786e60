"""Low Tide, the example plugin game (examples/low_tide), for the tests of this folder."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest
from low_tide_support import low_tide_loaded


@pytest.fixture(scope="module")
def low_tide() -> Iterator[ModuleType]:
    """The plugin module, loaded in this process for the module's tests and forgotten after them."""
    with low_tide_loaded() as module:
        yield module
