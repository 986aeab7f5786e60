"""The ``learned`` agent sees in the rules engine exactly what its policy was trained on.

``gamebag train`` trains on the compiled step batches' observations, and the ``learned``
agent plays from the rules engine's ``observation_tensor``. For Pig and Catch A Dragon
(default options, the configurations that ship), every state met in rules-engine games
played by the shipped policy against each opponent, and in Pig also thousands of random
states, gives bit-for-bit the same float32 observation in both engines for every seat,
and the agent's move in the rules engine is the move the shipped policy makes on the
compiled engine's observation. (``tests/fast`` proves ``board_row`` equal to the kernels'
own positions by exact replays.)
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import numpy as np
import pytest

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.learned import POLICY_PACKAGE, LearnedAgent, load_policy, policy_name
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import derive_rng
from gamebag.fast import dragon as fast_dragon
from gamebag.fast import pig as fast_pig
from gamebag.games.catch_a_dragon.dice import all_collections
from gamebag.games.catch_a_dragon.rules import DragonState
from gamebag.games.catch_a_dragon.rules import Phase as DragonPhase
from gamebag.games.pig.rules import Phase, PigState

GAMES_PER_OPPONENT = 40


def compiled_observations(game: Game[Any, Any, Any], states: list[Any]) -> np.ndarray:
    """``[state, seat, feature]``: the compiled engine's observations of rules-engine states."""
    if game.game_id == "pig":
        board = np.array([fast_pig.board_row(state) for state in states], dtype=np.int32)
        return fast_pig.observe_rows(board, fast_pig.rules_of(game).goal)
    board = np.array([fast_dragon.board_row(state) for state in states], dtype=np.int32)
    return fast_dragon.observe_rows(board, fast_dragon.rules_arrays(fast_dragon.rules_of(game)))


def rules_observations(game: Game[Any, Any, Any], states: list[Any]) -> np.ndarray:
    return np.array(
        [[game.observation_tensor(state, seat) for seat in range(game.num_players)] for state in states],
        dtype=np.float32,
    )


def learned_games(game: Game[Any, Any, Any], opponent: str, games: int) -> tuple[list[Any], list[tuple[Any, int, Any]]]:
    """Every state of rules-engine games of ``learned`` against ``opponent`` (seats alternated),
    and each of the learned agent's decisions as (state, seat, action)."""
    states: list[Any] = []
    decisions: list[tuple[Any, int, Any]] = []
    for index in range(games):
        learner_seat = index % 2
        agents = [make_agent("learned", game), make_agent(opponent, game)]
        if learner_seat == 1:
            agents.reverse()
        rng = derive_rng("learned-observations", game.game_id, opponent, index)
        state = game.initial_state()
        states.append(state)
        while not game.is_terminal(state):
            if game.node_kind(state) is NodeKind.CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
            else:
                (seat,) = game.acting_players(state)
                action = agents[seat].act(SeatView(game, state, seat), rng)
                if seat == learner_seat:
                    decisions.append((state, seat, action))
                state = game.apply(state, {seat: action})
            states.append(state)
    return states, decisions


@pytest.mark.parametrize("game_id", ["pig", "catch-a-dragon"])
@pytest.mark.parametrize("opponent", ["heuristic", "random", "optimal-win"])
def test_learned_agent_sees_and_plays_as_in_training(game_id: str, opponent: str) -> None:
    game = gamebag.make(game_id, 2)
    states, decisions = learned_games(game, opponent, GAMES_PER_OPPONENT)
    assert len(decisions) > GAMES_PER_OPPONENT
    assert np.array_equal(compiled_observations(game, states), rules_observations(game, states))

    policy = load_policy(resources.files(POLICY_PACKAGE).joinpath(policy_name(game_id, 2)))
    decided = [state for state, _, _ in decisions]
    seats = np.array([seat for _, seat, _ in decisions])
    observed = compiled_observations(game, decided)[np.arange(len(decided)), seats]
    masks = np.zeros((len(decided), len(game.all_actions())), dtype=np.bool_)
    for row, (state, seat, _) in enumerate(decisions):
        masks[row, [game.action_index(action) for action in game.legal_actions(state, seat)]] = True
    # Each decision alone, as the agent makes it (one row at a time).
    compiled_moves = [int(policy.act(observed[row : row + 1], masks[row : row + 1])[0]) for row in range(len(decided))]
    assert compiled_moves == [game.action_index(action) for _, _, action in decisions]


def test_pig_observations_agree_on_random_states() -> None:
    game = gamebag.make("pig", 2)
    goal = fast_pig.rules_of(game).goal
    rng = np.random.default_rng(16)
    states: list[PigState] = []
    for _ in range(5_000):
        phase = list(Phase)[int(rng.integers(3))]
        seat = int(rng.integers(2))
        scores = [int(s) for s in rng.integers(0, goal, size=2)]
        total = int(rng.integers(0, goal - scores[seat])) if phase is Phase.DECIDE else 0
        winner = None
        if phase is Phase.OVER:
            scores[seat] = int(rng.integers(goal, goal + 6))
            winner = seat
        states.append(
            PigState(
                scores=(scores[0], scores[1]),
                seat=seat,
                turn_total=total,
                phase=phase,
                last_roll=None if phase is Phase.ROLL and rng.random() < 0.5 else int(rng.integers(1, 7)),
                turns=int(rng.integers(0, 60)),
                winner=winner,
            )
        )
    assert np.array_equal(compiled_observations(game, states), rules_observations(game, states))
    # And the agent's decision equals the policy's on the compiled observation, state by state.
    agent = make_agent("learned", game)
    assert isinstance(agent, LearnedAgent)
    deciding = [state for state in states if state.phase is Phase.DECIDE]
    observed = compiled_observations(game, deciding)
    for state, row in zip(deciding, observed, strict=True):
        move = agent.act(SeatView(game, state, state.seat), derive_rng(0))
        expected = int(agent.policy.act(row[state.seat][None, :], np.ones((1, 2), dtype=np.bool_))[0])
        assert game.action_index(move) == expected, state


@pytest.mark.parametrize("players", [1, 2, 3, 8])
def test_dragon_observations_agree_on_random_states(players: int) -> None:
    """Random positions with margins far beyond the thermometers' reach both ways, every seat moving."""
    game = gamebag.make("catch-a-dragon", players)
    sets = [collection for collection in all_collections(4) if len(collection) < 4]
    rng = np.random.default_rng(players)
    states: list[DragonState] = []
    for _ in range(3_000):
        phase = list(DragonPhase)[int(rng.integers(4))]
        collected = () if phase is DragonPhase.OVER else sets[int(rng.integers(len(sets)))]
        rolled = (
            tuple(sorted(int(f) for f in rng.integers(1, 7, size=4 - len(collected))))
            if phase is DragonPhase.COLLECT
            else ()
        )
        states.append(
            DragonState(
                scores=tuple(int(s) for s in rng.integers(0, 120, size=players)),
                round_no=int(rng.integers(1, 15)),
                seat=int(rng.integers(players)),
                phase=phase,
                collected=collected,
                rolled=rolled,
                last_turn=None,
                winners=(),
            )
        )
    observed = rules_observations(game, states)
    assert np.array_equal(compiled_observations(game, states), observed)
    # The margin thermometers met both of their clipped ends and values in between.
    margins = observed[:, :, fast_dragon.MARGIN_AT : fast_dragon.TURN_AT].sum(axis=2)
    if players > 1:
        assert margins.min() == 0 and margins.max() == fast_dragon.TURN_AT - fast_dragon.MARGIN_AT
        assert len(np.unique(margins)) > 30
