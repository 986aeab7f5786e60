"""The Eel family (Eel Harvest, Wriggle Roulette) in JAX: pure functions of one position row.

``EelJax(game)`` reads a configured rules-engine game (every option) and offers, for one
game, pure functions a caller ``jax.jit``s and ``jax.vmap``s over a batch:

* ``init()``: the starting row (``int32[WIDTH]``, the layout of ``gamebag.fast.eel.layout``);
* ``to_act(row)``, ``legal_mask(row)``, ``observe(row)`` (the rules engine's
  ``observation_tensor`` of every seat), ``returns(row)`` (win shares once over);
* ``draw(row, counts, key)``: every seat's eels and snakes for a grab (``counts[p]`` is -1
  for a seat not in the round), drawn as the rules engine does (from the bag in seat order
  from the start player, or with the dice variant's one-in-four snake dice);
* ``resolve(row, counts, eels, snakes)``: exits, reveal, outbreak, lone-player exit, end
  of round and of game, the rules engine's ``_resolve`` step for step;
* ``step(row, actions, key)``: one grab of the seats in the round (a finished game stays
  as it is);
* ``random_playout(key)`` and ``random_games(key, batch)``: whole games with every seat
  choosing uniformly among its legal grabs.

Every configuration value is a Python constant of the traced functions, so each
configuration compiles its own specialised code.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from gamebag.core.engines import require_engine
from gamebag.core.protocol import Game
from gamebag.fast.eel.engine import kernel_config
from gamebag.fast.eel.layout import (
    BAG_EELS,
    BAG_SNAKES,
    C_DICE,
    C_EELS,
    C_GRAB_SCALE,
    C_LONE_LIMIT,
    C_MAX_GRAB,
    C_OUTBREAK_SCORES_RESERVE,
    C_PLAYERS,
    C_ROTATE_START,
    C_SNAKES,
    C_TARGET,
    C_THRESHOLD,
    C_WRIGGLE,
    CENTRE,
    EXIT_GRAB,
    GRAB,
    HAS_LAST,
    IN_ROUND,
    LAST_COUNT,
    LAST_EELS,
    LAST_EXITED,
    LAST_LOSER,
    LAST_OUTBREAK,
    LAST_ROUND_OVER,
    LAST_SCORED,
    LAST_SNAKES,
    LONE_LEFT,
    MAX_GRABS_PER_GAME,
    MAX_SEATS,
    OVER,
    RESERVES,
    ROUND,
    SCORES,
    START,
    STILL_IN,
    WIDTH,
    WINNER,
)

OBSERVATION_SIZE = 3 * MAX_SEATS + 7
Array = jax.Array
# What a draw carries from token to token: eels and snakes left, the seat's take left, what each seat got.
DrawCarry = tuple[Array, Array, Array, Array, Array]


class EelJax:
    """Pure JAX functions for one configured Eel family game (see the module docstring)."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        cfg = kernel_config(game)
        require_engine(game, "jax")  # only the options the declaration gives "jax"
        self.game = game
        self.num_players = n = int(cfg[C_PLAYERS])
        self.max_grab = int(cfg[C_MAX_GRAB])
        self.num_actions = self.max_grab + 1
        self.dice = bool(cfg[C_DICE])
        self.wriggle = bool(cfg[C_WRIGGLE])
        self.threshold = int(cfg[C_THRESHOLD])
        self.lone_limit = int(cfg[C_LONE_LIMIT])
        self.rotate_start = bool(cfg[C_ROTATE_START])
        self.full_reserve = self.wriggle or bool(cfg[C_OUTBREAK_SCORES_RESERVE])
        self.eels = int(cfg[C_EELS])
        self.snakes = int(cfg[C_SNAKES])
        self.target = int(cfg[C_TARGET])
        self.grab_scale = int(cfg[C_GRAB_SCALE])
        self.seats = jnp.arange(n)

    # ---- the row ---------------------------------------------------------------------------
    def _block(self, row: Array, offset: int) -> Array:
        return row[offset : offset + self.num_players]

    def init(self) -> Array:
        """The rules engine's ``initial_state`` as a row."""
        row = jnp.zeros(WIDTH, jnp.int32)
        row = row.at[IN_ROUND : IN_ROUND + self.num_players].set(1)
        row = row.at[BAG_EELS].set(self.eels).at[BAG_SNAKES].set(self.snakes)
        return row.at[ROUND].set(1).at[LONE_LEFT].set(-1)

    def to_act(self, row: Array) -> Array:
        """``bool[players]``: the seats that grab now."""
        return (self._block(row, IN_ROUND) != 0) & (row[OVER] == 0)

    def legal_mask(self, row: Array) -> Array:
        """``bool[players, actions]``: a seat in the round may grab 0 (exit) to the grab limit."""
        return jnp.broadcast_to(self.to_act(row)[:, None], (self.num_players, self.num_actions))

    def returns(self, row: Array) -> Array:
        """``float32[players]``: each winner's share of the win once the game is over, else 0."""
        winners = self._block(row, WINNER).astype(jnp.float32)
        return jnp.where(winners.sum() > 0, winners / jnp.maximum(winners.sum(), 1.0), 0.0)

    def observe(self, row: Array) -> Array:
        """``float32[players, 31]``: every seat's ``observation_tensor`` (own seat first)."""
        n = self.num_players
        scores = jnp.minimum(self._block(row, SCORES) / self.target, 1.0)
        reserves = self._block(row, RESERVES) / self.eels
        inside = (self._block(row, IN_ROUND) != 0).astype(jnp.float32)
        per_seat = jnp.stack([scores, reserves, inside], axis=1).astype(jnp.float32)  # [n, 3]
        order = (self.seats[:, None] + self.seats[None, :]) % n  # [player, offset] -> seat
        seats_part = per_seat[order].reshape(n, 3 * n)
        padding = jnp.zeros((n, 3 * (MAX_SEATS - n)), jnp.float32)
        common = jnp.stack(
            [
                row[BAG_EELS] / self.eels,
                row[BAG_SNAKES] / self.snakes,
                row[CENTRE] / self.snakes,
                jnp.float32(self.threshold / self.snakes),
            ]
        ).astype(jnp.float32)
        start = ((row[START] - self.seats) % n) / 8
        grab = jnp.minimum(row[GRAB], 40) / 40
        tail = jnp.concatenate(
            [
                jnp.broadcast_to(common, (n, 4)),
                start[:, None].astype(jnp.float32),
                jnp.full((n, 1), grab, jnp.float32),
                jnp.full((n, 1), self.max_grab / self.grab_scale, jnp.float32),
            ],
            axis=1,
        )
        return jnp.concatenate([seats_part, padding, tail], axis=1).astype(jnp.float32)

    # ---- a grab ----------------------------------------------------------------------------
    def draw(self, row: Array, counts: Array, key: Array) -> tuple[Array, Array]:
        """Each seat's drawn eels and snakes for the grab ``counts`` (-1: not in the round)."""
        n = self.num_players
        takes = jnp.maximum(counts, 0)
        keys = jax.random.split(key, n * max(self.max_grab, 1)).reshape(n, max(self.max_grab, 1), -1)
        if self.dice:
            rolls = jax.vmap(jax.vmap(lambda k: jax.random.randint(k, (), 0, 4)))(keys)  # [n, grab]
            used = jnp.arange(max(self.max_grab, 1))[None, :] < takes[:, None]
            snakes = ((rolls == 0) & used).sum(axis=1).astype(jnp.int32)
            return (takes - snakes).astype(jnp.int32), snakes
        # One token per scan step, seat after seat from the start player; a seat's take is fixed
        # when its turn to draw comes (the bag may run short).
        grab = max(self.max_grab, 1)
        offsets = jnp.repeat(jnp.arange(n), grab)
        tokens = jnp.tile(jnp.arange(grab), n)

        def one_token(carry: DrawCarry, step: tuple[Array, Array, Array]) -> tuple[DrawCarry, None]:
            eels, snakes, left, got_eels, got_snakes = carry
            offset, token, token_key = step
            seat = (row[START] + offset) % n
            left = jnp.where(token == 0, jnp.minimum(takes[seat], eels + snakes), left)
            active = left > 0
            pick = jax.random.randint(token_key, (), 0, jnp.maximum(eels + snakes, 1))
            snake = active & (pick < snakes)
            eel = active & ~snake
            got_snakes = got_snakes.at[seat].add(snake.astype(jnp.int32))
            got_eels = got_eels.at[seat].add(eel.astype(jnp.int32))
            return (eels - eel, snakes - snake, left - active, got_eels, got_snakes), None

        eels = row[BAG_EELS] + jnp.where(counts == 0, self._block(row, RESERVES), 0).sum()
        start_carry: DrawCarry = (
            eels,
            row[BAG_SNAKES],
            jnp.asarray(0, jnp.int32),
            jnp.zeros(n, jnp.int32),
            jnp.zeros(n, jnp.int32),
        )
        token_keys = keys.reshape(n * grab, -1)
        (_, _, _, got_eels, got_snakes), _ = jax.lax.scan(one_token, start_carry, (offsets, tokens, token_keys))
        return got_eels, got_snakes

    def resolve(self, row: Array, counts: Array, drawn_eels: Array, drawn_snakes: Array) -> Array:
        """The row after the grab ``counts`` with these draws (the rules engine's ``_resolve``)."""
        n = self.num_players
        counts = counts.astype(jnp.int32)
        e = drawn_eels.astype(jnp.int32)
        k = drawn_snakes.astype(jnp.int32)
        grab_no = row[GRAB] + 1
        scores = self._block(row, SCORES)
        reserves = self._block(row, RESERVES)
        in_round = self._block(row, IN_ROUND)
        exit_grab = self._block(row, EXIT_GRAB)
        bag_eels, bag_snakes, centre = row[BAG_EELS], row[BAG_SNAKES], row[CENTRE]
        zero = jnp.zeros(n, jnp.int32)
        # Exits first: score the reserve, eels back into the bag.
        exiting = counts == 0
        last_scored = jnp.where(exiting, reserves, 0)
        scores = scores + last_scored
        if not self.dice:
            bag_eels = bag_eels + last_scored.sum()
        reserves = jnp.where(exiting, 0, reserves)
        in_round = jnp.where(exiting, 0, in_round)
        exit_grab = jnp.where(exiting, 2 * grab_no, exit_grab)
        last_exited = exiting.astype(jnp.int32)
        # The reveal: eels to reserves, snakes to the centre.
        revealed = (e + k) > 0
        last_eels = jnp.where(revealed, e, 0)
        last_snakes = jnp.where(revealed, k, 0)
        reserves = reserves + last_eels
        centre = centre + last_snakes.sum()
        if not self.dice:
            bag_eels = bag_eels - last_eels.sum()
            bag_snakes = bag_snakes - last_snakes.sum()
        inside = in_round != 0
        still_in = inside.sum()
        outbreak = (centre >= self.threshold) & (still_in > 0)
        held = reserves if self.wriggle else e + k
        most = jnp.max(jnp.where(inside, held, -1))
        hit = outbreak & inside
        loser = hit & (held == most)
        gain = jnp.where(loser, 0, reserves if self.full_reserve else e)
        gain = jnp.where(hit, gain, 0)
        scores = scores + gain
        last_scored = last_scored + gain
        exit_grab = jnp.where(hit, STILL_IN, exit_grab)
        last_loser = loser.astype(jnp.int32)
        round_over = outbreak | (still_in == 0)
        lone_left = row[LONE_LEFT]
        if self.lone_limit >= 0:
            lone = ~outbreak & (still_in == 1)
            lone_left = jnp.where(lone, jnp.where(lone_left < 0, self.lone_limit, lone_left - 1), lone_left)
            lone_exit = lone & (lone_left <= 0)
            leaving = lone_exit & inside
            scored = jnp.where(leaving, reserves, 0)
            scores = scores + scored
            last_scored = last_scored + scored
            if not self.dice:
                bag_eels = bag_eels + scored.sum()
            reserves = jnp.where(leaving, 0, reserves)
            in_round = jnp.where(leaving, 0, in_round)
            # Still in at this grab's reveal, so later than this grab's voluntary exits.
            exit_grab = jnp.where(leaving, 2 * grab_no + 1, exit_grab)
            last_exited = jnp.where(leaving, 1, last_exited)
            round_over = round_over | lone_exit
        # The end of the game: wriggle-roulette after any grab, eel-harvest at a round's end.
        best = jnp.max(scores)
        over = (best >= self.target) & (round_over if not self.wriggle else True)
        leaders = scores == best
        if self.wriggle:
            winners = over & leaders
        else:
            latest = jnp.max(jnp.where(leaders, exit_grab, 0))
            winners = over & leaders & (exit_grab == latest)
        # At a round's end every token goes back into the bag; a new round starts unless it is over.
        new_round = round_over & ~over
        reserves = jnp.where(round_over, zero, reserves)
        bag_eels = jnp.where(round_over, self.eels, bag_eels)
        bag_snakes = jnp.where(round_over, self.snakes, bag_snakes)
        centre = jnp.where(round_over, 0, centre)
        in_round = jnp.where(new_round, 1, jnp.where(round_over, 0, in_round))
        exit_grab = jnp.where(new_round, 0, exit_grab)
        start = row[START]
        if self.rotate_start:
            start = jnp.where(new_round, (start + 1) % n, start)
        lone_left = jnp.where(new_round, -1, lone_left)

        out = row
        for offset, values in (
            (SCORES, scores),
            (RESERVES, reserves),
            (IN_ROUND, in_round),
            (EXIT_GRAB, exit_grab),
            (WINNER, jnp.where(winners, 1, self._block(row, WINNER))),
            (LAST_COUNT, counts),
            (LAST_EELS, last_eels),
            (LAST_SNAKES, last_snakes),
            (LAST_SCORED, last_scored),
            (LAST_EXITED, last_exited),
            (LAST_LOSER, last_loser),
        ):
            out = out.at[offset : offset + n].set(values.astype(jnp.int32))
        singles = (
            (BAG_EELS, bag_eels),
            (BAG_SNAKES, bag_snakes),
            (CENTRE, centre),
            (ROUND, row[ROUND] + new_round),
            (START, start),
            (GRAB, jnp.where(new_round, 0, grab_no)),
            (LONE_LEFT, lone_left),
            (OVER, over),
            (HAS_LAST, 1),
            (LAST_OUTBREAK, outbreak),
            (LAST_ROUND_OVER, round_over),
        )
        for index, value in singles:
            out = out.at[index].set(jnp.asarray(value).astype(jnp.int32))
        return out

    def step(self, row: Array, actions: Array, key: Array) -> Array:
        """One grab: ``actions[p]`` for the seats in the round, then the draws (a finished game stays)."""
        counts = jnp.where(self.to_act(row), actions.astype(jnp.int32), -1)
        eels, snakes = self.draw(row, counts, key)
        after = self.resolve(row, counts, eels, snakes)
        return jnp.where(row[OVER] != 0, row, after)

    # ---- whole random games ------------------------------------------------------------------
    def random_actions(self, row: Array, key: Array) -> Array:
        """A uniformly random legal grab for every seat (ignored for seats not in the round)."""
        return jax.random.randint(key, (self.num_players,), 0, self.num_actions)

    def random_playout(self, key: Array) -> Array:
        """The final row of one game in which every seat grabs uniformly at random."""

        def running(carry: tuple[Array, Array, Array]) -> Array:
            row, _, grabs = carry
            return (row[OVER] == 0) & (grabs < MAX_GRABS_PER_GAME)

        def grab(carry: tuple[Array, Array, Array]) -> tuple[Array, Array, Array]:
            row, key, grabs = carry
            key, choose, chance = jax.random.split(key, 3)
            return self.step(row, self.random_actions(row, choose), chance), key, grabs + 1

        row, _, _ = jax.lax.while_loop(running, grab, (self.init(), key, jnp.int32(0)))
        return row

    def random_games(self, key: Array, batch: int) -> Array:
        """``int32[batch, WIDTH]``: the final rows of ``batch`` random games (``jit`` it with a static batch)."""
        return jax.vmap(self.random_playout)(jax.random.split(key, batch))
