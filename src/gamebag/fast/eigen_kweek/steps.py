"""The Eigen Kweek step batch: ``num_envs`` games as one integer array, stepped together.

Actions are indices into the rules engine's ``all_actions()``; at a simultaneous step
every acting seat's entry is read, elsewhere the one choosing seat's. ``step`` applies
the joint action, then every chance event up to the next decision, drawing from each
game's own stream, so a batch driven by ``policy_actions`` plays the games
``play_games`` plays. Observations are the rules engine's ``observation_tensor``.

Every compiled agent can choose for a seat (``learned.pick``: ``random``, ``heuristic``,
and ``learned`` where a policy ships), and ``learner_step`` does a learner's whole step in
one compiled pass over the games (``learner_moves``): its check, the opponents' choices,
the transition and chance, restarts, and the learner's next view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from gamebag.core.protocol import Game
from gamebag.fast.base import LearnerStep, LearnerView, StepBatch, illegal_learner_action
from gamebag.fast.eigen_kweek.batch import hidden_width
from gamebag.fast.eigen_kweek.heuristic import choose
from gamebag.fast.eigen_kweek.kernel import acting, apply_moves, is_chance, play_chance
from gamebag.fast.eigen_kweek.layout import (
    A_COST,
    A_KIND,
    A_PACKED,
    BERNARD_TARGET,
    BOARDS,
    C_A_BID,
    C_NUM_ACTIONS,
    C_PLAYERS,
    EMPTY,
    FRANK,
    JOS,
    K_HARVEST,
    K_HARVEST_ALL,
    K_PASS,
    K_PLOUGH,
    K_SOW,
    MAX_SEATS,
    PAY_FIRST,
    PAY_STEP,
    REC_READY,
    RULES_WIDTH,
    SACK,
    SCRATCH,
    ST_BID,
    ST_CULTIVATE,
    ST_OVER,
    STEP,
    TOKENS,
    W_LEGAL,
    WIDTH,
    WINNERS,
)
from gamebag.fast.eigen_kweek.learned import LEARNED_CODE, Net, pick
from gamebag.fast.eigen_kweek.observe import OBSERVATION_SIZE, observe_row
from gamebag.fast.eigen_kweek.phases import new_game
from gamebag.fast.eigen_kweek.policies import coin_value, fits, menu, packed_coins, played_cards
from gamebag.fast.eigen_kweek.tables import kernel_tables
from gamebag.fast.learner import first_refused_choice
from gamebag.fast.memory import prefetch_row
from gamebag.fast.rng import game_key, helper, inlined_helper, run_key

Int32s = npt.NDArray[np.int32]
Int64s = npt.NDArray[np.int64]
UInt64s = npt.NDArray[np.uint64]
Floats = npt.NDArray[np.float64]
Floats32 = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]
# A bound on step batches: 2**18 games hold about 400 MiB with their observations.
MAX_ENVS = 1 << 18


@helper
def to_decision(s: Int32s, cfg: Int64s, key: np.uint64, ctr: UInt64s, w: Int64s) -> None:  # pragma: no cover
    """Resolve chance events until a decision (or the end): ``play_chance``'s draws and transitions,
    which are ``apply_chance(sample_chance(...))`` step by step; a finished round's record is dropped."""
    while True:
        play_chance(s, cfg, key, ctr, w)
        s[REC_READY] = 0
        if s[STEP] == ST_OVER or not is_chance(s):
            return


@helper
def cultivate_legal(s: Int32s, cfg: Int64s, acts: Int64s, pays: Int64s, seat: int, a: int) -> bool:  # pragma: no cover
    """Whether ``a`` is on ``seat``'s cultivate menu (``policies.menu``), read off the board and the
    payment table without listing the menu."""
    kind = acts[a, A_KIND]
    if kind == K_PASS:
        return True
    board = BOARDS + seat * 4
    if kind == K_HARVEST_ALL:
        loaded = False
        for c in range(4):
            if s[board + c] > 0:
                loaded = True
        return loaded and (played_cards(s, seat) >> JOS) & 1 == 1
    if kind not in (K_HARVEST, K_SOW, K_PLOUGH):
        return False
    c = acts[a, A_COST]
    slot = s[board + c]
    if kind == K_HARVEST:
        return bool(slot > 0)
    frank = (played_cards(s, seat) >> FRANK) & 1
    if kind == K_SOW:
        if slot != EMPTY:
            return False
        row = c * 2 + frank
    else:
        if slot in (EMPTY, SACK):
            return False
        row = 8 + c * 2 + frank
    if coin_value(s, seat) < pays[row, 1] or not fits(packed_coins(s, seat), acts[a, A_PACKED]):
        return False
    for i in range(pays[row, 0]):  # noqa: SIM110 - numba compiles loops, not generators
        if pays[row, PAY_FIRST + PAY_STEP * i] == a:
            return True
    return False


@helper
def is_legal(
    s: Int32s, cfg: Int64s, acts: Int64s, pays: Int64s, seat: int, a: int, w: Int64s
) -> bool:  # pragma: no cover
    """Whether the acting ``seat`` may play action ``a`` (bids and cultivation checked without listing them)."""
    step = s[STEP]
    if step == ST_BID:
        tokens = s[TOKENS + seat]
        low = cfg[C_A_BID] + (1 if tokens > 0 else 0)
        return bool(low <= a <= cfg[C_A_BID] + tokens)
    if step == ST_CULTIVATE:
        in_range = 0 <= a < cfg[C_NUM_ACTIONS]
        return in_range and seat != s[BERNARD_TARGET] and cultivate_legal(s, cfg, acts, pays, seat, a)
    count = menu(s, cfg, acts, pays, seat, w, W_LEGAL)
    for i in range(count):  # noqa: SIM110 - numba compiles loops, not generators
        if w[W_LEGAL + i] == a:
            return True
    return False


@numba.njit(cache=True)
def restart_finished(
    states: Int32s,
    cfg: Int64s,
    run: np.uint64,
    done: Bools,
    index: Int64s,
    next_index: int,
    keys: UInt64s,
    counters: UInt64s,
    rewards: Floats,
    finished: Bools,
) -> int:  # pragma: no cover - compiled
    """Each finished game (``done``, copied into ``finished``) starts the run's next game, numbered
    in env order from ``next_index``; returns the next number. ``reset`` is every game finished.

    ``StepBatch.reset_done`` in one call: a training loop calls it every step and a few games end
    in each, so one compiled pass costs less than NumPy operations around a kernel.
    """
    w = np.zeros(SCRATCH, np.int64)
    for e in range(states.shape[0]):
        finished[e] = done[e]
        if not done[e]:
            continue
        index[e] = next_index
        next_index += 1
        done[e] = False
        keys[e] = game_key(run, index[e])
        counters[e] = 0
        new_game(states[e], cfg)
        to_decision(states[e], cfg, keys[e], counters[e : e + 1], w)
        for p in range(rewards.shape[1]):
            rewards[e, p] = 0.0
    return next_index


# How many rows ahead of the one being worked on the passes over a batch prefetch.
AHEAD = 4
# ``known[env, seat]`` of a seat that does not act, where the policies chose for the position.
NOT_ACTING = -2


@inlined_helper
def known_move(a: int, k: int) -> bool:  # pragma: no cover - compiled
    """Whether action ``a`` needs no check: the compiled policies' own choice ``k``, or a seat that does not act."""
    return (k == NOT_ACTING) | ((a >= 0) & (a == k))


@inlined_helper
def all_known(moves: Int64s, known: Int64s, e: int, n: int) -> bool:  # pragma: no cover - compiled
    """Whether every seat's action in env ``e`` is what the compiled policies chose there (or the
    seat does not act): computed without a branch per seat, as which seats act varies from env
    to env and a branch on it would be mispredicted."""
    known_all = True
    for p in range(n):
        known_all &= known_move(moves[e, p], known[e, p])
    return known_all


@numba.njit(cache=True)
def step_games(
    states: Int32s,
    cfg: Int64s,
    acts: Int64s,
    pays: Int64s,
    moves: Int64s,
    known: Int64s,
    keys: UInt64s,
    counters: UInt64s,
    rewards: Floats,
    done: Bools,
) -> int:  # pragma: no cover - compiled
    """Check every acting seat's action, then apply them all; ``env * MAX_SEATS + seat`` of the first bad one.

    ``done[env]`` becomes True where that game ended (set while its row is at hand).

    ``known[env, seat]``: what the batch's own compiled policies chose for this very position
    (``policy_moves``): an action, legal by construction (the policies choose from the menus),
    so not checked again; ``NOT_ACTING``; or -1, nothing known (the seat's rules decide).
    """
    n = cfg[C_PLAYERS]
    w = np.zeros(SCRATCH, np.int64)
    for e in range(states.shape[0]):
        if all_known(moves, known, e, n):
            continue  # known without reading the position: a step of policy moves reads no row here
        for p in range(n):
            a = moves[e, p]
            if known_move(a, known[e, p]):
                continue
            s = states[e]
            if s[STEP] == ST_OVER:
                break
            if acting(s, cfg, p) and not is_legal(s, cfg, acts, pays, p, a, w):
                return e * MAX_SEATS + p
    joint = np.full(MAX_SEATS, -1, np.int64)
    ctr = np.zeros(1, np.uint64)
    for e in range(states.shape[0]):
        prefetch_row(states, e + AHEAD)
        s = states[e]
        for p in range(n):
            rewards[e, p] = 0.0
        if s[STEP] == ST_OVER:
            continue
        if all_known(moves, known, e, n):
            for p in range(n):
                joint[p] = max(known[e, p], -1)  # the policy's action, or -1 for NOT_ACTING
        else:
            for p in range(n):
                a = moves[e, p]
                k = known[e, p]
                if k == NOT_ACTING:
                    joint[p] = -1
                elif a >= 0 and a == k:
                    joint[p] = a
                else:
                    joint[p] = a if acting(s, cfg, p) else -1
        apply_moves(s, cfg, acts, joint, w)
        if s[REC_READY] != 0 or is_chance(s):  # most moves lead straight to the next decision: no call
            ctr[0] = counters[e]
            to_decision(s, cfg, keys[e], ctr, w)
            counters[e] = ctr[0]
        if s[STEP] == ST_OVER:
            done[e] = True
            winners = 0
            for p in range(n):
                winners += (s[WINNERS] >> p) & 1
            for p in range(n):
                rewards[e, p] = 1.0 / winners if (s[WINNERS] >> p) & 1 else 0.0
    return -1


@numba.njit(cache=True)
def legal_masks(states: Int32s, cfg: Int64s, acts: Int64s, pays: Int64s, out: Bools) -> None:  # pragma: no cover
    n = cfg[C_PLAYERS]
    w = np.zeros(SCRATCH, np.int64)
    out[:] = False
    for e in range(states.shape[0]):
        for p in range(n):
            count = menu(states[e], cfg, acts, pays, p, w, W_LEGAL)
            for i in range(count):
                out[e, p, w[W_LEGAL + i]] = True


@numba.njit(cache=True)
def observe(
    states: Int32s, cfg: Int64s, first: int, last: int, out: npt.NDArray[np.float32]
) -> None:  # pragma: no cover - compiled
    for e in range(states.shape[0]):
        for p in range(first, last):
            observe_row(states[e], cfg, p, out[e, p - first])


@helper
def choose_all(
    s: Int32s,
    cfg: Int64s,
    acts: Int64s,
    pays: Int64s,
    codes: Int64s,
    masks: Int64s,
    key: np.uint64,
    ctr: UInt64s,
    w: Int64s,
    values: Floats32,
    shape: Int64s,
    obs: Floats32,
    buffers: Floats,
    out: Int64s,
) -> None:  # pragma: no cover - compiled
    """Every seat's compiled choice in ``s`` into ``out[seat]`` (-1: not acting), in seat order."""
    for p in range(cfg[C_PLAYERS]):
        out[p] = -1
        if s[STEP] == ST_OVER or not acting(s, cfg, p):
            continue  # a seat that does not act draws nothing (as in the whole-game kernel)
        code = codes[p]
        if code == LEARNED_CODE:
            out[p] = pick(s, cfg, acts, pays, p, code, masks[p], key, ctr, w, values, shape, obs, buffers)
        else:  # random and heuristic: ``choose`` is inlined here, as in ``batch.run_game``
            out[p] = choose(s, cfg, acts, pays, p, code, masks[p], key, ctr, w)


@helper
def choose_compiled(
    s: Int32s,
    cfg: Int64s,
    acts: Int64s,
    pays: Int64s,
    codes: Int64s,
    masks: Int64s,
    key: np.uint64,
    ctr: UInt64s,
    w: Int64s,
    out: Int64s,
) -> None:  # pragma: no cover - compiled
    """``choose_all`` for lineups without a ``learned`` seat: the same choices, and a call that passes
    no network (a call per game per step, whose arguments cost more than most decisions)."""
    for p in range(cfg[C_PLAYERS]):
        out[p] = -1
        if s[STEP] == ST_OVER or not acting(s, cfg, p):
            continue
        out[p] = choose(s, cfg, acts, pays, p, codes[p], masks[p], key, ctr, w)


@helper
def any_learned(codes: Int64s, n: int) -> bool:  # pragma: no cover - compiled
    for p in range(n):  # noqa: SIM110 - numba compiles loops, not generators
        if codes[p] == LEARNED_CODE:
            return True
    return False


@numba.njit(cache=True)
def policy_moves(
    states: Int32s,
    cfg: Int64s,
    acts: Int64s,
    pays: Int64s,
    codes: Int64s,
    masks: Int64s,
    keys: UInt64s,
    counters: UInt64s,
    values: Floats32,
    shape: Int64s,
    out: Int64s,
    known: Int64s,
) -> None:  # pragma: no cover - compiled
    """Every seat's compiled choice into ``out`` (0 where a seat does not act) and ``known`` (``NOT_ACTING``)."""
    n = cfg[C_PLAYERS]
    w = np.zeros(SCRATCH, np.int64)
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    buffers = np.zeros((2, hidden_width(shape)), np.float64)
    joint = np.full(MAX_SEATS, -1, np.int64)
    ctr = np.zeros(1, np.uint64)
    learned = any_learned(codes, n)
    for e in range(states.shape[0]):
        prefetch_row(states, e + AHEAD)
        ctr[0] = counters[e]
        if learned:
            choose_all(states[e], cfg, acts, pays, codes, masks, keys[e], ctr, w, values, shape, obs, buffers, joint)
        else:
            choose_compiled(states[e], cfg, acts, pays, codes, masks, keys[e], ctr, w, joint)
        counters[e] = ctr[0]
        for p in range(n):
            out[e, p] = max(joint[p], 0)
            known[e, p] = joint[p] if joint[p] >= 0 else NOT_ACTING


@numba.njit(cache=True)
def learner_moves(
    states: Int32s,
    cfg: Int64s,
    acts: Int64s,
    pays: Int64s,
    seat: int,
    codes: Int64s,
    masks: Int64s,
    chosen: Int64s,
    acting_before: Bools,
    masks_before: Bools,
    keys: UInt64s,
    counters: UInt64s,
    values: Floats32,
    shape: Int64s,
    rewards: Floats,
    run: np.uint64,
    index: Int64s,
    next_index: int,
    out_observations: npt.NDArray[np.float32],
    out_masks: Bools,
    out_acting: Bools,
    out_rewards: Floats,
    out_done: Bools,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """``StepBatch.learner_step`` in one pass over the games; returns ``(bad, next_index)``.

    ``bad`` is -1, or the first env whose acting learner chose outside ``masks_before``
    (then nothing changed). Per game: every seat's compiled choice (the learner's draw
    taken, then replaced by ``chosen``), the transition and chance up to the next
    decision, the win shares if it ended, a restart with the next game index (in env
    order), and the learner's view of it (its observation, its mask: all true where it
    does not choose). The opponents' choices are legal by construction.
    """
    refused = first_refused_choice(chosen, acting_before, masks_before)
    if refused >= 0:
        return refused, next_index
    n = cfg[C_PLAYERS]
    w = np.zeros(SCRATCH, np.int64)
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    buffers = np.zeros((2, hidden_width(shape)), np.float64)
    joint = np.full(MAX_SEATS, -1, np.int64)
    top = out_masks.shape[1]
    learned = any_learned(codes, n)
    for e in range(states.shape[0]):
        prefetch_row(states, e + AHEAD)
        s = states[e]
        ctr = counters[e : e + 1]
        for p in range(n):
            rewards[e, p] = 0.0
        out_rewards[e] = 0.0
        out_done[e] = False
        if s[STEP] != ST_OVER:
            if learned:
                choose_all(s, cfg, acts, pays, codes, masks, keys[e], ctr, w, values, shape, obs, buffers, joint)
            else:
                choose_compiled(s, cfg, acts, pays, codes, masks, keys[e], ctr, w, joint)
            if acting_before[e]:
                joint[seat] = chosen[e]
            apply_moves(s, cfg, acts, joint, w)
            if s[REC_READY] != 0 or is_chance(s):
                to_decision(s, cfg, keys[e], ctr, w)
            if s[STEP] == ST_OVER:
                winners = 0
                for p in range(n):
                    winners += (s[WINNERS] >> p) & 1
                for p in range(n):
                    rewards[e, p] = 1.0 / winners if (s[WINNERS] >> p) & 1 else 0.0
                out_rewards[e] = rewards[e, seat]
        if s[STEP] == ST_OVER:
            out_done[e] = True
            index[e] = next_index
            next_index += 1
            keys[e] = game_key(run, index[e])
            counters[e] = 0
            new_game(s, cfg)
            to_decision(s, cfg, keys[e], ctr, w)
            for p in range(n):
                rewards[e, p] = 0.0
        count = menu(s, cfg, acts, pays, seat, w, W_LEGAL)
        out_acting[e] = count > 0
        for a in range(top):
            out_masks[e, a] = count == 0
        for i in range(count):
            out_masks[e, w[W_LEGAL + i]] = True
        observe_row(s, cfg, seat, out_observations[e])
    return -1, next_index


class KweekStepBatch(StepBatch):
    """``num_envs`` Eigen Kweek games as one ``[num_envs, WIDTH]`` integer array.

    ``net`` gives the shipped ``learned`` network (or why none ships), asked only when a
    seat is ``learned``.
    """

    def __init__(self, game: Game[Any, Any, Any], num_envs: int, net: Callable[[], Net | str] | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be an integer from 1 to {MAX_ENVS}, not {num_envs!r}")
        self.game = game
        self.cfg, self.acts, self.pays = kernel_tables(game)
        self.num_envs = num_envs
        self.num_players = game.num_players
        self.num_actions = int(self.cfg[C_NUM_ACTIONS])
        self.observation_size = OBSERVATION_SIZE
        self._states = np.zeros((num_envs, WIDTH), np.int32)
        self._keys = np.zeros(num_envs, np.uint64)
        self._counters = np.zeros(num_envs, np.uint64)
        self._index = np.zeros(num_envs, np.int64)
        self._rewards = np.zeros((num_envs, self.num_players), np.float64)
        # Which games are over, kept by the kernels that change positions (no pass over the rows to ask).
        self._done = np.zeros(num_envs, np.bool_)
        self._run = np.uint64(0)
        self._next_index = 0
        self._started = False
        self._net_source = net
        # Parsed agent lineups: (codes, abstain masks, network), as policy_actions is called every step.
        self._lineups: dict[tuple[str, ...], tuple[Int64s, Int64s, Net]] = {}
        # What the compiled policies last chose (-1: a seat not acting), and for which positions:
        # ``step`` does not check those actions again (they come from the menus). Every change of
        # the positions bumps ``_moved``; the choices hold while ``_known_at`` equals it.
        self._known = np.full((num_envs, self.num_players), -1, np.int64)
        self._unknown = np.full((num_envs, self.num_players), -1, np.int64)
        self._moved = 0
        self._known_at = -1

    def reset(self, seed: int | str, first_index: int = 0) -> None:
        if first_index < 0:
            raise ValueError(f"first_index must be 0 or more, not {first_index}")
        self._run = run_key(seed)
        self._done[:] = True  # every game starts afresh, game ``first_index + env`` in env ``env``
        self._moved += 1
        self._next_index = restart_finished(
            self._states, self.cfg, self._run, self._done, self._index, first_index, self._keys, self._counters,
            self._rewards, np.empty(self.num_envs, np.bool_),
        )  # fmt: skip
        self._started = True

    def reset_done(self) -> npt.NDArray[np.bool_]:
        self._require_started()
        if not self._done.any():  # most steps end no game
            return np.zeros(self.num_envs, np.bool_)
        finished = np.empty(self.num_envs, np.bool_)
        self._moved += 1
        self._next_index = restart_finished(
            self._states, self.cfg, self._run, self._done, self._index, self._next_index, self._keys,
            self._counters, self._rewards, finished,
        )  # fmt: skip
        return finished

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        self._require_started()
        moves = np.asarray(actions)
        if moves.shape != (self.num_envs, self.num_players) or moves.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be an integer array of shape ({self.num_envs}, {self.num_players}), "
                f"not {moves.dtype} {moves.shape}"
            )
        moves = np.ascontiguousarray(moves, dtype=np.int64)
        known = self._known if self._known_at == self._moved else self._unknown
        bad = step_games(
            self._states, self.cfg, self.acts, self.pays, moves, known, self._keys, self._counters, self._rewards,
            self._done,
        )  # fmt: skip
        if bad < 0:
            self._moved += 1
        if bad >= 0:
            env, seat = divmod(bad, MAX_SEATS)
            legal = np.flatnonzero(self.legal_mask()[env, seat]).tolist()
            raise ValueError(
                f"env {env}, seat {seat}: action {int(moves[env, seat])} is not legal (legal: {legal}); "
                "nothing was applied"
            )

    def _lineup(self, agents: Sequence[str]) -> tuple[Int64s, Int64s, Net]:
        """The kernels' codes, abstain masks and network for one policy per seat (checked, then kept)."""
        key = tuple(agents)
        known = self._lineups.get(key)
        if known is not None:
            return known
        from gamebag.fast.eigen_kweek.engine import parse_agent

        if len(agents) != self.num_players:
            raise ValueError(f"name one policy per seat ({self.num_players}), not {len(agents)}")
        codes = np.zeros(MAX_SEATS, np.int64)
        masks = np.zeros(MAX_SEATS, np.int64)
        for seat, agent in enumerate(agents):
            parsed = parse_agent(agent)
            if isinstance(parsed, str):
                raise ValueError(parsed)
            codes[seat], masks[seat] = parsed
        net = Net.none()
        if np.any(codes == LEARNED_CODE):
            found = self._net_source() if self._net_source is not None else "no learned policy was given to this batch"
            if isinstance(found, str):
                raise ValueError(f"agent 'learned' has no compiled policy here: {found}")
            net = found
        if len(self._lineups) >= 16:
            self._lineups.clear()  # a bound on memory; a training run uses a handful of lineups
        self._lineups[key] = (codes, masks, net)
        return codes, masks, net

    def policy_actions(self, agents: Sequence[str]) -> npt.NDArray[np.int64]:
        self._require_started()
        codes, masks, net = self._lineup(agents)
        out = np.empty((self.num_envs, self.num_players), np.int64)  # ``policy_moves`` writes every entry
        policy_moves(
            self._states, self.cfg, self.acts, self.pays, codes, masks, self._keys, self._counters,
            net.values, net.shape, out, self._known,
        )  # fmt: skip
        self._known_at = self._moved
        return out

    def learner_step(self, seat: int, policy: str, chosen: npt.NDArray[np.int64], before: LearnerView) -> LearnerStep:
        """``StepBatch.learner_step`` in one compiled pass (``learner_moves``): the same games, the same view."""
        self._require_started()
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0 to {self.num_players - 1}, not {seat}")
        codes, masks, net = self._lineup([policy] * self.num_players)
        picks = np.ascontiguousarray(np.asarray(chosen, dtype=np.int64).reshape(self.num_envs))
        acting = np.ascontiguousarray(before.acting, dtype=np.bool_)
        allowed = np.ascontiguousarray(before.masks, dtype=np.bool_)
        observations = np.zeros((self.num_envs, self.observation_size), np.float32)
        view_masks = np.zeros((self.num_envs, self.num_actions), np.bool_)
        view_acting = np.zeros(self.num_envs, np.bool_)
        rewards = np.zeros(self.num_envs, np.float64)
        done = np.zeros(self.num_envs, np.bool_)
        self._moved += 1  # the positions change (a refused step changes none: a needless check after it)
        bad, self._next_index = learner_moves(
            self._states, self.cfg, self.acts, self.pays, seat, codes, masks, picks, acting, allowed,
            self._keys, self._counters, net.values, net.shape, self._rewards, self._run, self._index,
            self._next_index, observations, view_masks, view_acting, rewards, done,
        )  # fmt: skip
        if bad >= 0:
            raise illegal_learner_action(bad, picks, allowed)
        self._done[:] = False  # every game that ended was restarted
        return LearnerStep(LearnerView(observations, view_masks, view_acting), rewards, done)

    def to_act(self) -> npt.NDArray[np.bool_]:
        mask = self.legal_mask()
        return np.asarray(mask.any(axis=2), np.bool_)

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        out = np.zeros((self.num_envs, self.num_players, self.num_actions), np.bool_)
        legal_masks(self._states, self.cfg, self.acts, self.pays, out)
        return out

    def observations(self) -> npt.NDArray[np.float32]:
        out = np.zeros((self.num_envs, self.num_players, self.observation_size), np.float32)
        observe(self._states, self.cfg, 0, self.num_players, out)
        return out

    def seat_observations(self, seat: int) -> npt.NDArray[np.float32]:
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0 to {self.num_players - 1}, not {seat}")
        out = np.zeros((self.num_envs, 1, self.observation_size), np.float32)
        observe(self._states, self.cfg, seat, seat + 1, out)
        return out[:, 0]

    def rewards(self) -> npt.NDArray[np.float64]:
        return self._rewards.copy()

    def done(self) -> npt.NDArray[np.bool_]:
        return self._done.copy()

    def game_indices(self) -> npt.NDArray[np.int64]:
        """Which game of the seeded run each env is playing."""
        return self._index.copy()

    def state_arrays(self) -> dict[str, npt.NDArray[Any]]:
        return {"state": self._states[:, :RULES_WIDTH].copy(), "game_index": self._index.copy()}

    def _require_started(self) -> None:
        if not self._started:
            raise RuntimeError("call reset(seed) before stepping a step batch")
