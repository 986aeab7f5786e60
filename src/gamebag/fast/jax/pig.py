"""Pig in JAX: pure functions of one position row (pgx style).

``PigJax(game)`` reads a configured rules-engine Pig (``goal`` and ``die_sides``, every
option) and offers, for one game, pure functions a caller ``jax.jit``s and ``jax.vmap``s
over a batch. The row is the numba kernel's board row (``gamebag.fast.pig``: both banked
scores, the seat to move, the running total, the phase, the last face, the turns
finished and the winner, -1 while none), ``int32[8]``:

* ``start()``: the rules engine's ``initial_state`` (seat 0 about to roll);
* ``apply_roll(row, face)`` and ``apply_action(row, action)``: the rules engine's
  ``_apply_chance`` and ``_apply`` (hold 0, roll 1, the order of ``all_actions()``);
* ``roll_on(row, key)``: every pending roll, until the seat to move decides or the game is over;
* ``init(key)``: the first decision of a game; ``step(row, actions, key)``: the seat to
  move's entry of ``actions`` (one per seat), then the rolls it leads to (a finished game
  stays as it is);
* ``to_act``, ``legal_mask``, ``observe`` (every seat's ``observation_tensor``), ``returns``;
* ``random_actions`` and ``heuristic_actions`` (the compiled policies ``random`` and
  ``heuristic``: hold once the turn's total reaches 20), ``playout(key, policies)`` and
  ``play_games(key, batch, policies)``: whole games, ``policies`` a static tuple of agent
  names, one per seat.

The configuration is a Python constant of the traced functions, so each one compiles its
own code. ``tests/fast/test_jax_pig.py`` proves the functions equal to ``games/pig``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp

from gamebag.core.engines import require_engine
from gamebag.core.protocol import Game
from gamebag.fast.jax.dice import DiceGameJax
from gamebag.fast.pig import (
    DECIDING,
    FIELDS,
    HOLD,
    HOLD_AT,
    LAST_ROLL,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    OVER,
    PHASE,
    ROLL,
    ROLLING,
    SCORE0,
    SEAT,
    TOTAL,
    TURNS,
    WINNER,
    rules_of,
)

Array = jax.Array
POLICIES: tuple[str, ...] = ("random", "heuristic")
# A game's decisions are bounded by its turns; this caps a playout's loop (a random game
# of the default Pig takes about 150 decisions; the cap is never reached in practice).
MAX_DECISIONS = 100_000


class PigJax(DiceGameJax):
    """Pure JAX functions for one configured Pig (see the module docstring)."""

    num_players = 2
    num_actions = NUM_ACTIONS
    observation_size = OBSERVATION_SIZE
    policies = POLICIES
    max_decisions = MAX_DECISIONS
    seat_field, phase_field = SEAT, PHASE
    rolling_phase, over_phase, choosing_phases = ROLLING, OVER, (DECIDING,)

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        if game.game_id != "pig":
            raise ValueError(f"PigJax plays 'pig', not {game.game_id!r}")
        require_engine(game, "jax")  # only the options the declaration gives "jax"
        rules = rules_of(game)
        self.game = game
        self.goal = rules.goal
        self.sides = rules.sides

    # ---- the row ---------------------------------------------------------------------------
    def start(self) -> Array:
        """The rules engine's ``initial_state``: seat 0 about to roll."""
        return jnp.zeros(FIELDS, jnp.int32).at[WINNER].set(-1)

    def _next_turn(self, row: Array) -> Array:
        return row.at[SEAT].set(1 - row[SEAT]).at[TOTAL].set(0).at[PHASE].set(ROLLING).at[TURNS].add(1)

    def apply_roll(self, row: Array, face: Array) -> Array:
        """The die shows ``face`` for the seat to move (the row must be rolling)."""
        face = jnp.asarray(face, jnp.int32)
        row = row.at[LAST_ROLL].set(face)
        seat = row[SEAT]
        total = row[TOTAL] + face
        banked = row[SCORE0 + seat] + total
        bust = self._next_turn(row)
        won = (
            row.at[SCORE0 + seat].set(banked).at[TOTAL].set(0).at[PHASE].set(OVER).at[TURNS].add(1).at[WINNER].set(seat)
        )
        decide = row.at[TOTAL].set(total).at[PHASE].set(DECIDING)
        return jnp.where(face == 1, bust, jnp.where(banked >= self.goal, won, decide))

    def apply_action(self, row: Array, action: Array) -> Array:
        """The seat to move holds (0) or rolls (1); the row must be deciding."""
        seat = row[SEAT]
        rolled = row.at[PHASE].set(ROLLING)
        held = self._next_turn(row.at[SCORE0 + seat].add(row[TOTAL]))
        return jnp.where(action == ROLL, rolled, held)

    def roll_face(self, key: Array) -> Array:
        """One roll of the die: a face from 1 to ``die_sides``, each equally likely."""
        return jax.random.randint(key, (), 1, self.sides + 1, dtype=jnp.int32)

    def draw(self, row: Array, key: Array) -> Array:
        """One roll of the die for the rolling row."""
        return self.roll_face(key)

    # ---- views -----------------------------------------------------------------------------
    def to_act(self, row: Array) -> Array:
        """``bool[2]``: the seat that decides now (none while rolling or over)."""
        return (jnp.arange(2) == row[SEAT]) & (row[PHASE] == DECIDING)

    def legal_mask(self, row: Array) -> Array:
        """``bool[2, 2]``: the seat that decides may hold or roll."""
        return jnp.broadcast_to(self.to_act(row)[:, None], (2, NUM_ACTIONS))

    def done(self, row: Array) -> Array:
        return row[PHASE] == OVER

    def returns(self, row: Array) -> Array:
        """``float32[2]``: 1 to the winner once the game is over, else 0."""
        return ((jnp.arange(2) == row[WINNER]) & (row[PHASE] == OVER)).astype(jnp.float32)

    def observe(self, row: Array) -> Array:
        """``float32[2, 7]``: every seat's ``observation_tensor``."""
        seats = jnp.arange(2)
        mine = row[SCORE0 + seats]
        other = row[SCORE0 + 1 - seats]
        total = jnp.broadcast_to(row[TOTAL], (2,))
        moving = ((row[SEAT] == seats) & (row[PHASE] != OVER)).astype(jnp.float32)
        phase = jnp.broadcast_to(jax.nn.one_hot(row[PHASE], 3, dtype=jnp.float32), (2, 3))
        # A final score may pass the goal; the tensor stays in [0, 1] as in the rules engine.
        scaled = [jnp.minimum(1.0, mine / self.goal), jnp.minimum(1.0, other / self.goal), total / self.goal]
        numbers = jnp.stack(scaled, axis=1).astype(jnp.float32)
        return jnp.concatenate([numbers, moving[:, None], phase], axis=1)

    # ---- policies and whole games ------------------------------------------------------------
    def random_actions(self, row: Array, key: Array) -> Array:
        """Hold or roll uniformly at random, for every seat (only the seat to move's is read)."""
        return jax.random.randint(key, (2,), 0, NUM_ACTIONS, dtype=jnp.int32)

    def heuristic_actions(self, row: Array, key: Array) -> Array:
        """The heuristic agent's choice for every seat: hold once the turn's total reaches 20."""
        return jnp.broadcast_to(jnp.where(row[TOTAL] >= HOLD_AT, HOLD, ROLL), (2,)).astype(jnp.int32)

    def playout(self, key: Array, policies: Sequence[str] = ("random", "random")) -> Array:
        """The final row of one game played with ``policies``."""
        return super().playout(key, policies)

    def play_games(self, key: Array, batch: int, policies: Sequence[str] = ("random", "random")) -> Array:
        """``int32[batch, 8]``: the final rows of ``batch`` games (``jit`` with ``batch`` and ``policies`` static)."""
        return super().play_games(key, batch, policies)

    def round_number(self, row: Array) -> Array:
        """The rules engine's ``round_number``: a round is one turn of each player."""
        return jnp.where(row[PHASE] == OVER, (row[TURNS] - 1) // 2 + 1, row[TURNS] // 2 + 1)
