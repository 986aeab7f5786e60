"""Helpers for the Eel family fast-engine tests: option sets, rules states as kernel rows, tokens conserved."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import gamebag
from equality_sets import EEL_NUMBA
from gamebag.fast.eel import layout
from gamebag.games.eel_family.rules import EelFamilyGame, EelState

# Every option of both rule sets, each on its own and in combination, over player counts 2-8
# (tests/equality_sets.py, where the coverage test reads them).
OPTION_SETS: list[tuple[str, int, dict[str, Any]]] = [(s.game_id, s.players, s.options) for s in EEL_NUMBA]


def option_set_id(option_set: tuple[str, int, dict[str, Any]]) -> str:
    game_id, players, options = option_set
    text = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "defaults"
    return f"{game_id}-{players}p-{text}"


def make_game(option_set: tuple[str, int, dict[str, Any]]) -> EelFamilyGame:
    game_id, players, options = option_set
    game = gamebag.make(game_id, players, **options)
    assert isinstance(game, EelFamilyGame)
    return game


def expected_row(game: EelFamilyGame, state: EelState) -> npt.NDArray[np.int32]:
    """The kernel row that must equal ``state``, field by field (padding seats hold 0)."""
    row = np.zeros(layout.WIDTH, np.int32)
    n = game.num_players
    for p in range(n):
        row[layout.SCORES + p] = state.scores[p]
        row[layout.RESERVES + p] = state.reserves[p]
        row[layout.IN_ROUND + p] = int(state.in_round[p])
        row[layout.EXIT_GRAB + p] = state.exit_grab[p]
        row[layout.WINNER + p] = int(p in state.winners)
    last = state.last
    if last is not None:
        for p in range(n):
            row[layout.LAST_COUNT + p] = last.counts[p]
            row[layout.LAST_EELS + p] = last.eels[p]
            row[layout.LAST_SNAKES + p] = last.snakes[p]
            row[layout.LAST_SCORED + p] = last.scored[p]
            row[layout.LAST_EXITED + p] = int(p in last.exited)
            row[layout.LAST_LOSER + p] = int(p in last.losers)
        row[layout.HAS_LAST] = 1
        row[layout.LAST_OUTBREAK] = int(last.outbreak)
        row[layout.LAST_ROUND_OVER] = int(last.round_over)
    row[layout.BAG_EELS] = state.bag_eels
    row[layout.BAG_SNAKES] = state.bag_snakes
    row[layout.CENTRE] = state.centre
    row[layout.ROUND] = state.round_no
    row[layout.START] = state.start
    row[layout.GRAB] = state.grab_no
    row[layout.LONE_LEFT] = -1 if state.lone_left is None else state.lone_left
    row[layout.OVER] = int(state.over)
    return row


def describe_difference(expected: npt.NDArray[np.int32], got: npt.NDArray[np.int32]) -> str:
    names = {offset + p: f"{name}[{p}]" for name, offset in layout.SEAT_BLOCKS.items() for p in range(8)}
    names.update({offset: name for name, offset in layout.FIELDS.items()})
    diffs = [f"{names[i]}: rules {expected[i]}, kernel {got[i]}" for i in np.flatnonzero(expected != got)]
    return "; ".join(diffs)


def check_tokens(row: npt.NDArray[np.int32], cfg: npt.NDArray[np.int64]) -> None:
    """Every token in exactly one place: bag, a reserve or the centre (the bag is notional with dice)."""
    n = int(cfg[layout.C_PLAYERS])
    reserves = row[layout.RESERVES : layout.RESERVES + n]
    assert (reserves >= 0).all() and row[layout.CENTRE] >= 0
    assert row[layout.BAG_EELS] >= 0 and row[layout.BAG_SNAKES] >= 0
    if cfg[layout.C_DICE]:
        assert row[layout.BAG_EELS] == cfg[layout.C_EELS] and row[layout.BAG_SNAKES] == cfg[layout.C_SNAKES]
        return
    assert row[layout.BAG_EELS] + int(reserves.sum()) == cfg[layout.C_EELS]
    assert row[layout.BAG_SNAKES] + row[layout.CENTRE] == cfg[layout.C_SNAKES]
