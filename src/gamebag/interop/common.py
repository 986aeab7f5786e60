"""Helpers shared by the Gymnasium, PettingZoo and OpenSpiel adapters.

Everything here works on the core protocol only (``gamebag.make`` and the
``Game`` methods), so one adapter serves every registered game:

* ``ActionCodec`` maps a configuration's actions to integer indices (the
  position in ``all_actions()``) and builds legal-action masks;
* ``Table`` is one game in progress for the reinforcement-learning adapters:
  chance resolved with a seeded generator, joint actions applied, rewards
  computed (``"win"``: the game's returns at the end; ``"score"``: the change in
  each seat's score, turned by ``Game.score_sign`` so that a point a lowest-score-wins
  game counts against a seat is a negative reward), illegal actions handled by a named policy, and an optional
  step limit;
* small functions for observation strings (score-based shares: ``gamebag.core.results``).

Nothing here imports Gymnasium, PettingZoo or OpenSpiel.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rich.text import Text

import gamebag
from gamebag.core.errors import IllegalActionError
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import Rng
from gamebag.core.translation import _

REWARD_MODES = ("win", "score")
ILLEGAL_ACTION_MODES = ("lose", "raise")
RENDER_MODES = ("ansi", "human", "rgb_array")
# Observation tensors are scaled by the games to [0, 1]; a value past 1 (a score beyond
# the goal, reached only as the game ends) is clipped so the declared bounds hold.
OBSERVATION_LOW, OBSERVATION_HIGH = 0.0, 1.0
SHORT_OBSERVATION = 64
# Distinct legal-action sets whose masks a configured game keeps (games have few in practice).
MASK_MEMO_SIZE = 4096


def configured_game(
    game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None
) -> Game[Any, Any, Any]:
    """``gamebag.make`` with the options given as a mapping (errors name what is allowed)."""
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options must be a mapping of option names to values, not {options!r}")
    return gamebag.make(game_id, players, **dict(options or {}))


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and no spaces: equal data, equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def observation_string(game: Game[Any, Any, Any], state: Any, player: int) -> str:
    """The seat's observation as canonical JSON."""
    return canonical_json(game.observation(state, player))


def public_string(game: Game[Any, Any, Any], state: Any) -> str:
    """The spectator's view as canonical JSON."""
    return canonical_json(game.public_view(state))


def plain_text(markup: str) -> str:
    """Rich markup as plain text (the renderers write markup for terminals)."""
    return Text.from_markup(markup).plain


def as_index(value: object) -> int:
    """An integer action index from a Python or NumPy integer (or a 0-d integer array); else an error.

    A 0-d array is what ``model.predict(observation)`` returns for a single observation
    of a ``Discrete`` space, and it is a member of that space.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0 and np.issubdtype(value.dtype, np.integer):
        return int(value)
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise IllegalActionError(
            _("an action is an integer index into the action space, not {value}", value=repr(value))
        )
    return int(value)


class ActionCodec:
    """Actions of one configured game as integer indices into ``all_actions()``."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self.actions: tuple[Any, ...] = tuple(game.all_actions())
        if not self.actions:
            raise ValueError(f"{game.game_id} lists no actions in all_actions(); it cannot be indexed")
        self.size = len(self.actions)
        self.index_of = {action: position for position, action in enumerate(self.actions)}
        self._names: list[str | None] = [None] * self.size
        self._mask_memo: dict[tuple[Any, ...], NDArray[np.int8]] = {}
        self._indices_memo: dict[tuple[Any, ...], tuple[int, ...]] = {}

    def action(self, index: int) -> Any:
        """The action at ``index``; ``IllegalActionError`` when out of range."""
        if not 0 <= index < self.size:
            raise IllegalActionError(_("action index {index} is outside 0..{last}", index=index, last=self.size - 1))
        return self.actions[index]

    def legal_indices(self, state: Any, player: int) -> list[int]:
        """The sorted indices of ``player``'s legal actions (empty when it does not act)."""
        index = self.index_of
        return sorted(index[action] for action in self.game.legal_actions(state, player))

    def mask(self, state: Any, player: int) -> NDArray[np.int8]:
        """A fresh 0/1 vector over the action space marking the legal actions."""
        mask = np.zeros(self.size, dtype=np.int8)
        if self.game.node_kind(state) is NodeKind.DECISION and player in self.game.acting_players(state):
            index = self.index_of
            mask[[index[action] for action in self.game.legal_actions(state, player)]] = 1
        return mask

    def indices_of(self, legal: Sequence[Any]) -> tuple[int, ...]:
        """The sorted indices of the actions in ``legal`` (each distinct legal set sorted once)."""
        key = tuple(legal)
        indices = self._indices_memo.get(key)
        if indices is None:
            index = self.index_of
            indices = tuple(sorted(index[action] for action in key))
            if len(self._indices_memo) >= MASK_MEMO_SIZE:
                self._indices_memo.clear()
            self._indices_memo[key] = indices
        return indices

    def mask_of(self, legal: Sequence[Any]) -> NDArray[np.int8]:
        """The 0/1 vector marking ``legal`` (read-only, shared by every state with that legal set)."""
        key = tuple(legal)
        mask = self._mask_memo.get(key)
        if mask is None:
            mask = np.zeros(self.size, dtype=np.int8)
            index = self.index_of
            mask[[index[action] for action in key]] = 1
            mask.flags.writeable = False
            if len(self._mask_memo) >= MASK_MEMO_SIZE:
                self._mask_memo.clear()  # a bound on memory; play refills it with the common sets
            self._mask_memo[key] = mask
        return mask

    def describe(self, index: int) -> str:
        """A readable name of the action at ``index`` (its record encoding; each written once)."""
        name = self._names[index]
        if name is None:
            name = self._names[index] = canonical_json(self.game.action_to_json(self.actions[index]))
        return name


def render_table(table: Table, mode: str | None) -> str | NDArray[np.uint8] | None:
    """The ``render`` of every environment.

    ``"ansi"`` returns the table as text, ``"human"`` prints it, ``"rgb_array"`` returns
    that text drawn as an ``[height, width, 3]`` image (for video recorders).
    """
    if mode is None:
        return None
    text = table.render()
    if mode == "human":
        print(text)
        return None
    if mode == "rgb_array":
        return text_image(text)
    return text


def text_image(text: str) -> NDArray[np.uint8]:
    """Monospaced ``text`` drawn black on white as an RGB array (matplotlib's Agg canvas)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines)
    figure = Figure(figsize=(0.1 * max(width, 8) + 0.4, 0.18 * len(lines) + 0.4), dpi=72)
    canvas = FigureCanvasAgg(figure)
    figure.text(0.02, 0.98, "\n".join(lines), family="monospace", size=10, va="top", ha="left")
    canvas.draw()  # type: ignore[no-untyped-call]
    return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()  # type: ignore[no-untyped-call]


def check_choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of ``allowed``, else a ``ValueError`` listing them."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
    return value


@dataclass(frozen=True)
class Forfeit:
    """An illegal action that ended the episode under the ``"lose"`` policy."""

    seat: int
    reason: str


class Table:
    """One game in progress for an environment: seeded chance, indices, rewards, limits."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        *,
        reward: str = "win",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
    ) -> None:
        self.game = game
        self.codec = ActionCodec(game)
        self.reward_mode = check_choice("reward", reward, REWARD_MODES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.illegal_reward = float(illegal_reward)
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer or None, not {max_steps!r}")
        self.max_steps = max_steps
        self.num_players = game.num_players
        self._no_actions = np.zeros(self.codec.size, dtype=np.int8)
        self._no_actions.flags.writeable = False
        self.state = game.initial_state()
        self.observation_size = len(game.observation_tensor(self.state, 0))
        self.steps = 0
        self.truncated = False
        self.forfeit: Forfeit | None = None
        self._rng: Rng | None = None

    @property
    def state(self) -> Any:
        """The current state of the game."""
        return self._state

    @state.setter
    def state(self, state: Any) -> None:
        # What the environments ask of a state many times per step, asked of the game once.
        self._state = state
        kind = self.game.node_kind(state)
        self._terminal = kind is NodeKind.TERMINAL
        self._kind = kind
        self._acting: tuple[int, ...] = tuple(self.game.acting_players(state)) if kind is NodeKind.DECISION else ()
        self._masks: dict[int, NDArray[np.int8]] = {}

    # ---- episode ---------------------------------------------------------------------
    @property
    def seeded(self) -> bool:
        """Whether a generator has been given (by a first ``reset``)."""
        return self._rng is not None

    def reset(self, rng: Rng | None = None) -> None:
        """Start a new game; chance is drawn from ``rng`` from now on (``None``: the one in use goes on)."""
        if rng is not None:
            self._rng = rng
        elif self._rng is None:
            raise RuntimeError("the first reset of a table needs a generator")
        self.steps = 0
        self.truncated = False
        self.forfeit = None
        self.state = self._past_chance(self.game.initial_state())

    @property
    def over(self) -> bool:
        """Whether the episode has ended (game over, step limit, or forfeit)."""
        return self.truncated or self.forfeit is not None or self._terminal

    @property
    def terminated(self) -> bool:
        """Whether the game itself ended (by its rules or by a forfeit)."""
        return self.forfeit is not None or self._terminal

    def acting(self) -> tuple[int, ...]:
        """The seats that choose now (empty once the episode is over)."""
        if self.truncated or self.forfeit is not None:
            return ()
        return self._acting

    # ---- what a seat sees -------------------------------------------------------------
    def observation(self, seat: int) -> NDArray[np.float32]:
        """A fresh float32 copy of the seat's observation tensor, clipped to [0, 1]."""
        values = self.game.observation_tensor(self._state, seat)
        if len(values) != self.observation_size:
            raise RuntimeError(
                f"{self.game.game_id}: observation_tensor has {len(values)} values here but "
                f"{self.observation_size} at the start; the adapters need a fixed length"
            )
        array = np.array(values, dtype=np.float32)
        # A value out of bounds is rare (a score past the goal as the game ends); finding it is
        # cheaper with Python's min and max on a short list and with NumPy's on a long one.
        if not values:
            out_of_bounds = False
        elif len(values) <= SHORT_OBSERVATION:
            out_of_bounds = min(values) < OBSERVATION_LOW or max(values) > OBSERVATION_HIGH
        else:
            out_of_bounds = bool(array.min() < OBSERVATION_LOW or array.max() > OBSERVATION_HIGH)
        if out_of_bounds:
            np.clip(array, OBSERVATION_LOW, OBSERVATION_HIGH, out=array)
        return array

    def global_state(self) -> NDArray[np.float32]:
        """Every seat's observation, seat 0 first, in one vector (for centralised critics).

        It is the union of what the seats know: nothing that no seat may know (the order of a
        bag, the next roll) is in it.
        """
        return np.concatenate([self.observation(seat) for seat in range(self.num_players)])

    def action_mask(self, seat: int) -> NDArray[np.int8]:
        """A fresh legal-action mask for the seat (all zeros when it does not act)."""
        return self.legal_mask(seat).copy()

    def legal_mask(self, seat: int) -> NDArray[np.int8]:
        """The seat's legal-action mask, computed once per state and shared: read it, do not write it."""
        if self.truncated or self.forfeit is not None:
            return self._no_actions
        mask = self._masks.get(seat)
        if mask is None:
            mask = self.codec.mask_of(self.game.legal_actions(self._state, seat)) if seat in self._acting else None
            if mask is None:
                mask = self._no_actions
            self._masks[seat] = mask
        return mask

    def render(self) -> str:
        """The table as a spectator sees it, as plain text."""
        return plain_text(gamebag.entry(self.game.game_id).render_view(self.game.public_view(self.state)))

    # ---- acting -----------------------------------------------------------------------
    def decode(self, seat: int, raw: object) -> Any:
        """The gamebag action a seat's index stands for, or a ``Forfeit``.

        A non-integer is always an error. An index that is not legal for the seat
        raises ``IllegalActionError`` under the ``"raise"`` policy (nothing changes);
        under ``"lose"`` a ``Forfeit`` comes back and the caller ends the episode
        with ``forfeit_by``.
        """
        index = as_index(raw)
        if 0 <= index < self.codec.size and self.legal_mask(seat)[index]:
            return self.codec.actions[index]
        legal = self.codec.legal_indices(self._state, seat) if seat in self.acting() else []
        reason = (
            f"seat {seat} chose action index {index}, which is not legal now; legal indices: "
            f"{', '.join(map(str, legal)) or 'none (the seat does not act now)'}"
        )
        if self.illegal_action == "raise":
            raise IllegalActionError(reason)
        return Forfeit(seat, reason)

    def forfeit_by(self, forfeit: Forfeit) -> tuple[float, ...]:
        """End the episode because a seat chose an illegal action; its reward is ``illegal_reward``."""
        self.forfeit = forfeit
        seat = forfeit.seat
        return tuple(self.illegal_reward if p == seat else 0.0 for p in range(self.num_players))

    def play(self, moves: Mapping[int, Any]) -> tuple[float, ...]:
        """Apply a joint action already known legal, resolve chance, and return each seat's reward.

        Every caller decodes its moves from the legal masks (or checks them against the legal
        actions an agent was shown), so the game's own check of the joint action is skipped.
        """
        if self._rng is None:
            raise RuntimeError("the environment must be reset before it is stepped")
        before = self._state
        self.state = self._past_chance(self.game._apply_unchecked(before, moves))
        self.steps += 1
        if self.max_steps is not None and self.steps >= self.max_steps and not self._terminal:
            self.truncated = True
        return self._rewards(before, self._state)

    @property
    def rng(self) -> Rng:
        """The generator of this episode (chance, and agents that share it)."""
        if self._rng is None:
            raise RuntimeError("the environment must be reset before it is stepped")
        return self._rng

    def _past_chance(self, state: Any) -> Any:
        """``state`` with any chance events resolved by the episode's generator (nobody reads the outcomes)."""
        game = self.game
        if game.node_kind(state) is NodeKind.CHANCE:
            rng = self.rng
            while game.node_kind(state) is NodeKind.CHANCE:
                state = game.advance_chance(state, rng)
        return state

    def _rewards(self, before: Any, after: Any) -> tuple[float, ...]:
        if self.reward_mode == "score":
            sign = self.game.score_sign()
            old, new = self.game.scores(before), self.game.scores(after)
            return tuple(float(sign * (n - o)) for n, o in zip(new, old, strict=True))
        if self._terminal:
            return tuple(float(r) for r in self.game.returns(after))
        return (0.0,) * self.num_players


def episode_rng(generator: np.random.Generator) -> Rng:
    """A gamebag generator drawn from an environment's NumPy generator (seeded by ``reset``)."""
    return Rng(int(generator.integers(0, 2**63 - 1)))
