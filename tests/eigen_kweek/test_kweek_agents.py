"""The Eigen Kweek heuristic: legal, observation-only, and better than random play."""

from __future__ import annotations

from kweek_helpers import make

from gamebag.agents.base import SeatView
from gamebag.agents.heuristics.eigen_kweek import EigenKweekHeuristic
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng, make_rng
from gamebag.sim.play import play_game


def test_heuristic_beats_random_players() -> None:
    wins = 0.0
    for index in range(12):
        game = make(4)
        seat = index % 4
        agents = [make_agent("heuristic" if p == seat else "random", game) for p in range(4)]
        result = play_game(game, agents, derive_rng(21, index), keep_record=False)
        wins += result.returns[seat]
    assert wins >= 9


def test_heuristic_decides_from_the_observation_alone() -> None:
    game = make(3)
    agent = make_agent("heuristic", game)
    rng = make_rng(8)
    state = game.initial_state()
    checked = 0
    while not game.is_terminal(state):
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
            continue
        choice = {}
        for seat in game.acting_players(state):
            action = agent.act(SeatView(game, state, seat), derive_rng(1, checked))
            # A state the seat cannot tell apart gives the same decision.
            twin = game.resample_from_infostate(state, seat, rng)
            assert agent.act(SeatView(game, twin, seat), derive_rng(1, checked)) == action
            assert action in game.legal_actions(state, seat)
            choice[seat] = action
            checked += 1
        state = game.apply(state, choice)
    assert checked > 50


def test_an_abstaining_heuristic_never_uses_its_card() -> None:
    game = make(2)
    agents = [EigenKweekHeuristic(frozenset({"STEVEN", "JULITA"})), make_agent("heuristic", game)]
    for index in range(4):
        result = play_game(game, agents, derive_rng(5, index))
        assert result.record is not None
        for event in result.record.events:
            mine = event.get("moves", {}).get("0", "")
            assert mine not in ("choose:STEVEN", "play:STEVEN", "choose:JULITA")
            assert not mine.startswith("block:")
