"""The ``ismcts`` agent: from the seat's view only, deterministic under a seed, sensible, well configured."""

from __future__ import annotations

from typing import Any

import pytest

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.ismcts import (
    DEFAULT_ITERATIONS,
    DEFAULT_TIME_CAP_MS,
    IsmctsAgent,
    SearchSettings,
    settings_from_params,
)
from gamebag.agents.registry import make_agent
from gamebag.core.errors import UnknownAgentError
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import make_rng
from gamebag.sim.play import play_game


def decision_states(game: Game[Any, Any, Any], seed: int, every: int = 5, limit: int = 4) -> list[Any]:
    """Some decision states of a random playout."""
    rng = make_rng(seed)
    state = game.initial_state()
    found: list[Any] = []
    step = 0
    while not game.is_terminal(state) and len(found) < limit:
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
            continue
        if step % every == 0:
            found.append(state)
        step += 1
        moves = {}
        for p in game.acting_players(state):
            legal = game.legal_actions(state, p)
            moves[p] = legal[rng.randrange(len(legal))]
        state = game.apply(state, moves)
    return found


def game_ids() -> list[str]:
    return list(gamebag.game_ids())


@pytest.mark.parametrize("game_id", game_ids())
def test_same_seed_same_move_in_every_game(game_id: str) -> None:
    cls = gamebag.entry(game_id).game_class
    game = gamebag.make(game_id, max(2, cls.min_players))
    agent = make_agent("ismcts:iterations=40", game)
    states = decision_states(game, seed=3)
    assert states, f"no decision state found in {game_id}"
    for state in states:
        player = game.acting_players(state)[0]
        view = SeatView(game, state, player)
        first = agent.act(view, make_rng(9))
        second = agent.act(SeatView(game, state, player), make_rng(9))
        assert first == second
        assert first in view.legal_actions


@pytest.mark.parametrize("game_id", game_ids())
def test_search_sees_only_the_seat_view(game_id: str) -> None:
    """A state the seat cannot tell from the real one, searched with the same samples, gives the same result."""
    cls = gamebag.entry(game_id).game_class
    game = gamebag.make(game_id, max(2, cls.min_players))
    agent = IsmctsAgent(game, SearchSettings(iterations=30))
    rng = make_rng(4)
    differed = 0
    for state in decision_states(game, seed=5, limit=3):
        player = game.acting_players(state)[0]
        twin = game.resample_from_infostate(state, player, rng)
        differed += twin != state
        stats = agent.search(_TwinView(game, state, state, player), make_rng(1))
        twin_stats = agent.search(_TwinView(game, twin, state, player), make_rng(1))
        assert stats == twin_stats
    if game_id == "eigen-kweek":  # hidden hands: the twins really differ there
        assert differed > 0


class _TwinView(SeatView):
    """A view of ``shown`` whose determinisations are drawn from ``sampled_from``.

    With both views drawing the same samples, any difference between their
    searches could only come from reading the wrapped state itself.
    """

    def __init__(self, game: Game[Any, Any, Any], shown: Any, sampled_from: Any, player: int) -> None:
        super().__init__(game, shown, player)
        self.sampled_from = sampled_from

    def sample_state(self, rng: Any) -> Any:
        return self.game.resample_from_infostate(self.sampled_from, self.player, rng)


def test_caller_stream_advances_one_draw_per_move() -> None:
    game = gamebag.make("eel-harvest", 2)
    state = game.initial_state()
    for params in ("iterations=20", "iterations=80"):
        agent = make_agent(f"ismcts:{params}", game)
        rng = make_rng(1)
        agent.act(SeatView(game, state, 0), rng)
        after = rng.random()
        reference = make_rng(1)
        reference.getrandbits(64)
        assert after == reference.random()


def test_exits_when_exiting_wins_wriggle_roulette() -> None:
    game = gamebag.make("wriggle-roulette", 2)
    state = game.initial_state()._replace(scores=(14, 17), reserves=(6, 2), bag_eels=43, bag_snakes=15, centre=2)
    agent = make_agent("ismcts:iterations=300", game)
    assert agent.act(SeatView(game, state, 0), make_rng(2)) == 0


@pytest.mark.parametrize("playouts", ["auto", "rules"])
@pytest.mark.parametrize("spec", ["ismcts:iterations=60", "ismcts:iterations=60,bias=1,final=mix"])
def test_beats_random_at_a_small_budget(spec: str, playouts: str) -> None:
    """On compiled playouts (auto: the fast engine) as on the rules engine's."""
    game = gamebag.make("eel-harvest", 2)
    agent = make_agent(f"{spec},playouts={playouts}", game)
    opponent = make_agent("random", game)
    wins = 0.0
    for index in range(12):
        seats = [agent, opponent] if index % 2 == 0 else [opponent, agent]
        wins += play_game(game, seats, make_rng(index), keep_record=False).returns[index % 2]
    assert wins >= 10


def test_time_budget_and_simultaneous_statistics() -> None:
    game = gamebag.make("eel-harvest", 2)
    agent = make_agent("ismcts:ms=30", game)
    view = SeatView(game, game.initial_state(), 1)
    assert agent.act(view, make_rng(3)) in view.legal_actions
    stats = IsmctsAgent(game, SearchSettings(iterations=200, rollout="random")).search(view, make_rng(3))
    assert set(stats) == set(view.legal_actions)
    assert sum(s.visits for s in stats.values()) == 200
    assert all(0.0 <= s.mean_return <= 1.0 for s in stats.values())


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:depth=3", "no parameter"),
        ("ismcts:iterations=0", "at least 1"),
        ("ismcts:iterations=ten", "integer"),
        ("ismcts:ms=-5", "positive"),
        ("ismcts:c=-1", "at least 0"),
        ("ismcts:bias=-1", "at least 0"),
        ("ismcts:rollout=smart", "one of"),
        ("ismcts:opponents=all", "one of"),
        ("ismcts:final=worst", "one of"),
    ],
)
def test_bad_parameters_are_refused_clearly(spec: str, message: str) -> None:
    with pytest.raises(UnknownAgentError, match=message):
        make_agent(spec, gamebag.make("eel-harvest", 2))


def test_parameters_are_read() -> None:
    game = gamebag.make("eel-harvest", 2)
    settings = settings_from_params(game, {"ms": "150", "c": "1.2", "rollout": "random", "final": "mix"})
    assert settings.time_ms == 150 and settings.iterations is None
    assert settings.exploration == 1.2 and settings.rollout == "random" and settings.final == "mix"
    both = settings_from_params(game, {"ms": "150", "iterations": "70"})
    assert both.time_ms == 150 and both.iterations == 70
    default = settings_from_params(game, {})
    assert default.iterations == DEFAULT_ITERATIONS and default.time_ms == DEFAULT_TIME_CAP_MS
    assert settings_from_params(game, {"iterations": "50"}).time_ms is None  # reproducible: no clock
