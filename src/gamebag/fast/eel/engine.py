"""The Eel Harvest and Wriggle Roulette fast engines (whole games and step batches)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from gamebag.core.engines import engine_refusal
from gamebag.core.protocol import Game
from gamebag.fast.base import (
    BatchResult,
    FastEngine,
    FinalRows,
    LearnerStep,
    LearnerView,
    PreparedCache,
    StepBatch,
    illegal_learner_action,
)
from gamebag.fast.eel import batch
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
    CONFIG_WIDTH,
    END_NORMAL,
    END_STEP_CAP,
    ENDED_BY_NAMES,
    EXIT_GRAB,
    FIELDS,
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
    POLICY_NAMES,
    RESERVES,
    ROUND,
    SCORES,
    SEAT_BLOCKS,
    START,
    WIDTH,
    WINNER,
)
from gamebag.fast.eel.policies import TYPICAL_OTHER_GRAB
from gamebag.fast.rng import game_key, run_key
from gamebag.games.eel_family import rules
from gamebag.games.eel_family.options import MAX_GRAB_LIMIT

# The compiled heuristic counts outbreak chances exactly in 64-bit integers, as the rules-side
# heuristic does with Python's integers; bags so big that a count could overflow play on the rules engine.
_EXACT_COUNT_LIMIT = 2**64


def kernel_config(game: Game[Any, Any, Any]) -> npt.NDArray[np.int64]:
    """The configuration row of ``game`` (an Eel family game), read from the rules engine's settings."""
    if not isinstance(game, rules.EelFamilyGame):
        raise TypeError(f"{game.game_id} is not an Eel family game")
    cfg = np.zeros(CONFIG_WIDTH, np.int64)
    cfg[C_PLAYERS] = game.num_players
    cfg[C_MAX_GRAB] = game.max_grab
    cfg[C_THRESHOLD] = game.threshold
    cfg[C_DICE] = int(game.dice)
    cfg[C_ROTATE_START] = int(game.rotate_start)
    cfg[C_LONE_LIMIT] = -1 if game.lone_limit is None else game.lone_limit
    cfg[C_OUTBREAK_SCORES_RESERVE] = int(game.scores_reserve_on_outbreak)
    cfg[C_WRIGGLE] = int(game.rule_set == "wriggle-roulette")
    cfg[C_EELS] = game.eels
    cfg[C_SNAKES] = game.snakes
    cfg[C_TARGET] = game.target
    cfg[C_GRAB_SCALE] = MAX_GRAB_LIMIT
    return cfg


def policy_codes(agents: Sequence[str]) -> npt.NDArray[np.int64]:
    """Each seat's compiled policy code (agents must be among ``POLICY_NAMES``)."""
    return np.array([POLICY_NAMES.index(agent.strip()) for agent in agents], np.int64)


def heuristic_count_bound(game: rules.EelFamilyGame) -> int:
    """The largest count of ways the heuristic's outbreak chances can need in ``game``."""
    n, grab = game.num_players, game.max_grab
    most_drawn = grab + TYPICAL_OTHER_GRAB * (n - 1)
    if game.rule_set == "eel-harvest" and game.scores_reserve_on_outbreak:
        most_drawn = max(most_drawn, grab * n)  # every other player grabbing alike
    if game.dice:
        return math.comb(most_drawn, most_drawn // 2)
    tokens = game.eels + game.snakes
    return math.comb(tokens, min(most_drawn, tokens // 2))


def row_from_state(game: rules.EelFamilyGame, state: rules.EelState) -> npt.NDArray[np.int32]:
    """The kernel row of a rules-engine position (a pending grab is not part of it)."""
    row = np.zeros(WIDTH, np.int32)
    n = game.num_players
    row[SCORES : SCORES + n] = state.scores
    row[RESERVES : RESERVES + n] = state.reserves
    row[IN_ROUND : IN_ROUND + n] = state.in_round
    row[EXIT_GRAB : EXIT_GRAB + n] = state.exit_grab
    for seat in state.winners:
        row[WINNER + seat] = 1
    last = state.last
    if last is not None:
        row[LAST_COUNT : LAST_COUNT + n] = last.counts
        row[LAST_EELS : LAST_EELS + n] = last.eels
        row[LAST_SNAKES : LAST_SNAKES + n] = last.snakes
        row[LAST_SCORED : LAST_SCORED + n] = last.scored
        for seat in last.exited:
            row[LAST_EXITED + seat] = 1
        for seat in last.losers:
            row[LAST_LOSER + seat] = 1
        row[HAS_LAST] = 1
        row[LAST_OUTBREAK] = int(last.outbreak)
        row[LAST_ROUND_OVER] = int(last.round_over)
    row[BAG_EELS] = state.bag_eels
    row[BAG_SNAKES] = state.bag_snakes
    row[CENTRE] = state.centre
    row[ROUND] = state.round_no
    row[START] = state.start
    row[GRAB] = state.grab_no
    row[LONE_LEFT] = -1 if state.lone_left is None else state.lone_left
    row[OVER] = int(state.over)
    return row


KEPT_CONFIGURATIONS = 8  # (game, agents) whose playout settings stay prepared


class EelFamilyEngine(FastEngine):
    """One compiled engine for both rule sets; the subclasses only name the game id."""

    def __init__(self) -> None:
        self._prepared: PreparedCache[Any] = PreparedCache(KEPT_CONFIGURATIONS)

    def policies(self, game: Game[Any, Any, Any]) -> tuple[str, ...]:
        return POLICY_NAMES

    def unsupported(self, game: Game[Any, Any, Any], agents: Sequence[str]) -> str | None:
        if not isinstance(game, rules.EelFamilyGame):
            return f"{game.game_id} is not an Eel family game"
        # The options played are the game's declaration for "numba" (games/eel_family/options.py).
        refused = engine_refusal(game, self.engine_kind)
        if refused is not None:
            return refused
        names = [agent.strip() for agent in agents]
        if "heuristic" in names and heuristic_count_bound(game) >= _EXACT_COUNT_LIMIT:
            return "the compiled heuristic cannot count outbreak chances exactly in 64 bits for this bag and grab limit"
        return super().unsupported(game, names)

    def play(
        self, game: Game[Any, Any, Any], agents: Sequence[str], seed: int | str, start: int, stop: int
    ) -> BatchResult:
        self.check_batch(game, agents, start, stop)
        count = stop - start
        n = game.num_players
        scores = np.zeros((count, n), np.int32)
        returns = np.zeros((count, n), np.float64)
        length = np.zeros(count, np.int32)
        ended_by = np.zeros(count, np.int8)
        batch.play_games(
            kernel_config(game), policy_codes(agents), run_key(seed), start, scores, returns, length, ended_by
        )
        if np.any(ended_by == END_STEP_CAP):
            raise RuntimeError(f"{game.game_id} did not end within {MAX_GRABS_PER_GAME} grabs")
        return BatchResult(
            start=start,
            scores=scores,
            returns=returns,
            length=length,
            ended_by=ended_by,
            first_player=np.zeros(count, np.int8),  # seat 0 starts round 1 in both rule sets
            ended_by_names=ENDED_BY_NAMES,
        )

    def step_batch(self, game: Game[Any, Any, Any], num_envs: int) -> EelStepBatch:
        return EelStepBatch(game, num_envs)

    def playout(
        self, game: Game[Any, Any, Any], state: Any, agents: Sequence[str], seed: int
    ) -> tuple[float, ...] | None:
        if not isinstance(game, rules.EelFamilyGame) or not isinstance(state, rules.EelState):
            return None
        # Searches and analyses play out thousands of times per decision: the configuration row and
        # the policy codes are built once per (game, agents).
        prepared = self._prepared.get(
            game,
            agents,
            lambda: (
                None
                if self.unsupported(game, agents) is not None or len(agents) != game.num_players
                else (kernel_config(game), policy_codes(agents))
            ),
        )
        if prepared is None:
            return None
        config, codes = prepared
        row = row_from_state(game, state)
        pending = np.full(MAX_SEATS, -1, np.int64)
        if state.pending is not None:
            pending[: game.num_players] = state.pending
        key = np.uint64(game_key(np.uint64(seed & 0xFFFFFFFFFFFFFFFF), np.int64(0)))
        ended = batch.play_out(row, config, codes, pending, state.pending is not None, key)
        if not ended:
            raise RuntimeError(f"{game.game_id} did not end within {MAX_GRABS_PER_GAME} grabs")
        winners = row[WINNER : WINNER + game.num_players].astype(np.float64)
        return tuple(float(x) for x in winners / winners.sum())


class EelHarvestEngine(EelFamilyEngine):
    game_id: ClassVar[str] = "eel-harvest"


class WriggleRouletteEngine(EelFamilyEngine):
    game_id: ClassVar[str] = "wriggle-roulette"


# A bound on step batches: 2**20 games hold about 400 MiB of state.
MAX_ENVS = 1 << 20


class EelStepBatch(StepBatch):
    """``num_envs`` Eel family games as one ``[num_envs, WIDTH]`` integer array; a step is one grab."""

    def __init__(self, game: Game[Any, Any, Any], num_envs: int) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be an integer from 1 to {MAX_ENVS}, not {num_envs!r}")
        self.game = game
        self.cfg = kernel_config(game)
        self.num_envs = num_envs
        self.num_players = game.num_players
        self.num_actions = int(self.cfg[C_MAX_GRAB]) + 1
        self.observation_size = batch.OBSERVATION_SIZE
        self._states = np.zeros((num_envs, WIDTH), np.int32)
        self._keys = np.zeros(num_envs, np.uint64)
        self._counters = np.zeros(num_envs, np.uint64)
        self._index = np.zeros(num_envs, np.int64)
        self._rewards = np.zeros((num_envs, self.num_players), np.float64)
        # Scratch the kernels write into, allocated once (a step allocates nothing in the kernels).
        self._scratch = np.zeros(3 * MAX_SEATS, np.int64)
        self._table = np.zeros((2, self.num_actions), np.float64)
        self._codes: dict[tuple[str, ...], npt.NDArray[np.int64]] = {}
        self._run = np.uint64(0)
        self._next_index = 0
        self._started = False

    # ---- lifecycle -----------------------------------------------------------------------
    def reset(self, seed: int | str, first_index: int = 0) -> None:
        if first_index < 0:
            raise ValueError(f"first_index must be 0 or more, not {first_index}")
        self._run = run_key(seed)
        self._index = np.arange(first_index, first_index + self.num_envs, dtype=np.int64)
        self._next_index = first_index + self.num_envs
        every = np.ones(self.num_envs, np.bool_)
        batch.reset_games(self._states, self.cfg, self._run, every, self._index, self._keys, self._counters)
        self._rewards[:] = 0.0
        self._started = True

    def reset_done(self) -> npt.NDArray[np.bool_]:
        self._require_started()
        finished = self.done()
        count = int(finished.sum())
        if count:
            self._index[finished] = np.arange(self._next_index, self._next_index + count, dtype=np.int64)
            self._next_index += count
            batch.reset_games(self._states, self.cfg, self._run, finished, self._index, self._keys, self._counters)
            self._rewards[finished] = 0.0
        return finished

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        self._require_started()
        moves = np.asarray(actions)
        if moves.shape != (self.num_envs, self.num_players) or not np.issubdtype(moves.dtype, np.integer):
            raise ValueError(
                f"actions must be an integer array of shape ({self.num_envs}, {self.num_players}), "
                f"not {moves.dtype} {moves.shape}"
            )
        if moves.dtype != np.int64:
            moves = moves.astype(np.int64)
        bad = batch.step_games(
            self._states,
            self.cfg,
            np.ascontiguousarray(moves),
            self._keys,
            self._counters,
            self._rewards,
            self._scratch,
        )
        if bad >= 0:
            env, seat = divmod(bad, MAX_SEATS)
            raise ValueError(
                f"env {env}, seat {seat}: a grab is 0 to {self.num_actions - 1} tokens, not {int(moves[env, seat])}; "
                "nothing was applied"
            )

    def policy_actions(self, agents: Sequence[str]) -> npt.NDArray[np.int64]:
        self._require_started()
        codes = self._policy_codes(agents)
        out = np.empty((self.num_envs, self.num_players), np.int64)
        batch.policy_actions(self._states, self.cfg, codes, self._keys, self._counters, out, self._table)
        return out

    def learner_step(self, seat: int, policy: str, chosen: npt.NDArray[np.int64], before: LearnerView) -> LearnerStep:
        """The default's step in one compiled call (the same games, draws and views)."""
        self._require_started()
        codes = self._policy_codes([policy] * self.num_players)
        n = self.num_envs
        joint = np.empty((n, self.num_players), np.int64)
        observations = np.empty((n, 1, self.observation_size), np.float32)
        masks = np.empty((n, self.num_actions), np.bool_)
        acting = np.empty(n, np.bool_)
        rewards = np.empty(n, np.float64)
        done = np.empty(n, np.bool_)
        moves = np.ascontiguousarray(chosen, dtype=np.int64)
        bad, self._next_index = batch.learner_step(
            self._states, self.cfg, seat, codes, moves, before.acting, before.masks, self._keys, self._counters,
            self._rewards, self._scratch, self._table, joint, self._run, self._index, self._next_index,
            observations, masks, acting, rewards, done,
        )  # fmt: skip
        if 0 <= bad < n:
            raise illegal_learner_action(bad, moves, before.masks)
        if bad >= n:
            env, where = divmod(bad - n, MAX_SEATS)
            raise RuntimeError(f"env {env}, seat {where}: the step kernel refused action {int(joint[env, where])}")
        return LearnerStep(LearnerView(observations[:, 0], masks, acting), rewards, done)

    # ---- views ---------------------------------------------------------------------------
    def to_act(self) -> npt.NDArray[np.bool_]:
        acting = np.empty((self.num_envs, self.num_players), np.bool_)
        batch.acting_seats(self._states, self.cfg, acting)
        return acting

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        acting = self.to_act()
        return np.repeat(acting[:, :, None], self.num_actions, axis=2)

    def observations(self) -> npt.NDArray[np.float32]:
        out = np.empty((self.num_envs, self.num_players, self.observation_size), np.float32)
        batch.observe(self._states, self.cfg, out)
        return out

    def seat_observations(self, seat: int) -> npt.NDArray[np.float32]:
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0 to {self.num_players - 1}, not {seat}")
        out = np.empty((self.num_envs, 1, self.observation_size), np.float32)
        batch.observe_seats(self._states, self.cfg, seat, seat + 1, out)
        return out[:, 0]

    def rewards(self) -> npt.NDArray[np.float64]:
        return self._rewards.copy()

    def done(self) -> npt.NDArray[np.bool_]:
        over: npt.NDArray[np.bool_] = self._states[:, OVER] != 0
        return over

    def final_rows(self) -> FinalRows:
        """Scores and round as ``play`` writes them; a step batch has no grab cap, so every ending is ``goal``."""
        n = self.num_players
        return FinalRows(
            scores=self._states[:, SCORES : SCORES + n].copy(),
            length=self._states[:, ROUND].copy(),
            ended_by=np.full(self.num_envs, END_NORMAL, np.int8),
            ended_by_names=ENDED_BY_NAMES,
        )

    def game_indices(self) -> npt.NDArray[np.int64]:
        """Which game of the seeded run each env is playing."""
        return self._index.copy()

    def state_arrays(self) -> dict[str, npt.NDArray[Any]]:
        n = self.num_players
        arrays: dict[str, npt.NDArray[Any]] = {
            name: self._states[:, offset : offset + n].copy() for name, offset in SEAT_BLOCKS.items()
        }
        arrays.update({name: self._states[:, offset].copy() for name, offset in FIELDS.items()})
        arrays["game_index"] = self._index.copy()
        return arrays

    def _win_shares(self) -> npt.NDArray[np.float64]:
        n = self.num_players
        winners = self._states[:, WINNER : WINNER + n].astype(np.float64)
        total = winners.sum(axis=1, keepdims=True)
        shares: npt.NDArray[np.float64] = np.divide(winners, total, out=np.zeros_like(winners), where=total > 0)
        return shares

    def _policy_codes(self, agents: Sequence[str]) -> npt.NDArray[np.int64]:
        """Each seat's policy code, checked once per list of agents."""
        codes = self._codes.get(tuple(agents))
        if codes is None:
            if len(agents) != self.num_players:
                raise ValueError(f"name one policy per seat ({self.num_players}), not {len(agents)}")
            unknown = [p for p in agents if p.strip() not in POLICY_NAMES]
            if unknown:
                raise ValueError(f"no compiled policy {unknown[0]!r}; compiled: {', '.join(POLICY_NAMES)}")
            codes = self._codes[tuple(agents)] = policy_codes(agents)
        return codes

    def _require_started(self) -> None:
        if not self._started:
            raise RuntimeError("call reset(seed) before stepping a step batch")
