"""The JAX engines' adapters to the equality harness (import after ``pytest.importorskip("jax")``).

As the numba adapters (``replays.py``), with the JAX engine's jitted functions; the views
compare the seats to act, the legal actions and every seat's observation (to float32
rounding: JAX divides in float32), and the compiled heuristic with the heuristic agent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from eel_helpers import expected_list
from replays import EelDraws, dice_counts, dragon_conservation, eel_field_names, pig_conservation

from gamebag.agents.base import SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import derive_rng
from gamebag.equality import EngineReplay
from gamebag.fast import dragon as fast_dragon
from gamebag.fast import pig as fast_pig
from gamebag.fast.jax.dice import DiceGameJax
from gamebag.fast.jax.dragon import DragonJax
from gamebag.fast.jax.eel import EelJax
from gamebag.fast.jax.pig import PigJax
from gamebag.games.eel_family.rules import EelFamilyGame

AnyGame = Game[Any, Any, Any]


class EelJaxReplay(EngineReplay):
    """The JAX Eel engine: ``resolve`` per grab; seats to act, legal actions, observations, returns."""

    def __init__(self, game: EelFamilyGame) -> None:
        self.game = game
        self.engine = EelJax(game)
        self.field_names = eel_field_names()
        self.draws = EelDraws(game)
        self.resolve = jax.jit(self.engine.resolve)
        self.views_of = jax.jit(lambda r: (self.engine.to_act(r), self.engine.legal_mask(r), self.engine.observe(r)))
        self.current = self.engine.init()

    def reset(self) -> None:
        self.current = self.engine.init()

    def _resolve(self) -> None:
        n, d = self.game.num_players, self.draws
        self.current = self.resolve(
            self.current,
            jnp.asarray(d.counts[:n], jnp.int32),
            jnp.asarray(d.eels[:n], jnp.int32),
            jnp.asarray(d.snakes[:n], jnp.int32),
        )

    def decide(self, before: Any, moves: Mapping[int, Any], after: Any) -> None:
        self.draws.take(moves)
        if self.draws.comparable(after):
            self._resolve()

    def chance(self, before: Any, outcome: Any, after: Any) -> None:
        self.draws.drawn(outcome)
        self._resolve()

    def row(self) -> np.ndarray:
        return np.asarray(self.current)

    def expected(self, state: Any) -> list[int]:
        return expected_list(self.game, state)

    def comparable(self, state: Any) -> bool:
        return self.draws.comparable(state)

    def views(self, state: Any) -> list[str]:
        game = self.game
        if game.node_kind(state) is NodeKind.TERMINAL:
            return []
        problems = []
        acting, legal, observed = (np.asarray(a) for a in self.views_of(self.current))
        if np.flatnonzero(acting).tolist() != list(game.acting_players(state)):
            problems.append(f"seats to act {np.flatnonzero(acting).tolist()}")
        menus = sum(len(game.legal_actions(state, seat)) for seat in game.acting_players(state))
        if legal[list(game.acting_players(state))].sum() != menus:
            problems.append("legal actions differ")
        wanted = np.array([game.observation_tensor(state, seat) for seat in range(game.num_players)], np.float32)
        if not np.allclose(observed, wanted, rtol=1e-6, atol=0.0):
            problems.append("observations differ")
        return problems

    def finish(self, state: Any) -> list[str]:
        returns = np.asarray(self.engine.returns(self.current))
        return [] if np.allclose(returns, self.game.returns(state)) else [f"returns {returns.tolist()}"]


class DiceJaxReplay(EngineReplay):
    """A JAX dice game (Pig, Catch A Dragon): ``apply_action`` and ``apply_roll``; views, heuristic, returns."""

    atol = 0.0

    def __init__(self, game: AnyGame, engine: DiceGameJax, heuristic_games: int = 1) -> None:
        self.game = game
        self.engine = engine
        self.apply_roll = jax.jit(engine.apply_roll)
        self.apply_action = jax.jit(engine.apply_action)
        self.views_of = jax.jit(lambda r: (engine.to_act(r), engine.legal_mask(r), engine.observe(r)))
        self.heuristic = jax.jit(engine.heuristic_actions)
        self.heuristic_agent = make_agent("heuristic", game)
        # The heuristic draws nothing: one key serves every call (made once: a key costs a dispatch).
        self.key = jax.random.PRNGKey(0)
        self.heuristic_games = heuristic_games  # the heuristic is checked in every this-many-th game
        self.games = -1
        self.current = engine.start()

    def reset(self) -> None:
        self.games += 1
        self.current = self.engine.start()

    def decide(self, before: Any, moves: Mapping[int, Any], after: Any) -> None:
        self.current = self.apply_action(self.current, self.game.action_index(moves[before.seat]))

    def row(self) -> np.ndarray:
        return np.asarray(self.current)

    def views(self, state: Any) -> list[str]:
        game, problems = self.game, []
        acting, legal, observed = (np.asarray(a) for a in self.views_of(self.current))
        for seat in range(game.num_players):
            if acting[seat] != (seat in game.acting_players(state)):
                problems.append(f"seat {seat} to act: {acting[seat]}")
            allowed = [game.action_index(a) for a in game.legal_actions(state, seat)]
            if np.flatnonzero(legal[seat]).tolist() != allowed:
                problems.append(f"legal actions of seat {seat} differ")
        wanted = np.array([game.observation_tensor(state, seat) for seat in range(game.num_players)], np.float32)
        if not np.allclose(observed, wanted, rtol=1e-6, atol=self.atol):
            problems.append("observations differ")
        if game.node_kind(state) is NodeKind.DECISION and self.games % self.heuristic_games == 0:
            seat = state.seat
            wanted_action = self.heuristic_agent.act(SeatView(game, state, seat), derive_rng(0))
            if int(np.asarray(self.heuristic(self.current, self.key))[seat]) != game.action_index(wanted_action):
                problems.append(f"compiled heuristic differs from the agent's {wanted_action!r}")
        return problems

    def finish(self, state: Any) -> list[str]:
        returns = np.asarray(self.engine.returns(self.current))
        return [] if np.allclose(returns, self.game.returns(state)) else [f"returns {returns.tolist()}"]


class PigJaxReplay(DiceJaxReplay):
    """The JAX Pig engine (the heuristic checked in every other game, as it costs a dispatch a decision)."""

    field_names = fast_pig.FIELD_NAMES

    def __init__(self, game: AnyGame) -> None:
        self.pig = PigJax(game)
        super().__init__(game, self.pig, heuristic_games=2)

    def chance(self, before: Any, outcome: Any, after: Any) -> None:
        self.current = self.apply_roll(self.current, outcome)

    def expected(self, state: Any) -> list[int]:
        return fast_pig.board_row(state)

    def conservation(self) -> str | None:
        return pig_conservation(self.row().tolist(), self.pig.goal)

    def finish(self, state: Any) -> list[str]:
        problems = super().finish(state)
        got = int(self.pig.round_number(self.current))
        if got != self.game.round_number(state):
            problems.append(f"round {got}, rules {self.game.round_number(state)}")
        return problems


class DragonJaxReplay(DiceJaxReplay):
    """The JAX Catch A Dragon engine (the heuristic checked at every decision)."""

    atol = 1e-7

    def __init__(self, game: AnyGame) -> None:
        self.dragon = DragonJax(game)
        super().__init__(game, self.dragon)

    def chance(self, before: Any, outcome: Any, after: Any) -> None:
        self.current = self.apply_roll(self.current, np.array(dice_counts(outcome), np.int32))

    def expected(self, state: Any) -> list[int]:
        return fast_dragon.board_row(state)

    def conservation(self) -> str | None:
        return dragon_conservation(self.row().tolist(), self.dragon.dice, self.game.num_players)
