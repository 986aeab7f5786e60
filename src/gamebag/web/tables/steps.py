"""A game's views step by step, from its record: what a seat (or the public) saw at each point where
players were next asked to choose. Pure (a game and its events), so a worker process builds a long
game's replay as the server would, and the server's own table uses the same function."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from gamebag.core.protocol import Game, JsonDict
from gamebag.core.records import apply_event


def step_views(
    game: Game[Any, Any, Any], events: Sequence[JsonDict], seat: int | None, last: int | None = None,
    every_event: bool = False,
) -> list[JsonDict]:
    """The seat's (or the public) view at each step of the game, oldest first.

    A step ends where players are next asked to choose (or the game ends). Views are rebuilt from
    the record, so they hold what the seat knew then and no pending choices. ``last`` keeps only
    the most recent steps; ``every_event`` adds the view after each event within them (each roll or
    draw, for the log), from the game's start while it has no more than ``last`` steps.
    """
    boundaries = [i for i in range(len(events) + 1) if i == len(events) or "moves" in events[i]]
    whole = last is None or len(boundaries) <= last
    if last is not None:
        boundaries = boundaries[-last:] if last > 0 else []
    wanted = set(boundaries)
    if every_event and boundaries:
        wanted = set(range(0 if whole else boundaries[0], len(events) + 1))
    views: list[JsonDict] = []
    state = game.initial_state()
    for index in range(len(events) + 1):
        if index in wanted:
            views.append(game.public_view(state) if seat is None else game.observation(state, seat))
        if index < len(events):
            state = apply_event(game, state, events[index])
    return views


def json_bytes(value: Any) -> bytes:
    """``value`` as ``JSONResponse`` writes it (compact, UTF-8)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def replay_steps_bytes(game: Game[Any, Any, Any], events: Sequence[JsonDict], seat: int | None) -> bytes:
    """Every step's view of a finished game as a JSON list (a replay download's ``steps``), one item
    at a time (one call for megabytes would hold the interpreter's lock for its whole length)."""
    return b"[" + b",".join(json_bytes(view) for view in step_views(game, events, seat)) + b"]"
