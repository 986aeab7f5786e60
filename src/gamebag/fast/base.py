"""The contract every compiled engine meets: whole-game batches and step batches.

A :class:`FastEngine` plays a game id's rules (with any of its options) for named
policies. Game ``i`` of a run with seed ``S`` draws all its randomness from the
counter-based generator keyed by ``(S, i)`` (see :mod:`gamebag.fast.rng`), so
every figure is the same whatever the batch size or the number of workers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from gamebag.core.engines import engine_refusal
from gamebag.core.protocol import Game

PreparedT = TypeVar("PreparedT")


@dataclass(frozen=True)
class BatchResult:
    """Per-game arrays for games ``start .. start + len - 1`` of one seeded run.

    ``returns`` are the win shares the rules engine's ``returns`` give (1/k to each of
    k tied winners); ``length`` is what the rules engine's ``round_number`` says at the
    end (what ``simulate`` reports as rounds; for Pig a round is one turn of each
    player); ``ended_by`` indexes ``ended_by_names``: how each game ended, named as the
    rules engine's ``termination()`` names it (``Termination`` values such as ``goal`` or
    ``tiebreak_cap``; an empty name stands for a game that reports no reason).
    """

    start: int
    scores: npt.NDArray[np.int32]  # [games, players]
    returns: npt.NDArray[np.float64]  # [games, players]
    length: npt.NDArray[np.int32]  # [games]
    ended_by: npt.NDArray[np.int8]  # [games]
    first_player: npt.NDArray[np.int8]  # [games]
    ended_by_names: tuple[str, ...]

    def __len__(self) -> int:
        return int(self.length.shape[0])

    @classmethod
    def seat_zero_starts(
        cls,
        start: int,
        scores: npt.NDArray[np.int32],
        returns: npt.NDArray[np.float64],
        length: npt.NDArray[np.int32],
        ended_by: npt.NDArray[np.int8] | None = None,
        ended_by_names: tuple[str, ...] = ("",),
    ) -> BatchResult:
        """Games that seat 0 starts (the dice games); ``ended_by`` defaults to the first name for every game."""
        games = int(length.shape[0])
        return cls(
            start=start,
            scores=scores,
            returns=returns,
            length=length,
            ended_by=np.zeros(games, dtype=np.int8) if ended_by is None else ended_by,
            first_player=np.zeros(games, dtype=np.int8),
            ended_by_names=ended_by_names,
        )


@dataclass(frozen=True)
class LearnerView:
    """One learner seat's side of a step batch, each array fresh (nothing later writes into it).

    ``observations`` ``[num_envs, observation_size]``; ``masks`` ``[num_envs, num_actions]``
    (all true where the learner does not choose now); ``acting`` ``[num_envs]``.
    """

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    acting: npt.NDArray[np.bool_]


@dataclass(frozen=True)
class LearnerStep:
    """A learner's step: its ``rewards``, which games finished (``done``, since restarted), and its new ``view``."""

    view: LearnerView
    rewards: npt.NDArray[np.float64]
    done: npt.NDArray[np.bool_]


@dataclass(frozen=True)
class FinalRows:
    """Every env's game as it stands: what a finished game's ``BatchResult`` row holds.

    ``scores`` ``[num_envs, num_players]`` and ``length`` ``[num_envs]`` (the rules engine's
    ``round_number``) are read now, so they are final where ``done()``; ``ended_by`` indexes
    ``ended_by_names`` as in :class:`BatchResult` and means something only where ``done()``.
    """

    scores: npt.NDArray[np.int32]
    length: npt.NDArray[np.int32]
    ended_by: npt.NDArray[np.int8]
    ended_by_names: tuple[str, ...]


def illegal_learner_action(row: int, chosen: npt.NDArray[np.int64], masks: npt.NDArray[np.bool_]) -> ValueError:
    """The error for env ``row``'s illegal learner action, naming the legal ones."""
    return ValueError(
        f"env {row}: action {int(chosen[row])} is not legal; legal actions: {np.flatnonzero(masks[row]).tolist()}"
    )


def check_learner_actions(chosen: npt.NDArray[np.int64], before: LearnerView, num_actions: int) -> None:
    """Raise :func:`illegal_learner_action` for the first env where the acting learner's action is illegal."""
    acting = before.acting
    illegal = acting & ~before.masks[np.arange(len(chosen)), np.clip(chosen, 0, num_actions - 1)]
    illegal |= acting & ((chosen < 0) | (chosen >= num_actions))
    if illegal.any():
        raise illegal_learner_action(int(np.flatnonzero(illegal)[0]), chosen, before.masks)


class StepBatch(ABC):
    """``num_envs`` games held as arrays, stepped together (for learning).

    Every seat acts through ``step(actions)`` with an ``[num_envs, num_players]``
    integer array; only the entries where ``to_act()`` is true are read (all acting
    seats at a simultaneous node, the one current player otherwise). Chance is
    resolved inside ``step``; finished games stay finished until ``reset_done``.
    """

    num_envs: int
    num_players: int
    num_actions: int
    observation_size: int

    @abstractmethod
    def reset(self, seed: int, first_index: int = 0) -> None:
        """Start every game afresh; env ``k`` is game ``first_index + k`` of ``seed``."""

    @abstractmethod
    def reset_done(self) -> npt.NDArray[np.bool_]:
        """Restart the finished games with their next game index; returns which were restarted."""

    @abstractmethod
    def step(self, actions: npt.NDArray[np.int64]) -> None:
        """Apply the acting seats' actions, then every chance event up to the next decision."""

    @abstractmethod
    def to_act(self) -> npt.NDArray[np.bool_]:
        """``[num_envs, num_players]``: which seats choose now."""

    @abstractmethod
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``[num_envs, num_players, num_actions]``: legal actions (all false for seats not acting)."""

    @abstractmethod
    def observations(self) -> npt.NDArray[np.float32]:
        """``[num_envs, num_players, observation_size]``, each seat's view only, scaled to [0, 1]."""

    def seat_observations(self, seat: int) -> npt.NDArray[np.float32]:
        """``[num_envs, observation_size]``: ``observations()[:, seat]`` (engines may build that seat's only)."""
        return np.ascontiguousarray(self.observations()[:, seat])

    @abstractmethod
    def rewards(self) -> npt.NDArray[np.float64]:
        """``[num_envs, num_players]``: win shares of the games that finished on the last step, else 0."""

    @abstractmethod
    def done(self) -> npt.NDArray[np.bool_]:
        """``[num_envs]``: which games are over."""

    @abstractmethod
    def state_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The full struct-of-arrays state (for equality tests and centralised critics)."""

    def learner_view(self, seat: int) -> LearnerView:
        """What one learner seat sees now: its observation, its mask (all true where it does not choose)."""
        acting = np.ascontiguousarray(self.to_act()[:, seat])
        masks = np.where(acting[:, None], self.legal_mask()[:, seat], True)
        return LearnerView(self.seat_observations(seat), masks, acting)

    def learner_step(self, seat: int, policy: str, chosen: npt.NDArray[np.int64], before: LearnerView) -> LearnerStep:
        """One step with seat ``seat`` playing ``chosen`` and every other seat the compiled ``policy``.

        ``before`` is the learner's view this step starts from: where it acts, ``chosen``
        must be legal under its mask, else a ``ValueError`` names the first bad env and
        nothing changes. Every seat's policy draw is taken (the learner's too, then
        replaced), so the games are those that ``policy_actions`` then ``step`` play.
        Finished games are restarted; the view returned is of the games after that. Engines may do all of it in one
        compiled call; this default takes the separate steps.
        """
        check_learner_actions(chosen, before, self.num_actions)
        joint = self.policy_actions([policy] * self.num_players)
        joint[:, seat] = np.where(before.acting, chosen, 0)
        self.step(joint)
        rewards = self.rewards()[:, seat].astype(np.float64)
        done = self.done()
        if done.any():
            self.reset_done()
        return LearnerStep(self.learner_view(seat), rewards, done)

    def final_rows(self) -> FinalRows | None:
        """Each env's scores, round count and ending now (final where ``done()``); ``None`` where
        this engine does not report them (then whole games with a network in a seat are played
        by the rules engine)."""
        return None

    def policy_actions_at(self, agents: Sequence[str], seats: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """``policy_actions`` where only the entries marked in ``seats`` ``[num_envs, num_players]`` are read.

        Compiled engines answer every seat (their policies cost next to nothing, and a
        ``random`` policy's draws keep the game's stream); engines whose policies are
        costly may choose only for the marked seats.
        """
        return self.policy_actions(agents)

    @abstractmethod
    def policy_actions(self, agents: Sequence[str]) -> npt.NDArray[np.int64]:
        """``[num_envs, num_players]``: what each acting seat's compiled policy (``agents[seat]``) chooses now.

        Used for opponents in learning; a ``random`` policy draws from the game's own
        stream, so a game stepped with these actions is the same game the whole-game
        kernel plays.
        """


class InfoSetSampler(Protocol):
    """Blocks of compiled playouts from one seat's information set at rules-engine positions.

    Draw ``i`` of the run named ``seed`` is the same world and playout whichever block asks for it,
    so a caller can add blocks until its intervals are narrow. ``cost`` counts the rounds played
    (plus one per playout): work measured the same way on any machine.
    """

    def choice_playouts(
        self, state: Any, seat: int, actions: Sequence[Any], live: Sequence[bool], seed: str, first: int, count: int
    ) -> tuple[npt.NDArray[np.float64], int]:
        """``(shares, cost)``: ``shares[i, j]``, the seat's win share after ``actions[j]`` in draw
        ``first + i`` (the others choose as their policies would in the drawn world; one playout key
        for every action of a draw); NaN where ``live[j]`` is false."""
        ...

    def chance_pairs(
        self, before: Any, after: Any, seat: int, redraw: bool, seed: str, first: int, count: int
    ) -> tuple[npt.NDArray[np.float64], int]:
        """``(shares, cost)``: per draw the seat's win share after the real outcome of the chance event
        from ``before`` to ``after`` and after one drawn again, both played on with one playout key
        (``redraw``: both positions drawn from the seat's information sets)."""
        ...


class FastEngine(ABC):
    """A compiled engine for one game id, registered with :func:`gamebag.fast.register_engine`.

    It plays only what its game declares for its ``engine_kind`` (``gamebag.core.engines``):
    :meth:`unsupported` refuses any other option value before any policy question.
    """

    game_id: ClassVar[str]
    engine_kind: ClassVar[str] = "numba"

    @abstractmethod
    def policies(self, game: Game[Any, Any, Any]) -> tuple[str, ...]:
        """Agent specs this engine plays compiled for ``game`` (for example ``random``, ``heuristic``)."""

    def unsupported(self, game: Game[Any, Any, Any], agents: Sequence[str]) -> str | None:
        """Why this engine cannot play ``game`` with ``agents``, or ``None`` when it can."""
        if game.game_id != self.game_id:
            return f"this engine plays {self.game_id}, not {game.game_id}"
        refused = engine_refusal(game, self.engine_kind)
        if refused is not None:
            return refused
        known = self.policies(game)
        for agent in agents:
            if agent not in known:
                return f"agent {agent!r} has no compiled policy (compiled: {', '.join(known)})"
        return None

    def check_batch(self, game: Game[Any, Any, Any], agents: Sequence[str], start: int, stop: int) -> None:
        """Refuse, before any kernel runs, agents or a game range that :meth:`play` cannot take."""
        problem = self.unsupported(game, agents)
        if problem is not None:
            raise ValueError(problem)
        if len(agents) != game.num_players:
            raise ValueError(
                f"{game.game_id} with {game.num_players} players needs {game.num_players} agents, not {len(agents)}"
            )
        if not 0 <= start <= stop:
            raise ValueError(f"games {start} .. {stop} are not a range of game indices (0 <= start <= stop)")

    @abstractmethod
    def play(
        self, game: Game[Any, Any, Any], agents: Sequence[str], seed: int | str, start: int, stop: int
    ) -> BatchResult:
        """Play games ``start .. stop - 1`` of the run seeded ``seed``."""

    def playout(
        self, game: Game[Any, Any, Any], state: Any, agents: Sequence[str], seed: int
    ) -> tuple[float, ...] | None:
        """Each seat's win share after playing the rules engine's ``state`` to the end with the
        compiled ``agents`` (for search playouts), drawing from the generator keyed by ``seed``.

        ``None`` where this engine cannot start from a rules-engine state (the default).
        """
        return None

    @abstractmethod
    def step_batch(self, game: Game[Any, Any, Any], num_envs: int) -> StepBatch:
        """A step batch of ``num_envs`` games of ``game`` (call ``reset`` before stepping)."""

    def sampler(self, game: Game[Any, Any, Any], agents: Sequence[str]) -> InfoSetSampler | str:
        """Batched playouts from a seat's information set (the analysis's), or why there are none
        (one line): none unless an engine says otherwise."""
        return f"the compiled {self.game_id} engine has no batched information-set playouts"


class PreparedCache(Generic[PreparedT]):
    """What a search's playouts reuse per (game, agents), for at most ``size`` configurations.

    A search plays out thousands of times per move, so everything but the position is
    prepared once; the oldest configuration is dropped first.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: dict[tuple[int, tuple[str, ...]], tuple[Game[Any, Any, Any], PreparedT]] = {}

    def get(
        self, game: Game[Any, Any, Any], agents: Sequence[str], prepare: Callable[[], PreparedT | None]
    ) -> PreparedT | None:
        """The prepared value for ``game`` and ``agents``; ``prepare`` returns ``None`` when there is none."""
        key = (id(game), tuple(agents))
        entry = self._entries.get(key)
        if entry is not None and entry[0] is game:
            return entry[1]
        value = prepare()
        if value is None:
            return None
        if len(self._entries) >= self._size:
            self._entries.pop(next(iter(self._entries)))
        self._entries[key] = (game, value)
        return value
