"""The simulation loop's internal paths play exactly the games the checked paths play.

``play_game`` without a record applies chance with ``advance_chance`` (no outcome
built, nothing re-checked) and agents' choices with ``apply_chosen`` (checked
against the list each seat chose from); with a record it goes through
``sample_and_apply_chance`` and the records replay through ``apply``. Both must
reach the same states from the same seed, for every game, and a wrong choice by
an agent must still be refused.
"""

from __future__ import annotations

from typing import Any

import pytest

import gamebag
from conftest import configurations
from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.errors import IllegalActionError
from gamebag.core.protocol import NodeKind
from gamebag.core.records import Record, replay
from gamebag.core.rng import Rng, derive_rng, draw_index
from gamebag.sim.play import play_game, random_walk

EEL_OPTIONS: list[tuple[str, int, dict[str, Any]]] = [
    ("wriggle-roulette", 4, {}),
    ("wriggle-roulette", 3, {"rotate_start": True, "max_grab": 3, "outbreak_snakes": 4}),
    ("eel-harvest", 2, {"lone_player_grabs": 2}),
    ("eel-harvest", 3, {"draw": "dice"}),
    ("eel-harvest", 5, {"outbreak_scores_reserve": True, "eels": 20, "snakes": 12}),
]


@pytest.mark.parametrize(("game_id", "players"), configurations())
def test_play_without_record_reaches_the_recorded_game(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    agents = [make_agent("random", game) for _ in range(players)]
    for index in range(3 if game_id == "eigen-kweek" else 20):
        recorded = play_game(game, agents, derive_rng("paths", index), keep_record=True)
        bare = play_game(game, agents, derive_rng("paths", index), keep_record=False)
        assert bare.state == recorded.state
        assert (bare.scores, bare.returns, bare.rounds) == (recorded.scores, recorded.returns, recorded.rounds)
        assert recorded.record is not None
        _, final = replay(Record.from_json(recorded.record.to_json()), gamebag.make)
        assert final == recorded.state


@pytest.mark.parametrize(("game_id", "players", "options"), EEL_OPTIONS)
def test_eel_advance_chance_draws_and_lands_as_the_spelled_out_outcome(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = gamebag.make(game_id, players, **options)
    checked = 0
    for index in range(15):
        for state in random_walk(game, derive_rng("eel-advance", index)):
            if game.node_kind(state) is not NodeKind.CHANCE:
                continue
            spelled, counted = derive_rng("draw", checked), derive_rng("draw", checked)
            outcome, expected = game.sample_and_apply_chance(state, spelled)
            assert game.advance_chance(state, counted) == expected
            assert counted.getstate() == spelled.getstate()
            assert game.apply_chance(state, outcome) == expected
            checked += 1
    assert checked > 100


class _GrabsTooMuch(Agent):
    """Answers one more than the largest legal action: a broken agent."""

    name = "too-much"

    def act(self, view: SeatView, rng: Rng) -> Any:
        return max(view.legal_actions) + 1


def test_an_agents_illegal_choice_is_refused_by_the_fast_loop() -> None:
    game = gamebag.make("wriggle-roulette", 3)
    agents: list[Agent] = [make_agent("random", game), _GrabsTooMuch(), make_agent("random", game)]
    with pytest.raises(IllegalActionError, match="seat 1: may grab 0 to 4 tokens"):
        play_game(game, agents, derive_rng("bad", 0), keep_record=False)


def test_apply_chosen_refuses_a_value_of_another_type() -> None:
    game = gamebag.make("wriggle-roulette", 2)
    state = game.initial_state()
    legal = {p: game.legal_actions(state, p) for p in game.acting_players(state)}
    with pytest.raises(IllegalActionError, match="whole number"):
        game.apply_chosen(state, {0: True, 1: 2}, legal)
    assert game.apply_chosen(state, {0: 1, 1: 2}, legal) == game.apply(state, {0: 1, 1: 2})


def test_draw_index_is_randrange() -> None:
    ours, theirs = derive_rng("index", 1), derive_rng("index", 1)
    for n in [*range(1, 200), 2**31 - 1, 2**40 + 3, 10**20] * 5:
        assert draw_index(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()
