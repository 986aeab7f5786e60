"""Shared fixtures and helpers for the gamebag test suite."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

import gamebag
from gamebag.core.i18n import known_language
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


# The modules of the real-browser tests (marked ``browser``). xdist's scheduler sees only test
# ids, so it knows them by their module; collection checks that the marks agree with this list.
BROWSER_MODULES = (
    "tests/web/test_browser.py",
    "tests/web/test_table_ui.py",
    "tests/web/test_analysis_browser.py",
    "tests/web/test_coach_browser.py",
    "tests/example_game/test_low_tide_browser.py",
    "tests/web/test_forced_browser.py",
    "tests/web/test_phone_table.py",
    "tests/web/test_kweek_browser.py",
    "tests/web/test_accounts_browser.py",
    "tests/web/test_axe_pages.py",
    "tests/web/test_chat_browser.py",
    "tests/web/test_languages_browser.py",
)


# JAX's persistent compilation cache, for this run only: several tests compile the same
# functions (a quick and a long replay of one configuration), often on different xdist
# workers. Entries are keyed by the compiled program itself (and the JAX version and backend),
# so a hit is the very same executable; the folder starts empty and is removed with the run.
JAX_CACHE_SETTINGS = {
    "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
    "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0",
}
_JAX_CACHE_KEY = pytest.StashKey[str]()

# The suite reads English: a developer's terminal language (LANG=nl_BE.UTF-8) must not translate the
# commands the tests start. A test that wants another language names it (--lang, or its own LANG).
for _locale_variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
    if known_language(os.environ.get(_locale_variable, "").split(":")[0]) not in (None, "en"):
        os.environ[_locale_variable] = "C.UTF-8" if _locale_variable != "LANGUAGE" else "en"


def pytest_configure(config: pytest.Config) -> None:
    """Before any test module imports JAX: the run's compilation cache (set up by the process that
    starts the xdist workers, which inherit its environment; left alone if the caller set one)."""
    if hasattr(config, "workerinput") or "JAX_COMPILATION_CACHE_DIR" in os.environ:
        return
    folder = tempfile.mkdtemp(prefix="gamebag-test-jax-cache-")
    config.stash[_JAX_CACHE_KEY] = folder
    os.environ["JAX_COMPILATION_CACHE_DIR"] = folder
    for name, value in JAX_CACHE_SETTINGS.items():
        os.environ.setdefault(name, value)


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_JAX_CACHE_KEY, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("JAX_COMPILATION_CACHE_DIR", None)


def _is_browser_test(item: pytest.Item) -> bool:
    return item.get_closest_marker("browser") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The browser tests come first, then the slow ones, then the rest (each in collection order).

    Under ``--dist loadgroup`` (``make test``) xdist hands work out in this order, so the long
    chain of browser tests starts at once and no worker picks up a slow test when the others
    are nearly done.
    """
    for item in items:
        in_list = item.nodeid.split("::", 1)[0] in BROWSER_MODULES
        if in_list != _is_browser_test(item):
            raise pytest.UsageError(f"{item.nodeid}: the browser mark and BROWSER_MODULES disagree")

    def rank(item: pytest.Item) -> int:
        if _is_browser_test(item):
            return 0
        return 1 if item.get_closest_marker("slow") is not None else 2

    items.sort(key=rank)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup``: all browser tests are one unit of work (one worker, one after another).

    Every other test is a unit of its own, handed to whichever worker is free. xdist's own
    ``xdist_group`` mark would do this, but its test ids no longer carry the group under
    pytest 9.2, so the browser tests are known by their modules here.
    """
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BrowserGroupScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return "browser" if nodeid.split("::", 1)[0] in BROWSER_MODULES else nodeid

    return BrowserGroupScheduling(config, log)


@pytest.fixture(autouse=True)
def _one_browser_at_a_time(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Browser tests never run two at a time, whatever the distribution mode.

    Under ``--dist loadgroup`` they share one worker and this lock is never contended; under
    plain ``-n`` (``--dist load``) the workers take turns through this file lock, in the
    run's common temporary folder: two real browsers and servers at once on a small machine
    would only make each other time out.
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
