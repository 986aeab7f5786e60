"""The ``policy`` agent: a function ``policy(observation, mask) -> action`` loaded from a Python file.

``policy:path/to/file.py:NAME`` (or ``policy:file=path/to/file.py,name=NAME``) seats the
object ``NAME`` of that file, a callable given the seat's ``observation_tensor`` (a
float32 array) and the legal-action mask (a bool array over ``all_actions()``) and
returning the index of its action, as ``gamebag.interop.evaluate`` calls it. So a
policy trained in any framework plays in ``gamebag tournament`` and ``gamebag
simulate`` beside the built-in agents.

Loading a file runs its code, so the agent reads only from this machine's command-line
tools: it is never offered to the web server (``local`` in the registry). The file
must exist, end in ``.py`` and be at most ``MAX_POLICY_FILE`` bytes; ``NAME`` must be a
callable in it. Every refusal is an ``UnknownAgentError`` raised while the agent is
built, before any game is played. A file is run once per process (kept by path, size
and modification time).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import check_params, register_agent
from gamebag.core.errors import IllegalActionError, UnknownAgentError
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng
from gamebag.core.translation import N_

MAX_POLICY_FILE = 4 * 1024 * 1024
# Files run so far: (path, size, mtime) -> the module's namespace (a tournament builds agents per batch).
_LOADED: dict[tuple[str, int, int], dict[str, Any]] = {}
_MODULE_PREFIX = "gamebag_policy_file_"


def load_policy_function(file: str, name: str) -> Callable[..., Any]:
    """The callable ``name`` of the Python file ``file``; ``UnknownAgentError`` naming what is wrong."""
    path = Path(file).expanduser()
    if path.suffix != ".py":
        raise UnknownAgentError(f"policy: {file!r} is not a Python file (give a path ending in .py)")
    try:
        stat = path.resolve(strict=True).stat()
    except (OSError, RuntimeError):
        raise UnknownAgentError(f"policy: no file {file!r}") from None
    if not path.is_file():
        raise UnknownAgentError(f"policy: {file!r} is not a file")
    if stat.st_size > MAX_POLICY_FILE:
        raise UnknownAgentError(
            f"policy: {file!r} has {stat.st_size:,} bytes; a policy file has at most {MAX_POLICY_FILE:,}"
        )
    if not name.isidentifier():
        raise UnknownAgentError(f"policy: {name!r} is not a Python name (give the function's name after the path)")
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    namespace = _LOADED.get(key)
    if namespace is None:
        namespace = _LOADED[key] = _run_file(path, file)
    found = namespace.get(name)
    if found is None:
        names = sorted(n for n, v in namespace.items() if callable(v) and not n.startswith("_"))
        raise UnknownAgentError(f"policy: {file!r} has no {name!r}; callables there: {', '.join(names) or 'none'}")
    if not callable(found):
        raise UnknownAgentError(f"policy: {name!r} in {file!r} is not a function (its type: {type(found).__name__})")
    return found  # type: ignore[no-any-return]


def _run_file(path: Path, shown: str) -> dict[str, Any]:
    module_name = f"{_MODULE_PREFIX}{len(_LOADED)}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise UnknownAgentError(f"policy: {shown!r} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickling look modules up by name
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the user's code: any failure is reported as the agent's refusal
        sys.modules.pop(module_name, None)
        raise UnknownAgentError(f"policy: running {shown!r} failed: {type(error).__name__}: {error}") from None
    return vars(module)


class PolicyAgent(Agent):
    """Plays ``function(observation, mask)``'s action index; an illegal index is an error naming it."""

    def __init__(self, game: Game[Any, Any, Any], function: Callable[..., Any], label: str) -> None:
        self.name = label
        self.function = function
        self.actions = tuple(game.all_actions())
        self.index = {action: position for position, action in enumerate(self.actions)}

    def act(self, view: SeatView, rng: Rng) -> Any:
        mask = np.zeros(len(self.actions), dtype=np.bool_)
        mask[[self.index[action] for action in view.legal_actions]] = True
        observation = np.asarray(view.observation_tensor(), dtype=np.float32)
        chosen = np.asarray(self.function(observation, mask))
        if chosen.size != 1 or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalActionError(f"{self.name}: the policy must return one integer action index, not {chosen!r}")
        index = int(chosen.reshape(()))
        if not 0 <= index < len(self.actions) or not mask[index]:
            raise IllegalActionError(
                f"{self.name}: the policy chose action {index}, which is not legal; "
                f"legal actions: {np.flatnonzero(mask).tolist()}"
            )
        return self.actions[index]


def _make(game: Game[Any, Any, Any], params: Mapping[str, str]) -> Agent:
    check_params("policy", params, ("file", "name"))
    file, name = params.get("file", ""), params.get("name", "")
    if not file or not name:
        raise UnknownAgentError("policy: give the file and the function, as policy:path/to/file.py:NAME")
    return PolicyAgent(game, load_policy_function(file, name), f"policy:{file}:{name}")


register_agent(
    "policy",
    _make,
    N_("your own function policy(observation, mask) -> action index, from a Python file: "
       "policy:path/to/file.py:NAME (command line only)"),
    positional=("file", "name"),
    local=True,
)
