"""The compiled engine of Pig (``pig``): whole-game and step kernels, compiled policies.

A position is one row of an int32 *board* (columns below) mirroring ``PigState``:
both banked scores, the seat to move, the running total, the phase, the last face
rolled (0 before the first roll), the turns finished and the winner (-1 while
none). The rules options ``goal`` and ``die_sides`` are kernel parameters.

Policies are compiled too: ``random`` (a uniform legal action), ``heuristic``
(hold once the turn's total reaches ``HOLD_AT``, as the heuristic agent does) and the
solved ``optimal-score`` / ``optimal-win`` tables, which the kernel reads
directly (the exact solvers' own, handed over through :mod:`gamebag.fast.solved`).
``tests/fast/test_fast_pig.py`` proves the kernels equal to ``games/pig``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numba
import numpy as np
import numpy.typing as npt

from gamebag.core.protocol import Game
from gamebag.core.traits import Termination
from gamebag.fast import solved
from gamebag.fast.base import (
    BatchResult,
    FastEngine,
    LearnerView,
    PreparedCache,
    StepBatch,
)
from gamebag.fast.boards import BoardStepBatch
from gamebag.fast.learner import first_refused_choice
from gamebag.fast.registry import register_engine
from gamebag.fast.rng import draw_below, game_key, helper, run_key
from gamebag.games.pig.rules import Phase, Pig, PigState
from gamebag.games.pig.strategy import HOLD_AT as HOLD_AT

# Board columns.
SCORE0, SCORE1, SEAT, TOTAL, PHASE, LAST_ROLL, TURNS, WINNER = range(8)
FIELDS = 8
FIELD_NAMES = ("score0", "score1", "seat", "turn_total", "phase", "last_roll", "turns", "winner")
# Phases, in the order of the rules engine's ``Phase`` enum.
ROLLING, DECIDING, OVER = 0, 1, 2
# Action indices, in the order of ``Pig.all_actions()``.
HOLD, ROLL = 0, 1
NUM_ACTIONS = 2
# Compiled policies, by the agent names they stand for.
POLICIES: tuple[str, ...] = ("random", "heuristic", "optimal-score", "optimal-win")
RANDOM, HEURISTIC, OPTIMAL_SCORE, OPTIMAL_WIN = range(4)
OBSERVATION_SIZE = 7

IntArray = npt.NDArray[np.int32]
Int8Array = npt.NDArray[np.int8]


# ---- the rules -----------------------------------------------------------------------------
@helper
def _next_turn(board: IntArray, i: int) -> None:
    board[i, SEAT] = 1 - board[i, SEAT]
    board[i, TOTAL] = 0
    board[i, PHASE] = ROLLING
    board[i, TURNS] += 1


@helper
def apply_action(board: IntArray, i: int, action: int) -> None:
    """Seat to move at row ``i`` holds (0) or rolls (1); the row must be deciding."""
    if action == ROLL:
        board[i, PHASE] = ROLLING
        return
    seat = board[i, SEAT]
    board[i, SCORE0 + seat] += board[i, TOTAL]
    _next_turn(board, i)


@helper
def apply_roll(board: IntArray, i: int, face: int, goal: int) -> None:
    """The die shows ``face`` for the seat to move at row ``i`` (the row must be rolling)."""
    board[i, LAST_ROLL] = face
    if face == 1:
        _next_turn(board, i)
        return
    seat = board[i, SEAT]
    total = board[i, TOTAL] + face
    if board[i, SCORE0 + seat] + total >= goal:
        board[i, SCORE0 + seat] += total
        board[i, TOTAL] = 0
        board[i, PHASE] = OVER
        board[i, TURNS] += 1
        board[i, WINNER] = seat
        return
    board[i, TOTAL] = total
    board[i, PHASE] = DECIDING


@helper
def reset_row(board: IntArray, i: int) -> None:
    """The initial position: seat 0 about to roll."""
    for column in range(FIELDS):
        board[i, column] = 0
    board[i, WINNER] = -1


@helper
def round_number(board: IntArray, i: int) -> int:
    """The rules engine's ``round_number``: a round is one turn of each player."""
    turns = int(board[i, TURNS])
    if board[i, PHASE] == OVER:
        return (turns - 1) // 2 + 1
    return turns // 2 + 1


# ---- the policies --------------------------------------------------------------------------
@helper
def choose(
    policy: int,
    board: IntArray,
    i: int,
    key: np.uint64,
    counters: npt.NDArray[np.uint64],
    score_roll: Int8Array,
    win_choice: Int8Array,
    win_slot: IntArray,
    win_action: Int8Array,
) -> int:
    """The action ``policy`` takes at deciding row ``i`` (``random`` draws from the game's stream)."""
    total = board[i, TOTAL]
    if policy == RANDOM:
        pick = draw_below(key, counters[i], np.int64(2))
        counters[i] += np.uint64(1)
        return int(pick)
    if policy == HEURISTIC:
        return HOLD if total >= HOLD_AT else ROLL
    if policy == OPTIMAL_SCORE:
        return int(score_roll[total])
    # The win solution's own choice table: [own score, other score, decision slot] -> child index.
    seat = board[i, SEAT]
    slot = win_slot[total]
    return int(win_action[slot, win_choice[board[i, SCORE0 + seat], board[i, SCORE0 + 1 - seat], slot]])


# ---- whole games ---------------------------------------------------------------------------
@helper
def play_on(
    board: IntArray,
    key: np.uint64,
    counters: npt.NDArray[np.uint64],
    goal: int,
    sides: int,
    policies: Int8Array,
    score_roll: Int8Array,
    win_choice: Int8Array,
    win_slot: IntArray,
    win_action: Int8Array,
) -> None:
    """Play row 0 of ``board`` to the end with the seats' compiled policies."""
    while board[0, PHASE] != OVER:
        if board[0, PHASE] == ROLLING:
            face = int(draw_below(key, counters[0], np.int64(sides))) + 1
            counters[0] += np.uint64(1)
            apply_roll(board, 0, face, goal)
        else:
            action = choose(
                policies[board[0, SEAT]], board, 0, key, counters, score_roll, win_choice, win_slot, win_action
            )
            apply_action(board, 0, action)


@numba.njit(cache=True)
def play_games(
    run: np.uint64,
    start: int,
    stop: int,
    goal: int,
    sides: int,
    policies: Int8Array,
    score_roll: Int8Array,
    win_choice: Int8Array,
    win_slot: IntArray,
    win_action: Int8Array,
) -> tuple[IntArray, npt.NDArray[np.float64], IntArray]:
    """Scores, win shares and rounds of games ``start .. stop - 1`` of the run keyed ``run``."""
    games = stop - start
    scores = np.zeros((games, 2), dtype=np.int32)
    returns = np.zeros((games, 2), dtype=np.float64)
    length = np.zeros(games, dtype=np.int32)
    board = np.zeros((1, FIELDS), dtype=np.int32)
    counters = np.zeros(1, dtype=np.uint64)
    for g in range(games):
        key = game_key(run, np.int64(start + g))
        counters[0] = np.uint64(0)
        reset_row(board, 0)
        play_on(board, key, counters, goal, sides, policies, score_roll, win_choice, win_slot, win_action)
        scores[g, 0] = board[0, SCORE0]
        scores[g, 1] = board[0, SCORE1]
        returns[g, board[0, WINNER]] = 1.0
        length[g] = round_number(board, 0)
    return scores, returns, length


# ---- step batches --------------------------------------------------------------------------
@numba.njit(cache=True)
def roll_until_decision(
    board: IntArray, keys: npt.NDArray[np.uint64], counters: npt.NDArray[np.uint64], goal: int, sides: int
) -> None:
    """Resolve every pending roll until each game waits for a decision or is over."""
    for i in range(board.shape[0]):
        while board[i, PHASE] == ROLLING:
            face = int(draw_below(keys[i], counters[i], np.int64(sides))) + 1
            counters[i] += np.uint64(1)
            apply_roll(board, i, face, goal)


@numba.njit(cache=True)
def step_rows(
    board: IntArray,
    keys: npt.NDArray[np.uint64],
    counters: npt.NDArray[np.uint64],
    actions: npt.NDArray[np.int64],
    finished: npt.NDArray[np.bool_],
    goal: int,
    sides: int,
) -> int:
    """Apply each deciding seat's action and roll on; returns the first row with an illegal action, or -1."""
    for i in range(board.shape[0]):
        finished[i] = False
        if board[i, PHASE] != DECIDING:
            continue
        action = actions[i, board[i, SEAT]]
        if action != HOLD and action != ROLL:
            return i
    for i in range(board.shape[0]):
        if board[i, PHASE] != DECIDING:
            continue
        apply_action(board, i, int(actions[i, board[i, SEAT]]))
        while board[i, PHASE] == ROLLING:
            face = int(draw_below(keys[i], counters[i], np.int64(sides))) + 1
            counters[i] += np.uint64(1)
            apply_roll(board, i, face, goal)
        finished[i] = board[i, PHASE] == OVER
    return -1


@numba.njit(cache=True)
def policy_rows(
    policies: Int8Array,
    board: IntArray,
    keys: npt.NDArray[np.uint64],
    counters: npt.NDArray[np.uint64],
    score_roll: Int8Array,
    win_choice: Int8Array,
    win_slot: IntArray,
    win_action: Int8Array,
) -> npt.NDArray[np.int64]:
    """Each deciding seat's action under its compiled policy (0 elsewhere)."""
    actions = np.zeros((board.shape[0], 2), dtype=np.int64)
    for i in range(board.shape[0]):
        if board[i, PHASE] == DECIDING:
            seat = board[i, SEAT]
            actions[i, seat] = choose(
                policies[seat], board, i, keys[i], counters, score_roll, win_choice, win_slot, win_action
            )
    return actions


@helper
def observe_into(board: IntArray, i: int, player: int, goal: int, out: npt.NDArray[np.float32], slot: int) -> None:
    """``Pig.observation_tensor`` of ``player`` at row ``i``, written into ``out[i, slot]``."""
    for k in range(OBSERVATION_SIZE):
        out[i, slot, k] = 0.0
    out[i, slot, 0] = min(1.0, board[i, SCORE0 + player] / goal)  # a final score may pass the goal
    out[i, slot, 1] = min(1.0, board[i, SCORE0 + 1 - player] / goal)
    out[i, slot, 2] = board[i, TOTAL] / goal
    out[i, slot, 3] = 1.0 if board[i, SEAT] == player and board[i, PHASE] != OVER else 0.0
    out[i, slot, 4 + board[i, PHASE]] = 1.0


@numba.njit(cache=True)
def observe_rows(board: IntArray, goal: int) -> npt.NDArray[np.float32]:
    """``Pig.observation_tensor`` of every seat of every row."""
    out = np.zeros((board.shape[0], 2, OBSERVATION_SIZE), dtype=np.float32)
    for i in range(board.shape[0]):
        for player in range(2):
            observe_into(board, i, player, goal, out, player)
    return out


@numba.njit(cache=True)
def learner_step_rows(
    board: IntArray,
    keys: npt.NDArray[np.uint64],
    counters: npt.NDArray[np.uint64],
    finished: npt.NDArray[np.bool_],
    index: npt.NDArray[np.int64],
    run: np.uint64,
    goal: int,
    sides: int,
    seat: int,
    policy: int,
    chosen: npt.NDArray[np.int64],
    acting: npt.NDArray[np.bool_],
    masks: npt.NDArray[np.bool_],
    score_roll: Int8Array,
    win_choice: Int8Array,
    win_slot: IntArray,
    win_action: Int8Array,
    out_observations: npt.NDArray[np.float32],
    out_masks: npt.NDArray[np.bool_],
    out_acting: npt.NDArray[np.bool_],
    out_rewards: npt.NDArray[np.float64],
    out_done: npt.NDArray[np.bool_],
) -> int:
    """``StepBatch.learner_step`` in one call: the check, the opponents' choices, the step, restarts, the view.

    Returns ``-1``; or the first env whose acting learner's ``chosen`` action is outside
    ``masks`` (then nothing changed). The seat to move takes its policy draw even where it
    is the learner (whose choice then replaces it), and a finished env goes on with game
    ``index + num_envs``, as the default's ``policy_actions``, ``step`` and ``reset_done`` do.
    """
    rows = board.shape[0]
    top = masks.shape[1]
    refused = first_refused_choice(chosen, acting, masks)
    if refused >= 0:
        return refused
    for i in range(rows):
        finished[i] = False
        out_rewards[i] = 0.0
        if board[i, PHASE] == DECIDING:
            mover = board[i, SEAT]
            action = choose(policy, board, i, keys[i], counters, score_roll, win_choice, win_slot, win_action)
            if mover == seat:
                action = int(chosen[i]) if acting[i] else 0
            apply_action(board, i, action)
            while board[i, PHASE] == ROLLING:
                face = int(draw_below(keys[i], counters[i], np.int64(sides))) + 1
                counters[i] += np.uint64(1)
                apply_roll(board, i, face, goal)
            finished[i] = board[i, PHASE] == OVER
            if finished[i] and board[i, WINNER] == seat:
                out_rewards[i] = 1.0
        out_done[i] = board[i, PHASE] == OVER
    for i in range(rows):
        if out_done[i]:
            index[i] += rows
            reset_row(board, i)
            keys[i] = game_key(run, index[i])
            counters[i] = np.uint64(0)
            while board[i, PHASE] == ROLLING:
                face = int(draw_below(keys[i], counters[i], np.int64(sides))) + 1
                counters[i] += np.uint64(1)
                apply_roll(board, i, face, goal)
            # A game can be won by its very first rolls only with a goal of six or less.
            finished[i] = board[i, PHASE] == OVER
        out_acting[i] = board[i, PHASE] == DECIDING and board[i, SEAT] == seat
        for a in range(top):
            out_masks[i, a] = True  # both actions are legal wherever the learner decides
        observe_into(board, i, seat, goal, out_observations, 0)
    return -1


_PHASE_INDEX = {phase: k for k, phase in enumerate(Phase)}


def board_row(state: PigState) -> list[int]:
    """A rules-engine state as a board row (the exact replays prove the two agree)."""
    return [
        state.scores[0],
        state.scores[1],
        state.seat,
        state.turn_total,
        _PHASE_INDEX[state.phase],
        0 if state.last_roll is None else state.last_roll,
        state.turns,
        -1 if state.winner is None else state.winner,
    ]


# ---- solved tables -------------------------------------------------------------------------
@dataclass(frozen=True)
class PigRules:
    """The kernel parameters of one configured Pig."""

    goal: int
    sides: int


def rules_of(game: Game[Any, Any, Any]) -> PigRules:
    """What the configured rules engine plays by (its own values: no default is copied here)."""
    if not isinstance(game, Pig):
        raise TypeError(f"the Pig kernels play pig, not {game.game_id}")
    return PigRules(goal=game.goal, sides=game.sides)


def _node_total(node: Hashable) -> int:
    """The running total of a turn node ``("decide", total)``."""
    if not isinstance(node, tuple):
        raise TypeError(f"{node!r} is not a Pig turn node")
    total: int = node[1]
    return total


def _action_code(action: Any) -> int:
    return HOLD if action == "hold" else ROLL


def score_table(game: Game[Any, Any, Any]) -> Int8Array:
    """``[total]``: the optimal-score action at a decision with that running total."""
    rules = rules_of(game)
    solution = solved.solution(game, "score")
    table = np.full(rules.goal, ROLL, dtype=np.int8)
    for node in solution.graph.decision_nodes:
        table[_node_total(solution.graph.nodes[node])] = _action_code(solution.action_at(solution.graph.nodes[node]))
    return table


def win_tables(game: Game[Any, Any, Any]) -> tuple[Int8Array, IntArray, Int8Array]:
    """The optimal-win solution's choice table as it is, the decision slot of every running
    total, and the action of every (slot, choice)."""
    # The solved policy is the optimal-win agent's own (computed once per process), a race solution.
    solution = solved.solution(game, "win")
    graph = solution.graph
    slots = np.zeros(rules_of(game).goal, dtype=np.int32)
    actions = np.zeros((len(graph.decision_nodes), NUM_ACTIONS), dtype=np.int8)
    for slot, node in enumerate(graph.decision_nodes):
        slots[_node_total(graph.nodes[node])] = slot
        for k, action in enumerate(graph.actions[node]):
            actions[slot, k] = _action_code(action)
    choices: Int8Array = solution.choices
    return choices, slots, actions


PolicyTables = tuple[Int8Array, Int8Array, IntArray, Int8Array]
_TABLES: dict[tuple[Any, ...], PolicyTables] = {}
KEPT_TABLES = 8  # configurations whose tables stay in memory (a simulation asks once per chunk)


def policy_tables(game: Game[Any, Any, Any], agents: Sequence[str]) -> PolicyTables:
    """The solved tables the agents need (a placeholder where no agent reads one), kept per configuration."""
    key = (game.num_players, tuple(sorted(game.options.items())), "optimal-score" in agents, "optimal-win" in agents)
    tables = _TABLES.get(key)
    if tables is None:
        score = score_table(game) if "optimal-score" in agents else np.zeros(1, dtype=np.int8)
        if "optimal-win" in agents:
            choice, slots, actions = win_tables(game)
        else:
            choice, slots, actions = np.zeros((1, 1, 1), np.int8), np.zeros(1, np.int32), np.zeros((1, 1), np.int8)
        if len(_TABLES) >= KEPT_TABLES:
            _TABLES.pop(next(iter(_TABLES)))
        tables = _TABLES[key] = (score, choice, slots, actions)
    return tables


def policy_codes(agents: Sequence[str]) -> Int8Array:
    return np.array([POLICIES.index(agent) for agent in agents], dtype=np.int8)


# ---- the engine ----------------------------------------------------------------------------
class PigStepBatch(BoardStepBatch):
    """``num_envs`` games of Pig as one board (see the module docstring for its columns)."""

    FIELDS = FIELDS
    PHASE = PHASE
    OVER = OVER

    def __init__(self, game: Game[Any, Any, Any], num_envs: int) -> None:
        super().__init__(game, num_envs, 2, NUM_ACTIONS, OBSERVATION_SIZE)
        self.rules = rules_of(game)

    def _reset_row(self, row: int) -> None:
        reset_row(self.board, row)

    def _roll_pending(self) -> None:
        roll_until_decision(self.board, self.keys, self.counters, self.rules.goal, self.rules.sides)

    def _step_rows(self, moves: npt.NDArray[np.int64]) -> int:
        goal, sides = self.rules.goal, self.rules.sides
        return int(step_rows(self.board, self.keys, self.counters, moves, self.finished, goal, sides))

    def _illegal_move(self, row: int, moves: npt.NDArray[np.int64]) -> str:
        seat = int(self.board[row, SEAT])
        return f"env {row}: seat {seat} must hold (0) or roll (1), not {int(moves[row, seat])}; nothing was applied"

    def policy_actions(self, agents: Sequence[str]) -> npt.NDArray[np.int64]:
        tables = policy_tables(self.game, agents)
        return policy_rows(policy_codes(agents), self.board, self.keys, self.counters, *tables)

    def _learner_rows(
        self,
        seat: int,
        policy: str,
        chosen: npt.NDArray[np.int64],
        before: LearnerView,
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.bool_],
        acting: npt.NDArray[np.bool_],
        rewards: npt.NDArray[np.float64],
        done: npt.NDArray[np.bool_],
    ) -> int:
        agents = [policy] * self.num_players
        tables = policy_tables(self.game, agents)
        code = int(policy_codes(agents)[0])
        return int(learner_step_rows(
            self.board, self.keys, self.counters, self.finished, self.index, self.run, self.rules.goal,
            self.rules.sides, seat, code, chosen, before.acting, before.masks, *tables,
            observations, masks, acting, rewards, done,
        ))  # fmt: skip

    def to_act(self) -> npt.NDArray[np.bool_]:
        deciding = self.board[:, PHASE] == DECIDING
        seats = self.board[:, SEAT]
        return np.stack([deciding & (seats == 0), deciding & (seats == 1)], axis=1)

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        return np.repeat(self.to_act()[:, :, np.newaxis], NUM_ACTIONS, axis=2)

    def observations(self) -> npt.NDArray[np.float32]:
        return observe_rows(self.board, self.rules.goal)

    def rewards(self) -> npt.NDArray[np.float64]:
        out = np.zeros((self.num_envs, 2), dtype=np.float64)
        rows = np.nonzero(self.finished)[0]
        out[rows, self.board[rows, WINNER]] = 1.0
        return out

    def state_arrays(self) -> dict[str, npt.NDArray[Any]]:
        arrays: dict[str, npt.NDArray[Any]] = {name: self.board[:, k] for k, name in enumerate(FIELD_NAMES)}
        arrays.update(game_index=self.index, draws=self.counters)
        return arrays


class PigEngine(FastEngine):
    """Pig with any ``goal`` and ``die_sides``, for any pair of compiled policies."""

    game_id: ClassVar[str] = "pig"

    def __init__(self) -> None:
        self._prepared: PreparedCache[Any] = PreparedCache(KEPT_TABLES)

    def policies(self, game: Game[Any, Any, Any]) -> tuple[str, ...]:
        return POLICIES

    def play(
        self, game: Game[Any, Any, Any], agents: Sequence[str], seed: int | str, start: int, stop: int
    ) -> BatchResult:
        self.check_batch(game, agents, start, stop)
        rules = rules_of(game)
        scores, returns, length = play_games(
            run_key(seed), start, stop, rules.goal, rules.sides, policy_codes(agents), *policy_tables(game, agents)
        )
        # Every Pig game ends when a player reaches the goal (the rules' ``termination()``).
        return BatchResult.seat_zero_starts(start, scores, returns, length, ended_by_names=(Termination.GOAL.value,))

    def step_batch(self, game: Game[Any, Any, Any], num_envs: int) -> StepBatch:
        return PigStepBatch(game, num_envs)

    def playout(
        self, game: Game[Any, Any, Any], state: Any, agents: Sequence[str], seed: int
    ) -> tuple[float, ...] | None:
        if not isinstance(state, PigState):
            return None
        prepared = self._prepared.get(
            game,
            agents,
            lambda: (
                None
                if self.unsupported(game, agents) is not None
                else (rules_of(game), policy_codes(agents), policy_tables(game, agents))
            ),
        )
        if prepared is None:
            return None
        rules, codes, tables = prepared
        board = np.array([board_row(state)], dtype=np.int32)
        play_on(board, np.uint64(seed), np.zeros(1, np.uint64), rules.goal, rules.sides, codes, *tables)
        winner = int(board[0, WINNER])
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)


ENGINE = register_engine(PigEngine())
