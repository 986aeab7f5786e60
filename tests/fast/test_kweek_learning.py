"""Learning on the compiled Eigen Kweek engine: the compiled ``learned`` agent and the one-call learner step.

The compiled ``learned`` agent must pick what ``agents/learned.py``'s NumPy policy picks
from the same observation and mask (the observations themselves are proven equal to the
rules engine's in ``test_kweek_equality``); the whole-game kernel must play the games the
step batch plays with it; and ``KweekStepBatch.learner_step`` (one compiled pass) must
give what the contract's default (``StepBatch.learner_step``: policy actions, step,
restarts, view) gives, game for game. ``learned:abstain=CARD`` (card studies) is checked
decision for decision against the Python agent on rules-engine games.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.heuristics.eigen_kweek import abstains
from gamebag.agents.learned import shipped_policies, shipped_policy
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng
from gamebag.fast.base import StepBatch
from gamebag.fast.eigen_kweek.engine import EigenKweekEngine, parse_agent
from gamebag.fast.eigen_kweek.layout import SCRATCH
from gamebag.fast.eigen_kweek.learned import LEARNED_CODE, learned_choice, observation_buffer
from gamebag.fast.eigen_kweek.tables import kernel_tables, row_from_state
from gamebag.fast.registry import engine_for, unavailable_reason

SHIPPED = sorted(players for game_id, players in shipped_policies() if game_id == "eigen-kweek")


@pytest.mark.parametrize("players", SHIPPED)
def test_compiled_learned_picks_what_the_numpy_policy_picks(players: int) -> None:
    game = gamebag.make("eigen-kweek", players)
    policy = shipped_policy(game)
    batch = EigenKweekEngine().step_batch(game, 24)
    batch.reset(5)
    agents = ["learned", *["heuristic", "learned", "random"][: players - 1]]
    learned_seats = [seat for seat, agent in enumerate(agents) if agent == "learned"]
    met = 0
    for _ in range(160):
        observations, masks, acting = batch.observations(), batch.legal_mask(), batch.to_act()
        chosen = batch.policy_actions(agents)
        for seat in learned_seats:
            rows = acting[:, seat]
            want = policy.act(observations[rows, seat], masks[rows, seat])
            assert np.array_equal(chosen[rows, seat], want)
            met += int(rows.sum())
        batch.step(chosen)
        batch.reset_done()
    assert met > 1000


def test_whole_games_with_learned_seats_are_the_step_batchs_games() -> None:
    game = gamebag.make("eigen-kweek", SHIPPED[0])
    agents = ["learned"] + ["heuristic"] * (SHIPPED[0] - 1)
    result = EigenKweekEngine().play(game, agents, 3, 10, 16)
    batch = EigenKweekEngine().step_batch(game, 6)
    batch.reset(3, first_index=10)
    finished = np.zeros(6, np.bool_)
    returns = np.zeros((6, game.num_players))
    for _ in range(5000):
        if finished.all():
            break
        batch.step(batch.policy_actions(agents))
        done = batch.done() & ~finished
        returns[done] = batch.rewards()[done]
        finished |= done
    assert finished.all() and np.array_equal(returns, result.returns)


def test_learned_runs_compiled_only_where_a_policy_ships() -> None:
    game = gamebag.make("eigen-kweek", SHIPPED[0])
    assert "learned" in EigenKweekEngine().policies(game)
    assert engine_for(game, ["learned"] + ["heuristic"] * (game.num_players - 1)) is not None
    other = gamebag.make("eigen-kweek", SHIPPED[0], max_rounds=7)
    assert "learned" not in EigenKweekEngine().policies(other)
    assert "trained with options" in (unavailable_reason(other, ["learned"] * other.num_players) or "")
    assert isinstance(parse_agent("learned:sample=true"), str)  # sampling plays on the rules engine
    batch = EigenKweekEngine().step_batch(other, 2)
    batch.reset(0)
    with pytest.raises(ValueError, match="trained with options"):
        batch.policy_actions(["learned"] * other.num_players)


@pytest.mark.parametrize(("players", "policy"), [(2, "heuristic"), (4, "random")])
def test_one_call_learner_step_is_the_contracts_step(players: int, policy: str) -> None:
    game = gamebag.make("eigen-kweek", players)
    fused, plain = EigenKweekEngine().step_batch(game, 16), EigenKweekEngine().step_batch(game, 16)
    fused.reset(9)
    plain.reset(9)
    seat = players - 1
    view_fused, view_plain = fused.learner_view(seat), plain.learner_view(seat)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        chosen = np.where(view_fused.masks, rng.random((16, fused.num_actions)), -1.0).argmax(axis=1)
        one = fused.learner_step(seat, policy, chosen, view_fused)
        two = StepBatch.learner_step(plain, seat, policy, chosen, view_plain)
        for field in ("observations", "masks", "acting"):
            assert np.array_equal(getattr(one.view, field), getattr(two.view, field)), field
        assert np.array_equal(one.rewards, two.rewards) and np.array_equal(one.done, two.done)
        view_fused, view_plain = one.view, two.view
        finished += int(one.done.sum())
    assert finished > 5
    assert np.array_equal(fused.state_arrays()["state"], plain.state_arrays()["state"])
    acting = np.flatnonzero(view_fused.acting)[0]
    bad = np.where(view_fused.masks[acting], 0, 1).argmax()  # an action its mask refuses
    chosen = np.zeros(16, np.int64)
    chosen[acting] = bad
    before = fused.state_arrays()["state"]
    with pytest.raises(ValueError, match=f"env {acting}: action {bad} is not legal"):
        fused.learner_step(seat, policy, chosen, view_fused)
    assert np.array_equal(fused.state_arrays()["state"], before)


def _check_abstaining_game(game: Any, spec: str, number: int, counts: dict[str, int]) -> None:
    """Play one rules-engine game, seat 0 the Python ``spec`` agent and the others the heuristic,
    asking the compiled ``learned_choice`` every seat-0 decision from the same position."""
    python, plain = make_agent(spec, game), make_agent("learned", game)
    others = [make_agent("heuristic", game) for _ in range(game.num_players - 1)]
    code, mask = parse_agent(spec)  # type: ignore[misc]
    assert code == LEARNED_CODE and mask != 0
    net = EigenKweekEngine().net(game)
    assert not isinstance(net, str)
    cfg, acts, pays = kernel_tables(game)
    names = list(game.all_actions())
    w = np.zeros(SCRATCH, np.int64)
    rng = derive_rng(8, number)
    state = game.initial_state()
    while game.node_kind(state) is not NodeKind.TERMINAL:
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
            continue
        moves = {}
        for seat in game.acting_players(state):
            view = SeatView(game, state, seat)
            if seat != 0:
                moves[seat] = others[seat - 1].act(view, rng)
                continue
            want = python.act(view, rng)
            row = row_from_state(game, state)
            got = learned_choice(
                row, cfg, acts, pays, 0, mask, net.values, net.shape, observation_buffer(), net.buffers(), w
            )
            assert names[got] == want, f"compiled {names[got]}, Python {want}"
            refused = [abstains(view.observation, a, python.abstain) for a in view.legal_actions]  # type: ignore[attr-defined]
            counts["decisions"] += 1
            counts["all abstained"] += len(refused) > 1 and all(refused)
            counts["binding"] += plain.act(view, rng) != want
            moves[seat] = want
        state = game.apply(state, moves)


def test_compiled_abstaining_learned_picks_what_the_python_agent_picks() -> None:
    # Many cards abstained: decisions where abstaining changes the policy's choice, and
    # decisions where every legal action is abstained (then all stay legal), both met.
    game = gamebag.make("eigen-kweek", SHIPPED[0])
    counts = {"decisions": 0, "binding": 0, "all abstained": 0}
    for number in range(4):
        _check_abstaining_game(
            game, "learned:abstain=STEVEN+KEUN+JULITA+FLUPPE+GRIET+FRANK+PASTOOR+JOS", number, counts
        )
    assert counts["decisions"] > 100
    assert counts["binding"] > 5 and counts["all abstained"] > 0, counts
