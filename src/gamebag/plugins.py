"""Games from outside the package: plugin files and the ``gamebag.games`` entry point group.

A variant is a subclass of a game with its own ``game_id``, registered like the built-in games
(``gamebag.core.registry.register``) by the module that defines it. It reaches every command in
one of two ways:

- ``gamebag --plugin my_variant.py COMMAND ...`` (repeatable, or the ``GAMEBAG_PLUGINS``
  environment variable, paths separated by ``os.pathsep``): the file is imported before the
  command runs, and worker processes import it too (they inherit the variable);
- an installed package naming a module in its ``gamebag.games`` entry points
  (``[project.entry-points."gamebag.games"] my_variant = "my_package.variant"``): imported with
  ``gamebag`` itself.

Every game a plugin registers is checked with the conformance suite (``gamebag.testing``) before
it is used: its option errors, every player count and each option's bounds built and played once,
and the whole suite on the default configuration and on as many others as a time budget allows
(``GAMEBAG_PLUGIN_CHECK_SECONDS``, 3 by default; ``gamebag check GAME --seconds N`` checks longer).
A game that fails, by a broken promise or any exception, is removed again and refused in one line
naming the configuration and what failed. The same file reached twice in one process (by path and
as an entry point's module) registers its games once.
A variant inherits its base game's heuristic and exact solvers (``core.registry.lineage``); the
compiled engines, keyed by the exact game id, refuse it with a reason.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import shlex
import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from gamebag.core import registry
from gamebag.core.errors import GamebagError
from gamebag.core.translation import _

PLUGIN_ENV = "GAMEBAG_PLUGINS"
ENTRY_POINT_GROUP = "gamebag.games"
MAX_PLUGINS = 32
CHECK_SECONDS_ENV = "GAMEBAG_PLUGIN_CHECK_SECONDS"
MAX_CHECK_SECONDS = 3600.0

_loaded_files: dict[str, tuple[str, ...]] = {}
_checked: set[str] = set()


def _module_name(path: Path) -> str:
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    return f"gamebag_plugin_{path.stem.replace('-', '_')}_{digest}"


def _is_module_name(text: str) -> bool:
    return not text.endswith(".py") and "/" not in text and os.sep not in text and text.replace(".", "").replace(
        "_", ""
    ).isalnum()


def load_file(path: str | Path, check: bool = True) -> tuple[str, ...]:
    """Import the plugin ``path`` (a ``.py`` file, or a module name such as ``gamebag.variants.consolation``);
    returns the ids of the games it registered (checked by the conformance suite by default)."""
    text = str(path)
    if _is_module_name(text):
        return _load_module(text, check)
    file = Path(path).expanduser().resolve()
    key = str(file)
    if key in _loaded_files:
        return _loaded_files[key]
    if file.suffix != ".py" or not file.is_file():
        raise GamebagError(_("--plugin {name}: name a Python file (.py) that exists, or a module", name=repr(text)))
    imported = _games_of_imported_file(file)
    if imported:  # the same file is already in this process (as an entry point's module, say): reuse it
        _loaded_files[key] = imported
        if check:
            check_games(imported)
        return imported
    before = set(registry.game_ids())
    name = _module_name(file)
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise GamebagError(_("--plugin {name} cannot be imported", name=repr(str(path))))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except GamebagError:
        raise
    except Exception as error:  # the plugin's own code failed: say where, in one line
        sys.modules.pop(name, None)
        raise GamebagError(_("--plugin {name} failed to import: {reason}", name=repr(str(path)),
              reason=type(error).__name__ + ": " + str(error))) from None
    added = tuple(sorted(set(registry.game_ids()) - before))
    if not added:
        raise GamebagError(
            _("--plugin {name} registered no game; register one with gamebag.core.registry.register",
              name=repr(str(path)))
        )
    _loaded_files[key] = added
    if check:
        check_games(added)
    return added


def _games_of_module(module_name: str) -> tuple[str, ...]:
    """The registered games whose class a module defines."""
    return tuple(
        game_id for game_id in registry.game_ids() if registry.entry(game_id).game_class.__module__ == module_name
    )


def _games_of_imported_file(file: Path) -> tuple[str, ...]:
    """The games registered by a module already imported from ``file`` (under any name), if any."""
    for module_name, module in list(sys.modules.items()):
        source = getattr(module, "__file__", None)
        if source and source.endswith(file.name) and Path(source).resolve() == file:
            games = _games_of_module(module_name)
            if games:
                return games
    return ()


def _load_module(name: str, check: bool) -> tuple[str, ...]:
    if name in _loaded_files:
        return _loaded_files[name]
    before = set(registry.game_ids())
    imported_before = name in sys.modules
    try:
        importlib.import_module(name)
    except ImportError as error:
        raise GamebagError(_("--plugin {name}: no such module ({reason})", name=repr(name), reason=error)) from None
    except Exception as error:  # the plugin's own code failed: say where, in one line
        raise GamebagError(_("--plugin {name} failed to import: {reason}", name=repr(name),
                            reason=type(error).__name__ + ": " + str(error))) from None
    added = tuple(sorted(set(registry.game_ids()) - before)) or _games_of_module(name)
    if not added and not imported_before:
        raise GamebagError(
            _("--plugin {name} registered no game; register one with gamebag.core.registry.register", name=repr(name))
        )
    _loaded_files[name] = added
    if check:
        check_games(added)
    return added


def check_budget_seconds() -> float:
    """Seconds the check of one plugin game may spend on configurations beyond the default
    (``GAMEBAG_PLUGIN_CHECK_SECONDS``, default ``gamebag.testing.DEFAULT_BUDGET_SECONDS``)."""
    from gamebag.testing import DEFAULT_BUDGET_SECONDS

    text = os.environ.get(CHECK_SECONDS_ENV, "").strip()
    if not text:
        return DEFAULT_BUDGET_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= MAX_CHECK_SECONDS:
        raise GamebagError(_("{variable}={value}: give a number of seconds from 0 to {most}",
                             variable=CHECK_SECONDS_ENV, value=repr(text), most=format(MAX_CHECK_SECONDS, "g")))
    return seconds


def check_games(game_ids: Iterable[str], budget_seconds: float | None = None) -> None:
    """Run the conformance suite on each game: its option errors, then every player count and each
    option's bounds (built and played once each; checked in full as far as ``budget_seconds`` allows,
    the default configuration always). A failing game is unregistered and refused in one line naming
    the game, the configuration and what failed, whatever the exception."""
    from gamebag.testing import ConformanceError, check_plugin_game

    budget = check_budget_seconds() if budget_seconds is None else budget_seconds
    for game_id in game_ids:
        if game_id in _checked:
            continue
        game_class = registry.entry(game_id).game_class
        try:
            check_plugin_game(game_class, budget)
        except ConformanceError as error:
            registry.unregister(game_id)
            raise GamebagError(
                _("plugin game {game} fails the conformance suite: {reason}", game=repr(game_id), reason=error)
            ) from None
        _checked.add(game_id)


def plugin_arguments(game_id: str) -> str:
    """The ``--plugin ...`` arguments that load ``game_id`` in a new process ('' for the package's games
    and installed entry points), for the commands the CLI tells a user to run next."""
    files = [file for file, ids in _loaded_files.items() if game_id in ids]
    return "".join(f"--plugin {shlex.quote(file)} " for file in files[:1])


def activate(paths: Iterable[str | Path]) -> tuple[str, ...]:
    """Load plugin files for this process and the worker processes it starts."""
    files = [str(p) if _is_module_name(str(p)) else str(Path(p).expanduser().resolve()) for p in paths]
    if len(files) > MAX_PLUGINS:
        raise GamebagError(_("at most {most} --plugin files, not {count}", most=MAX_PLUGINS, count=len(files)))
    added: list[str] = []
    for file in files:
        added.extend(load_file(file))
    known = [p for p in os.environ.get(PLUGIN_ENV, "").split(os.pathsep) if p]
    os.environ[PLUGIN_ENV] = os.pathsep.join(dict.fromkeys([*known, *files]))
    return tuple(added)


def load_installed() -> list[str]:
    """Import the plugins named by ``GAMEBAG_PLUGINS`` and the ``gamebag.games`` entry points.

    Called when ``gamebag`` is imported (worker processes included), so a failing plugin is reported
    as a warning and skipped rather than breaking the package; the command line checks them.
    """
    problems: list[str] = []
    for file in (p for p in os.environ.get(PLUGIN_ENV, "").split(os.pathsep) if p):
        try:
            load_file(file, check=False)
        except GamebagError as error:
            problems.append(str(error))
    for point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = point.load()
            if callable(loaded):
                loaded()
        except Exception as error:  # a third party's package: never break gamebag's import
            problems.append(f"entry point {point.name!r} ({point.value}): {type(error).__name__}: {error}")
    return problems


def plugin_games() -> tuple[str, ...]:
    """The ids registered by plugin files and entry points (not the package's own games)."""
    own = ("gamebag.games",)
    return tuple(
        game_id
        for game_id in registry.game_ids()
        if not any(registry.entry(game_id).game_class.__module__.startswith(prefix) for prefix in own)
    )
