"""Helpers for Eel family rule tests: replay hand-written records, build positions."""

from __future__ import annotations

from typing import Any

import gamebag
from gamebag.core.records import Record, replay
from gamebag.games.eel_family.rules import EelFamilyGame, EelState


def grab(**counts: int) -> dict[str, Any]:
    """``grab(s0=3, s1=0)`` -> ``{"moves": {"0": 3, "1": 0}}``."""
    return {"moves": {key.removeprefix("s"): value for key, value in counts.items()}}


def draw(**tokens: str) -> dict[str, Any]:
    """``draw(s0="EES")`` -> ``{"chance": {"0": "EES"}}``."""
    return {"chance": {key.removeprefix("s"): value for key, value in tokens.items()}}


def play(game_id: str, players: int, events: list[dict[str, Any]], **options: Any) -> tuple[EelFamilyGame, EelState]:
    record = Record(game_id, players, dict(options), events)
    game, state = replay(record, gamebag.make)
    assert isinstance(game, EelFamilyGame) and isinstance(state, EelState)
    return game, state


def position(game: EelFamilyGame, **fields: Any) -> EelState:
    """A position built by hand from the initial state (tests keep the tokens conserved)."""
    state = game.initial_state()._replace(**fields)
    check_conservation(game, state)
    return state


def check_conservation(game: EelFamilyGame, state: EelState) -> None:
    """Every eel and snake is in exactly one place (bag mode)."""
    if game.dice:
        return
    assert state.bag_eels + sum(state.reserves) == 51, state
    assert state.bag_snakes + state.centre == 17, state
    assert min(state.reserves) >= 0 and state.bag_eels >= 0 and state.bag_snakes >= 0
