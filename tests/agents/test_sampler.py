"""What search agents rely on: every game's sampler draws states the seat cannot tell from the real one.

For each registered game and player count, over states of random playouts, a
state drawn by ``SeatView.sample_state`` must give that seat the same
observation, the same legal actions and the same acting seats as the true
state, and a search must be able to play on from it to the end.
"""

from __future__ import annotations

from typing import Any

import pytest

import gamebag
from gamebag.agents.base import SeatView
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import Rng, make_rng


def configurations() -> list[tuple[str, int]]:
    configs = []
    for game_id in gamebag.game_ids():
        cls = gamebag.entry(game_id).game_class
        for players in sorted({cls.min_players, 2 if cls.min_players <= 2 else cls.min_players, cls.max_players}):
            configs.append((game_id, players))
    return configs


def play_out(game: Game[Any, Any, Any], state: Any, rng: Rng, limit: int = 20_000) -> Any:
    for _ in range(limit):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return state
        if kind is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
            continue
        moves = {}
        for player in game.acting_players(state):
            legal = game.legal_actions(state, player)
            moves[player] = legal[rng.randrange(len(legal))]
        state = game.apply(state, moves)
    raise AssertionError(f"{game.game_id} did not end within {limit} steps from a sampled state")


@pytest.mark.parametrize(("game_id", "players"), configurations())
def test_samples_are_consistent_with_what_the_seat_saw(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    walk_rng, sample_rng = make_rng(21), make_rng(22)
    state = game.initial_state()
    checked = 0
    steps = 0
    while not game.is_terminal(state):
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, walk_rng))
            continue
        steps += 1
        if steps % 2 == 0:
            for player in range(players):
                view = SeatView(game, state, player)
                sample = view.sample_state(sample_rng)
                assert game.observation(sample, player) == view.observation
                assert list(game.legal_actions(sample, player)) == list(view.legal_actions)
                assert game.acting_players(sample) == game.acting_players(state)
                assert game.node_kind(sample) is game.node_kind(state)
                checked += 1
                if checked % 7 == 0:
                    final = play_out(game, sample, sample_rng)
                    assert len(game.returns(final)) == players
        moves = {}
        for player in game.acting_players(state):
            legal = game.legal_actions(state, player)
            moves[player] = legal[walk_rng.randrange(len(legal))]
        state = game.apply(state, moves)
    assert checked >= players
