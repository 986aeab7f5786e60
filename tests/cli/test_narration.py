"""The terminal's narration: a player never sees a score change without the event that caused it.

For every registered game, random games are played and, after every single step, seat 0's
view is narrated against its previous view (as ``gamebag play`` does). Whenever a seat's
score changes, the narrated lines must name that seat; and the narration reads only seat
0's own view, so it can hold nothing seat 0 may not know.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

import gamebag
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import derive_rng

GAMES = [("wriggle-roulette", 4), ("eel-harvest", 3), ("catch-a-dragon", 3), ("eigen-kweek", 3), ("pig", 2)]


def _walk(game: Game[Any, Any, Any], seed: int) -> list[Any]:
    rng = derive_rng(seed, "narration")
    state = game.initial_state()
    states = [state]
    while game.node_kind(state) is not NodeKind.TERMINAL and len(states) < 20_000:
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            moves = {}
            for seat in game.acting_players(state):
                legal = game.legal_actions(state, seat)
                moves[seat] = legal[rng.randrange(len(legal))]
            state = game.apply(state, moves)
        states.append(state)
    return states


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_score_change_is_narrated(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    narrate = gamebag.entry(game_id).narrate
    changes = 0
    for seed in range(3):
        states = _walk(game, seed)
        seen = game.observation(states[0], 0)
        for before, after in pairwise(states):
            view = game.observation(after, 0)
            lines = narrate(seen, view)
            seen = view
            for seat, (old, new) in enumerate(zip(game.scores(before), game.scores(after), strict=True)):
                if old != new:
                    changes += 1
                    text = " ".join(lines)
                    assert f"seat {seat}" in text, (seat, old, new, lines)
    assert changes > 0  # the games did score


def test_eigen_kweek_narration_tells_private_notes_only_to_their_owner() -> None:
    game = gamebag.make("eigen-kweek", 3)
    narrate = gamebag.entry("eigen-kweek").narrate
    states = _walk(game, 7)
    for seat in range(3):
        told: list[str] = []
        seen = game.observation(states[0], seat)
        for state in states[1:]:
            view = game.observation(state, seat)
            told.extend(narrate(seen, view))
            seen = view
        private = [line for line in told if line.startswith("(only you know)")]
        assert private  # corners taken, coins drawn...
        # Every private line is one of this seat's own notes at some point of the game.
        own = {note for state in states for note in game.observation(state, seat)["you"]["notes"]}
        assert all(line.removeprefix("(only you know) ") in own for line in private)
