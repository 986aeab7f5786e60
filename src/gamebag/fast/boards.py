"""The step batch of the dice games' engines: ``num_envs`` games as one int32 board.

Pig and Catch A Dragon keep a game in one row of an int32 *board*, draw its chance from
the counter-based generator keyed by ``game_key(run, index)`` (one counter per row), and
restart a finished game with the next unused index. :class:`BoardStepBatch` holds what
their step batches share: the arrays, resets, the step's checks and the learner's step
around one compiled call; each game's module supplies its kernels through the hooks.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from gamebag.core.protocol import Game
from gamebag.fast.base import LearnerStep, LearnerView, StepBatch, illegal_learner_action
from gamebag.fast.rng import game_key, run_key


class BoardStepBatch(StepBatch):
    """``num_envs`` games as one board of ``FIELDS`` int32 columns, each row with its own stream."""

    #: The board's width, the column holding the phase, and the phase of a finished game.
    FIELDS: ClassVar[int]
    PHASE: ClassVar[int]
    OVER: ClassVar[int]

    def __init__(
        self, game: Game[Any, Any, Any], num_envs: int, num_players: int, num_actions: int, observation_size: int
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.game = game
        self.num_envs = num_envs
        self.num_players = num_players
        self.num_actions = num_actions
        self.observation_size = observation_size
        self.board = np.zeros((num_envs, self.FIELDS), dtype=np.int32)
        self.keys = np.zeros(num_envs, dtype=np.uint64)
        self.counters = np.zeros(num_envs, dtype=np.uint64)
        self.index = np.zeros(num_envs, dtype=np.int64)
        self.finished = np.zeros(num_envs, dtype=np.bool_)
        self.run = np.uint64(0)

    # ---- the hooks each game's kernels fill ------------------------------------------------
    @abstractmethod
    def _reset_row(self, row: int) -> None:
        """Put row ``row`` of the board at the game's initial position."""

    @abstractmethod
    def _roll_pending(self) -> None:
        """Resolve every row's pending chance until it waits for a decision or is over."""

    @abstractmethod
    def _step_rows(self, moves: npt.NDArray[np.int64]) -> int:
        """Apply the acting seats' ``moves``, roll on; -1, or the first row with an illegal move (nothing applied)."""

    @abstractmethod
    def _illegal_move(self, row: int, moves: npt.NDArray[np.int64]) -> str:
        """The message for row ``row``'s illegal move."""

    @abstractmethod
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
        """The compiled learner step, filling the learner's new view (``observations`` ``[n, 1, size]``,
        ``masks``, ``acting``), ``rewards`` and ``done``.

        Returns -1, or the first env whose acting learner's ``chosen`` action is outside
        ``before.masks`` (then nothing changed).
        """

    # ---- what the games share ----------------------------------------------------------------
    def reset(self, seed: int | str, first_index: int = 0) -> None:
        self.run = run_key(seed)
        self.index[:] = np.arange(first_index, first_index + self.num_envs, dtype=np.int64)
        self._restart(np.ones(self.num_envs, dtype=np.bool_))

    def _restart(self, rows: npt.NDArray[np.bool_]) -> None:
        for i in np.nonzero(rows)[0]:
            self._reset_row(int(i))
            self.keys[i] = game_key(self.run, self.index[i])
            self.counters[i] = 0
        self.finished[rows] = False
        self._roll_pending()
        # A game can end by its first rolls alone (Pig with a goal of six or less; never Catch A Dragon).
        self.finished[rows] = self.board[rows, self.PHASE] == self.OVER

    def reset_done(self) -> npt.NDArray[np.bool_]:
        """Finished env ``k`` goes on with game ``index + num_envs`` (indices never repeat)."""
        done = self.done()
        self.index[done] += self.num_envs
        self._restart(done)
        return done

    def done(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.board[:, self.PHASE] == self.OVER)

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        moves = np.asarray(actions, dtype=np.int64)
        if moves.shape != (self.num_envs, self.num_players):
            raise ValueError(f"actions must have shape ({self.num_envs}, {self.num_players}), not {moves.shape}")
        bad = self._step_rows(moves)
        if bad >= 0:
            raise ValueError(self._illegal_move(bad, moves))

    def learner_step(self, seat: int, policy: str, chosen: npt.NDArray[np.int64], before: LearnerView) -> LearnerStep:
        """The default's step in one compiled call (the same games, draws and views)."""
        n = self.num_envs
        observations = np.empty((n, 1, self.observation_size), np.float32)
        masks = np.empty((n, self.num_actions), np.bool_)
        acting = np.empty(n, np.bool_)
        rewards = np.empty(n, np.float64)
        done = np.empty(n, np.bool_)
        moves = np.ascontiguousarray(chosen, dtype=np.int64)
        bad = self._learner_rows(seat, policy, moves, before, observations, masks, acting, rewards, done)
        if bad >= 0:
            raise illegal_learner_action(bad, moves, before.masks)
        return LearnerStep(LearnerView(observations[:, 0], masks, acting), rewards, done)
