"""The Catch A Dragon fast engine (whole games, playouts and step batches)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from gamebag.core.protocol import Game
from gamebag.fast.base import (
    BatchResult,
    FastEngine,
    LearnerStep,
    LearnerView,
    PreparedCache,
    StepBatch,
    illegal_learner_action,
)
from gamebag.fast.dragon.batch import (
    learner_step_rows,
    legal_rows,
    observe_rows,
    play_games,
    play_on,
    policy_rows,
    roll_rows,
    step_rows,
)
from gamebag.fast.dragon.kernel import (
    reset_row,
)
from gamebag.fast.dragon.layout import (
    COLLECTED,
    COLLECTING,
    COLLECTIONS,
    DECIDING,
    DRAGON_ENDINGS,
    FIELDS,
    LAST,
    OVER,
    PHASE,
    POLICIES,
    ROLLED,
    ROUND,
    SCORES,
    SEAT,
    SIDES,
    WINNERS,
)
from gamebag.fast.dragon.policies import (
    KEPT_TABLES,
    policy_codes,
    policy_tables,
)
from gamebag.fast.dragon.tables import (
    board_row,
    rules_arrays,
    rules_of,
)
from gamebag.fast.rng import game_key, run_key
from gamebag.games.catch_a_dragon.rules import (
    OBSERVATION_SIZE,
    DragonState,
)


# ---- the engine ----------------------------------------------------------------------------
class DragonStepBatch(StepBatch):
    """``num_envs`` games of Catch A Dragon as one board (see the module docstring)."""

    def __init__(self, game: Game[Any, Any, Any], num_envs: int) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.game = game
        self.rules = rules_arrays(rules_of(game))
        self.num_envs = num_envs
        self.num_players = game.num_players
        self.num_actions = int(self.rules[COLLECTIONS].shape[0])
        self.observation_size = OBSERVATION_SIZE
        self.board = np.zeros((num_envs, FIELDS), dtype=np.int32)
        self.keys = np.zeros(num_envs, dtype=np.uint64)
        self.counters = np.zeros(num_envs, dtype=np.uint64)
        self.index = np.zeros(num_envs, dtype=np.int64)
        self.finished = np.zeros(num_envs, dtype=np.bool_)
        self.run = np.uint64(0)

    def reset(self, seed: int | str, first_index: int = 0) -> None:
        self.run = run_key(seed)
        self.index[:] = np.arange(first_index, first_index + self.num_envs, dtype=np.int64)
        self._restart(np.ones(self.num_envs, dtype=np.bool_))

    def _restart(self, rows: npt.NDArray[np.bool_]) -> None:
        for i in np.nonzero(rows)[0]:
            reset_row(self.board, int(i))
            self.keys[i] = game_key(self.run, self.index[i])
            self.counters[i] = 0
        roll_rows(self.board, self.keys, self.counters, self.rules)
        # Every game needs at least one decision, so a restarted game is never over.
        self.finished[rows] = False

    def reset_done(self) -> npt.NDArray[np.bool_]:
        """Finished env ``k`` goes on with game ``index + num_envs`` (indices never repeat)."""
        done = self.done()
        self.index[done] += self.num_envs
        self._restart(done)
        return done

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        moves = np.asarray(actions, dtype=np.int64)
        if moves.shape != (self.num_envs, self.num_players):
            raise ValueError(f"actions must have shape ({self.num_envs}, {self.num_players}), not {moves.shape}")
        bad = step_rows(self.board, self.keys, self.counters, moves, self.finished, self.rules)
        if bad >= 0:
            seat = int(self.board[bad, SEAT])
            allowed = np.nonzero(self.legal_mask()[bad, seat])[0].tolist()
            raise ValueError(
                f"env {bad}: action {int(moves[bad, seat])} is not legal for seat {seat} now; legal action "
                f"indices: {allowed}; nothing was applied"
            )

    def policy_actions(self, agents: Sequence[str]) -> npt.NDArray[np.int64]:
        tables = policy_tables(self.game, agents)
        return policy_rows(policy_codes(agents), self.board, self.keys, self.counters, self.rules, tables)

    def learner_step(self, seat: int, policy: str, chosen: npt.NDArray[np.int64], before: LearnerView) -> LearnerStep:
        """The default's step in one compiled call (the same games, draws and views)."""
        agents = [policy] * self.num_players
        tables = policy_tables(self.game, agents)
        code = int(policy_codes(agents)[0])
        n = self.num_envs
        moves = np.empty(n, np.int64)
        observations = np.empty((n, 1, OBSERVATION_SIZE), np.float32)
        masks = np.empty((n, self.num_actions), np.bool_)
        acting = np.empty(n, np.bool_)
        rewards = np.empty(n, np.float64)
        done = np.empty(n, np.bool_)
        learner_moves = np.ascontiguousarray(chosen, dtype=np.int64)
        bad = learner_step_rows(
            self.board, self.keys, self.counters, self.finished, self.index, self.run, self.rules, tables,
            seat, code, learner_moves, before.acting, before.masks, moves,
            observations, masks, acting, rewards, done,
        )  # fmt: skip
        if 0 <= bad < n:
            raise illegal_learner_action(bad, learner_moves, before.masks)
        if bad >= n:
            env = bad - n
            raise ValueError(
                f"env {env}: action {int(moves[env])} is not legal for seat {int(self.board[env, SEAT])} now; "
                "the view this step started from is not this batch's; nothing was applied"
            )
        return LearnerStep(LearnerView(observations[:, 0], masks, acting), rewards, done)

    def to_act(self) -> npt.NDArray[np.bool_]:
        phase = self.board[:, PHASE]
        acting = (phase == COLLECTING) | (phase == DECIDING)
        seats = self.board[:, SEAT]
        return np.asarray(acting[:, np.newaxis] & (seats[:, np.newaxis] == np.arange(self.num_players)[np.newaxis, :]))

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        return legal_rows(self.board, self.rules)

    def observations(self) -> npt.NDArray[np.float32]:
        return observe_rows(self.board, self.rules)

    def rewards(self) -> npt.NDArray[np.float64]:
        out = np.zeros((self.num_envs, self.num_players), dtype=np.float64)
        rows = np.nonzero(self.finished)[0]
        winners = (self.board[rows, WINNERS][:, np.newaxis] >> np.arange(self.num_players)[np.newaxis, :]) & 1
        out[rows] = winners / winners.sum(axis=1, keepdims=True)
        return out

    def done(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.board[:, PHASE] == OVER)

    def state_arrays(self) -> dict[str, npt.NDArray[Any]]:
        b = self.board
        return {
            "scores": b[:, SCORES : SCORES + self.num_players],
            "round": b[:, ROUND],
            "seat": b[:, SEAT],
            "phase": b[:, PHASE],
            "collected": b[:, COLLECTED : COLLECTED + SIDES],
            "rolled": b[:, ROLLED : ROLLED + SIDES],
            "winners": b[:, WINNERS],
            "last_turn": b[:, LAST:FIELDS],
            "game_index": self.index,
            "draws": self.counters,
        }


class DragonEngine(FastEngine):
    """Catch A Dragon By The Tail with every option, for any compiled policies."""

    game_id: ClassVar[str] = "catch-a-dragon"

    def __init__(self) -> None:
        self._prepared: PreparedCache[Any] = PreparedCache(KEPT_TABLES)

    def policies(self, game: Game[Any, Any, Any]) -> tuple[str, ...]:
        # The win objective is solved for two players only.
        return POLICIES if game.num_players == 2 else POLICIES[:3]

    def play(
        self, game: Game[Any, Any, Any], agents: Sequence[str], seed: int | str, start: int, stop: int
    ) -> BatchResult:
        self.check_batch(game, agents, start, stop)
        rules = rules_arrays(rules_of(game))
        tables = policy_tables(game, agents)
        scores, returns, length = play_games(run_key(seed), start, stop, rules, policy_codes(agents), tables)
        # The rules' ``termination()``: tied leaders share the win only when the tie-break rounds ran out.
        shared = (np.count_nonzero(returns, axis=1) > 1).astype(np.int8)
        return BatchResult.seat_zero_starts(start, scores, returns, length, shared, DRAGON_ENDINGS)

    def step_batch(self, game: Game[Any, Any, Any], num_envs: int) -> StepBatch:
        return DragonStepBatch(game, num_envs)

    def playout(
        self, game: Game[Any, Any, Any], state: Any, agents: Sequence[str], seed: int
    ) -> tuple[float, ...] | None:
        if not isinstance(state, DragonState):
            return None
        prepared = self._prepared.get(
            game,
            agents,
            lambda: (
                None
                if self.unsupported(game, agents) is not None
                else (rules_arrays(rules_of(game)), policy_codes(agents), policy_tables(game, agents))
            ),
        )
        if prepared is None:
            return None
        rules, codes, tables = prepared
        board = np.array([board_row(state)], dtype=np.int32)
        play_on(board, np.uint64(seed), np.zeros(1, np.uint64), rules, codes, tables, np.zeros(SIDES, np.int8))
        winners = int(board[0, WINNERS])
        share = 1.0 / winners.bit_count()
        return tuple(share if winners >> seat & 1 else 0.0 for seat in range(game.num_players))
