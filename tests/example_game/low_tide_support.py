"""What the example-game tests share: where Low Tide and the test strategies live, the command
line as a user runs it (a child process, the plugin named on it), and loading the plugin in this
process through the public path, then forgetting it so other tests never see it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from gamebag import plugins
from gamebag.core import registry

ROOT = Path(__file__).resolve().parents[2]
LOW_TIDE_DIR = ROOT / "examples" / "low_tide"
LOW_TIDE_FILE = LOW_TIDE_DIR / "low_tide.py"
POLICIES = Path(__file__).resolve().parent / "low_tide_policies.py"
CAREFUL = f"policy:{POLICIES}:careful"
RECKLESS = f"policy:{POLICIES}:reckless"
GAME_ID = "low-tide"
COMMAND_TIMEOUT_S = 120


def gamebag_command(
    *args: str, cwd: Path, plugin: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``gamebag [--plugin low_tide.py] ARGS`` in a child process, as a user types it."""
    command = [sys.executable, "-m", "gamebag.cli"]
    if plugin:
        command += ["--plugin", str(LOW_TIDE_FILE)]
    environment = {key: value for key, value in os.environ.items() if key != plugins.PLUGIN_ENV}
    environment.update(env or {})
    return subprocess.run(
        [*command, *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S
    )


@contextmanager
def low_tide_loaded() -> Iterator[ModuleType]:
    """Low Tide loaded as ``gamebag --plugin`` loads it (``plugins.activate``: checked by the conformance
    suite, and named in ``GAMEBAG_PLUGINS`` for the worker processes), then forgotten."""
    loaded_here = GAME_ID not in registry.game_ids()
    environment = os.environ.get(plugins.PLUGIN_ENV)
    if loaded_here:
        assert plugins.activate([LOW_TIDE_FILE]) == (GAME_ID,)
    try:
        yield sys.modules[registry.entry(GAME_ID).game_class.__module__]
    finally:
        if loaded_here:
            registry.unregister(GAME_ID)
            plugins._loaded_files.pop(str(LOW_TIDE_FILE), None)
            plugins._checked.discard(GAME_ID)
            if environment is None:
                os.environ.pop(plugins.PLUGIN_ENV, None)
            else:
                os.environ[plugins.PLUGIN_ENV] = environment
