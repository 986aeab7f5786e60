"""Solving two-player Eel rounds: backward induction with regret matching at the grabs.

Within a round every move reaches a state with more tokens out of the bag (or
ends the round), so a round is solved backwards, layer by layer of
``r0 + r1 + c``. Where both players are in, the simultaneous grab is a 7 x 7
constant-sum matrix game whose entries are the exact expected values of the
successors (hypergeometric draws; binomial with dice). It is solved by regret
matching+ with alternating updates and linearly weighted averages (CFR+ on a
one-node game), after a check for a pure saddle point, until no seat can gain
more than ``tolerance`` by deviating at that node. With one player left the
round is a one-player stopping problem, solved exactly.

Arrays carry a leading *batch* axis of ``(score pair, track)`` entries, so one
pass solves many rounds that start at different scores. Track 0 is the
equilibrium; with three tracks, track 1 values a best response of seat 0
against seat 1's equilibrium strategy and track 2 a best response of seat 1.
Values are seat 0's share of the win; seat 1 gets the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from types import ModuleType

import numpy as np
import numpy.typing as npt

from gamebag.agents.equilibrium.model import (
    SEAT0,
    SEAT1,
    SHARED,
    FloatArray,
    RoundRules,
    draw_table,
    round_end_tables,
)

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

EQUILIBRIUM, BEST_RESPONSE_0, BEST_RESPONSE_1 = 0, 1, 2
DEFAULT_ITERATIONS = 1000
DEFAULT_TOLERANCE = 2e-4  # largest gain a seat may find by deviating at one grab
CHECK_EVERY = 25
SUPPORT_THRESHOLD = 0.03


@dataclass(frozen=True)
class Numbers:
    """The sizes of a configuration's arrays.

    One seat's draw is a pair (count a, snakes k) with 1 <= a <= max_grab and
    0 <= k <= a, grouped by a: ``draw_count``, ``draw_snakes`` and ``draw_eels``
    list them, ``group_starts`` where each count begins.
    """

    eels: int
    snakes: int
    target: int
    threshold: int
    actions: int
    reserves: int
    draw_count: IntArray
    draw_snakes: IntArray
    draw_eels: IntArray
    draw_kinds: int
    group_starts: IntArray


def numbers_for(rules: RoundRules) -> Numbers:
    count = np.array([a for a in range(1, rules.actions) for _ in range(a + 1)], dtype=np.int64)
    snakes = np.array([k for a in range(1, rules.actions) for k in range(a + 1)], dtype=np.int64)
    return Numbers(
        eels=rules.eels,
        snakes=rules.snakes,
        target=rules.target,
        threshold=rules.threshold,
        actions=rules.actions,
        reserves=rules.eels + 1,  # a reserve holds 0..eels eels
        draw_count=count,
        draw_snakes=snakes,
        draw_eels=count - snakes,
        draw_kinds=len(count),
        group_starts=np.array([int(np.argmax(a == count)) for a in range(1, rules.actions)], dtype=np.int64),
    )


@lru_cache(maxsize=4)
def _single_draws(rules: RoundRules) -> FloatArray:
    """``P[e, c, d]``: chance of draw ``d`` (count, snakes) from ``e`` eels and ``snakes - c`` snakes."""
    n = numbers_for(rules)
    table = draw_table(rules.dice, n.eels, n.snakes, n.actions)
    eels = np.arange(n.reserves)[:, None, None]
    snakes = (n.snakes - np.arange(n.threshold))[None, :, None]
    result: FloatArray = table[eels, snakes, n.draw_count, n.draw_snakes]
    return result


@lru_cache(maxsize=4)
def _joint_draws(rules: RoundRules) -> FloatArray:
    """``J[e, c, i, j]``: seat 0 makes draw ``i``, then seat 1 draw ``j`` (the bag never runs short)."""
    n = numbers_for(rules)
    table = draw_table(rules.dice, n.eels, n.snakes, n.actions)
    eels = np.arange(n.reserves)[:, None, None, None]
    snakes = (n.snakes - np.arange(n.threshold))[None, :, None, None]
    first = table[eels, snakes, n.draw_count[:, None], n.draw_snakes[:, None]]
    eels_left = eels - n.draw_eels[:, None]
    snakes_left = snakes - n.draw_snakes[:, None]
    if rules.dice:
        eels_left, snakes_left = np.zeros_like(eels_left), np.zeros_like(snakes_left)
    second = table[np.maximum(eels_left, 0), snakes_left, n.draw_count[None, :], n.draw_snakes[None, :]]
    result: FloatArray = first * second * (eels_left >= 0)
    return result


def solve_matrix_games(
    payoffs: FloatArray, iterations: int = DEFAULT_ITERATIONS, tolerance: float = DEFAULT_TOLERANCE
) -> tuple[FloatArray, FloatArray]:
    """Mixed strategies for a batch of constant-sum games ``payoffs[n, row, column]``.

    Seat 0 picks the row and maximises; seat 1 picks the column and minimises.
    A pure saddle point is taken at once. The other games run regret matching+;
    every ``CHECK_EVERY`` steps its averages suggest the supports, the equalising
    strategies on those supports are solved exactly and kept where they are an
    equilibrium of the whole game, and a game also stops once no deviation from
    its averages gains more than ``tolerance``.
    """
    count, rows, columns = payoffs.shape
    row_strategy = np.zeros((count, rows))
    column_strategy = np.zeros((count, columns))
    lower = payoffs.min(axis=2)
    upper = payoffs.max(axis=1)
    saddle = lower.max(axis=1) >= upper.min(axis=1) - 1e-12
    index = np.flatnonzero(saddle)
    row_strategy[index, lower[saddle].argmax(axis=1)] = 1.0
    column_strategy[index, upper[saddle].argmin(axis=1)] = 1.0
    mixed = np.flatnonzero(~saddle)
    if len(mixed) > 0:
        kernels = compiled_kernels()
        if kernels is not None:
            games = np.ascontiguousarray(payoffs[mixed], dtype=np.float64)
            found = kernels.regret_matching(games, iterations, tolerance, CHECK_EVERY, SUPPORT_THRESHOLD)
        else:
            found = _regret_matching(payoffs[mixed], iterations, tolerance)
        row_strategy[mixed], column_strategy[mixed] = found
    return row_strategy, column_strategy


@cache
def compiled_kernels() -> ModuleType | None:
    """The compiled regret matching, or ``None`` where numba does not work here (the NumPy loop then runs)."""
    from gamebag.fast.registry import compiler_problem

    if compiler_problem() is not None:
        return None
    try:
        from gamebag.agents.equilibrium import kernels
    except Exception:  # any failure of the compiler means: use the NumPy loop
        return None
    return kernels


def _solve_on_supports(
    payoffs: FloatArray, guess_x: FloatArray, guess_y: FloatArray
) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Exact equalising strategies on the supports the guesses suggest, where they are an equilibrium."""
    count, rows, columns = payoffs.shape
    support_x = guess_x > SUPPORT_THRESHOLD
    support_y = guess_y > SUPPORT_THRESHOLD
    size = support_x.sum(axis=1)
    x = np.zeros((count, rows))
    y = np.zeros((count, columns))
    found = np.zeros(count, dtype=bool)
    for k in range(2, min(rows, columns) + 1):
        group = np.flatnonzero((size == k) & (support_y.sum(axis=1) == k))
        if len(group) == 0:
            continue
        chosen_rows = np.argsort(~support_x[group], axis=1, kind="stable")[:, :k]
        chosen_columns = np.argsort(~support_y[group], axis=1, kind="stable")[:, :k]
        sub = payoffs[group[:, None, None], chosen_rows[:, :, None], chosen_columns[:, None, :]]
        column_part, column_ok = _equalise(sub)
        row_part, row_ok = _equalise(sub.transpose(0, 2, 1))
        ok = column_ok & row_ok
        y[group[ok, None], chosen_columns[ok]] = column_part[ok]
        x[group[ok, None], chosen_rows[ok]] = row_part[ok]
        found[group[ok]] = True
    valid = found & (x.min(axis=1) >= -1e-12) & (y.min(axis=1) >= -1e-12)
    x = np.maximum(x, 0.0)
    y = np.maximum(y, 0.0)
    x[valid] /= x[valid].sum(axis=1, keepdims=True)
    y[valid] /= y[valid].sum(axis=1, keepdims=True)
    valid &= exploitability_gap(payoffs, x, y) <= 1e-9
    return x, y, valid


def _equalise(sub: FloatArray) -> tuple[FloatArray, BoolArray]:
    """Strategies ``p`` on the columns of ``sub[n, k, k]`` making every row worth the same."""
    count, k, _ = sub.shape
    system = np.zeros((count, k + 1, k + 1))
    system[:, :k, :k] = sub
    system[:, :k, k] = -1.0
    system[:, k, :k] = 1.0
    target = np.zeros((count, k + 1, 1))
    target[:, k, 0] = 1.0
    ok = np.abs(np.linalg.det(system)) > 1e-12
    solution = np.zeros((count, k))
    if ok.any():
        solution[ok] = np.linalg.solve(system[ok], target[ok])[:, :k, 0]
    return solution, ok


def exploitability_gap(payoffs: FloatArray, rows: FloatArray, columns: FloatArray) -> FloatArray:
    """Per game: what seat 0 gains by its best row plus what seat 1 gains by its best column."""
    row_values = np.einsum("nij,nj->ni", payoffs, columns)
    column_values = np.einsum("ni,nij->nj", rows, payoffs)
    result: FloatArray = row_values.max(axis=1) - column_values.min(axis=1)
    return result


def _regret_matching(payoffs: FloatArray, iterations: int, tolerance: float) -> tuple[FloatArray, FloatArray]:
    """Regret matching+; a game leaves the batch once solved exactly on its supports or within ``tolerance``."""
    count, rows, columns = payoffs.shape
    result_x = np.zeros((count, rows))
    result_y = np.zeros((count, columns))
    active = np.arange(count)
    games = payoffs
    transposed = np.ascontiguousarray(games.transpose(0, 2, 1))
    x = np.full((count, rows), 1.0 / rows)
    y = np.full((count, columns), 1.0 / columns)
    regret_x, regret_y = np.zeros_like(x), np.zeros_like(y)
    sum_x, sum_y = np.zeros_like(x), np.zeros_like(y)
    for step in range(1, iterations + 1):
        row_values = (games @ y[:, :, None])[:, :, 0]
        regret_x += row_values - (row_values * x).sum(axis=1, keepdims=True)
        np.maximum(regret_x, 0.0, out=regret_x)
        x = (regret_x + 1e-12) / (regret_x.sum(axis=1, keepdims=True) + rows * 1e-12)
        column_values = (transposed @ x[:, :, None])[:, :, 0]
        regret_y += (column_values * y).sum(axis=1, keepdims=True) - column_values
        np.maximum(regret_y, 0.0, out=regret_y)
        y = (regret_y + 1e-12) / (regret_y.sum(axis=1, keepdims=True) + columns * 1e-12)
        sum_x += step * x
        sum_y += step * y
        if step % CHECK_EVERY and step != iterations:
            continue
        average_x = sum_x / sum_x.sum(axis=1, keepdims=True)
        average_y = sum_y / sum_y.sum(axis=1, keepdims=True)
        exact_x, exact_y, exact = _solve_on_supports(games, average_x, average_y)
        average_x[exact], average_y[exact] = exact_x[exact], exact_y[exact]
        done = exact | (exploitability_gap(games, average_x, average_y) <= tolerance) | (step == iterations)
        result_x[active[done]], result_y[active[done]] = average_x[done], average_y[done]
        keep = ~done
        if not keep.any():
            break
        active, games, transposed = active[keep], games[keep], transposed[keep]
        x, y, regret_x, regret_y = x[keep], y[keep], regret_x[keep], regret_y[keep]
        sum_x, sum_y = sum_x[keep], sum_y[keep]
    return result_x, result_y


@dataclass
class RoundBatch:
    """Every value of a batch of rounds; ``b = pair * tracks + track`` indexes the batch axis."""

    rules: RoundRules
    scores: IntArray  # [pair, seat]
    tracks: int
    both: FloatArray  # [b, r0, r1, c]
    lone: tuple[FloatArray, FloatArray]  # lone[seat][b, x, r, c, g]: the other seat left having scored x
    ends: tuple[FloatArray, FloatArray, FloatArray]  # [b, g0, g1] round-end value by gains: ties shared/seat 0/seat 1

    @property
    def roots(self) -> FloatArray:
        """The value of each whole round, ``[pair, track]``."""
        result: FloatArray = self.both[:, 0, 0, 0].reshape(len(self.scores), self.tracks)
        return result


class RoundSolver:
    """Solves rounds of one configuration of the rules."""

    def __init__(
        self, rules: RoundRules, iterations: int = DEFAULT_ITERATIONS, tolerance: float = DEFAULT_TOLERANCE
    ) -> None:
        self.rules = rules
        self.n = numbers_for(rules)
        self.iterations = iterations
        self.tolerance = tolerance
        self.single = _single_draws(rules)
        self.joint = _joint_draws(rules)
        lone_ties = (SEAT0, SEAT1) if rules.lone_wins_ties else (SHARED, SHARED)
        self.ties = (SHARED, *lone_ties)
        # With dice nothing limits the two reserves together; each is capped at the bag's eels.
        pair_limit = 2 * self.n.eels if rules.dice else self.n.eels
        self.layers = [self._layer(total, pair_limit) for total in range(pair_limit + self.n.threshold)]
        count = self.n.draw_count
        lose0 = count[:, None] >= count[None, :]
        lose1 = count[None, :] >= count[:, None]
        self.biggest_grab_loses = (lose0, lose1)

    def _layer(self, total: int, pair_limit: int) -> tuple[IntArray, IntArray, IntArray]:
        """States ``(r0, r1, c)`` with ``r0 + r1 + c == total``, each reserve at most the bag's eels."""
        eels = self.n.eels
        states = [
            (r0, total - c - r0, c)
            for c in range(self.n.threshold)
            if 0 <= total - c <= pair_limit
            for r0 in range(max(0, total - c - eels), min(eels, total - c) + 1)
        ]
        array = np.array(states, dtype=np.int64).reshape(-1, 3)
        return array[:, 0], array[:, 1], array[:, 2]

    # ---- whole rounds -------------------------------------------------------------------
    def solve(self, scores: Sequence[tuple[int, int]], continuation: FloatArray) -> RoundBatch:
        """Solve the rounds that start at each of ``scores``; ``continuation[track]`` is ``W``."""
        tracks = continuation.shape[0]
        pairs = np.array(scores, dtype=np.int64).reshape(-1, 2)
        ends = self._relative_ends(pairs, continuation)
        lone = (self._solve_lone(0, ends[1], tracks), self._solve_lone(1, ends[2], tracks))
        both = np.empty((len(pairs) * tracks, self.n.reserves, self.n.reserves, self.n.threshold))
        both[:] = ends[0][:, :, :, None]  # read only where the dice variant caps a reserve at 51
        result = RoundBatch(self.rules, pairs, tracks, both, lone, ends)
        for total in range(len(self.layers) - 1, -1, -1):
            r0, r1, c = self.layers[total]
            if len(r0) == 0:
                continue
            q = self.both_q(result, r0, r1, c)
            both[:, r0, r1, c] = self.node_values(q, tracks)
        return result

    def solve_lone(self, seat: int, scores: tuple[int, int], continuation: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Only the lone-player part for seat ``seat`` at the current ``scores``: ``(L, ends)``.

        ``L[b, 0, r, c, g]`` is the value with the other seat's score as it stands.
        """
        pairs = np.array([scores], dtype=np.int64)
        ends = self._relative_ends(pairs, continuation)[1 + seat]
        return self._solve_lone(seat, ends, continuation.shape[0]), ends

    def _relative_ends(self, pairs: IntArray, continuation: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Round-end values by the gains ``(g0, g1)`` of the round, for ties shared / won by seat 0 / seat 1."""
        reserves = self.n.reserves
        gains = np.arange(reserves)
        tables = []
        for tie in self.ties:
            table = round_end_tables(continuation, tie, self.rules)  # [track, f0, f1]
            relative = table[:, pairs[:, 0, None, None] + gains[:, None], pairs[:, 1, None, None] + gains[None, :]]
            tables.append(np.ascontiguousarray(relative.transpose(1, 0, 2, 3)).reshape(-1, reserves, reserves))
        return tables[0], tables[1], tables[2]

    def node_values(self, q: FloatArray, tracks: int) -> FloatArray:
        """``[b, n]`` values of states whose grab matrices are ``q[b, n, a0, a1]``."""
        batch, count = q.shape[:2]
        actions = self.n.actions
        grouped = q.reshape(batch // tracks, tracks, count, actions, actions)
        equilibrium = grouped[:, EQUILIBRIUM].reshape(-1, actions, actions)
        x, y = solve_matrix_games(equilibrium, self.iterations, self.tolerance)
        values = np.empty((batch // tracks, tracks, count))
        values[:, EQUILIBRIUM] = np.einsum("ni,nij,nj->n", x, equilibrium, y).reshape(-1, count)
        if tracks > 1:
            x = x.reshape(-1, count, actions)
            y = y.reshape(-1, count, actions)
            values[:, BEST_RESPONSE_0] = np.einsum("pnij,pnj->pni", grouped[:, BEST_RESPONSE_0], y).max(axis=2)
            values[:, BEST_RESPONSE_1] = np.einsum("pni,pnij->pnj", x, grouped[:, BEST_RESPONSE_1]).min(axis=2)
        return values.reshape(batch, count)

    # ---- grab matrices -----------------------------------------------------------------
    def both_q(self, batch: RoundBatch, r0: IntArray, r1: IntArray, c: IntArray) -> FloatArray:
        """``Q[b, n, a0, a1]``: seat 0's value of each joint grab at states ``(r0, r1, c)``."""
        shared, lone0_ties, lone1_ties = batch.ends
        q = np.empty((shared.shape[0], len(r0), self.n.actions, self.n.actions))
        q[:, :, 0, 0] = shared[:, r0, r1]
        q[:, :, 0, 1:] = self._exit_q(1, batch, r1, r0, c, lone1_ties)
        q[:, :, 1:, 0] = self._exit_q(0, batch, r0, r1, c, lone0_ties)
        q[:, :, 1:, 1:] = self._draw_q(batch, r0, r1, c)
        return q

    def _exit_q(
        self, stayer: int, batch: RoundBatch, stay: IntArray, leave: IntArray, c: IntArray, ends: FloatArray
    ) -> FloatArray:
        """Seat ``stayer`` draws ``a`` while the other exits with ``leave`` eels: ``[b, n, a - 1]``."""
        n = self.n
        eels = np.zeros_like(stay) if self.rules.dice else n.eels - stay  # the leaver's eels are back in the bag
        probability = self.single[eels, c]  # (n, d)
        reserve = np.minimum(stay[:, None] + n.draw_eels, n.eels)
        centre = c[:, None] + n.draw_snakes
        outbreak = centre >= n.threshold
        # At an outbreak the stayer, the only one in, loses its eels; the leaver keeps what it scored.
        bitten = self._by_seat(ends, stayer, np.zeros_like(leave), leave)[:, :, None]
        limit = self.rules.lone_grabs
        leave_all = np.broadcast_to(leave[:, None], reserve.shape)
        if limit == 0:
            # No grabs for a lone player: the stayer exits automatically after this grab's reveal,
            # which counts as later than the leaver's exit.
            alone = self._by_seat(ends, stayer, reserve, leave_all)
        else:
            level = 0 if limit is None else limit - 1
            alone = batch.lone[stayer][:, leave_all, reserve, np.minimum(centre, n.threshold - 1), level]
        values = np.where(outbreak, bitten, alone) * probability
        result: FloatArray = np.add.reduceat(values, n.group_starts, axis=2)
        if self.rules.rule_set == "wriggle-roulette":
            # The leaver reached 20: the game ends with this grab, in which the stayer cannot score.
            leave_score = np.repeat(batch.scores[:, 1 - stayer], batch.tracks)
            over = leave_score[:, None] + leave[None, :] >= n.target
            result = np.where(over[:, :, None], bitten, result)
        return result

    def _draw_q(self, batch: RoundBatch, r0: IntArray, r1: IntArray, c: IntArray) -> FloatArray:
        """Both seats draw: ``[b, n, a0 - 1, a1 - 1]``."""
        n = self.n
        kernels = compiled_kernels()
        if kernels is not None:  # the same sums, pair by pair, without the (b, n, i, j) temporaries
            flags = (n.eels, n.threshold, self.rules.dice, self.rules.rule_set == "eel-harvest")
            numbers = np.array([*flags, self.rules.outbreak_scores_reserve], dtype=np.int64)
            compiled: FloatArray = kernels.draw_q(
                np.ascontiguousarray(batch.both),
                np.ascontiguousarray(batch.ends[0]),
                self.joint,
                *(np.ascontiguousarray(a, dtype=np.int64) for a in (r0, r1, c)),
                numbers,
                n.draw_count,
                n.draw_snakes,
                n.draw_eels,
                n.group_starts,
            )
            return compiled
        shape = (len(r0), n.draw_kinds, n.draw_kinds)
        new_r1 = np.broadcast_to(np.minimum(r1[:, None] + n.draw_eels, n.eels)[:, None, :], shape)
        new_r0 = np.broadcast_to(np.minimum(r0[:, None] + n.draw_eels, n.eels)[:, :, None], new_r1.shape)
        centre = c[:, None, None] + n.draw_snakes[:, None] + n.draw_snakes[None, :]
        outbreak = centre >= n.threshold
        index = (new_r0 * n.reserves + new_r1) * n.threshold + np.minimum(centre, n.threshold - 1)
        flat = batch.both.reshape(batch.both.shape[0], -1)
        values = flat[:, index]  # (b, n, i, j)
        if self.rules.rule_set == "eel-harvest":
            lose0, lose1 = self.biggest_grab_loses
            extra0 = r0[:, None, None] if self.rules.outbreak_scores_reserve else 0
            extra1 = r1[:, None, None] if self.rules.outbreak_scores_reserve else 0
            gain0 = np.where(lose0, 0, n.draw_eels[:, None] + extra0)
            gain1 = np.where(lose1, 0, n.draw_eels[None, :] + extra1)
        else:
            gain0 = np.where(new_r0 >= new_r1, 0, new_r0)
            gain1 = np.where(new_r1 >= new_r0, 0, new_r1)
        gain0 = np.minimum(np.broadcast_to(gain0, outbreak.shape), n.eels)
        gain1 = np.minimum(np.broadcast_to(gain1, outbreak.shape), n.eels)
        ends = batch.ends[0].reshape(batch.ends[0].shape[0], -1)
        values[:, outbreak] = ends[:, gain0[outbreak] * n.reserves + gain1[outbreak]]
        eels = np.zeros_like(r0) if self.rules.dice else n.eels - r0 - r1
        values *= self.joint[eels, c]
        summed = np.add.reduceat(values, n.group_starts, axis=2)
        result: FloatArray = np.add.reduceat(summed, n.group_starts, axis=3)
        return result

    @staticmethod
    def _by_seat(ends: FloatArray, seat: int, mine: IntArray, theirs: IntArray) -> FloatArray:
        """``ends[b, g0, g1]`` with ``mine`` the gain of ``seat`` and ``theirs`` the other's."""
        result: FloatArray = ends[:, mine, theirs] if seat == 0 else ends[:, theirs, mine]
        return result

    # ---- one player left ---------------------------------------------------------------
    def _solve_lone(self, seat: int, ends: FloatArray, tracks: int) -> FloatArray:
        """``L[b, x, r, c, g]``: seat ``seat`` alone with ``r`` eels, the other having scored ``x``."""
        n = self.n
        levels = self.rules.lone_levels
        gains = np.arange(n.reserves)
        exit_values = self._by_seat(ends, seat, gains[None, :], gains[:, None])  # [b, x, r]
        lone = np.repeat(np.repeat(exit_values[..., None, None], n.threshold, axis=3), levels, axis=4)
        for total in range(n.eels + n.threshold - 1, -1, -1):
            cs = np.array([c for c in range(n.threshold) if 0 <= total - c <= n.eels], dtype=np.int64)
            rs = total - cs
            q = self.lone_q(seat, lone, ends, rs, cs)  # [b, x, m, g, a]
            lone[:, :, rs, cs, :] = self.lone_values(seat, q, tracks)
        return lone

    def lone_q(self, seat: int, lone: FloatArray, ends: FloatArray, rs: IntArray, cs: IntArray) -> FloatArray:
        """``Q[b, x, m, g, a]`` of the lone seat at states ``(rs[m], cs[m])``."""
        n = self.n
        levels = self.rules.lone_levels
        gains = np.arange(n.reserves)
        q = np.empty((ends.shape[0], n.reserves, len(rs), levels, n.actions))
        q[..., 0] = self._by_seat(ends, seat, rs[None, :], gains[:, None])[..., None]
        eels = np.zeros_like(rs) if self.rules.dice else n.eels - rs
        probability = self.single[eels, cs]  # (m, d)
        reserve = np.minimum(rs[:, None] + n.draw_eels, n.eels)  # (m, d)
        centre = np.broadcast_to(cs[:, None] + n.draw_snakes, reserve.shape)
        outbreak = centre >= n.threshold
        bitten = self._by_seat(ends, seat, np.zeros(1, dtype=np.int64), gains)[:, :, None, None]  # [b, x, 1, 1]
        for level in range(levels):
            if self.rules.lone_grabs is not None and level == 0:
                # The last permitted grab: unless bitten, the lone seat exits and scores automatically.
                after = self._by_seat(ends, seat, reserve[None, :, :], gains[:, None, None])
            else:
                next_level = level - 1 if self.rules.lone_grabs is not None else level
                after = lone[:, :, reserve, np.minimum(centre, n.threshold - 1), next_level]
            values = np.where(outbreak, bitten, after) * probability
            q[:, :, :, level, 1:] = np.add.reduceat(values, n.group_starts, axis=3)
        return q

    @staticmethod
    def lone_values(seat: int, q: FloatArray, tracks: int) -> FloatArray:
        """``[b, x, m, g]``: the lone seat optimises track 0 and its own best-response track."""
        sign = 1.0 if seat == 0 else -1.0
        grouped = q.reshape(-1, tracks, *q.shape[1:])
        choice = (sign * grouped[:, EQUILIBRIUM]).argmax(axis=-1)[:, None, ..., None]
        values = np.take_along_axis(grouped, np.broadcast_to(choice, (*grouped.shape[:-1], 1)), axis=-1)[..., 0]
        if tracks > 1:
            own = BEST_RESPONSE_0 if seat == 0 else BEST_RESPONSE_1
            values[:, own] = sign * (sign * grouped[:, own]).max(axis=-1)
        result: FloatArray = values.reshape(q.shape[:-1])
        return result
