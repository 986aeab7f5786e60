"""Catch A Dragon By The Tail in JAX: pure functions of one position row (pgx style).

``DragonJax(game)`` reads a configured rules-engine game (every option: ``dice``,
``rounds``, ``max_tiebreak_rounds``, ``duplicate_bust``, ``cyclic``; ``faces`` only names
colours) and offers, for one game, pure functions a caller ``jax.jit``s and ``jax.vmap``s
over a batch. The row is the numba kernel's board row (``gamebag.fast.dragon``: eight
scores, the round, the seat to move, the phase, the collected and rolled dice as counts
per face, the winners as a bit mask and the last finished turn), ``int32[41]``:

* ``start()``: the rules engine's ``initial_state``;
* ``apply_roll(row, counts)`` (the dice rolled, as counts per face) and
  ``apply_action(row, action)`` (an index of ``all_actions()``: stop, roll, then the
  collections): the rules engine's ``_apply_chance`` and ``_apply``;
* ``roll(row, key)``: the uncollected dice, each face equally likely;
  ``roll_on(row, key)``: every pending roll, until the seat to move must choose;
* ``init(key)``: a new game at its first decision; ``step(row, actions, key)``: the seat to
  move's entry of ``actions`` (one per seat), then the rolls it leads to (a finished game
  stays as it is);
* ``to_act``, ``legal_mask`` (worked out from the rules' bust and collection rules, not
  from a table), ``observe`` (every seat's ``observation_tensor``), ``returns``;
* ``random_actions`` (uniform among the legal actions) and ``heuristic_actions`` (the
  heuristic agent's choices, through the numba kernel's tables of its arithmetic),
  ``playout(key, policies)`` and ``play_games(key, batch, policies)``: whole games.

The configuration is a Python constant of the traced functions, so each one compiles its
own code. ``tests/fast/test_jax_dragon.py`` proves the functions equal to
``games/catch_a_dragon``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from gamebag.core.engines import require_engine
from gamebag.core.protocol import Game
from gamebag.fast.dragon import (
    BUST,
    COLLECTED,
    COLLECTING,
    DECIDING,
    FIELDS,
    FOUR,
    LAST,
    LAST_COLLECTED,
    LAST_ENDED,
    LAST_POINTS,
    LAST_ROLL,
    LAST_ROUND,
    LAST_SEAT,
    MAX_DICE,
    MAX_PLAYERS,
    OVER,
    PHASE,
    ROLL,
    ROLLED,
    ROLLING,
    ROUND,
    SCORES,
    SEAT,
    SIDES,
    STOP,
    STOP_END,
    WINNERS,
    collection_table,
    heuristic_tables,
    points_table,
    rules_of,
)
from gamebag.fast.jax.dice import DiceGameJax
from gamebag.games.catch_a_dragon.rules import MARGIN_REACH, OBSERVATION_SIZE, ROUNDS_LEFT, TURN_REACH

Array = jax.Array
POLICIES: tuple[str, ...] = ("random", "heuristic")
FACE_BITS = 1 << np.arange(SIDES)


class DragonJax(DiceGameJax):
    """Pure JAX functions for one configured Catch A Dragon By The Tail (see the module docstring)."""

    observation_size = OBSERVATION_SIZE
    policies = POLICIES
    seat_field, phase_field = SEAT, PHASE
    rolling_phase, over_phase, choosing_phases = ROLLING, OVER, (COLLECTING, DECIDING)

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        if game.game_id != "catch-a-dragon":
            raise ValueError(f"DragonJax plays 'catch-a-dragon', not {game.game_id!r}")
        require_engine(game, "jax")  # only the options the declaration gives "jax"
        rules = rules_of(game)
        self.game = game
        self.rules = rules
        self.num_players = rules.players
        self.dice = rules.dice
        self.rounds = rules.rounds
        self.tiebreaks = rules.tiebreaks
        self.duplicate_any = rules.duplicate_bust == "any"
        takes = collection_table(rules.dice).astype(np.int32)  # [action, face]
        self.num_actions = int(takes.shape[0])
        self.takes = takes
        self.take_size = takes.sum(axis=1)
        self.take_one_face = (takes > 0).sum(axis=1) == 1
        self.take_distinct = (takes <= 1).all(axis=1)
        self.points = points_table(rules.cyclic)
        value, rolls_on = heuristic_tables(rules)
        # The heuristic compares float64 values; their ranks make the same choices in int32.
        self.value_rank = np.unique(value, return_inverse=True)[1].astype(np.int32).reshape(value.shape)
        self.heuristic_rolls_on = rolls_on.astype(np.int32)
        # Every turn needs at most one collection and one stop-or-roll per die.
        self.max_decisions = (rules.rounds + rules.tiebreaks) * rules.players * 2 * rules.dice

    # ---- sets --------------------------------------------------------------------------------
    def set_code(self, counts: Array) -> Array:
        """The kernel's set code of six face counts (``gamebag.fast.dragon.set_code``)."""
        present = counts > 0
        size = counts.sum(axis=-1)
        distinct = present.sum(axis=-1)
        mask = (present * FACE_BITS).sum(axis=-1)
        face = jnp.argmax(counts, axis=-1)
        return jnp.where((size >= 2) & (distinct == 1), 64 + 6 * face + size - 1, mask).astype(jnp.int32)

    def _held(self, row: Array) -> Array:
        return row[COLLECTED : COLLECTED + SIDES]

    def _rolled(self, row: Array) -> Array:
        return row[ROLLED : ROLLED + SIDES]

    def _going_on(self, held: Array, rolled: Array) -> tuple[Array, Array, Array]:
        """(identical set can go on, different set can go on, the roll busts the set)."""
        size = held.sum()
        distinct = (held > 0).sum()
        has = held > 0
        shows = rolled > 0
        identical_on = (has & shows).any()
        different_on = ~(has & shows).any() if self.duplicate_any else (~has & shows).any()
        bust = jnp.where(
            size == 0,
            False,
            jnp.where(
                size == 1,
                ~identical_on & ~different_on,
                jnp.where(distinct == 1, ~identical_on, ~different_on),
            ),
        )
        return identical_on, different_on, bust

    # ---- the rules ---------------------------------------------------------------------------
    def start(self) -> Array:
        """The rules engine's ``initial_state``: round 1, seat 0 about to roll."""
        return jnp.zeros(FIELDS, jnp.int32).at[ROUND].set(1)

    def _end_turn(self, row: Array, points: Array, ended: int) -> Array:
        """The rules' ``_end_turn``: bank ``points``, record the turn, pass on or finish the game."""
        n = self.num_players
        seat = row[SEAT]
        out = row.at[SCORES + seat].add(points)
        out = out.at[LAST].set(1).at[LAST_SEAT].set(seat).at[LAST_ROUND].set(row[ROUND])
        out = out.at[LAST_COLLECTED : LAST_COLLECTED + SIDES].set(self._held(row))
        out = out.at[LAST_ROLL : LAST_ROLL + SIDES].set(self._rolled(row))
        out = out.at[COLLECTED : COLLECTED + SIDES].set(0).at[ROLLED : ROLLED + SIDES].set(0)
        out = out.at[LAST_POINTS].set(points).at[LAST_ENDED].set(ended).at[PHASE].set(ROLLING)
        scores = out[SCORES : SCORES + n]
        best = scores.max()
        leaders = scores == best
        mask = (leaders * (1 << jnp.arange(n))).sum()
        round_no = row[ROUND]
        last_seat = seat + 1 >= n
        over = (
            last_seat & (round_no >= self.rounds) & ((leaders.sum() == 1) | (round_no - self.rounds >= self.tiebreaks))
        )
        finished = out.at[WINNERS].set(mask).at[PHASE].set(OVER)  # the seat stays with the last player
        next_round = out.at[SEAT].set(0).at[ROUND].set(round_no + 1)
        next_seat = out.at[SEAT].set(seat + 1)
        return jnp.where(over, finished, jnp.where(last_seat, next_round, next_seat))

    def apply_roll(self, row: Array, counts: Array) -> Array:
        """The dice show ``counts`` (per face) for the seat to move (the row must be rolling)."""
        row = row.at[ROLLED : ROLLED + SIDES].set(jnp.asarray(counts, jnp.int32))
        _, _, bust = self._going_on(self._held(row), self._rolled(row))
        return jnp.where(bust, self._end_turn(row, jnp.int32(0), BUST), row.at[PHASE].set(COLLECTING))

    def apply_action(self, row: Array, action: Array) -> Array:
        """The seat to move takes ``action`` (an index of ``all_actions()``, legal here)."""
        points = jnp.asarray(self.points)
        held_points = points[self.set_code(self._held(row))]
        rolled_on = row.at[PHASE].set(ROLLING).at[ROLLED : ROLLED + SIDES].set(0)
        stopped = self._end_turn(row, held_points, STOP_END)
        held = self._held(row) + jnp.asarray(self.takes)[action]
        collected = row.at[COLLECTED : COLLECTED + SIDES].set(held)
        full = self._end_turn(collected, points[self.set_code(held)], FOUR)
        collect = jnp.where(held.sum() == self.dice, full, collected.at[PHASE].set(DECIDING))
        decide = jnp.where(action == ROLL, rolled_on, stopped)
        return jnp.where(row[PHASE] == DECIDING, decide, collect)

    def roll(self, row: Array, key: Array) -> Array:
        """Counts per face of the uncollected dice, each die showing each face equally often."""
        faces = jax.random.randint(key, (MAX_DICE,), 0, SIDES)
        used = jnp.arange(MAX_DICE) < self.dice - self._held(row).sum()
        return (jax.nn.one_hot(faces, SIDES, dtype=jnp.int32) * used[:, None]).sum(axis=0)

    def draw(self, row: Array, key: Array) -> Array:
        """One roll of the uncollected dice for the rolling row."""
        return self.roll(row, key)

    # ---- views -------------------------------------------------------------------------------
    def to_act(self, row: Array) -> Array:
        """``bool[players]``: the seat that chooses now (none while rolling or over)."""
        phase = row[PHASE]
        return (jnp.arange(self.num_players) == row[SEAT]) & ((phase == COLLECTING) | (phase == DECIDING))

    def legal_actions(self, row: Array) -> Array:
        """``bool[actions]``: the actions of the seat to move (the rules' ``legal_collections``)."""
        held, rolled = self._held(row), self._rolled(row)
        takes = jnp.asarray(self.takes)
        size = held.sum()
        distinct = (held > 0).sum()
        identical_on, different_on, bust = self._going_on(held, rolled)
        fits_roll = (takes <= rolled).all(axis=1)
        only_held = ((takes == 0) | (held > 0)).all(axis=1)
        only_new = ((takes == 0) | (held == 0)).all(axis=1)
        identical_kind = (size == 1) | ((size >= 2) & (distinct == 1))
        different_kind = (size == 1) | (distinct >= 2)
        more_identical = identical_kind & identical_on & jnp.asarray(self.take_one_face) & only_held
        more_different = different_kind & different_on & jnp.asarray(self.take_distinct) & only_new
        collections = fits_roll & (self.take_size > 0) & ((size == 0) | (~bust & (more_identical | more_different)))
        decisions = (jnp.arange(self.num_actions) == STOP) | (jnp.arange(self.num_actions) == ROLL)
        phase = row[PHASE]
        return jnp.where(phase == COLLECTING, collections, (phase == DECIDING) & decisions)

    def legal_mask(self, row: Array) -> Array:
        """``bool[players, actions]``: the seat to move's legal actions, nothing for the others."""
        return self.to_act(row)[:, None] & self.legal_actions(row)[None, :]

    def done(self, row: Array) -> Array:
        return row[PHASE] == OVER

    def returns(self, row: Array) -> Array:
        """``float32[players]``: each winner's share once the game is over, else 0."""
        won = ((row[WINNERS] >> jnp.arange(self.num_players)) & 1).astype(jnp.float32)
        return jnp.where(row[PHASE] == OVER, won / jnp.maximum(won.sum(), 1.0), 0.0)

    def observe(self, row: Array) -> Array:
        """``float32[players, OBSERVATION_SIZE]``: every seat's ``observation_tensor``."""
        n = self.num_players
        scale = max(16, self.dice * self.dice)
        players = jnp.arange(n)
        phase = row[PHASE]
        dice_part = jnp.concatenate([self._held(row), self._rolled(row)]) / self.dice
        phase_part = jax.nn.one_hot(phase, 4)
        held = jnp.asarray(self.points)[self.set_code(self._held(row))]
        held_points = held / scale
        order = (players[:, None] + players[None, :]) % n  # [player, offset] -> seat
        scores = row[SCORES : SCORES + n][order] / (scale * self.rounds)
        padding = jnp.zeros((n, MAX_PLAYERS - n))
        common = jnp.concatenate([dice_part, phase_part]).astype(jnp.float32)
        moving = (row[SEAT] == players) & (phase != OVER)
        tail = jnp.stack(
            [
                ((row[SEAT] - players) % n) / 8,
                jnp.broadcast_to(jnp.minimum(row[ROUND], self.rounds) / self.rounds, (n,)),
                jnp.broadcast_to(jnp.maximum(0, row[ROUND] - self.rounds) / max(1, self.tiebreaks), (n,)),
            ],
            axis=1,
        )
        # The end-game part: own seat, rounds left, thermometers of the margin over the best other total.
        totals = row[SCORES : SCORES + n]
        banked = totals + jnp.where(players == row[SEAT], held, 0)
        left = jnp.clip(self.rounds - row[ROUND], 0, ROUNDS_LEFT - 1)
        parts = [
            jnp.broadcast_to(common, (n, common.shape[0])),
            moving[:, None],
            jnp.full((n, 1), held_points),
            scores,
            padding,
            tail,
            jax.nn.one_hot(players, MAX_PLAYERS),
            jnp.broadcast_to(jax.nn.one_hot(left, ROUNDS_LEFT), (n, ROUNDS_LEFT)),
            self._margins(totals)[:, None] >= jnp.arange(-MARGIN_REACH, MARGIN_REACH + 1)[None, :],
            self._margins(banked)[:, None] >= jnp.arange(-TURN_REACH, TURN_REACH + 1)[None, :],
        ]
        return jnp.concatenate([p.astype(jnp.float32) for p in parts], axis=1)

    def _margins(self, totals: Array) -> Array:
        """``int32[players]``: each seat's ``rules.margin`` over these totals."""
        n = self.num_players
        if n == 1:
            return jnp.zeros(1, jnp.int32)
        others = jnp.where(jnp.eye(n, dtype=bool), -(1 << 30), totals[None, :])
        return totals - others.max(axis=1)

    # ---- policies and whole games --------------------------------------------------------------
    def random_actions(self, row: Array, key: Array) -> Array:
        """A uniformly random legal action for the seat to move (the same in every seat's entry)."""
        legal = self.legal_actions(row)
        pick = jax.random.categorical(key, jnp.where(legal, 0.0, -jnp.inf))
        return jnp.full(self.num_players, jnp.where(legal.any(), pick, 0), jnp.int32)

    def heuristic_actions(self, row: Array, key: Array) -> Array:
        """The heuristic agent's choice for the seat to move: the best set to collect, then its roll-or-stop rule."""
        held = self._held(row)
        after = self.set_code(held[None, :] + jnp.asarray(self.takes))  # [actions]
        worth = jnp.where(self.legal_actions(row), jnp.asarray(self.value_rank)[after], -1)
        collect = jnp.argmax(worth)  # ties to the first, as the agent's max() does
        rolls_on = jnp.asarray(self.heuristic_rolls_on)[self.set_code(held)] == 1
        decide = jnp.where(rolls_on, ROLL, STOP)
        return jnp.full(self.num_players, jnp.where(row[PHASE] == DECIDING, decide, collect), jnp.int32)
