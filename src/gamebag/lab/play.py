"""Playing one block of a cell's games: compiled engine or rules engine, the same numbers anywhere.

Game ``i`` of a cell is seeded by ``(cell seed, i)`` only: with the rules engine it
draws from ``derive_rng(cell seed, "game", i)``, with the compiled engine from the
kernel's counter-based generator keyed the same way. Which engine plays a cell is
decided once, before the study starts, so a block gives the same rows whether it
runs in this process, in a worker process or on a Ray node.

The rules-engine loop also counts the simultaneous decisions (two or more seats
choosing at once) where every seat chose the same action, which the study reports
when bots move in lockstep, and stops a game that passes ``max_rounds`` (no
winner; reported as capped).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.agents.base import SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import derive_rng
from gamebag.lab.cells import Cell
from gamebag.sim.simulate import ended_by_reason
from gamebag.sim.stepped import play_stepped, stepped_reason

RULES = "rules"
FAST = "compiled"
# The compiled step batch with a network in a seat (``gamebag.sim.stepped``).
STEPPED = "compiled+learned"
LAB_CAP = "lab round cap"
# The compiled engine reports progress after each sub-batch of this many games.
FAST_TICK = 500
MAX_STEPS_PER_ROUND = 100_000

Tick = Callable[[int], None]


@dataclass
class Block:
    """The per-game rows of games ``start .. start + len - 1`` of one cell."""

    cell: int
    start: int
    scores: npt.NDArray[np.float64]  # [games, players]
    returns: npt.NDArray[np.float64]  # [games, players] win shares
    length: npt.NDArray[np.int64]  # [games]: the game's round count
    ended_by: list[str]  # "" for an ordinary end
    first_player: npt.NDArray[np.int64]
    joint: npt.NDArray[np.int64]  # simultaneous decisions per game (-1: not measured)
    alike: npt.NDArray[np.int64]  # of those, how many had every seat choose the same action
    seats: npt.NDArray[np.int64] | None = None  # [games, players]: index into the cell's agents (populations)

    def __len__(self) -> int:
        return int(self.length.shape[0])


def choose_engine(cell: Cell) -> tuple[str, str | None]:
    """``(engine, reason)``: the compiled engine where one plays the cell, else the rules engine and why."""
    from gamebag.fast import unavailable_reason

    game = cell.make_game()
    if cell.population:
        # Seats are drawn per game, so every agent of the population must have a compiled policy.
        reasons = [unavailable_reason(game, [spec] * cell.players) for spec in cell.agents]
        reason = next((r for r in reasons if r is not None), None)
    else:
        reason = unavailable_reason(game, list(cell.agents))
    if reason is None:
        return FAST, None
    # A network in a seat: the step batch plays it where every other agent is compiled.
    if stepped_reason(game, cell.agents) is None:
        return STEPPED, None
    return RULES, reason


def play_block(cell: Cell, start: int, stop: int, engine: str, max_rounds: int, tick: Tick | None = None) -> Block:
    """Play games ``start .. stop - 1`` of ``cell`` on ``engine``; ``tick(k)`` after every finished game(s).

    A game longer than ``max_rounds`` counts as capped on either engine: it has no
    winner. The rules engine stops it at the cap; the compiled engine plays it out
    (its own step cap stops only runaway policies) and the lab marks it afterwards.
    """
    if engine == FAST:
        try:
            block = _play_fast(cell, start, stop, tick)
        except RuntimeError:  # the kernel's own step cap: this block is played by the rules engine
            return _play_rules(cell, start, stop, max_rounds, None)
        capped = block.length > max_rounds
        if np.any(capped):
            block.returns[capped] = 0.0
            block.ended_by = [LAB_CAP if c else reason for c, reason in zip(capped, block.ended_by, strict=True)]
        return block
    if engine == STEPPED:
        return _play_stepped(cell, start, stop, max_rounds, tick)
    return _play_rules(cell, start, stop, max_rounds, tick)


def _play_stepped(cell: Cell, start: int, stop: int, max_rounds: int, tick: Tick | None) -> Block:
    game = cell.make_game()
    lineups = [tuple(cell.agents[k] for k in cell.seat_agents(index)) for index in range(start, stop)]
    played = play_stepped(game, lineups, cell.seed, start, max_rounds, tick)
    capped = played.length > max_rounds
    played.returns[capped] = 0.0
    count = stop - start
    return Block(
        cell=cell.index,
        start=start,
        scores=played.scores,
        returns=played.returns,
        length=played.length,
        ended_by=[LAB_CAP if c else reason for c, reason in zip(capped, played.ended_by, strict=True)],
        first_player=np.zeros(count, np.int64),  # seat 0 starts every game of the step batches
        joint=np.full(count, -1, np.int64),
        alike=np.zeros(count, np.int64),
        seats=_seat_table(cell, start, stop),
    )


def _play_fast(cell: Cell, start: int, stop: int, tick: Tick | None) -> Block:
    from gamebag.fast import engine_for

    game = cell.make_game()
    engine = engine_for(game, list(cell.agents))
    if engine is None:
        raise RuntimeError(f"{cell.game}: the compiled engine chosen for this study is not available here")
    parts = []
    if cell.population:
        # One call per game with that game's seats: game i's dice and draws come from (seed, i) alone,
        # so playing it alone gives the same game as playing it in a block.
        for index in range(start, stop):
            seats = [cell.agents[k] for k in cell.seat_agents(index)]
            parts.append(engine.play(game, seats, cell.seed, index, index + 1))
            if tick is not None and (index + 1 - start) % FAST_TICK == 0:
                tick(FAST_TICK)
        if tick is not None and (stop - start) % FAST_TICK:
            tick((stop - start) % FAST_TICK)
    else:
        for first in range(start, stop, FAST_TICK):
            last = min(stop, first + FAST_TICK)
            parts.append(engine.play(game, list(cell.agents), cell.seed, first, last))
            if tick is not None:
                tick(last - first)
    count = stop - start
    names = [name for part in parts for name in (part.ended_by_names[int(k)] for k in part.ended_by)]
    return Block(
        cell=cell.index,
        start=start,
        scores=np.concatenate([p.scores for p in parts]).astype(np.float64),
        returns=np.concatenate([p.returns for p in parts]).astype(np.float64),
        length=np.concatenate([p.length for p in parts]).astype(np.int64),
        ended_by=names,
        first_player=np.concatenate([p.first_player for p in parts]).astype(np.int64),
        joint=np.full(count, -1, np.int64),
        alike=np.zeros(count, np.int64),
        seats=_seat_table(cell, start, stop),
    )


def _seat_table(cell: Cell, start: int, stop: int) -> npt.NDArray[np.int64] | None:
    if not cell.population:
        return None
    return np.array([cell.seat_agents(index) for index in range(start, stop)], dtype=np.int64).reshape(
        stop - start, cell.players
    )


def _play_rules(cell: Cell, start: int, stop: int, max_rounds: int, tick: Tick | None) -> Block:
    game = cell.make_game()
    pool = [make_agent(spec, game) for spec in cell.agents]
    n, count = cell.players, stop - start
    scores = np.zeros((count, n))
    returns = np.zeros((count, n))
    length = np.zeros(count, np.int64)
    joint = np.zeros(count, np.int64)
    alike = np.zeros(count, np.int64)
    ended_by: list[str] = []
    for row, index in enumerate(range(start, stop)):
        rng = derive_rng(cell.seed, "game", index)
        agents = [pool[k] for k in cell.seat_agents(index)]
        state, capped, joint[row], alike[row] = _play_one(game, agents, rng, max_rounds)
        scores[row] = game.scores(state)
        length[row] = game.round_number(state)
        if capped:
            ended_by.append(LAB_CAP)
        else:
            returns[row] = game.returns(state)
            ended_by.append(ended_by_reason(game, state) or "")
        if tick is not None:
            tick(1)
    return Block(
        cell=cell.index,
        start=start,
        scores=scores,
        returns=returns,
        length=length,
        ended_by=ended_by,
        first_player=np.zeros(count, np.int64),  # every game here starts with seat 0
        joint=joint,
        alike=alike,
        seats=_seat_table(cell, start, stop),
    )


def _play_one(game: Game[Any, Any, Any], agents: list[Any], rng: Any, max_rounds: int) -> tuple[Any, bool, int, int]:
    """Play one game; ``(final state, capped, simultaneous decisions, all-alike decisions)``."""
    state = game.initial_state()
    joint = alike = 0
    steps = 0
    while True:
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return state, False, joint, alike
        if kind is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            moves = {p: agents[p].act(SeatView(game, state, p), rng) for p in game.acting_players(state)}
            if len(moves) >= 2:
                joint += 1
                first = next(iter(moves.values()))
                alike += all(move == first for move in moves.values())
            state = game.apply(state, moves)
        steps += 1
        if game.round_number(state) > max_rounds or steps > MAX_STEPS_PER_ROUND * max_rounds:
            return state, True, joint, alike
