"""A learned policy's games against ``heuristic`` come out the same on the rules and the compiled engine.

Two checks, for the shipped two-player Eel Harvest and four-player Wriggle Roulette
policies (the configurations where an evaluation gap was reported; the first also for the
seven- and eight-player Wriggle Roulette policies):

* in lockstep: rules-engine games of the ``learned`` agent against the rules-engine
  ``heuristic`` are replayed through the compiled kernel with the same draws; at every
  grab each seat's compiled choice (the compiled heuristic on the kernel's row, the
  policy on the kernel's observation) must be the rules-engine agent's choice, and the
  full state after the grab, every seat's observation and the final win shares must be
  equal (the equality harness ``gamebag.equality.replay`` with the kernel's adapter). Since
  the kernel's draws are proven to follow the rules engine's chance
  (``tests/fast/test_eel_equality.py``), the outcome distributions are then equal;
* by distribution: ``gamebag.interop.evaluate`` on each engine (every seat in turn,
  every env's first games counted): the per-game win shares and game lengths of a few
  hundred rules-engine games against 20,000 compiled ones, a two-sample z-test and a
  Kolmogorov-Smirnov test, Holm-corrected at 0.001 over the four.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.heuristics.eel_family import EelHeuristic
from gamebag.agents.learned import POLICY_PACKAGE, LearnedAgent, NumpyPolicy, load_policy, policy_name
from gamebag.core.rng import Rng
from gamebag.equality import replay
from gamebag.fast.eel import batch
from gamebag.fast.eel.engine import kernel_config
from gamebag.fast.eel.policies import heuristic_choice
from gamebag.interop.evaluation import evaluate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fast"))
from eel_helpers import expected_row
from replays import EelKernelReplay

CONFIGURATIONS = [("eel-harvest", 2), ("wriggle-roulette", 4)]
# The lockstep check also for the largest tables (seven and eight seats' observations).
LOCKSTEP_CONFIGURATIONS = [*CONFIGURATIONS, ("wriggle-roulette", 7), ("wriggle-roulette", 8)]
LOCKSTEP_GAMES = 120
RULES_GAMES = 400
COMPILED_GAMES = 20_000
FAMILY_ALPHA = 0.001
TESTS = 2 * len(CONFIGURATIONS)  # win share and length per configuration


@cache
def shipped(game_id: str, players: int) -> NumpyPolicy:
    return load_policy(resources.files(POLICY_PACKAGE).joinpath(policy_name(game_id, players)))


@pytest.mark.parametrize(("game_id", "players"), LOCKSTEP_CONFIGURATIONS)
def test_learned_against_heuristic_in_lockstep(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    cfg = kernel_config(game)
    policy = shipped(game_id, players)
    learned = LearnedAgent(game, policy)
    heuristic = EelHeuristic(game.game_id)
    decisions: list[str] = []
    checked = 0
    observed = np.zeros((1, players, batch.OBSERVATION_SIZE), np.float32)
    everything = np.ones((1, game.max_grab + 1), np.bool_)

    def learner(state: Any, seat: int, legal: Sequence[Any], rng: Rng) -> int:
        """The learned agent's choice, checked against the policy on the kernel's observation."""
        nonlocal checked
        chosen = int(learned.act(SeatView(game, state, seat, legal), rng))
        batch.observe(expected_row(game, state)[None, :], cfg, observed)
        compiled = int(policy.act(observed[0, seat][None, :], everything)[0])
        checked += 1
        if compiled != chosen:
            decisions.append(f"seat {seat} (learned): rules {chosen}, compiled {compiled} in {state}")
        return chosen

    def opponent(state: Any, seat: int, legal: Sequence[Any], rng: Rng) -> int:
        """The rules-engine heuristic's choice, checked against the compiled heuristic's."""
        nonlocal checked
        chosen = int(heuristic.act(SeatView(game, state, seat, legal), rng))
        compiled = int(heuristic_choice(expected_row(game, state), cfg, seat))
        checked += 1
        if compiled != chosen:
            decisions.append(f"seat {seat} (heuristic): rules {chosen}, compiled {compiled} in {state}")
        return chosen

    # Game i seats the learner in seat i % players.
    seatings = [[learner if seat == first else opponent for seat in range(players)] for first in range(players)]
    log = replay(game, EelKernelReplay(game), seatings, LOCKSTEP_GAMES, f"evaluation-engines-{game_id}")
    assert not log.problems, log.problems[:3]
    assert not decisions, decisions[:3]
    assert log.games == LOCKSTEP_GAMES and checked > 20 * LOCKSTEP_GAMES
    # The learner's games were real contests: it won some and lost some.
    learner_shares = [log.returns[g][g % players] for g in range(LOCKSTEP_GAMES)]
    assert 0 < sum(learner_shares) < LOCKSTEP_GAMES


@cache
def evaluations(game_id: str, players: int) -> tuple[Any, Any]:
    policy = shipped(game_id, players)
    rules = evaluate(policy, game_id, players, "heuristic", RULES_GAMES, seed=5, engine="rules")
    compiled = evaluate(policy, game_id, players, "heuristic", COMPILED_GAMES, seed=5, engine="compiled")
    return rules, compiled


def p_values(game_id: str, players: int) -> list[float]:
    rules, compiled = evaluations(game_id, players)
    a, b = rules.outcomes, compiled.outcomes
    se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    z = (a.mean() - b.mean()) / se
    share = float(2 * stats.norm.sf(abs(z)))
    length = float(stats.ks_2samp(rules.lengths, compiled.lengths).pvalue)
    return [share, length]


def test_evaluations_agree_in_distribution_on_both_engines() -> None:
    names = []
    values: list[float] = []
    for game_id, players in CONFIGURATIONS:
        rules, compiled = evaluations(game_id, players)
        assert (rules.engine, compiled.engine) == ("rules", "compiled")
        assert (rules.games, compiled.games) == (RULES_GAMES, COMPILED_GAMES)
        assert rules.fair_share < compiled.win_share < 1.0  # the policy beats the heuristic
        names += [f"{game_id} win share", f"{game_id} length"]
        values += p_values(game_id, players)
    # Holm's procedure rejects some hypothesis exactly when the smallest p-value is at most alpha / tests.
    worst = int(np.argmin(values))
    assert values[worst] > FAMILY_ALPHA / TESTS, f"{names[worst]} differs between the engines: p = {values[worst]:.2g}"
