"""Vectorised environments over the compiled step kernels (``gamebag.fast``): many games per call.

* ``BatchEnv``: ``num_envs`` games of one configuration stepped together, every seat at
  once (pgx style, for self-play and league training): each step takes an
  ``[num_envs, players]`` action array (only the seats that choose now are read), returns
  every seat's observation, mask and reward, and restarts finished games by itself.
* ``GamebagVectorEnv``: a Gymnasium ``VectorEnv``, one learner seat per game against
  opponents (compiled policies such as ``"heuristic"``, or a batched policy function),
  with autoreset in the same step and ``action_masks()`` for maskable learners.

A game (or option set) without a compiled kernel is refused unless ``rules_engine=True``
asks for the slower batch over the rules engine (``gamebag.interop.rules_batch``); every
game has one today (Eigen Kweek's since ``gamebag.fast.eigen_kweek``), so that batch serves
option values an engine does not declare, and plugin games.

Env ``k`` of a run seeded ``S`` starts with game ``k`` of the counter-based generator
keyed ``(S, k)`` (see ``gamebag.fast.rng``), so its first game is the same whatever the
batch size; restarted games take the next unused game indices. Observations are the kernels' scaled
tensors, the same values as the rules engine's ``observation_tensor``, in [0, 1]; action
indices are positions in ``all_actions()``, as in the other adapters.

The kernels step every game at once, so a game where the learner does not choose now
(another seat's turn, or it has left the round) still takes a step: its mask is then all
true, the action is ignored, and ``infos["learner_acts"]`` is false there. The reward of
such a step is real (what the other seats' moves brought).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from gamebag.fast.base import LearnerStep, LearnerView, StepBatch, check_learner_actions
from gamebag.fast.registry import engine_for, unavailable_reason
from gamebag.interop.common import OBSERVATION_HIGH, OBSERVATION_LOW, configured_game
from gamebag.interop.rules_batch import rules_batch

# The most games one batch holds (memory is a few hundred bytes per game).
MAX_ENVS = 1 << 20

# A batched policy: (observations [n, size], masks [n, actions]) -> actions [n].
BatchPolicy = Callable[[NDArray[np.float32], NDArray[np.bool_]], NDArray[np.integer[Any]]]


def step_batch(
    game_id: str,
    players: int | None,
    options: Mapping[str, Any] | None,
    num_envs: int,
    *,
    rules_engine: bool = False,
) -> tuple[StepBatch, tuple[str, ...]]:
    """The compiled step batch of a configuration and its compiled policies; a clear error when it has none.

    With ``rules_engine`` a configuration without a compiled engine gets a batch over the
    rules engine instead (``gamebag.interop.rules_batch``: slower, but the same contract),
    with the rules-engine agents it can play for opponents.
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
        raise ValueError(f"num_envs must be an integer from 1 to {MAX_ENVS}, not {num_envs!r}")
    game = configured_game(game_id, players, options)
    engine = engine_for(game, [])
    if engine is None and rules_engine:
        return rules_batch(game, num_envs)
    if engine is None:
        raise ValueError(
            f"{game_id} has no vectorised environment here: {unavailable_reason(game, [])}; "
            f"use the single environments (gamebag.interop.gymnasium_env, pettingzoo_env)"
        )
    return engine.step_batch(game, num_envs), tuple(engine.policies(game))


class BatchEnv:
    """``num_envs`` games stepped together, every seat acting through one array (self-play)."""

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        rules_engine: bool = False,
    ) -> None:
        self.batch, self.compiled = step_batch(game_id, players, options, num_envs, rules_engine=rules_engine)
        self.game_id = game_id
        self.num_envs = num_envs
        self.num_players = self.batch.num_players
        self.num_actions = self.batch.num_actions
        self.observation_size = self.batch.observation_size
        self._started = False

    def reset(self, seed: int) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_]]:
        """Start games ``0 .. num_envs - 1`` of ``seed``: (observations, masks, to_act)."""
        self.batch.reset(seed, 0)
        self._started = True
        return self.batch.observations(), self.batch.legal_mask(), self.batch.to_act()

    def step(
        self, actions: NDArray[np.integer[Any]]
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
        """Apply the acting seats' actions: (observations, rewards, done, masks, to_act).

        ``rewards`` are the win shares of the games that ended on this step (``done``);
        those games are restarted at once, so the observations, masks and seats to act
        are those of the new games there.
        """
        if not self._started:
            raise RuntimeError("call reset(seed) before step")
        batch = self.batch
        batch.step(np.asarray(actions, dtype=np.int64))
        rewards = batch.rewards()
        done = batch.done()
        if done.any():
            batch.reset_done()
        return batch.observations(), rewards, done, batch.legal_mask(), batch.to_act()

    def compiled_actions(self, agents: Sequence[str]) -> NDArray[np.int64]:
        """Each seat's action by a compiled policy (one spec per seat, such as ``"heuristic"``)."""
        policy_actions = getattr(self.batch, "policy_actions", None)
        unknown = [agent for agent in agents if agent not in self.compiled]
        if policy_actions is None or unknown:
            raise ValueError(
                f"{self.game_id}: no compiled policy {unknown[0] if unknown else ''!r}; "
                f"compiled: {', '.join(self.compiled) if policy_actions else 'none'}"
            )
        result: NDArray[np.int64] = policy_actions(list(agents))
        return result

    def compiled_actions_at(self, agents: Sequence[str], seats: NDArray[np.bool_]) -> NDArray[np.int64]:
        """``compiled_actions`` where only the seats marked in ``seats`` ``[num_envs, players]`` are read."""
        unknown = [agent for agent in agents if agent not in self.compiled]
        if unknown:
            raise ValueError(f"{self.game_id}: no policy {unknown[0]!r}; policies: {', '.join(self.compiled)}")
        return self.batch.policy_actions_at(list(agents), seats)

    def state(self) -> NDArray[np.float32]:
        """Every seat's observation in one vector per game (for centralised critics)."""
        return self.batch.observations().reshape(self.num_envs, -1)


class GamebagVectorEnv(gymnasium.vector.VectorEnv):
    """A Gymnasium vector environment: one learner seat in each of ``num_envs`` compiled games."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium declares it as a plain attribute)
        "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        seat: int = 0,
        opponents: str | BatchPolicy = "random",
        rules_engine: bool = False,
    ) -> None:
        self.env = BatchEnv(game_id, num_envs, players, options, rules_engine=rules_engine)
        players_here = self.env.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players_here:
            raise ValueError(f"seat must be a seat number from 0 to {players_here - 1}, not {seat!r}")
        self.seat = seat
        self.num_envs = num_envs
        self.set_opponents(opponents)
        self.single_observation_space = spaces.Box(
            OBSERVATION_LOW, OBSERVATION_HIGH, shape=(self.env.observation_size,), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self._seed = 0
        # The learner's view the next step starts from (the env's own arrays, never handed out).
        self._view = LearnerView(
            np.zeros((num_envs, self.env.observation_size), dtype=np.float32),
            np.ones((num_envs, self.env.num_actions), dtype=np.bool_),
            np.zeros(num_envs, dtype=np.bool_),
        )
        self._opponent_seats = [p for p in range(players_here) if p != seat]

    def set_opponents(self, opponents: str | BatchPolicy) -> None:
        """Compiled policy spec for every other seat, or a batched policy function (self-play)."""
        if isinstance(opponents, str):
            if opponents not in self.env.compiled:
                raise ValueError(
                    f"{self.env.game_id}: no compiled policy {opponents!r}; compiled: {', '.join(self.env.compiled)}"
                )
        elif not callable(opponents):
            raise ValueError(
                "opponents must be a compiled policy name (such as 'random' or 'heuristic') or a function "
                f"(observations, masks) -> actions, not {opponents!r}"
            )
        self.opponents = opponents

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Start games ``0 .. num_envs - 1`` of ``seed`` (a single integer; default 0)."""
        if isinstance(seed, list):
            raise ValueError("seed the vector environment with one integer: env k plays game k of that seed")
        self._seed = 0 if seed is None else int(seed)
        self.env.reset(self._seed)
        self._view = self.env.batch.learner_view(self.seat)
        return self._view.observations.copy(), self._infos()

    def step(
        self, actions: NDArray[np.integer[Any]]
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        env = self.env
        if not env._started:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        before = self._view
        batch = env.batch
        if isinstance(self.opponents, str):
            # One call: the check, the compiled opponents, the step, restarts and the learner's view.
            after = batch.learner_step(self.seat, self.opponents, chosen, before)
        else:
            check_learner_actions(chosen, before, env.num_actions)
            joint = self._opponent_actions()
            joint[:, self.seat] = np.where(before.acting, chosen, 0)
            # The batch is stepped here rather than through BatchEnv.step, which builds every seat's view.
            batch.step(joint)
            rewards = batch.rewards()[:, self.seat].astype(np.float64)
            done = batch.done()
            if done.any():
                batch.reset_done()
            after = LearnerStep(batch.learner_view(self.seat), rewards, done)
        self._view = after.view
        infos = self._infos()
        finished = np.flatnonzero(after.done)
        if len(finished):
            # The learner's last view of each finished game (zeros elsewhere); rows copied, as
            # few games finish per step (np.where over the whole batch cost more than the kernel's observing).
            final = np.zeros_like(before.observations)
            final[finished] = before.observations[finished]
            infos["final_obs"] = final
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        # A copy: callers keep observations, and the env keeps its own for the next final_obs.
        return after.view.observations.copy(), after.rewards, after.done, truncated, infos

    def action_masks(self) -> NDArray[np.bool_]:
        """``[num_envs, actions]``: the learner's legal actions (all true where it does not choose now)."""
        return self._view.masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    # ---- helpers --------------------------------------------------------------------
    def _infos(self) -> dict[str, Any]:
        return {"learner_acts": self._view.acting.copy(), "action_mask": self._view.masks.copy()}

    def _opponent_actions(self) -> NDArray[np.int64]:
        env = self.env
        if isinstance(self.opponents, str):
            return env.compiled_actions([self.opponents] * env.num_players)
        joint = np.zeros((self.num_envs, env.num_players), dtype=np.int64)
        observations = env.batch.observations()
        masks = env.batch.legal_mask()
        to_act = env.batch.to_act()
        for seat in self._opponent_seats:
            rows = np.flatnonzero(to_act[:, seat])
            if len(rows):
                joint[rows, seat] = np.asarray(self.opponents(observations[rows, seat], masks[rows, seat]))
        return joint
