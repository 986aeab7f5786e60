"""The batched information-set playouts of Eigen Kweek, for the analysis: ``KweekSampler``.

``EigenKweekEngine.sampler(game, agents)`` gives one where the compiled engine plays the game's
options and the agents (the engine's declaration, ``games/eigen_kweek/components.py`` ``ENGINES``,
and its compiled policies), else the one-line reason it refuses. A sampler turns a rules-engine
position into a kernel row once and then runs whole blocks of draws in one compiled call
(``sampling``): no playout and no information-set draw goes back to Python.

``state_with_hidden(game, template, row)`` turns a drawn row back into a rules-engine state: the
template's fields with everything the resampler redraws read from the row (the tests compare the
result with the rules engine, and ``row_from_state`` of it with the row, so no other field moved).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek import layout as L
from gamebag.fast.eigen_kweek import sampling
from gamebag.fast.eigen_kweek.learned import Net
from gamebag.fast.eigen_kweek.tables import row_from_state
from gamebag.fast.rng import run_key
from gamebag.games.eigen_kweek import EigenKweek, KweekState
from gamebag.games.eigen_kweek.components import CARDS
from gamebag.games.eigen_kweek.state import Play, with_fields

Rows = npt.NDArray[np.int32]
KEPT_ROWS = 8
Floats = npt.NDArray[np.float64]


class KweekSampler:
    """Blocks of playouts from a seat's information set at rules-engine positions, compiled."""

    def __init__(
        self,
        game: EigenKweek,
        tables: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
        quiet: npt.NDArray[np.int64],
        codes: npt.NDArray[np.int64],
        masks: npt.NDArray[np.int64],
        net: Net,
    ) -> None:
        self.game = game
        self.cfg, self.acts, self.pays = tables
        self.quiet = quiet
        self.codes = codes
        self.masks = masks
        self.net = net
        self._index = {action: i for i, action in enumerate(game.all_actions())}
        # The rows of the states asked about last (by identity): a decision asks for blocks until
        # its intervals are narrow, each from the same state.
        self._rows: dict[int, tuple[KweekState, npt.NDArray[np.int32]]] = {}

    def row(self, state: KweekState) -> npt.NDArray[np.int32]:
        """The kernel row of ``state`` (kept for the few states asked about most recently)."""
        found = self._rows.get(id(state))
        if found is not None and found[0] is state:
            return found[1]
        row = row_from_state(self.game, state)
        if len(self._rows) >= KEPT_ROWS:
            del self._rows[next(iter(self._rows))]
        self._rows[id(state)] = (state, row)
        return row

    def choice_playouts(
        self,
        state: KweekState,
        seat: int,
        actions: Sequence[str],
        live: Sequence[bool],
        seed: str,
        first: int,
        count: int,
    ) -> tuple[Floats, int]:
        """``(shares, cost)``: ``shares[i, j]`` is ``seat``'s win share after ``actions[j]`` in draw
        ``first + i`` of the run ``seed`` (NaN where ``live[j]`` is false); ``cost`` the rounds played."""
        out = np.zeros((count, len(actions)), np.float64)
        cost = np.zeros(1, np.int64)
        sampling.choice_playouts(
            self.row(state), self.cfg, self.quiet, self.acts, self.pays, self.codes, self.masks, seat,
            np.array([self._index[a] for a in actions], np.int64), np.array(live, np.bool_), run_key(seed), first,
            out, cost, self.net.values, self.net.shape,
        )  # fmt: skip
        _refuse_runaways(out)
        return out, int(cost[0])

    def chance_pairs(
        self,
        before: KweekState,
        after: KweekState,
        seat: int,
        redraw: bool,
        seed: str,
        first: int,
        count: int,
    ) -> tuple[Floats, int]:
        """``(shares, cost)``: per draw, ``seat``'s win share after the real outcome and after one drawn
        again (``redraw``: both positions drawn from the seat's information sets)."""
        out = np.zeros((count, 2), np.float64)
        cost = np.zeros(1, np.int64)
        sampling.chance_pairs(
            self.row(before), self.row(after), self.cfg, self.quiet, self.acts, self.pays, self.codes, self.masks,
            seat, redraw, redraw, run_key(seed), first, out, cost, self.net.values, self.net.shape,
        )  # fmt: skip
        _refuse_runaways(out)
        return out, int(cost[0])

    def worlds(self, state: KweekState, seat: int, seed: str, first: int, count: int) -> Rows:
        """The rows of draws ``first .. first + count - 1`` from ``seat``'s information set at ``state``."""
        out = np.zeros((count, L.WIDTH), np.int32)
        sampling.resample_rows(self.row(state), self.cfg, seat, run_key(seed), first, out)
        return out


def _refuse_runaways(out: Floats) -> None:
    if np.any(out == sampling.RUNAWAY):
        raise RuntimeError(f"an Eigen Kweek playout did not end within {L.MAX_DECISIONS} decisions")


def state_with_hidden(game: EigenKweek, template: KweekState, row: npt.NDArray[np.int32], seat: int) -> KweekState:
    """``template`` with what the resampler redraws read from ``row``: cards (held, dealt, RIA's,
    the stack, who knows which, DEN OLLANDER's takes), coins (collections, corners, bag) and weed
    tokens (collections, sealed hands); the private notes of every seat but ``seat`` (the one the
    row was drawn for) are dropped, as the rules engine's sampler drops them (a row holds no text)."""
    config = game.config
    n = config.players
    slots = [value - 1 for value in config.values]

    def card(code: int) -> str | None:
        return None if code < 0 else CARDS[code]

    def counts(start: int) -> tuple[int, ...]:
        return tuple(int(row[start + slot]) for slot in slots)

    plays = []
    for i, play in enumerate(template.plays):
        took = int(row[L.PLAYS + i * L.PLAY_WIDTH + L.P_TOOK])
        plays.append(play if play.took is None else _with_took(play, card(took)))
    knowledge = frozenset(
        (observer, seat, CARDS[code])
        for observer in range(n)
        for seat in range(n)
        for code in range(L.NCARDS)
        if (int(row[L.KNOW + observer * 4 + seat]) >> code) & 1
    )
    stack_known = frozenset(
        (observer, CARDS[code], where - 2)
        for observer in range(n)
        for where in range(L.PLACES)
        for code in range(L.NCARDS)
        if (int(row[L.STACK_KNOWN + observer * L.PLACES + where]) >> code) & 1
    )
    bids = None if template.bids is None else tuple(int(row[L.BIDS + p]) for p in range(n))
    return with_fields(
        template,
        tokens=tuple(int(row[L.TOKENS + p]) for p in range(n)),
        bids=bids,
        coins=tuple(counts(L.COINS + p * L.VALUES) for p in range(n)),
        corners=tuple(counts(L.CORNER_COINS + c * L.VALUES) for c in range(L.CORNERS)),
        bag=counts(L.BAG),
        bag_seen=counts(L.BAG_SEEN),
        stack=tuple(sorted(CARDS[code] for code in range(L.NCARDS) if (int(row[L.STACK]) >> code) & 1)),
        dealt=tuple(
            tuple(c for c in (card(int(row[L.DEALT + 2 * p + i])) for i in range(len(template.dealt[p]))) if c)
            for p in range(n)
        ),
        held=tuple(card(int(row[L.HELD + p])) for p in range(n)),
        ria_card=card(int(row[L.RIA_CARD])),
        knowledge=knowledge,
        stack_known=stack_known,
        plays=tuple(plays),
        notes=tuple(notes if p == seat else () for p, notes in enumerate(template.notes)),
    )


def _with_took(play: Play, took: str | None) -> Play:
    return Play(play.seat, play.card, play.phase, play.step, play.blocked, play.target, took)
