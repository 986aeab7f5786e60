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
    FinalRows,
    LearnerView,
    PreparedCache,
    StepBatch,
)
from gamebag.fast.boards import BoardStepBatch
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
from gamebag.fast.rng import run_key
from gamebag.games.catch_a_dragon.rules import (
    OBSERVATION_SIZE,
    DragonState,
)


# ---- the engine ----------------------------------------------------------------------------
class DragonStepBatch(BoardStepBatch):
    """``num_envs`` games of Catch A Dragon as one board (see ``layout``)."""

    FIELDS = FIELDS
    PHASE = PHASE
    OVER = OVER

    def __init__(self, game: Game[Any, Any, Any], num_envs: int) -> None:
        rules = rules_arrays(rules_of(game))
        super().__init__(game, num_envs, game.num_players, int(rules[COLLECTIONS].shape[0]), OBSERVATION_SIZE)
        self.rules = rules

    def _reset_row(self, row: int) -> None:
        reset_row(self.board, row)

    def _roll_pending(self) -> None:
        roll_rows(self.board, self.keys, self.counters, self.rules)

    def _step_rows(self, moves: npt.NDArray[np.int64]) -> int:
        return int(step_rows(self.board, self.keys, self.counters, moves, self.finished, self.rules))

    def _illegal_move(self, row: int, moves: npt.NDArray[np.int64]) -> str:
        seat = int(self.board[row, SEAT])
        allowed = np.nonzero(self.legal_mask()[row, seat])[0].tolist()
        return (
            f"env {row}: action {int(moves[row, seat])} is not legal for seat {seat} now; legal action "
            f"indices: {allowed}; nothing was applied"
        )

    def policy_actions(self, agents: Sequence[str]) -> npt.NDArray[np.int64]:
        tables = policy_tables(self.game, agents)
        return policy_rows(policy_codes(agents), self.board, self.keys, self.counters, self.rules, tables)

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
        n = self.num_envs
        moves = np.empty(n, np.int64)
        bad = int(learner_step_rows(
            self.board, self.keys, self.counters, self.finished, self.index, self.run, self.rules, tables,
            seat, code, chosen, before.acting, before.masks, moves,
            observations, masks, acting, rewards, done,
        ))  # fmt: skip
        if bad >= n:
            env = bad - n
            raise ValueError(
                f"env {env}: action {int(moves[env])} is not legal for seat {int(self.board[env, SEAT])} now; "
                "the view this step started from is not this batch's; nothing was applied"
            )
        return bad

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

    def final_rows(self) -> FinalRows:
        """Scores and round as ``play`` writes them; tied winners mean the tie-break rounds ran out."""
        b = self.board
        seats = (b[:, WINNERS, np.newaxis] >> np.arange(self.num_players)[np.newaxis, :]) & 1
        shared = (seats.sum(axis=1) > 1).astype(np.int8)
        return FinalRows(
            scores=b[:, SCORES : SCORES + self.num_players].copy(),
            length=b[:, ROUND].copy(),
            ended_by=shared,
            ended_by_names=DRAGON_ENDINGS,
        )

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
