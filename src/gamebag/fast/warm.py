"""Compile every kernel ahead of its first use: ``python -m gamebag.fast.warm``.

numba compiles a kernel at its first call and keeps the machine code in its on-disk cache
(:mod:`gamebag.fast.cache`), so the first simulation after an install or a change waits for
the compiler. This runs every compiled engine once through each way the project calls it: a
tiny batch of whole games for every compiled policy, a step batch through every method, a
playout from a rules-engine state, and a learner seat's steps (the vector environment's path).
``make`` runs it once after installing the package.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

import gamebag.games  # noqa: F401  (importing the package registers every game)
from gamebag.core import registry
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng
from gamebag.fast.base import FastEngine
from gamebag.fast.registry import compiler_problem, engine_for

GAMES_PER_BATCH = 2


def _exercise(engine: FastEngine, game: Any) -> None:
    """Call every kernel entry point of ``engine`` on ``game`` once (results are discarded)."""
    policies = engine.policies(game)
    for policy in policies:
        agents = [policy] * game.num_players
        engine.play(game, agents, 0, 0, GAMES_PER_BATCH)
        engine.playout(game, game.initial_state(), agents, 0)
    state = game.initial_state()
    rng = make_rng(0)
    while not game.is_terminal(state) and game.node_kind(state) is NodeKind.CHANCE:
        _outcome, state = game.sample_and_apply_chance(state, rng)
    engine.playout(game, state, [policies[0]] * game.num_players, 1)
    batch = engine.step_batch(game, GAMES_PER_BATCH)
    batch.reset(0)
    for policy in policies:
        batch.policy_actions([policy] * game.num_players)
    for _ in range(3):
        batch.to_act()
        batch.legal_mask()
        batch.observations()
        batch.rewards()
        batch.done()
        batch.state_arrays()
        batch.step(batch.policy_actions([policies[0]] * game.num_players))
        batch.reset_done()
    # The learner's side, as the Gymnasium vector environment steps it (one seat learning).
    view = batch.learner_view(0)
    for _ in range(3):
        chosen = np.argmax(view.masks, axis=1).astype(np.int64)  # a legal action wherever seat 0 acts
        view = batch.learner_step(0, policies[0], chosen, view).view


def main() -> int:
    problem = compiler_problem()
    if problem is not None:
        print(f"gamebag.fast.warm: nothing compiled: {problem}")
        return 0
    for game_id in registry.game_ids():
        game = registry.entry(game_id).game_class(None)
        engine = engine_for(game, [])
        if engine is None:
            continue
        began = time.perf_counter()
        _exercise(engine, game)
        print(f"gamebag.fast.warm: {game_id} ready in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
