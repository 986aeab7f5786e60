"""Helpers shared by CLI commands: option parsing, agent lists, JSON-friendly numbers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import gamebag
from gamebag.agents.registry import split_agent_specs
from gamebag.core.errors import GamebagError
from gamebag.core.options import parse_option_pairs
from gamebag.core.protocol import Game


def build_game(game_id: str, players: int | None, option_pairs: Sequence[str]) -> Game[Any, Any, Any]:
    """``gamebag.make`` from command-line values."""
    return gamebag.make(game_id, players, **parse_option_pairs(option_pairs))


def split_agents(text: str, players: int) -> list[str]:
    """One agent spec per seat from ``split_agent_specs``; a single agent fills every seat."""
    names = split_agent_specs(text)
    if not names:
        raise GamebagError("name at least one agent, for example --agents heuristic,random")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise GamebagError(
            f"{len(names)} agents given for {players} seats; give one per seat or a single one for all"
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
        typer.echo(f"notice: using the rules engine: {reason}", err=True)
