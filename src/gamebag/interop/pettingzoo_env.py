"""PettingZoo environments for every gamebag game: an AEC and a Parallel environment.

``env("wriggle-roulette", players=4)`` is an AEC environment: the seats that
choose at a decision node are stepped one after another, and the joint action is
applied once the last of them has chosen (no seat sees another's pending choice:
observations come from the state before the reveal). ``parallel_env(...)`` takes
every live agent's action at once; the actions of seats that do not choose at
this node are ignored (their ``action_mask`` is all zeros).

Agents are ``player_0`` ... ``player_{n-1}``. With ``observation_format="dict"``
(the default) each observation is a dictionary ``{"observation": float32 vector
(the game's observation_tensor, in [0, 1]), "action_mask": int8 vector over the
game's all_actions()}``; with ``"flat"`` it is one float32 vector, the
observation followed by the mask (for wrappers and models that take a single
``Box``), and the mask is also in ``infos[agent]["action_mask"]``. ``state()``
is every seat's observation in one vector (for centralised critics). Chance is
drawn from a generator seeded by ``reset(seed=...)`` (an unseeded first reset
takes fresh entropy, as PettingZoo and Gymnasium do).

``agent_order`` of the AEC environment: ``"acting"`` (default) selects only the
seats that choose now; ``"cycle"`` steps every live agent at every decision node
in seat order, the seats that do not choose passing (their mask is all zeros and
their action, any integer or ``None``, is ignored), so PettingZoo's
``aec_to_parallel`` and other wrappers that expect agents in a fixed cycle work.

Rewards: ``reward="win"`` gives each seat its share of the win at the end (1/k
for each of k winners); ``reward="score"`` gives each step's change in each
seat's score (negated where the game's lowest score wins). An illegal action index ends the game under
``illegal_action="lose"`` (the seat gets ``illegal_reward``, the others 0, and
its ``info`` says why) or raises ``IllegalActionError`` under ``"raise"``.
``max_steps`` truncates an episode after that many decision nodes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import AECEnv, ParallelEnv

from gamebag.core.errors import IllegalActionError
from gamebag.core.translation import _
from gamebag.interop.common import (
    OBSERVATION_HIGH,
    OBSERVATION_LOW,
    RENDER_MODES,
    Forfeit,
    Table,
    check_choice,
    configured_game,
    episode_rng,
    render_table,
)

OBSERVATION_FORMATS = ("dict", "flat")
AGENT_ORDERS = ("acting", "cycle")

Observation = dict[str, NDArray[Any]] | NDArray[np.float32]


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat."""
    return f"player_{seat}"


class _TableEnv:
    """What both environment kinds share: the table, spaces, seeding and rendering."""

    table: Table
    possible_agents: list[str]
    observation_spaces: dict[str, spaces.Space[Any]]
    action_spaces: dict[str, spaces.Space[Any]]
    render_mode: str | None
    metadata: dict[str, Any]
    observation_format: str
    state_space: spaces.Box

    def _setup(
        self,
        game_id: str,
        players: int | None,
        options: Mapping[str, Any] | None,
        reward: str,
        illegal_action: str,
        illegal_reward: float,
        max_steps: int | None,
        render_mode: str | None,
        observation_format: str,
    ) -> None:
        game = configured_game(game_id, players, options)
        self.table = Table(
            game,
            reward=reward,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            max_steps=max_steps,
        )
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"gamebag_{game_id.replace('-', '_')}_v0",
            "is_parallelizable": True,
        }
        self.possible_agents = [agent_name(seat) for seat in range(game.num_players)]
        self._seat = {name: seat for seat, name in enumerate(self.possible_agents)}
        self._agent_set = frozenset(self.possible_agents)
        self.observation_format = check_choice("observation_format", observation_format, OBSERVATION_FORMATS)
        size, actions = self.table.observation_size, self.table.codec.size
        low, high = OBSERVATION_LOW, OBSERVATION_HIGH
        space: spaces.Space[Any]
        if observation_format == "flat":
            space = spaces.Box(low, high, shape=(size + actions,), dtype=np.float32)
        else:
            space = spaces.Dict(
                {
                    "observation": spaces.Box(low, high, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
                }
            )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.state_space = spaces.Box(low, high, shape=(size * game.num_players,), dtype=np.float32)
        self.action_spaces = {name: spaces.Discrete(self.table.codec.size) for name in self.possible_agents}
        self._np_random: np.random.Generator | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def seat_of(self, agent: str) -> int:
        """The seat an agent name stands for; unknown names list the agents."""
        seat = self._seat.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}; agents: {', '.join(self.possible_agents)}")
        return seat

    def _observation(self, seat: int) -> Observation:
        table = self.table
        if self.observation_format == "flat":
            return np.concatenate([table.observation(seat), table.legal_mask(seat).astype(np.float32)])
        return {"observation": table.observation(seat), "action_mask": table.action_mask(seat)}

    def _info(self, seat: int) -> dict[str, Any]:
        """What ``infos`` carry for a seat: its mask in the flat format (the dict format holds it already)."""
        return {"action_mask": self.table.action_mask(seat)} if self.observation_format == "flat" else {}

    def state(self) -> NDArray[np.float32]:
        """Every seat's observation, seat 0 first, in one vector (``state_space``), for centralised critics."""
        return self.table.global_state()

    def _start(self, seed: int | None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _seed = seeding.np_random(seed)
            self.table.reset(episode_rng(self._np_random))
        else:  # the episode's generator goes on: a fresh one would decide nothing more
            self.table.reset()

    def render(self) -> str | NDArray[np.uint8] | None:
        """``"ansi"``: the table as text; ``"human"``: printed; ``"rgb_array"``: as an image."""
        return render_table(self.table, self.render_mode)

    def close(self) -> None:
        """Nothing to release (no windows or processes)."""


class GamebagAECEnv(_TableEnv, AECEnv[str, Observation, int]):  # type: ignore[misc]
    """A gamebag game as a PettingZoo AEC environment (simultaneous choices stepped in seat order)."""

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        reward: str = "win",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
        observation_format: str = "dict",
        agent_order: str = "acting",
    ) -> None:
        super().__init__()
        self._setup(
            game_id, players, options, reward, illegal_action, illegal_reward, max_steps, render_mode,
            observation_format,
        )
        self.agent_order = check_choice("agent_order", agent_order, AGENT_ORDERS)
        self.agents: list[str] = []
        self._pending: dict[int, Any] = {}
        self._passed: set[int] = set()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (``options`` are accepted for the API and not used)."""
        self._start(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._pending = {}
        self._passed = set()
        self.infos: dict[str, dict[str, Any]] = {name: self._info(self.seat_of(name)) for name in self.agents}
        self._select_next()

    def observe(self, agent: str) -> Observation:
        return self._observation(self.seat_of(agent))

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise RuntimeError("the episode is over (or never started): call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat_of(agent)
        passing = seat not in self.table.acting()  # only in the "cycle" order
        if action is None and not passing:
            raise IllegalActionError(
                _("{agent} must choose an action index; None is only for finished agents", agent=agent)
            )
        choice = None if passing else self.table.decode(seat, action)  # may raise: nothing has changed yet
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if isinstance(choice, Forfeit):
            self._set_rewards(self.table.forfeit_by(choice))
            self.infos[agent] = {"illegal_action": choice.reason}
            self._finish()
        else:
            if passing:
                self._passed.add(seat)
            else:
                self._pending[seat] = choice
            if not self._waiting():
                moves, self._pending, self._passed = self._pending, {}, set()
                self._set_rewards(self.table.play(moves))
                if self.table.over:
                    self._finish()
                else:
                    for name in self.agents:
                        self.infos[name] = self._info(self.seat_of(name))
            if not self.table.over:
                self._select_next()
        self._accumulate_rewards()

    def _waiting(self) -> list[int]:
        if self.agent_order == "cycle":
            seats: tuple[int, ...] = tuple(range(self.table.num_players)) if self.table.acting() else ()
        else:
            seats = self.table.acting()
        return [seat for seat in seats if seat not in self._pending and seat not in self._passed]

    def _select_next(self) -> None:
        waiting = self._waiting()
        self.agent_selection = agent_name(waiting[0]) if waiting else self.agents[0]

    def _set_rewards(self, rewards: tuple[float, ...]) -> None:
        for seat, value in enumerate(rewards):
            self.rewards[agent_name(seat)] = value

    def _finish(self) -> None:
        for name in self.agents:
            if self.table.terminated:
                self.terminations[name] = True
            else:
                self.truncations[name] = True
        self.agent_selection = self.agents[0]


class GamebagParallelEnv(_TableEnv, ParallelEnv[str, Observation, int]):  # type: ignore[misc]
    """A gamebag game as a PettingZoo Parallel environment (one joint action per step)."""

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        reward: str = "win",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
        observation_format: str = "dict",
    ) -> None:
        self._setup(
            game_id, players, options, reward, illegal_action, illegal_reward, max_steps, render_mode,
            observation_format,
        )
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Start a new game (``options`` are accepted for the API and not used)."""
        self._start(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {name: self._info(self.seat_of(name)) for name in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply the choices of the seats that act now; other agents' actions are ignored."""
        if not self.agents:
            raise RuntimeError("the episode is over (or never started): call reset() first")
        names = self.possible_agents  # every agent is live until the episode ends
        if actions.keys() - self._agent_set:
            unknown = sorted(map(str, actions.keys() - self._agent_set))
            raise ValueError(f"unknown agent(s) {', '.join(unknown)}; agents: {', '.join(self.agents)}")
        table = self.table
        acting = table.acting()
        moves: dict[int, Any] = {}
        forfeit: Forfeit | None = None
        for seat in acting:
            name = names[seat]
            if name not in actions:
                missing = [names[p] for p in acting if names[p] not in actions]
                raise IllegalActionError(
                    _("missing the action of {agents} (they choose now)", agents=", ".join(missing))
                )
        for seat in acting:
            choice = table.decode(seat, actions[names[seat]])
            if isinstance(choice, Forfeit):
                forfeit = choice
                break
            moves[seat] = choice
        rewards = table.forfeit_by(forfeit) if forfeit is not None else table.play(moves)
        observations = self._observations()
        infos: dict[str, dict[str, Any]]
        if self.observation_format == "flat" and not table.over:
            infos = {name: {"action_mask": table.action_mask(seat)} for seat, name in enumerate(names)}
        else:
            infos = {name: {} for name in names}
        if forfeit is not None:
            infos[names[forfeit.seat]] = {"illegal_action": forfeit.reason}
        terminated = table.terminated
        over = table.over
        reward_by_agent = dict(zip(names, rewards, strict=True))
        terminations = dict.fromkeys(names, terminated)
        truncations = dict.fromkeys(names, over and not terminated)
        if over:
            self.agents = []
        return observations, reward_by_agent, terminations, truncations, infos

    def _observations(self) -> dict[str, Observation]:
        if self.observation_format == "flat":
            flat = self._observation
            return {name: flat(seat) for seat, name in enumerate(self.possible_agents)}
        # The dict format written out here: every seat's, at every step.
        observation, mask = self.table.observation, self.table.legal_mask
        return {
            name: {"observation": observation(seat), "action_mask": mask(seat).copy()}
            for seat, name in enumerate(self.possible_agents)
        }


def env(
    game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None, **kwargs: Any
) -> GamebagAECEnv:
    """The AEC environment of ``game_id`` (keyword arguments as for ``GamebagAECEnv``)."""
    return GamebagAECEnv(game_id, players, options, **kwargs)


def parallel_env(
    game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None, **kwargs: Any
) -> GamebagParallelEnv:
    """The Parallel environment of ``game_id`` (keyword arguments as for ``GamebagParallelEnv``)."""
    return GamebagParallelEnv(game_id, players, options, **kwargs)
