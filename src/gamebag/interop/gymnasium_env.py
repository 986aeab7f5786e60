"""A single-agent Gymnasium environment per gamebag game: one seat against gamebag agents.

``GamebagEnv("wriggle-roulette", players=3, opponents="heuristic")`` puts the
learner in ``seat`` (default 0) and fills every other seat with opponents. An
opponent is an agent spec string (``agents.registry.make_agent``: ``"random"``,
``"heuristic"``, ``"ismcts:iterations=200"``), an ``Agent`` object, or a policy:
any callable ``policy(observation, action_mask) -> action index`` over this
environment's own observation and mask (a trained model, or the learner itself
for self-play). One opponent fills every other seat; a list gives one per other
seat in seat order. ``set_opponents`` swaps them between episodes (league
training). Opponents see only their own seat's view; at a simultaneous node they
choose from the same state as the learner, so nobody sees another's choice
before the reveal. Chance and the opponents draw from one generator seeded by
``reset(seed=...)``.

Spaces: the observation is the game's ``observation_tensor`` for the learner's
seat (a float32 ``Box`` bounded by [0, 1]); the action is an index into
``all_actions()`` (``Discrete``). The legal actions come in
``info["action_mask"]`` and from ``action_masks()``.

Rewards and limits are those of ``gamebag.interop.common.Table``: ``"win"`` (the
seat's share of the win at the end) or ``"score"`` (the change in the seat's
score since its previous step, negated where the game's lowest score wins); an illegal index ends the episode with
``illegal_reward`` under ``illegal_action="lose"`` (the default, so generic
learners that ignore the mask still run) or raises under ``"raise"``;
``max_steps`` truncates after that many decision nodes.

``import gamebag.interop.gymnasium`` registers ``gamebag/<game-id>-v0`` for
every game, so ``gymnasium.make("gamebag/wriggle-roulette-v0", players=3)`` works.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.errors import IllegalActionError
from gamebag.core.protocol import is_choice
from gamebag.interop.common import (
    OBSERVATION_HIGH,
    OBSERVATION_LOW,
    RENDER_MODES,
    Forfeit,
    Table,
    as_index,
    check_choice,
    configured_game,
    episode_rng,
    render_table,
)

ENV_NAMESPACE = "gamebag"

# A policy: (observation, action mask) -> action index, over the environment's own encodings.
Policy = Callable[[NDArray[np.float32], NDArray[np.int8]], Any]
Opponent = str | Agent | Policy


class _AgentSeat:
    """An opponent seat played by a gamebag agent (from its own seat's view)."""

    __slots__ = ("agent",)

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    @property
    def name(self) -> str:
        return self.agent.name

    def choose(self, table: Table, seat: int) -> Any:
        view = SeatView(table.game, table.state, seat)
        action = self.agent.act(view, table.rng)
        # The table applies moves unchecked, so an agent's choice is checked here, against
        # the legal actions it was shown (no second call of the rules).
        if not is_choice(action, view.legal_actions):
            raise IllegalActionError(
                f"the opponent {self.agent.name!r} of seat {seat} chose {action!r}, which is not legal now"
            )
        return action


class _PolicySeat:
    """An opponent seat played by a policy over this environment's observation and mask."""

    __slots__ = ("policy",)

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    @property
    def name(self) -> str:
        return f"policy {getattr(self.policy, '__name__', type(self.policy).__name__)}"

    def choose(self, table: Table, seat: int) -> Any:
        index = as_index(self.policy(table.observation(seat), table.action_mask(seat)))
        if not (0 <= index < table.codec.size and table.legal_mask(seat)[index]):
            legal = table.codec.legal_indices(table.state, seat)
            raise ValueError(
                f"the opponent policy of seat {seat} chose action index {index}, which is not legal; "
                f"legal indices: {', '.join(map(str, legal))}"
            )
        return table.codec.actions[index]


_Seated = _AgentSeat | _PolicySeat


def _seat_opponent(opponent: object, table: Table) -> _Seated:
    if isinstance(opponent, str):
        return _AgentSeat(make_agent(opponent, table.game))
    if isinstance(opponent, Agent):
        return _AgentSeat(opponent)
    if callable(opponent):
        return _PolicySeat(opponent)
    raise ValueError(
        f"an opponent is an agent spec string, an Agent, or a policy(observation, action_mask) -> index, "
        f"not {opponent!r}"
    )


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``gamebag/<game-id>-v0``."""
    return f"{ENV_NAMESPACE}/{game_id}-v0"


class GamebagEnv(gymnasium.Env[NDArray[np.float32], np.int64]):
    """One seat of a gamebag game as a Gymnasium environment."""

    # Gymnasium declares ``metadata`` as a plain class attribute, so it is not a ClassVar here.
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        reward: str = "win",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        game = configured_game(game_id, players, options)
        self.table = Table(
            game,
            reward=reward,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            max_steps=max_steps,
        )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
            raise ValueError(f"seat must be a seat number from 0 to {game.num_players - 1}, not {seat!r}")
        self.seat = seat
        self.opponents = self._make_opponents(opponents)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            OBSERVATION_LOW, OBSERVATION_HIGH, shape=(self.table.observation_size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.table.codec.size)
        self._started = False
        self._carried_reward = 0.0

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """Replace the opponents (from the next choice on); for self-play and league training."""
        self.opponents = self._make_opponents(opponents)

    def _make_opponents(self, opponents: Opponent | Sequence[Opponent]) -> dict[int, _Seated]:
        game = self.table.game
        others = [p for p in range(game.num_players) if p != self.seat]
        chosen: list[object]
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            chosen = list(opponents)
        else:
            chosen = [opponents] * len(others)
        if len(chosen) != len(others):
            raise ValueError(
                f"{game.game_id} with {game.num_players} players needs {len(others)} opponent(s) "
                f"(seats {', '.join(map(str, others)) or 'none'}), not {len(chosen)}"
            )
        return {seat: _seat_opponent(opponent, self.table) for seat, opponent in zip(others, chosen, strict=True)}

    # ---- Gymnasium API --------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Start a new game and play until the learner chooses (``options`` are not used)."""
        super().reset(seed=seed)
        # A seed starts a new generator; without one the episode's generator goes on (drawing a
        # fresh one would cost more than a short game's steps and decide nothing more).
        self.table.reset(episode_rng(self.np_random) if seed is not None or not self.table.seeded else None)
        self._started = True
        # Opponents may play before the learner's first choice; what that earns the
        # learner (in "score" mode) is paid with its first step.
        self._carried_reward = self._run_opponents()
        return self.table.observation(self.seat), self._info()

    def step(self, action: np.int64 | int) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if not self._started or self.table.over:
            raise RuntimeError("the episode is over (or never started): call reset() first")
        table = self.table
        choice = table.decode(self.seat, action)  # may raise: nothing has changed yet
        info: dict[str, Any] = {}
        reward, self._carried_reward = self._carried_reward, 0.0
        if isinstance(choice, Forfeit):
            reward += table.forfeit_by(choice)[self.seat]
            info["illegal_action"] = choice.reason
        else:
            moves = self._opponent_moves()
            moves[self.seat] = choice
            reward += table.play(moves)[self.seat]
            reward += self._run_opponents()
        info.update(self._info())
        return table.observation(self.seat), float(reward), table.terminated, table.over and not table.terminated, info

    def render(self) -> str | NDArray[np.uint8] | None:
        """``"ansi"``: the table as text; ``"human"``: printed; ``"rgb_array"``: as an image."""
        return render_table(self.table, self.render_mode)

    # ---- helpers --------------------------------------------------------------------
    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions now (for maskable learners)."""
        return self.table.action_mask(self.seat).astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.table.action_mask(self.seat)}

    def _opponent_moves(self) -> dict[int, Any]:
        table = self.table
        return {seat: self.opponents[seat].choose(table, seat) for seat in table.acting() if seat != self.seat}

    def _run_opponents(self) -> float:
        """Let the opponents play until the learner must choose; the learner's reward meanwhile."""
        reward = 0.0
        table = self.table
        while not table.over and self.seat not in table.acting():
            reward += table.play(self._opponent_moves())[self.seat]
        return reward
