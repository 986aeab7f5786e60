"""Shared fixtures and helpers for the gamebag test suite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gamebag
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import Rng, make_rng


def random_walk(game: Game[Any, Any, Any], rng: Rng, max_steps: int = 100_000) -> Iterator[Any]:
    """Every state of one random playout (chance sampled, players uniformly random)."""
    state = game.initial_state()
    yield state
    for _ in range(max_steps):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return
        if kind is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            moves = {}
            for p in game.acting_players(state):
                legal = game.legal_actions(state, p)
                moves[p] = legal[rng.randrange(len(legal))]
            state = game.apply(state, moves)
        yield state
    raise AssertionError(f"{game.game_id} did not end within {max_steps} steps")


def configurations() -> list[tuple[str, int]]:
    """(game id, players) pairs the conformance suite covers: min, default and max players."""
    configs: list[tuple[str, int]] = []
    for game_id in gamebag.games():
        cls = gamebag.entry(game_id).game_class
        for n in sorted({cls.min_players, cls.default_players, cls.max_players}):
            configs.append((game_id, n))
    return configs


__all__ = ["configurations", "make_rng", "random_walk"]
