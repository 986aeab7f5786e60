"""``evaluate``: a fixed policy against named opponents, every seat in turn, on either engine.

The policy is a Stable-Baselines3 model (anything with ``predict``; a MaskablePPO model
gets the legal-action masks through ``action_masks=``), a ``NumpyPolicy`` of
``gamebag.agents.learned``, or any callable ``policy(observation, mask) -> action``
(one observation and its mask, 1-D arrays; ``batched=True`` hands it
``[n, size]`` and ``[n, actions]`` arrays instead). Actions are positions in
``all_actions()``, observations the games' ``observation_tensor``, as in every adapter.

Exactly the first games of every environment count. Stopping a batch at the first
``K`` finished games would favour short games: the games still running when the count
is reached are the long ones, and they would be left out. Here env ``k`` of a seat's
batch is given its quota of games in advance (the seat's games shared out as evenly as
they go) and every one of those games counts, however long it runs; further games it
plays are never counted. So the figure does not depend on how long games last or on
the batch size, and both engines are measured alike:

* ``engine="compiled"``: the compiled step batch (``gamebag.fast``), compiled opponents;
* ``engine="rules"``: ``gamebag.interop.rules_batch.RulesBatch``, the rules engine
  itself with the rules-engine agents ``heuristic`` and ``random``;
* ``engine="auto"`` (the default): compiled where the configuration has an engine.

Seat ``p``'s games are those of the seed ``derive_seed(seed, "evaluate", p)`` (env
``k`` starting with game ``k``); the two engines draw chance from different generators,
so they play different games of the same distribution.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gamebag.agents.learned import NumpyPolicy
from gamebag.agents.registry import default_agent
from gamebag.core.rng import derive_seed
from gamebag.fast.base import StepBatch
from gamebag.fast.registry import engine_for, unavailable_reason
from gamebag.interop.common import configured_game
from gamebag.interop.rules_batch import MAX_RULES_ENVS, OPPONENTS, RulesBatch
from gamebag.sim.stats import wilson_interval

ENGINES = ("auto", "compiled", "rules")
# Bounds on what a user controls: games in all, and games stepped together per seat.
MAX_GAMES = 10_000_000
MAX_EVAL_ENVS = 65_536
# Steps of one seat's batch after which an evaluation is taken to be stuck.
MAX_BATCH_STEPS = 10_000_000

Actions = NDArray[np.int64]
BatchedPolicy = Callable[[NDArray[np.float32], NDArray[np.bool_]], Actions]


@dataclass(frozen=True)
class PolicyEvaluation:
    """How a policy fared: its win share over ``games`` games, each seat taken in turn.

    ``outcomes[i]`` is the policy's share of game ``i``'s win (1 alone, 1/k tied with
    k winners, else 0), seat 0's games first; ``seats[i]`` its seat there, ``lengths[i]``
    the game's steps (decisions of the batch: a simultaneous step counts once).
    ``low``/``high`` are the 95% Wilson interval of ``win_share``; ``fair_share`` is
    what an equal player gets (1/players).
    """

    game_id: str
    players: int
    opponents: tuple[str, ...]
    engine: str
    seed: int
    games: int
    win_share: float
    low: float
    high: float
    fair_share: float
    wins: int
    ties: int
    losses: int
    mean_length: float
    seat_shares: tuple[float, ...]
    outcomes: NDArray[np.float64]
    seats: NDArray[np.int64]
    lengths: NDArray[np.int64]

    def summary(self) -> str:
        """One line: the win share with its interval, the games and the engine."""
        return (
            f"{self.game_id} ({self.players} players) against {', '.join(self.opponents)} on the {self.engine} "
            f"engine: win share {self.win_share:.4f} ({self.low:.4f}-{self.high:.4f}) over {self.games:,} games "
            f"(wins {self.wins:,}, ties {self.ties:,}, losses {self.losses:,}; fair share {self.fair_share:.3f})"
        )


def evaluate(
    policy: Any,
    game: str,
    players: int | None = None,
    opponents: str | Sequence[str] | None = None,
    games: int = 1000,
    seed: int = 0,
    *,
    options: Mapping[str, Any] | None = None,
    engine: str = "auto",
    envs: int = 256,
    batched: bool = False,
    deterministic: bool = True,
) -> PolicyEvaluation:
    """Play ``policy`` in every seat in turn against ``opponents`` for ``games`` games in all.

    ``opponents`` is one agent name for every other seat or a list, one per other seat
    in seat order (``None``: the game's heuristic, or ``random`` for a game without one);
    ``games`` are shared among the seats (seat ``p`` gets one more while
    ``p < games % players``), and within a seat among its ``envs`` environments, each
    counting exactly its first games. ``deterministic`` is passed to an SB3 model's
    ``predict``. Everything is checked before any game is played; a policy's illegal
    action raises ``ValueError`` naming the seat, the action and the legal ones.
    """
    table = configured_game(game, players, options)
    count = table.num_players
    for name, value, top in (("games", games, MAX_GAMES), ("envs", envs, MAX_EVAL_ENVS)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
            raise ValueError(f"{name} must be an integer from 1 to {top:,}, not {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    if opponents is None:
        opponents = default_agent(table, ("heuristic",)).spec
    lineup = _opponents(opponents, count)
    if isinstance(policy, NumpyPolicy):
        _check_shape(policy, table)
    kind, make_batch = _engine(table, engine, lineup)
    act = policy_function(policy, batched=batched, deterministic=deterministic)
    outcomes: list[NDArray[np.float64]] = []
    lengths: list[NDArray[np.int64]] = []
    seats: list[NDArray[np.int64]] = []
    with _one_blas_thread():
        for seat in range(count):
            quota = games // count + (1 if seat < games % count else 0)
            if quota == 0:
                continue
            width = min(envs, quota, MAX_RULES_ENVS if kind == "rules" else MAX_EVAL_ENVS)
            agents = [*lineup[:seat], "", *lineup[seat:]]
            seat_seed = derive_seed(seed, "evaluate", seat)
            shares, steps = play_first_games(make_batch(width), seat, agents, act, quota, seat_seed)
            outcomes.append(shares)
            lengths.append(steps)
            seats.append(np.full(len(shares), seat, dtype=np.int64))
    return _summarise(table.game_id, count, tuple(lineup), kind, seed, outcomes, seats, lengths)


def _check_shape(policy: NumpyPolicy, table: Any) -> None:
    """Refuse a policy made for another game's observations or actions, naming both sizes."""
    inputs, outputs = policy.layers[0][0].shape[0], policy.layers[-1][0].shape[1]
    size = len(table.observation_tensor(table.initial_state(), 0))
    actions = len(table.all_actions())
    if (inputs, outputs) != (size, actions):
        raise ValueError(
            f"the policy takes {inputs} observation numbers and chooses among {outputs} actions; "
            f"{table.game_id} with {table.num_players} players gives {size} and has {actions}"
        )


def policy_function(policy: Any, *, batched: bool = False, deterministic: bool = True) -> BatchedPolicy:
    """``policy`` as a function of ``[n, size]`` observations and ``[n, actions]`` masks to ``n`` actions."""
    if isinstance(policy, NumpyPolicy):
        return policy.act
    predict = getattr(policy, "predict", None)
    if callable(predict):
        try:
            masked = "action_masks" in inspect.signature(predict).parameters
        except (TypeError, ValueError):  # a builtin without a signature: call it plainly
            masked = False

        def sb3(observations: NDArray[np.float32], masks: NDArray[np.bool_]) -> Actions:
            if masked:
                chosen, _ = predict(observations, action_masks=masks, deterministic=deterministic)
            else:
                chosen, _ = predict(observations, deterministic=deterministic)
            return np.asarray(chosen, dtype=np.int64).reshape(len(observations))

        return sb3
    if not callable(policy):
        raise ValueError(
            "policy must be a Stable-Baselines3 model (with predict), a NumpyPolicy or a function "
            f"policy(observation, mask) -> action, not {type(policy).__name__}"
        )
    if batched:

        def whole(observations: NDArray[np.float32], masks: NDArray[np.bool_]) -> Actions:
            return np.asarray(policy(observations, masks), dtype=np.int64).reshape(len(observations))

        return whole

    def one_by_one(observations: NDArray[np.float32], masks: NDArray[np.bool_]) -> Actions:
        return np.asarray(
            [_as_index(policy(observation, mask)) for observation, mask in zip(observations, masks, strict=True)],
            dtype=np.int64,
        )

    return one_by_one


def _one_blas_thread() -> AbstractContextManager[Any]:
    """Small matrix products on one BLAS thread: competing BLAS threads made a policy's
    products some ten times slower in wall clock on a busy machine. A no-op without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # the extra that brings it is not installed
        return nullcontext()
    limits: AbstractContextManager[Any] = threadpool_limits(limits=1, user_api="blas")
    return limits


def _as_index(action: Any) -> int:
    value = np.asarray(action)
    if value.size != 1 or not np.issubdtype(value.dtype, np.integer):
        raise ValueError(f"the policy must return one integer action index, not {action!r}")
    return int(value.reshape(()))


def _opponents(opponents: str | Sequence[str], players: int) -> list[str]:
    if isinstance(opponents, str):
        return [opponents] * (players - 1)
    lineup = list(opponents)
    if len(lineup) != players - 1 or not all(isinstance(name, str) for name in lineup):
        raise ValueError(
            f"opponents: one agent name, or a list of {players - 1} (one per other seat), not {opponents!r}"
        )
    return lineup


def _engine(game: Any, engine: str, lineup: Sequence[str]) -> tuple[str, Callable[[int], StepBatch]]:
    """Which engine plays (``compiled`` or ``rules``) and how to build a batch of it; checks the opponents."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    compiled = engine_for(game, list(lineup))
    if engine == "compiled" and compiled is None:
        raise ValueError(
            f"{game.game_id}: no compiled engine plays this evaluation: {unavailable_reason(game, list(lineup))}"
        )
    if compiled is not None and engine in ("compiled", "auto"):
        return "compiled", lambda width: compiled.step_batch(game, width)
    unknown = [name for name in lineup if name not in OPPONENTS]
    if unknown:
        raise ValueError(
            f"{game.game_id}: the rules engine's evaluation plays the opponents {', '.join(OPPONENTS)}, "
            f"not {unknown[0]!r}"
        )
    return "rules", lambda width: RulesBatch(game, width)


def play_first_games(
    batch: StepBatch, seat: int, agents: list[str], act: BatchedPolicy, quota: int, seed: int
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The policy in ``seat`` of every env until each env has finished its share of ``quota`` games.

    Returns each counted game's win share for the policy and its steps, env by env, in
    the order each env played them.
    """
    width = batch.num_envs
    wanted = np.full(width, quota // width, dtype=np.int64)
    wanted[: quota % width] += 1
    played = np.zeros(width, dtype=np.int64)
    shares = np.zeros((width, int(wanted.max())), dtype=np.float64)
    steps = np.zeros((width, int(wanted.max())), dtype=np.int64)
    running = np.zeros(width, dtype=np.int64)
    others = np.ones(batch.num_players, dtype=np.bool_)
    others[seat] = False
    filler = agents[(seat + 1) % batch.num_players]
    opponents = [filler if name == "" else name for name in agents]
    batch.reset(seed, 0)
    for _ in range(MAX_BATCH_STEPS):
        counting = played < wanted
        if not counting.any():
            return shares[np.arange(wanted.max()) < wanted[:, None]], steps[np.arange(wanted.max()) < wanted[:, None]]
        to_act = batch.to_act()
        mine = to_act[:, seat] & counting
        # Only the opponents' seats are asked (a rules-engine agent costs); the compiled
        # batches answer every seat and keep each game's random stream as their kernels do.
        joint = batch.policy_actions_at(opponents, to_act & others[None, :])
        rows = np.flatnonzero(mine)
        if len(rows):
            observations = batch.seat_observations(seat)[rows]
            masks = batch.legal_mask()[rows, seat]
            chosen = np.asarray(act(observations, masks), dtype=np.int64).reshape(-1)
            if chosen.shape != (len(rows),):
                raise ValueError(f"the policy returned {chosen.shape} actions for {len(rows)} observations")
            legal = (chosen >= 0) & (chosen < batch.num_actions)
            legal[legal] = masks[np.flatnonzero(legal), chosen[legal]]
            if not legal.all():
                bad = int(np.flatnonzero(~legal)[0])
                raise ValueError(
                    f"seat {seat}: the policy chose action {int(chosen[bad])}, which is not legal; "
                    f"legal actions: {np.flatnonzero(masks[bad]).tolist()}"
                )
            joint[rows, seat] = chosen
        # An env past its quota plays on with the first opponent's choice in the policy's seat
        # (the compiled batches answer every seat); its games are never counted.
        joint[~to_act] = 0
        batch.step(joint)
        running += counting
        done = batch.done()
        finished = np.flatnonzero(done & counting)
        rewards = batch.rewards()
        shares[finished, played[finished]] = rewards[finished, seat]
        steps[finished, played[finished]] = running[finished]
        played[finished] += 1
        running[finished] = 0
        if done.any():
            if isinstance(batch, RulesBatch):
                # Games past their env's quota stay finished: the rules engine then skips them.
                batch.reset_done(only=played < wanted)
            else:
                batch.reset_done()
    raise RuntimeError(f"seat {seat}: the evaluation did not finish in {MAX_BATCH_STEPS:,} steps")


def _summarise(
    game_id: str,
    players: int,
    opponents: tuple[str, ...],
    engine: str,
    seed: int,
    outcomes: list[NDArray[np.float64]],
    seats: list[NDArray[np.int64]],
    lengths: list[NDArray[np.int64]],
) -> PolicyEvaluation:
    shares = np.concatenate(outcomes)
    steps = np.concatenate(lengths)
    seat_of = np.concatenate(seats)
    total = float(shares.sum())
    low, high = wilson_interval(total, len(shares))
    per_seat = tuple(
        float(shares[seat_of == p].mean()) if (seat_of == p).any() else float("nan") for p in range(players)
    )
    return PolicyEvaluation(
        game_id=game_id,
        players=players,
        opponents=opponents,
        engine=engine,
        seed=seed,
        games=len(shares),
        win_share=total / len(shares),
        low=low,
        high=high,
        fair_share=1.0 / players,
        wins=int((shares == 1.0).sum()),
        ties=int(((shares > 0.0) & (shares < 1.0)).sum()),
        losses=int((shares == 0.0).sum()),
        mean_length=float(steps.mean()),
        seat_shares=per_seat,
        outcomes=shares,
        seats=seat_of,
        lengths=steps,
    )
