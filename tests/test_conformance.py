"""The conformance suite: the same checks over every registered game and player count.

Each game must end under random play, be deterministic for a seed, round-trip
its records through replay, leak nothing through observations, give chance
distributions that sum to one, and refuse illegal actions without changing state.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

import gamebag
from conftest import configurations, random_walk
from gamebag.agents.registry import make_agent
from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError
from gamebag.core.match import Match
from gamebag.core.protocol import NodeKind
from gamebag.core.records import Record, replay
from gamebag.core.rng import derive_rng, make_rng
from gamebag.sim.play import play_game

CONFIGS = configurations()
IDS = [f"{g}-{n}p" for g, n in CONFIGS]
MAX_ENUMERATED_OUTCOMES = 20_000
NOT_AN_ACTION = ("not", "an", "action")


def test_every_rulebook_game_is_registered() -> None:
    assert gamebag.game_ids() == ("catch-a-dragon", "eel-harvest", "eigen-kweek", "pig", "wriggle-roulette")
    import gamebag.games as games_package

    assert games_package.__name__ == "gamebag.games", "the games package is not shadowed by a function"


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_declared_traits_hold(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    traits = game.traits
    most_acting = 0
    chance_nodes = 0
    for seed in range(2):
        for state in random_walk(game, make_rng(seed)):
            kind = game.node_kind(state)
            if kind is NodeKind.CHANCE:
                chance_nodes += 1
            elif kind is NodeKind.DECISION:
                acting = game.acting_players(state)
                most_acting = max(most_acting, len(acting))
                if traits.sequential:
                    assert len(acting) == 1, f"a sequential game has {len(acting)} seats acting at once"
                if traits.perfect_information:
                    for p in range(players):
                        assert game.resample_from_infostate(state, p, make_rng(p)) == state
                        seen = game.observation(state, p)
                        assert seen.pop("seat") == p
                        assert seen == game.public_view(state), "with perfect information a seat sees the table"
    assert (chance_nodes > 0) == traits.chance
    if traits.simultaneous and players > 1:
        assert most_acting > 1, "a game declared simultaneous never had two seats choosing at once"


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_random_playouts_end_with_winners(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    for seed in range(3):
        states = list(random_walk(game, make_rng(seed)))
        final = states[-1]
        assert game.is_terminal(final)
        winners = game.winners(final)
        assert winners, "a finished game has at least one winner"
        assert all(0 <= w < players for w in winners)
        assert sum(game.returns(final)) == pytest.approx(1.0)
        assert len(game.scores(final)) == players


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_same_seed_same_record_and_records_replay(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    agents = [make_agent("random", game) for _ in range(players)]
    first = play_game(game, agents, derive_rng(7, game_id))
    second = play_game(game, agents, derive_rng(7, game_id))
    assert first.record is not None and second.record is not None
    assert first.record.to_json() == second.record.to_json()
    other = play_game(game, agents, derive_rng(8, game_id))
    assert other.record is not None
    # Records go through JSON text and back, and replay to the same final state.
    text = json.dumps(first.record.to_json())
    replayed_game, final = replay(Record.from_json(json.loads(text)), gamebag.make)
    assert final == first.state
    assert replayed_game.winners(final) == first.winners


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_observations_are_json_and_leak_nothing(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    rng = make_rng(11)
    tensor_length = None
    hidden_changes = 0
    for index, state in enumerate(random_walk(game, make_rng(3))):
        if index % 3:
            continue
        json.dumps(game.public_view(state))
        for p in range(players):
            view = game.observation(state, p)
            json.dumps(view)
            tensor = game.observation_tensor(state, p)
            tensor_length = tensor_length or len(tensor)
            assert len(tensor) == tensor_length
            # A state drawn from what p cannot tell apart must give p the same observation.
            for _ in range(2):
                other = game.resample_from_infostate(state, p, rng)
                assert game.observation(other, p) == view
                assert game.node_kind(other) == game.node_kind(state)
                if other != state:
                    hidden_changes += 1
                    assert game.public_view(other) == game.public_view(state)
    if game.traits.hidden_information:
        assert hidden_changes > 0, "the sampler never varied any hidden data"


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_chance_distributions_are_exact(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    checked = 0
    for state in random_walk(game, make_rng(5)):
        if game.node_kind(state) is not NodeKind.CHANCE:
            continue
        outcomes = game.chance_outcomes(state)
        if len(outcomes) > MAX_ENUMERATED_OUTCOMES:
            continue
        probabilities = [p for _, p in outcomes]
        assert all(isinstance(p, Fraction) and p > 0 for p in probabilities)
        assert sum(probabilities) == 1
        support = {o for o, _ in outcomes}
        assert len(support) == len(outcomes), "each outcome is listed once"
        sample = game.sample_chance(state, make_rng(checked))
        after = game.apply_chance(state, sample)
        assert any(game.apply_chance(state, o) == after for o in support)
        checked += 1
        if checked >= 25:
            break
    assert checked > 0


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_illegal_actions_raise_and_change_nothing(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    every_action = list(game.all_actions())
    tried = 0
    for index, state in enumerate(random_walk(game, make_rng(9))):
        if index % 2:
            continue
        before = hash(state)
        kind = game.node_kind(state)
        if kind is NodeKind.DECISION:
            acting = game.acting_players(state)
            legal = {p: list(game.legal_actions(state, p)) for p in acting}
            assert all(legal[p] for p in acting), "an acting player always has a legal action"
            assert all(a in every_action for p in acting for a in legal[p])
            moves = {p: legal[p][0] for p in acting}
            if len(acting) > 1 or players > 1:
                with pytest.raises(IllegalActionError):
                    game.apply(state, {p: a for p, a in moves.items() if p != acting[0]})
            outsiders = [p for p in range(players) if p not in acting]
            if outsiders:
                with pytest.raises(IllegalActionError):
                    game.apply(state, {**moves, outsiders[0]: every_action[0]})
            for p in acting:
                wrong = [a for a in every_action if a not in legal[p]]
                if wrong:
                    with pytest.raises(IllegalActionError):
                        game.apply(state, {**moves, p: wrong[0]})
                with pytest.raises(IllegalActionError):
                    game.apply(state, {**moves, p: NOT_AN_ACTION})
                tried += 1
            with pytest.raises(IllegalChanceOutcomeError):
                game.apply_chance(state, game.initial_state())
        elif kind is NodeKind.CHANCE:
            with pytest.raises(IllegalActionError):
                game.apply(state, {0: every_action[0]})
        assert hash(state) == before
    assert tried > 0


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_match_hides_pending_choices(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    match = Match(game, seed=4)
    rng = make_rng(2)
    submissions = 0
    while not match.is_over and submissions < 200:
        waiting = match.waiting_for()
        seat = waiting[0]
        legal = match.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        others_before = {p: match.view(p) for p in range(players) if p != seat}
        public_before = match.public()
        events = match.submit(seat, action)
        submissions += 1
        if not events:
            # The choice is pending: only the chooser's own view may show it.
            assert match.view(seat)["choices"]["mine"] == game.action_to_json(action)
            for p, before in others_before.items():
                after = match.view(p)
                assert after["choices"]["mine"] == before["choices"]["mine"]
                assert {k: v for k, v in after.items() if k != "choices"} == {
                    k: v for k, v in before.items() if k != "choices"
                }
            assert {k: v for k, v in match.public().items() if k != "choices"} == {
                k: v for k, v in public_before.items() if k != "choices"
            }


def _bad_options_and_counts(game_id: str) -> list[tuple[dict[str, Any], int]]:
    cls = gamebag.entry(game_id).game_class
    return [({"no_such_option": 1}, cls.default_players), ({}, cls.max_players + 1), ({}, cls.min_players - 1)]


@pytest.mark.parametrize("game_id", sorted(gamebag.game_ids()))
def test_bad_options_and_player_counts_are_refused_clearly(game_id: str) -> None:
    from gamebag.core.errors import OptionError

    for options, players in _bad_options_and_counts(game_id):
        with pytest.raises(OptionError) as caught:
            gamebag.make(game_id, players, **options)
        assert str(caught.value)
    cls = gamebag.entry(game_id).game_class
    for spec in cls.option_specs:
        with pytest.raises(OptionError, match=spec.name):
            gamebag.make(game_id, cls.default_players, **{spec.name: object()})
