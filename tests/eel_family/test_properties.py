"""Hypothesis property tests over random legal play in the Eel family."""

from __future__ import annotations

from typing import Any

from helpers import check_conservation
from hypothesis import given, settings
from hypothesis import strategies as st

import gamebag
from gamebag.core.protocol import NodeKind
from gamebag.core.records import Record, chance_event, moves_event, new_record, replay
from gamebag.core.rng import make_rng
from gamebag.games.eel_family.options import TARGET
from gamebag.games.eel_family.rules import EelFamilyGame


@st.composite
def eel_games(draw: st.DrawFn) -> EelFamilyGame:
    game_id = draw(st.sampled_from(["eel-harvest", "wriggle-roulette"]))
    players = draw(st.integers(2, 8))
    options: dict[str, Any] = {"rotate_start": draw(st.booleans())}
    if game_id == "eel-harvest":
        options["outbreak_scores_reserve"] = draw(st.booleans())
        options["lone_player_grabs"] = draw(st.one_of(st.none(), st.integers(0, 3)))
        options["draw"] = draw(st.sampled_from(["bag", "dice"]))
    game = gamebag.make(game_id, players, **options)
    assert isinstance(game, EelFamilyGame)
    return game


@settings(max_examples=60, deadline=None)
@given(game=eel_games(), seed=st.integers(0, 2**32), bias=st.integers(0, 2))
def test_random_legal_play_keeps_every_invariant(game: EelFamilyGame, seed: int, bias: int) -> None:
    rng = make_rng(seed)
    state = game.initial_state()
    record = new_record(game)
    steps = 0
    while game.node_kind(state) is not NodeKind.TERMINAL:
        before = state
        if game.node_kind(state) is NodeKind.CHANCE:
            outcome = game.sample_chance(state, rng)
            state = game.apply_chance(state, outcome)
            record.events.append(chance_event(game, outcome))
        else:
            acting = game.acting_players(state)
            assert acting == tuple(p for p in range(game.num_players) if state.in_round[p])
            # Bias towards bigger grabs sometimes, so long rounds and short bags happen.
            moves = {p: min(game.max_grab, rng.randrange(game.max_grab + 1) + bias) for p in acting}
            state = game.apply(state, moves)
            record.events.append(moves_event(game, moves))
        check_conservation(game, state)
        assert all(a <= b for a, b in zip(before.scores, state.scores, strict=True)), "scores never fall"
        assert state.centre < game.threshold or game.is_terminal(state) or state.pending is not None
        steps += 1
        assert steps < 50_000
    best = max(state.scores)
    assert best >= TARGET
    assert state.winners and all(state.scores[w] == best for w in state.winners)
    _, replayed = replay(Record.from_json(record.to_json()), gamebag.make)
    assert replayed == state
