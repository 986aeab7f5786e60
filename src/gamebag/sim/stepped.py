"""Playing games with ``learned`` seats on a compiled step batch, the network's moves in NumPy.

The whole-game kernels play compiled policies only. Games whose agents are compiled
policies and the shipped ``learned`` policy are played on the game's step batch instead
(by the lab's cells, ``simulate`` and ``tournament``):
game ``i`` is env ``i - start`` of a batch reset at ``(seed, start)``, so it draws its
chance from the same counter-based stream as game ``i`` of the whole-game kernel; the
compiled seats play the kernel's policies, and each ``learned`` seat the policy's best
legal action on that seat's own observation (the tensor it was trained on). With compiled
agents only, the games are exactly the whole-game kernel's (``tests/lab``); with a
network in a seat they are what the rules engine's ``learned`` agent plays, its
observations and moves proven equal there (``tests/interop/test_learned_observations.py``,
``tests/interop/test_evaluation_engines.py``; ``tests/fast/test_learned_engine_choice.py``
compares ``simulate`` and ``tournament`` figures on both engines).

Each game may have its own lineup (a lab population cell draws each game's seats);
consecutive games with one lineup share a batch. Every env draws from its own game's
stream and the network's move depends on its seat's observation only, so game ``i``'s
numbers depend on ``(seed, i)`` alone, whatever the blocks, as on the other engines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.agents.learned import NumpyPolicy, one_blas_thread, shipped_policy
from gamebag.core.errors import UnknownAgentError
from gamebag.core.protocol import Game
from gamebag.fast.base import StepBatch
from gamebag.sim.translation import N_, say

LEARNED = "learned"
# How the compiled engines play a lineup (``compiled_route``): the whole-game kernels, or the
# step batch with the network's moves in NumPy.
KERNEL = "kernel"
STEPPED = "stepped"
# ``simulate`` and ``tournament`` play every game to its end, as the rules engine does; a game
# still going after this many rounds is taken for a runaway (no game of these rules comes near
# it), and the run is handed to the rules engine.
WHOLE_GAME_ROUNDS = 1_000
# What a learned seat is told to play in the compiled policies' call (its answer is replaced);
# every compiled engine plays ``random``.
STAND_IN = "random"
# A batch that has not finished after this many steps per allowed round is stuck (a bound on the loop).
STEPS_PER_ROUND = 1_000


def stepped_reason(game: Game[Any, Any, Any], agents: Sequence[str]) -> str | None:
    """Why the cell's ``agents`` cannot play ``game`` on its step batch, or ``None`` when they can.

    Needs a ``learned`` seat (else the whole-game kernel plays it), the shipped policy
    for this configuration, compiled policies for every other agent and a step batch
    that reports the finished games' rows.
    """
    from gamebag.fast import unavailable_reason
    from gamebag.fast.registry import engine_for

    names = [agent.strip() for agent in agents]
    if LEARNED not in names:
        return say(N_("no learned seat"))
    try:
        shipped_policy(game)
    except UnknownAgentError as error:
        return str(error)
    compiled = [STAND_IN if name == LEARNED else name for name in names]
    reason = unavailable_reason(game, compiled)
    if reason is not None:
        return reason
    engine = engine_for(game, compiled)
    if engine is None or engine.step_batch(game, 1).final_rows() is None:
        return say(N_("{game}'s step batch does not report finished games"), game=game.game_id)
    return None


def compiled_route(game: Game[Any, Any, Any], agents: Sequence[str]) -> tuple[str | None, str | None]:
    """``(KERNEL, None)`` where the whole-game kernels play ``agents``, ``(STEPPED, None)`` where the
    step batch does (a ``learned`` seat, every other agent compiled), else ``(None, why)``."""
    from gamebag.fast import unavailable_reason

    reason = unavailable_reason(game, agents)
    if reason is None:
        return KERNEL, None
    if LEARNED not in [agent.strip() for agent in agents]:
        return None, reason
    stepped = stepped_reason(game, agents)
    return (STEPPED, None) if stepped is None else (None, stepped)


class SteppedGames:
    """Finished rows of games ``start .. stop - 1`` played by one lineup per game."""

    def __init__(self, game: Game[Any, Any, Any], count: int) -> None:
        n = game.num_players
        self.scores = np.zeros((count, n), np.float64)
        self.returns = np.zeros((count, n), np.float64)
        self.length = np.zeros(count, np.int64)
        self.ended_by: list[str] = [""] * count


def play_stepped(
    game: Game[Any, Any, Any],
    lineups: Sequence[tuple[str, ...]],
    seed: int,
    start: int,
    max_rounds: int,
    tick: Callable[[int], None] | None = None,
) -> SteppedGames:
    """Play games ``start .. start + len(lineups) - 1`` of ``seed``, game ``i`` by ``lineups[i - start]``.

    Consecutive games with one lineup (a whole block of a fixed-seat cell) share a batch.
    A game still running past ``max_rounds`` rounds is left there (its round count says
    so; the caller counts it as capped).
    """
    from gamebag.fast.registry import engine_for

    policy = shipped_policy(game) if any(LEARNED in lineup for lineup in lineups) else None
    out = SteppedGames(game, len(lineups))
    first = 0
    while first < len(lineups):
        last = first + 1
        while last < len(lineups) and lineups[last] == lineups[first]:
            last += 1
        lineup = lineups[first]
        compiled = [STAND_IN if name == LEARNED else name for name in lineup]
        engine = engine_for(game, compiled)
        if engine is None:
            raise RuntimeError(f"{game.game_id}: no compiled step batch plays {', '.join(compiled)} here")
        envs = engine.step_batch(game, last - first)
        learned = [seat for seat, name in enumerate(lineup) if name == LEARNED]
        with one_blas_thread():
            returns = _play_batch(envs, compiled, learned, policy, seed, start + first, max_rounds)
        rows = envs.final_rows()
        if rows is None:
            raise RuntimeError(f"{game.game_id}'s step batch does not report finished games")
        out.scores[first:last] = rows.scores
        out.returns[first:last] = returns
        out.length[first:last] = rows.length
        out.ended_by[first:last] = [rows.ended_by_names[int(code)] for code in rows.ended_by]
        if tick is not None:
            tick(last - first)
        first = last
    return out


def play_whole_games(
    game: Game[Any, Any, Any], lineup: Sequence[str], seed: int, start: int, stop: int
) -> SteppedGames:
    """Games ``start .. stop - 1`` of ``seed``, every one by ``lineup``, each played to its end.

    ``RuntimeError`` where a game passes ``WHOLE_GAME_ROUNDS`` rounds (the caller falls back
    to the rules engine, which has no such bound).
    """
    played = play_stepped(game, [tuple(lineup)] * (stop - start), seed, start, WHOLE_GAME_ROUNDS)
    if np.any(played.length > WHOLE_GAME_ROUNDS):
        raise RuntimeError(f"a game passed {WHOLE_GAME_ROUNDS:,} rounds on the step batch")
    return played


def _play_batch(
    envs: StepBatch,
    compiled: Sequence[str],
    learned: Sequence[int],
    policy: NumpyPolicy | None,
    seed: int,
    first_index: int,
    max_rounds: int,
) -> npt.NDArray[np.float64]:
    """Play each env's first game to its end (or past ``max_rounds``); the win shares it ended with."""
    count = envs.num_envs
    envs.reset(seed, first_index)
    over = np.zeros(count, np.bool_)
    returns = np.zeros((count, envs.num_players), np.float64)
    for _ in range(STEPS_PER_ROUND * (max_rounds + 1)):
        rows = envs.final_rows()
        if rows is not None:
            over |= rows.length > max_rounds  # past the cap: no winner, so no need to play on
        if over.all():
            return returns
        joint = envs.policy_actions(compiled)
        if policy is not None and learned:
            acting = envs.to_act()
            masks = envs.legal_mask()
            for seat in learned:
                chooses = np.flatnonzero(acting[:, seat])
                if chooses.size:
                    joint[chooses, seat] = policy.act(envs.seat_observations(seat)[chooses], masks[chooses, seat])
        envs.step(joint)
        finished = envs.done() & ~over
        returns[finished] = envs.rewards()[finished]
        over |= finished
    raise RuntimeError(f"games {first_index} .. {first_index + count - 1} did not end within the step bound")
