"""numba's on-disk cache for the kernels, stamped with every source file of ``gamebag.fast`` and ``gamebag.games``.

numba stamps a cached kernel with its own source file only, so a kernel would keep its
compiled copy of a function it calls from another file (the generator, the rules, the
policies), and the values of the constants it reads from another module (the rules' data in
``gamebag.games``: observation sizes, the heuristics' numbers), after that file changed, and
give stale results. The kernels here call one another across modules and read the games'
numbers, so their cache entries carry one stamp of all of ``gamebag.fast``'s and
``gamebag.games``'s sources instead: any change there recompiles every kernel. Where
the cache lives is numba's usual choice (``NUMBA_CACHE_DIR``, else ``__pycache__`` next to
the source, else the user's cache directory when the package folder is read-only).
Kernel modules import :mod:`gamebag.fast.rng`, which installs this before any kernel is defined.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from numba.core import caching

_FAST_DIR = Path(__file__).resolve().parent
# The packages whose sources a compiled kernel may depend on: its own, and the games whose numbers it reads.
_STAMPED_DIRS = (_FAST_DIR, _FAST_DIR.parent / "games")


def stamped_sources() -> list[Path]:
    """Every ``.py`` file the kernels' cache stamp covers, in a fixed order."""
    return [path for folder in _STAMPED_DIRS for path in sorted(folder.rglob("*.py"))]


@cache
def sources_stamp() -> str:
    """A digest of every ``.py`` file of ``gamebag.fast`` and ``gamebag.games`` (read once per process)."""
    digest = hashlib.sha256()
    root = _FAST_DIR.parent
    for path in stamped_sources():
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _is_kernel_source(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().is_relative_to(_FAST_DIR)
    except OSError:
        return False


def _stamped(base: Any) -> Any:
    """``base`` (a numba cache locator class), for kernel sources only, with the package stamp."""

    class Stamped(base):  # type: ignore[misc]
        def get_source_stamp(self) -> str:
            return sources_stamp()

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not _is_kernel_source(py_file):
                return None
            return super().from_function(py_func, py_file)

    Stamped.__name__ = Stamped.__qualname__ = f"Stamped{base.__name__}"
    return Stamped


_LOCATORS = tuple(
    _stamped(base)
    for base in (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator)
)


def install() -> None:
    """Put the stamped locators first in numba's list (once)."""
    classes = caching.CacheImpl._locator_classes
    if classes[: len(_LOCATORS)] != list(_LOCATORS):
        classes[0:0] = list(_LOCATORS)


install()
