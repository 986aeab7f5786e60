"""Helpers shared by CLI commands: option parsing, agent lists, JSON-friendly numbers, and the
checks every command makes before it works (counts within their bounds, output paths writable).

A check never creates anything: a refused command leaves no file and no folder behind.
"""

from __future__ import annotations

import json
import math
import os
import signal
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import gamebag
from gamebag.agents.registry import split_agent_specs
from gamebag.core.errors import GamebagError
from gamebag.core.i18n import decimal, number
from gamebag.core.options import parse_option_pairs
from gamebag.core.presets import preset_named
from gamebag.core.protocol import Game
from gamebag.core.translation import _


def build_game(
    game_id: str, players: int | None, option_pairs: Sequence[str], preset: str | None = None
) -> Game[Any, Any, Any]:
    """``gamebag.make`` from command-line values: the named preset's options (``--preset``), then
    the ``--option`` pairs on top of them."""
    options: dict[str, Any] = {}
    if preset is not None:
        options.update(preset_named(gamebag.entry(game_id).game_class, preset).options)
    options.update(parse_option_pairs(option_pairs))
    return gamebag.make(game_id, players, **options)


def option_text(value: Any) -> str:
    """An option value as a command line writes it (``key=value``): lists comma-separated, none, true."""
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def split_agents(text: str, players: int) -> list[str]:
    """One agent spec per seat from ``split_agent_specs``; a single agent fills every seat."""
    names = split_agent_specs(text)
    if not names:
        raise GamebagError(_("name at least one agent, for example --agents heuristic,random"))
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise GamebagError(
            _("{agents} agents given for {seats} seats; give one per seat or a single one for all",
              agents=number(len(names)), seats=number(players))
        )
    return names


def plain_number(value: float) -> float | int:
    """20.0 -> 20 so JSON output shows points as integers."""
    return int(value) if float(value).is_integer() else value


def dumps(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=False)


def progress_bar() -> Progress:
    """The progress bar long commands show on standard error (never mixed into JSON output)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def engine_notice(requested: str, reason: str | None) -> None:
    """One line on stderr when ``auto`` meant the fast engine but the machine's compiler kept it out.

    A missing or broken numba, or a kernel failing as it ran, hands the work to the rules engine
    (the results stay right); a request the fast engine cannot take (an agent without a compiled
    policy) is no surprise and gets no notice.
    """
    from gamebag.fast import compiler_problem

    if requested != "auto" or reason is None:
        return
    if compiler_problem() is not None or "the fast engine failed" in reason:
        typer.echo(_("notice: using the rules engine: {reason}", reason=reason), err=True)


# ---- checks made before any work ---------------------------------------------------------------
MAX_WORKERS = 64  # worker processes of simulate, tournament and balance (lab.execute holds the same bound)


def check_range(option: str, value: float, low: float, high: float) -> None:
    """Refuse ``value`` outside ``low .. high`` in one line naming the option and the bounds."""
    if not low <= value <= high:  # NaN fails too
        raise GamebagError(
            _("{option} must be from {low} to {high}, not {value}", option=option, low=bound_text(low),
              high=bound_text(high), value=bound_text(value))
        )


def bound_text(value: float) -> str:
    """A bound or a refused value as the reader writes it, grouped (3,600; a float keeps its decimal)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, float):
        return decimal(value, 1) if value.is_integer() else number(value)
    return number(value)


def check_workers(workers: int) -> None:
    check_range("--workers", workers, 1, MAX_WORKERS)


def check_output_file(option: str, path: Path, suffixes: Sequence[str] = ()) -> None:
    """Refuse an output file that could not be written, before any work; creates nothing.

    An existing file must be writable (opened for writing without truncating it); a new one needs
    its nearest existing folder to be one where a file can be created (probed with a temporary file,
    removed at once). Missing folders in between are created only when the output is written.
    """
    if suffixes and path.suffix.lower() not in suffixes:
        raise GamebagError(
            _("{option} {path}: name a file ending in {suffixes}", option=option, path=path,
              suffixes=", ".join(suffixes))
        )
    if path.is_dir():
        raise GamebagError(_("{option} {path}: this is a folder; name a file", option=option, path=path))
    if path.exists():
        try:
            os.close(os.open(path, os.O_WRONLY))
        except OSError as error:
            raise GamebagError(
                _("{option} {path}: cannot write this file ({reason})", option=option, path=path,
                  reason=error.strerror or error)
            ) from None
        return
    _check_creatable(option, path, path.parent)


def check_output_folder(option: str, path: Path) -> None:
    """Refuse an output folder that could not be filled, before any work; creates nothing."""
    if path.exists() and not path.is_dir():
        raise GamebagError(_("{option} {path}: this is a file, not a folder", option=option, path=path))
    _check_creatable(option, path, path)


def _check_creatable(option: str, path: Path, folder: Path) -> None:
    existing = folder.absolute()
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise GamebagError(
            _("{option} {path}: {existing} is a file, not a folder", option=option, path=path, existing=existing)
        )
    try:
        handle, probe = tempfile.mkstemp(prefix=".gamebag-probe-", dir=existing)
    except OSError as error:
        raise GamebagError(
            _("{option} {path}: cannot write in {existing} ({reason})", option=option, path=path, existing=existing,
              reason=error.strerror or error)
        ) from None
    os.close(handle)
    os.unlink(probe)


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM stops the work as Ctrl-C does, so long runs keep what finished."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
