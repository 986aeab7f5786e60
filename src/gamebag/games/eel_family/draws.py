"""The draws of an Eel family grab: the chance side of the rules, shared by both rule sets.

Who draws how many tokens (in draw order from the start player, exits returning their
reserves to the bag first), every split of a draw over the seats with its exact weight,
seeded sampling, and the check of an outcome given from outside. ``EelDraws`` is the base
of ``rules.EelFamilyGame``, which configures it and resolves the grab the draws complete.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from fractions import Fraction
from itertools import product
from math import comb
from typing import Any

from gamebag.core.errors import IllegalChanceOutcomeError
from gamebag.core.protocol import Game
from gamebag.core.rng import Rng
from gamebag.core.words import counted
from gamebag.games.eel_family.state import (
    EelState,
    Outcome,
)

# Distinct draw sizes whose splits a configured game keeps (a game meets a few hundred at most).
CHANCE_MEMO_SIZE = 4096


class EelDraws(Game[EelState, int, Outcome]):
    """The chance node of a grab; ``rules.EelFamilyGame`` sets the configuration read here."""

    dice: bool  # draws are rolls of the four-sided die (one snake face) instead of from the bag
    _split_memo: dict[tuple[int, ...], tuple[tuple[Outcome, int, int, int], ...]]

    @abstractmethod
    def _resolve(
        self, state: EelState, counts: tuple[int, ...], eels_drawn: list[int], snakes_drawn: list[int]
    ) -> EelState:
        """The position after the grab of ``counts`` drew ``eels_drawn`` and ``snakes_drawn`` per seat."""

    def _draw_sizes(self, state: EelState, pending: Sequence[int]) -> list[int]:
        """How many tokens each seat actually draws, in draw order from the start player."""
        sizes = [0] * self.num_players
        if self.dice:
            return [max(c, 0) for c in pending]
        left = state.bag_eels + state.bag_snakes + sum(state.reserves[p] for p, c in enumerate(pending) if c == 0)
        for offset in range(self.num_players):
            seat = (state.start + offset) % self.num_players
            take = min(max(pending[seat], 0), left)
            sizes[seat] = take
            left -= take
        return sizes

    def _bag_after_exits(self, state: EelState, pending: Sequence[int]) -> tuple[int, int]:
        if 0 not in pending:
            return state.bag_eels, state.bag_snakes
        returned = sum(held for held, count in zip(state.reserves, pending, strict=True) if count == 0)
        return state.bag_eels + returned, state.bag_snakes

    def _pending_draw(self, state: EelState) -> tuple[int, int, int, tuple[tuple[Outcome, int, int, int], ...]] | None:
        """The bag (eels, snakes) the pending draw comes from, the number of tokens drawn and
        the splits of that draw over the seats; None where nothing is to be drawn."""
        if state.pending is None or state.over:
            return None
        sizes = self._draw_sizes(state, state.pending)
        eels, snakes = self._bag_after_exits(state, state.pending)
        return eels, snakes, sum(sizes), self._splits(tuple(sizes))

    def chance_outcomes(self, state: EelState) -> list[tuple[Outcome, Fraction]]:
        draw = self._pending_draw(state)
        if draw is None:
            return []
        eels, snakes, total_drawn, splits = draw
        if self.dice:
            every = 4**total_drawn
            return [(drawn, Fraction(ways * 3**e, every)) for drawn, ways, s, e in splits]
        by_snakes, by_eels = _fallings(snakes, total_drawn), _fallings(eels, total_drawn)
        every = _falling(eels + snakes, total_drawn)
        return [
            (drawn, Fraction(ways * by_snakes[s] * by_eels[e], every))
            for drawn, ways, s, e in splits
            if s <= snakes and e <= eels
        ]

    def chance_probabilities(self, state: EelState) -> list[tuple[Outcome, float]]:
        draw = self._pending_draw(state)
        if draw is None:
            return []
        eels, snakes, total_drawn, splits = draw
        # Integer true division is correctly rounded: each float is the one nearest the exact fraction.
        # The weight of a split's bag part depends only on its snake count, so it is found once per count.
        if self.dice:
            every = 4**total_drawn
            weight = [3 ** (total_drawn - s) for s in range(total_drawn + 1)]
            return [(drawn, ways * weight[s] / every) for drawn, ways, s, e in splits]
        by_snakes, by_eels = _fallings(snakes, total_drawn), _fallings(eels, total_drawn)
        every = _falling(eels + snakes, total_drawn)
        weight = [by_snakes[s] * by_eels[total_drawn - s] for s in range(total_drawn + 1)]
        return [(drawn, ways * weight[s] / every) for drawn, ways, s, e in splits if s <= snakes and e <= eels]

    def _splits(self, sizes: tuple[int, ...]) -> tuple[tuple[Outcome, int, int, int], ...]:
        """Every split of a draw of ``sizes`` tokens per seat, in the order ``chance_outcomes`` lists them:
        the outcome, its number of orderings, and the snakes and eels it holds (kept per ``sizes``)."""
        splits = self._split_memo.get(sizes)
        if splits is not None:
            return splits
        total_drawn = sum(sizes)
        drawers = [p for p in range(self.num_players) if sizes[p] > 0]
        found: list[tuple[Outcome, int, int, int]] = []
        for snake_counts in product(*(range(sizes[p] + 1) for p in drawers)):
            s_total = sum(snake_counts)
            ways = 1
            for p, s in zip(drawers, snake_counts, strict=True):
                ways *= comb(sizes[p], s)
            drawn = [""] * self.num_players
            for p, s in zip(drawers, snake_counts, strict=True):
                drawn[p] = "E" * (sizes[p] - s) + "S" * s
            found.append((tuple(drawn), ways, s_total, total_drawn - s_total))
        if len(self._split_memo) >= CHANCE_MEMO_SIZE:
            self._split_memo.clear()  # a bound on memory; play refills it with the common draws
        splits = self._split_memo[sizes] = tuple(found)
        return splits

    def sample_chance(self, state: EelState, rng: Rng) -> Outcome:
        if state.pending is None or state.over:
            raise IllegalChanceOutcomeError("no draw is awaited now")
        pending = state.pending
        n = self.num_players
        drawn = [""] * n
        random = rng.random
        if self.dice:
            for seat in range(n):
                drawn[seat] = "".join("S" if random() < 0.25 else "E" for _ in range(max(pending[seat], 0)))
            return tuple(drawn)
        eels, snakes = self._bag_after_exits(state, pending)
        for offset in range(n):
            seat = (state.start + offset) % n
            want = pending[seat]
            if want <= 0:
                continue
            tokens = []
            for _ in range(want):
                left = eels + snakes
                if left == 0:
                    break
                if random() * left < snakes:
                    snakes -= 1
                    tokens.append("S")
                else:
                    eels -= 1
                    tokens.append("E")
            drawn[seat] = "".join(tokens)
        return tuple(drawn)

    def advance_chance(self, state: EelState, rng: Rng) -> EelState:
        """``sample_chance`` and ``_apply_chance`` in one, counting tokens instead of spelling them.

        The same draws from ``rng`` in the same order as ``sample_chance``, so the same state.
        """
        pending = state.pending
        if pending is None or state.over:
            raise IllegalChanceOutcomeError("no draw is awaited now")
        n = self.num_players
        eels_drawn = [0] * n
        snakes_drawn = [0] * n
        random = rng.random
        if self.dice:
            for seat in range(n):
                for _ in range(pending[seat]):  # no draws for -1 (not in the round) or 0
                    if random() < 0.25:
                        snakes_drawn[seat] += 1
                    else:
                        eels_drawn[seat] += 1
            return self._resolve(state, pending, eels_drawn, snakes_drawn)
        eels, snakes = self._bag_after_exits(state, pending)
        start = state.start
        for offset in range(n):
            seat = (start + offset) % n
            want = pending[seat]
            if want <= 0:
                continue
            got_eels = got_snakes = 0
            for _ in range(want):
                left = eels + snakes
                if left == 0:
                    break
                if random() * left < snakes:
                    snakes -= 1
                    got_snakes += 1
                else:
                    eels -= 1
                    got_eels += 1
            eels_drawn[seat] = got_eels
            snakes_drawn[seat] = got_snakes
        return self._resolve(state, pending, eels_drawn, snakes_drawn)

    def _check_outcome(self, state: EelState, outcome: Any) -> None:
        """Check the draws directly: a grab's outcomes can number hundreds of thousands."""
        assert state.pending is not None  # a chance node always has pending counts
        if not isinstance(outcome, tuple) or len(outcome) != self.num_players:
            raise IllegalChanceOutcomeError("a draw outcome gives the tokens drawn by each seat")
        sizes = self._draw_sizes(state, state.pending)
        eels, snakes = self._bag_after_exits(state, state.pending)
        total_snakes = 0
        for seat, tokens in enumerate(outcome):
            if not isinstance(tokens, str) or tokens.strip("ES"):
                raise IllegalChanceOutcomeError(f"seat {seat}: drawn tokens are written with E and S, not {tokens!r}")
            if len(tokens) != sizes[seat]:
                chosen = state.pending[seat]
                why = (
                    f"it chose {chosen} and the bag holds enough"
                    if sizes[seat] == chosen
                    else f"it chose {chosen} and only {counted(sizes[seat], 'token')} were left in the bag"
                    if chosen > 0
                    else "it did not draw"
                )
                raise IllegalChanceOutcomeError(
                    f"seat {seat} must draw exactly {counted(sizes[seat], 'token')} ({why}), not {len(tokens)}"
                )
            total_snakes += tokens.count("S")
        if not self.dice:
            total_eels = sum(sizes) - total_snakes
            if total_snakes > snakes:
                raise IllegalChanceOutcomeError(f"the draws hold {total_snakes} snakes but the bag holds only {snakes}")
            if total_eels > eels:
                raise IllegalChanceOutcomeError(f"the draws hold {total_eels} eels but the bag holds only {eels}")

    def _apply_chance(self, state: EelState, outcome: Outcome) -> EelState:
        assert state.pending is not None  # a chance node always has pending counts
        snakes_drawn = [tokens.count("S") for tokens in outcome]
        eels_drawn = [len(tokens) - s for tokens, s in zip(outcome, snakes_drawn, strict=True)]
        return self._resolve(state, state.pending, eels_drawn, snakes_drawn)


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


def _fallings(n: int, most: int) -> list[int]:
    """``_falling(n, k)`` for ``k`` from 0 to ``most``."""
    out = [1]
    for i in range(most):
        out.append(out[-1] * (n - i))
    return out
