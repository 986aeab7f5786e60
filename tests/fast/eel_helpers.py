"""Helpers for the Eel family fast-engine tests: option sets, and rules states as kernel rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

import gamebag
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import Rng
from gamebag.fast.eel import batch, kernel, layout
from gamebag.fast.eel.engine import kernel_config
from gamebag.games.eel_family.rules import EelFamilyGame, EelState

# Every option of both rule sets, each on its own and in combination, over player counts 2-8.
OPTION_SETS: list[tuple[str, int, dict[str, Any]]] = [
    ("wriggle-roulette", 2, {}),
    ("wriggle-roulette", 3, {"rotate_start": True}),
    ("wriggle-roulette", 4, {}),
    ("wriggle-roulette", 5, {"rotate_start": True}),
    ("wriggle-roulette", 8, {}),
    ("eel-harvest", 2, {}),
    ("eel-harvest", 4, {}),
    ("eel-harvest", 3, {"outbreak_scores_reserve": True}),
    ("eel-harvest", 4, {"rotate_start": True}),
    ("eel-harvest", 2, {"lone_player_grabs": 0}),
    ("eel-harvest", 3, {"lone_player_grabs": 2}),
    ("eel-harvest", 5, {"draw": "dice"}),
    ("eel-harvest", 6, {"draw": "dice", "lone_player_grabs": 1}),
    ("eel-harvest", 4, {"draw": "dice", "lone_player_grabs": 1, "outbreak_scores_reserve": True, "rotate_start": True}),
    ("eel-harvest", 7, {"lone_player_grabs": 3, "outbreak_scores_reserve": True}),
    ("eel-harvest", 8, {"rotate_start": True}),
    ("wriggle-roulette", 4, {"eels": 30, "snakes": 12, "target": 15, "max_grab": 3, "outbreak_snakes": 8}),
    ("eel-harvest", 3, {"eels": 80, "snakes": 25, "target": 30, "max_grab": 7, "outbreak_snakes": 10}),
    ("eel-harvest", 2, {"draw": "dice", "max_grab": 2, "target": 12, "lone_player_grabs": 4}),
]


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


@dataclass
class ReplayLog:
    """What replaying rules-engine games through the kernel found."""

    games: int = 0
    steps: int = 0
    mismatches: list[str] = field(default_factory=list)
    returns: list[tuple[float, ...]] = field(default_factory=list)
    scores: list[tuple[float, ...]] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)


def replay_game(game: EelFamilyGame, choose: Any, rng: Rng, log: ReplayLog) -> None:
    """Play one rules-engine game, choosing with ``choose(state, seat)``; after every grab feed
    the same choices and draws to the kernel and compare the full state and every view."""
    cfg = kernel_config(game)
    n = game.num_players
    row = np.zeros(layout.WIDTH, np.int32)
    kernel.new_game(row, cfg)
    state = game.initial_state()
    counts = np.full(layout.MAX_SEATS, -1, np.int64)
    sizes = np.zeros(layout.MAX_SEATS, np.int64)
    eels = np.zeros(layout.MAX_SEATS, np.int64)
    snakes = np.zeros(layout.MAX_SEATS, np.int64)
    observed = np.zeros((1, n, batch.OBSERVATION_SIZE), np.float32)
    _compare(game, state, row, cfg, observed, log)
    while game.node_kind(state) is not NodeKind.TERMINAL:
        moves = {p: choose(state, p) for p in game.acting_players(state)}
        counts[:] = -1
        for seat, count in moves.items():
            counts[seat] = count
        state = game.apply(state, moves)
        eels[:] = 0
        snakes[:] = 0
        kernel.draw_sizes(row, cfg, counts, sizes)
        if game.node_kind(state) is NodeKind.CHANCE:
            outcome = game.sample_chance(state, rng)
            state = game.apply_chance(state, outcome)
            for p, tokens in enumerate(outcome):
                snakes[p] = tokens.count("S")
                eels[p] = len(tokens) - snakes[p]
        drawn = eels[:n] + snakes[:n]
        if not np.array_equal(sizes[:n], drawn):
            log.mismatches.append(f"draw sizes: rules {drawn.tolist()}, kernel {sizes[:n].tolist()}")
        kernel.resolve(row, cfg, counts, eels, snakes)
        log.steps += 1
        _compare(game, state, row, cfg, observed, log)
        if len(log.mismatches) > 5:
            break
    log.games += 1
    log.returns.append(game.returns(state))
    log.scores.append(game.scores(state))
    log.lengths.append(game.round_number(state))


def _compare(
    game: EelFamilyGame,
    state: EelState,
    row: npt.NDArray[np.int32],
    cfg: npt.NDArray[np.int64],
    observed: npt.NDArray[np.float32],
    log: ReplayLog,
) -> None:
    expected = expected_row(game, state)
    if not np.array_equal(expected, row):
        log.mismatches.append(f"game {log.games} grab {log.steps}: {describe_difference(expected, row)}")
    try:
        check_tokens(row, cfg)
    except AssertionError:
        log.mismatches.append(f"game {log.games} grab {log.steps}: tokens not conserved in {row.tolist()}")
    if state.over:
        return
    batch.observe(row[None, :], cfg, observed)
    for p in range(game.num_players):
        wanted = np.array(game.observation_tensor(state, p), np.float32)
        if not np.array_equal(wanted, observed[0, p]):
            log.mismatches.append(f"game {log.games} grab {log.steps}: observation of seat {p} differs")
