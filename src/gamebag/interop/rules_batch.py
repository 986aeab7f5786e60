"""A step batch over the rules engine, for games (or option values) without a compiled kernel.

``RulesBatch`` meets the same contract as the compiled step batches
(``gamebag.fast.base.StepBatch``): ``num_envs`` games of one configuration stepped
together, every seat acting through one ``[num_envs, players]`` array of action
indices (positions in ``all_actions()``), chance resolved inside ``step``, and
finished games restarted by ``reset_done``. So ``BatchEnv``, ``GamebagVectorEnv`` and
the PPO learner of ``gamebag train`` run on it unchanged, only slower.

Each game is a state of ``gamebag.games``: the rules engine is the specification
here, nothing is re-implemented. It is stepped through the engine's cheap paths
(``legal_actions_by_seat``, ``apply_chosen``, ``advance_chance``). Simultaneous
secret choices (bids, characters) are taken from every acting seat at once and
applied together, as the engine applies a joint action.

Seeding: game ``i`` of a run seeded ``S`` draws its chance events and its opponents'
choices from ``derive_rng(S, i)``; env ``k`` starts with game ``first_index + k`` and
restarts with the next unused index, so an env's first game is the same whatever the
batch size. A seat's observation is the engine's ``observation_tensor`` for that seat:
what that seat may know, and nothing of another seat's secrets.

The opponents it can play for a seat (``policy_actions``) are the rules-engine agents
named in ``OPPONENTS`` (``heuristic``, ``random``), built by the agent registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import make_agent, refusal
from gamebag.core.errors import IllegalActionError
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import Rng, derive_rng
from gamebag.fast.base import StepBatch

# The most games one rules-engine batch holds (each is a Python state of a few kilobytes,
# and every step costs some 0.1 ms per game: larger batches only cost memory).
MAX_RULES_ENVS = 4096
# Rules-engine agents a batch can play for opponent seats.
OPPONENTS = ("heuristic", "random")
# Steps after which a game is taken to be stuck (the engine's games end far sooner).
MAX_GAME_STEPS = 100_000


class RulesBatch(StepBatch):
    """``num_envs`` rules-engine games of one configured ``game``, stepped together."""

    def __init__(self, game: Game[Any, Any, Any], num_envs: int) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_RULES_ENVS:
            raise ValueError(f"a rules-engine batch holds from 1 to {MAX_RULES_ENVS} games, not {num_envs!r}")
        self.game = game
        self.num_envs = num_envs
        self.num_players = game.num_players
        self.actions: tuple[Any, ...] = tuple(game.all_actions())
        self.num_actions = len(self.actions)
        self.index_of = {action: position for position, action in enumerate(self.actions)}
        self.observation_size = len(game.observation_tensor(game.initial_state(), 0))
        self._agents: dict[str, Agent] = {}
        self._mask_memo: dict[tuple[Any, ...], NDArray[np.bool_]] = {}
        self._seed = 0
        self._next_index = 0
        self._states: list[Any] = [None] * num_envs
        self._rngs: list[Rng] = [derive_rng(0, 0)] * num_envs
        self._legal: list[dict[int, Sequence[Any]]] = [{} for _ in range(num_envs)]
        self._game_index = np.zeros(num_envs, dtype=np.int64)
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._done = np.zeros(num_envs, dtype=np.bool_)
        self._rewards = np.zeros((num_envs, self.num_players), dtype=np.float64)
        self._observations: NDArray[np.float32] | None = None
        self._started = False

    # ---- games --------------------------------------------------------------------------
    def _start(self, env: int, index: int) -> None:
        rng = derive_rng(self._seed, index)
        self._rngs[env] = rng
        self._game_index[env] = index
        self._steps[env] = 0
        self._done[env] = False
        self._settle(env, self.game.initial_state())

    def _settle(self, env: int, state: Any) -> None:
        """Resolve chance up to the next decision (or the end) and keep who acts with their menus."""
        game = self.game
        rng = self._rngs[env]
        kind = game.node_kind(state)
        while kind is NodeKind.CHANCE:
            state = game.advance_chance(state, rng)
            kind = game.node_kind(state)
        self._states[env] = state
        if kind is NodeKind.TERMINAL:
            self._legal[env] = {}
            self._done[env] = True
            self._rewards[env] = game.returns(state)
        else:
            self._legal[env] = game.legal_actions_by_seat(state)

    def reset(self, seed: int, first_index: int = 0) -> None:
        """Start every game afresh; env ``k`` is game ``first_index + k`` of ``seed``."""
        self._seed = int(seed)
        self._rewards[:] = 0.0
        for env in range(self.num_envs):
            self._start(env, first_index + env)
        self._next_index = first_index + self.num_envs
        self._observations = None
        self._started = True

    def reset_done(self, only: NDArray[np.bool_] | None = None) -> NDArray[np.bool_]:
        """Restart the finished games with the next unused game indices (in env order).

        With ``only`` (``[num_envs]``), the finished games outside it stay finished: a
        finished game takes no step, so an evaluation that has what it needs from an env
        stops paying for it.
        """
        restarted = self._done.copy()
        if only is not None:
            restarted &= np.asarray(only, dtype=np.bool_).reshape(self.num_envs)
        for env in np.flatnonzero(restarted):
            self._start(int(env), self._next_index)
            self._next_index += 1
        if restarted.any():
            self._observations = None
        return restarted

    def step(self, actions: NDArray[np.int64]) -> None:
        """Apply every acting seat's action (checked against its menu), then chance up to the next decision.

        An illegal action raises ``ValueError`` naming the env, the seat and the legal
        indices, before any game changes.
        """
        if not self._started:
            raise RuntimeError("call reset(seed) before step")
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs, self.num_players)
        self._rewards[:] = 0.0
        joint: list[dict[int, Any] | None] = []
        for env in range(self.num_envs):
            legal = self._legal[env]
            if not legal:
                joint.append(None)
                continue
            moves: dict[int, Any] = {}
            for seat, menu in legal.items():
                index = int(chosen[env, seat])
                action = self.actions[index] if 0 <= index < self.num_actions else None
                if action is None or action not in menu:
                    allowed = sorted(self.index_of[a] for a in menu)
                    raise ValueError(f"env {env}, seat {seat}: action {index} is not legal; legal actions: {allowed}")
                moves[seat] = action
            joint.append(moves)
        game = self.game
        for env, chosen_moves in enumerate(joint):
            if chosen_moves is None:
                continue
            self._steps[env] += 1
            if self._steps[env] > MAX_GAME_STEPS:
                raise RuntimeError(
                    f"{game.game_id}: game {self._game_index[env]} did not end in {MAX_GAME_STEPS} steps"
                )
            try:
                state = game.apply_chosen(self._states[env], chosen_moves, self._legal[env])
            except IllegalActionError as error:  # checked above; kept as a clear error if a menu lies
                raise ValueError(f"env {env}: {error}") from None
            self._settle(env, state)
        self._observations = None

    # ---- what the seats see ---------------------------------------------------------------
    def to_act(self) -> NDArray[np.bool_]:
        """``[num_envs, num_players]``: which seats choose now."""
        acting = np.zeros((self.num_envs, self.num_players), dtype=np.bool_)
        for env, legal in enumerate(self._legal):
            for seat in legal:
                acting[env, seat] = True
        return acting

    def _mask(self, menu: Sequence[Any]) -> NDArray[np.bool_]:
        key = tuple(menu)
        mask = self._mask_memo.get(key)
        if mask is None:
            mask = np.zeros(self.num_actions, dtype=np.bool_)
            mask[[self.index_of[action] for action in key]] = True
            if len(self._mask_memo) >= 4096:
                self._mask_memo.clear()  # a bound on memory; play refills it with the common menus
            self._mask_memo[key] = mask
        return mask

    def legal_mask(self) -> NDArray[np.bool_]:
        """``[num_envs, num_players, num_actions]``: the engine's legal actions (all false for seats not acting)."""
        masks = np.zeros((self.num_envs, self.num_players, self.num_actions), dtype=np.bool_)
        for env, legal in enumerate(self._legal):
            for seat, menu in legal.items():
                masks[env, seat] = self._mask(menu)
        return masks

    def observations(self) -> NDArray[np.float32]:
        """``[num_envs, num_players, observation_size]``: each seat's ``observation_tensor``.

        Built once per step and kept until the games change.
        """
        if self._observations is None:
            game = self.game
            tensors = [
                game.observation_tensor(state, seat) for state in self._states for seat in range(self.num_players)
            ]
            self._observations = np.asarray(tensors, dtype=np.float32).reshape(
                self.num_envs, self.num_players, self.observation_size
            )
        return self._observations.copy()

    def seat_observations(self, seat: int) -> NDArray[np.float32]:
        """``[num_envs, observation_size]``: that seat's tensor only (the others are not built)."""
        if self._observations is not None:
            return np.ascontiguousarray(self._observations[:, seat])
        game = self.game
        return np.asarray([game.observation_tensor(state, seat) for state in self._states], dtype=np.float32)

    def rewards(self) -> NDArray[np.float64]:
        """``[num_envs, num_players]``: win shares of the games that ended on the last step (else 0)."""
        return self._rewards.copy()

    def done(self) -> NDArray[np.bool_]:
        """``[num_envs]``: which games are over (until ``reset_done``)."""
        return self._done.copy()

    def state_arrays(self) -> dict[str, NDArray[Any]]:
        """Which game each env plays, its decisions so far, who acts and which games are over.

        The rules-engine states themselves are Python objects (``states()``).
        """
        return {
            "game_index": self._game_index.copy(),
            "steps": self._steps.copy(),
            "to_act": self.to_act(),
            "done": self._done.copy(),
        }

    def states(self) -> list[Any]:
        """Each env's current rules-engine state (immutable objects; for tests and inspection)."""
        return list(self._states)

    # ---- opponents ----------------------------------------------------------------------
    def _agent(self, name: str) -> Agent:
        agent = self._agents.get(name)
        if agent is None:
            if name not in OPPONENTS or refusal(name, self.game) is not None:
                raise ValueError(
                    f"{self.game.game_id}: no opponent {name!r} on the rules-engine batch; "
                    f"opponents: {', '.join(OPPONENTS)}"
                )
            agent = self._agents[name] = make_agent(name, self.game)
        return agent

    def policy_actions(self, agents: Sequence[str]) -> NDArray[np.int64]:
        """``[num_envs, num_players]``: each acting seat's choice by the agent ``agents[seat]`` (0 elsewhere)."""
        return self.policy_actions_at(agents, self.to_act())

    def policy_actions_at(self, agents: Sequence[str], seats: NDArray[np.bool_]) -> NDArray[np.int64]:
        """``policy_actions`` asked only for the acting seats marked in ``seats`` (the agents are costly here).

        Each agent sees only its seat's view (``SeatView``) and draws from its game's generator.
        """
        if len(agents) != self.num_players:
            raise ValueError(f"give one agent per seat ({self.num_players}), not {len(agents)}")
        chosen = np.zeros((self.num_envs, self.num_players), dtype=np.int64)
        players = [self._agent(name) for name in agents]
        game = self.game
        index_of = self.index_of
        for env, legal in enumerate(self._legal):
            for seat, menu in legal.items():
                if seats[env, seat]:
                    view = SeatView(game, self._states[env], seat, menu)
                    chosen[env, seat] = index_of[players[seat].act(view, self._rngs[env])]
        return chosen


def rules_batch(game: Game[Any, Any, Any], num_envs: int) -> tuple[RulesBatch, tuple[str, ...]]:
    """A rules-engine batch of ``game`` and the opponents it can play (as ``step_batch`` answers):
    those of ``OPPONENTS`` that play this game (a plugin game without a heuristic has ``random`` only)."""
    playable = tuple(name for name in OPPONENTS if refusal(name, game) is None)
    return RulesBatch(game, num_envs), playable
