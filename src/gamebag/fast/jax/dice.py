"""What the JAX engines of the turn-based dice games share: rolling on, a step, whole games.

Pig and Catch A Dragon keep a position in one ``int32`` row whose phase field says whether
dice are to be rolled, a seat chooses, or the game is over. An engine names those fields
and writes its rules (``start``, ``draw``, ``apply_roll``, ``apply_action``) and its
compiled policies; this base runs them as pure, ``jit``- and ``vmap``-able functions with
explicit keys, the same way for both games.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import jax
import jax.numpy as jnp

from gamebag.fast.jax.policies import check_policies

Array = jax.Array


class DiceGameJax(ABC):
    """Pure JAX functions for one configured turn-based dice game (a subclass per game)."""

    num_players: int
    policies: tuple[str, ...]
    # A playout's loop is capped at this many decisions (a bound of the game, never reached).
    max_decisions: int
    # The row's fields for the seat to move and the phase, and the phases that matter here.
    seat_field: int
    phase_field: int
    rolling_phase: int
    over_phase: int
    choosing_phases: tuple[int, ...]

    @abstractmethod
    def start(self) -> Array:
        """The rules engine's ``initial_state``."""

    @abstractmethod
    def draw(self, row: Array, key: Array) -> Array:
        """One chance outcome of the rolling row, drawn with ``key``."""

    @abstractmethod
    def apply_roll(self, row: Array, outcome: Array) -> Array:
        """The rules engine's ``_apply_chance``: the row after ``outcome`` (the row must be rolling)."""

    @abstractmethod
    def apply_action(self, row: Array, action: Array) -> Array:
        """The rules engine's ``_apply``: the seat to move's ``action`` (the row must be choosing)."""

    @abstractmethod
    def random_actions(self, row: Array, key: Array) -> Array:
        """The compiled policy ``random``: an action per seat (the seat to move's is read)."""

    @abstractmethod
    def heuristic_actions(self, row: Array, key: Array) -> Array:
        """The compiled policy ``heuristic``: an action per seat (the seat to move's is read)."""

    def roll_on(self, row: Array, key: Array) -> Array:
        """Every pending roll, until the seat to move chooses or the game is over."""
        phase = self.phase_field

        def rolling(carry: tuple[Array, Array]) -> Array:
            return carry[0][phase] == self.rolling_phase

        def roll(carry: tuple[Array, Array]) -> tuple[Array, Array]:
            row, key = carry
            key, dice = jax.random.split(key)
            return self.apply_roll(row, self.draw(row, dice)), key

        row, _ = jax.lax.while_loop(rolling, roll, (row, key))
        return row

    def init(self, key: Array) -> Array:
        """A new game at its first decision (or over, if the first rolls end it)."""
        return self.roll_on(self.start(), key)

    def step(self, row: Array, actions: Array, key: Array) -> Array:
        """The seat to move's ``actions[seat]``, then the rolls it leads to (a finished game stays)."""
        after = self.roll_on(self.apply_action(row, actions[row[self.seat_field]]), key)
        phase = row[self.phase_field]
        choosing = jnp.zeros((), jnp.bool_)
        for value in self.choosing_phases:
            choosing = choosing | (phase == value)
        return jnp.where(choosing, after, row)

    def policy_actions(self, row: Array, key: Array, policies: Sequence[str]) -> Array:
        """Each seat's action under its named compiled policy (``policies`` is static)."""
        check_policies(policies, self.num_players, self.policies)
        chosen = {"random": self.random_actions, "heuristic": self.heuristic_actions}
        by_name = {name: chosen[name](row, key) for name in set(policies)}
        return jnp.stack([by_name[name][seat] for seat, name in enumerate(policies)])

    def playout(self, key: Array, policies: Sequence[str]) -> Array:
        """The final row of one game played with ``policies`` (one name per seat)."""

        def running(carry: tuple[Array, Array, Array]) -> Array:
            row, _, decisions = carry
            return (row[self.phase_field] != self.over_phase) & (decisions < self.max_decisions)

        def decide(carry: tuple[Array, Array, Array]) -> tuple[Array, Array, Array]:
            row, key, decisions = carry
            key, choose, chance = jax.random.split(key, 3)
            return self.step(row, self.policy_actions(row, choose, policies), chance), key, decisions + 1

        first, rest = jax.random.split(key)
        row, _, _ = jax.lax.while_loop(running, decide, (self.init(first), rest, jnp.int32(0)))
        return row

    def play_games(self, key: Array, batch: int, policies: Sequence[str]) -> Array:
        """The final rows of ``batch`` games (``jit`` with ``batch`` and ``policies`` static)."""
        check_policies(policies, self.num_players, self.policies)
        return jax.vmap(lambda k: self.playout(k, policies))(jax.random.split(key, batch))
