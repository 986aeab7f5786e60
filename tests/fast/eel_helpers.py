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
    return np.array(expected_list(game, state), np.int32)


def expected_list(game: EelFamilyGame, state: EelState) -> list[int]:
    """``expected_row`` as a list of Python ints: the replay harness compares rows as lists after
    every step of every replayed game, and filling a list costs a fraction of numpy's item writes."""
    row = [0] * layout.WIDTH
    n = game.num_players
    seats = range(n)

    def put(offset: int, values: list[int]) -> None:
        assert len(values) == n, (offset, values)
        row[offset : offset + n] = values

    put(layout.SCORES, list(state.scores))
    put(layout.RESERVES, list(state.reserves))
    put(layout.IN_ROUND, [int(x) for x in state.in_round])
    put(layout.EXIT_GRAB, list(state.exit_grab))
    put(layout.WINNER, [int(p in state.winners) for p in seats])
    last = state.last
    if last is not None:
        put(layout.LAST_COUNT, list(last.counts))
        put(layout.LAST_EELS, list(last.eels))
        put(layout.LAST_SNAKES, list(last.snakes))
        put(layout.LAST_SCORED, list(last.scored))
        put(layout.LAST_EXITED, [int(p in last.exited) for p in seats])
        put(layout.LAST_LOSER, [int(p in last.losers) for p in seats])
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
    # On Python ints: this runs after every step of every replayed game.
    board = row.tolist()
    n = int(cfg[layout.C_PLAYERS])
    reserves = board[layout.RESERVES : layout.RESERVES + n]
    bag_eels, bag_snakes, centre = board[layout.BAG_EELS], board[layout.BAG_SNAKES], board[layout.CENTRE]
    assert min(reserves) >= 0 and centre >= 0
    assert bag_eels >= 0 and bag_snakes >= 0
    if cfg[layout.C_DICE]:
        assert bag_eels == cfg[layout.C_EELS] and bag_snakes == cfg[layout.C_SNAKES]
        return
    assert bag_eels + sum(reserves) == cfg[layout.C_EELS]
    assert bag_snakes + centre == cfg[layout.C_SNAKES]
