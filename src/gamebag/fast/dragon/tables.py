"""The rules of one Catch A Dragon configuration as arrays, built once in plain Python.

Set codes and roll ranks (see ``layout``), the points of every set (the rules' own
``set_points``), the dice each action collects, the legal collections of every set and
roll (the rules' own ``legal_collections``), a configuration's ``RulesArrays``, and a
rules-engine state as a board row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.core.protocol import Game
from gamebag.fast.dragon.layout import (
    FIELDS,
    MAX_DICE,
    MAX_PLAYERS,
    ROLL_CODES,
    ROLL_RANKS,
    SET_CODES,
    SIDES,
    TURN_ENDINGS,
    Int8Array,
    IntArray,
    RulesArrays,
)
from gamebag.games.catch_a_dragon.dice import all_collections, legal_collections, set_points
from gamebag.games.catch_a_dragon.rules import (
    CatchADragon,
    DragonState,
    Phase,
)


# ---- set codes and roll ranks (plain Python, built once) -----------------------------------
def set_code(faces: Sequence[int]) -> int:
    """The code of a valid set given as face numbers."""
    if len(faces) >= 2 and len(set(faces)) == 1:
        return 64 + 6 * (faces[0] - 1) + len(faces) - 1
    mask = 0
    for face in faces:
        mask |= 1 << (face - 1)
    return mask


def set_faces(code: int) -> tuple[int, ...]:
    """The sorted faces of a set code."""
    if code >= 64:
        face, count = divmod(code - 64, 6)
        return (face + 1,) * (count + 1)
    return tuple(face for face in range(1, SIDES + 1) if code >> (face - 1) & 1)


def roll_code(faces: Sequence[int]) -> int:
    """The base-7 number of a roll's face counts."""
    code = 0
    for face in faces:
        code += 7 ** (face - 1)
    return code


@cache
def roll_tables() -> tuple[npt.NDArray[np.int16], tuple[tuple[int, ...], ...]]:
    """(rank of every base-7 roll code, -1 for none; the sorted roll of every rank)."""
    rank = np.full(ROLL_CODES, -1, dtype=np.int16)
    rolls: list[tuple[int, ...]] = []
    for counts in product(range(MAX_DICE + 1), repeat=SIDES):
        if sum(counts) <= MAX_DICE:
            roll = tuple(face for face in range(1, SIDES + 1) for _ in range(counts[face - 1]))
            rank[roll_code(roll)] = len(rolls)
            rolls.append(roll)
    return rank, tuple(rolls)


@cache
def points_table(cyclic: bool) -> IntArray:
    """The rules' points of every valid set code (0 for codes that name no set)."""
    table = np.zeros(SET_CODES, dtype=np.int32)
    for code in range(SET_CODES):
        table[code] = set_points(set_faces(code), cyclic)
    return table


@cache
def collection_table(dice: int) -> Int8Array:
    """``[action, face]``: the dice each collection action takes (rows 0 and 1, stop and roll, are 0)."""
    collections = all_collections(dice)
    table = np.zeros((2 + len(collections), SIDES), dtype=np.int8)
    for k, collection in enumerate(collections):
        for face in collection:
            table[2 + k, face - 1] += 1
    return table


# ---- configuration and tables --------------------------------------------------------------
@dataclass(frozen=True)
class DragonRules:
    """The options of one configured Catch A Dragon that change play."""

    players: int
    dice: int
    rounds: int
    tiebreaks: int
    duplicate_bust: str
    cyclic: bool


def rules_of(game: Game[Any, Any, Any]) -> DragonRules:
    """What the configured rules engine plays by (its own values: no default is copied here)."""
    if not isinstance(game, CatchADragon):
        raise TypeError(f"the Catch A Dragon kernels play catch-a-dragon, not {game.game_id}")
    return DragonRules(
        players=game.num_players,
        dice=game.dice,
        rounds=game.rounds,
        tiebreaks=game.max_tiebreak_rounds,
        duplicate_bust=game.duplicate_bust,
        cyclic=game.cyclic,
    )


@cache
def legal_tables(dice: int, duplicate_bust: str) -> tuple[IntArray, Int8Array]:
    """(range starts by set code x roll rank, action indices): the rules' ``legal_collections``."""
    action_of = {collection: 2 + k for k, collection in enumerate(all_collections(dice))}
    _, rolls = roll_tables()
    starts = np.zeros(SET_CODES * ROLL_RANKS + 1, dtype=np.int32)
    actions: list[int] = []
    for code in range(SET_CODES):
        held = set_faces(code)
        for rank, roll in enumerate(rolls):
            starts[code * ROLL_RANKS + rank] = len(actions)
            if len(held) < dice and len(roll) == dice - len(held) and (code < 64 or len(held) >= 2):
                actions.extend(action_of[c] for c in legal_collections(held, roll, duplicate_bust))
    starts[-1] = len(actions)
    return starts, np.array(actions, dtype=np.int8)


@cache
def rules_arrays(rules: DragonRules) -> RulesArrays:
    """The kernels' view of ``rules`` (see ``CONFIG`` ... ``LEGAL_LIST``)."""
    config = np.array([rules.players, rules.dice, rules.rounds, rules.tiebreaks], dtype=np.int32)
    starts, actions = legal_tables(rules.dice, rules.duplicate_bust)
    return (config, points_table(rules.cyclic), collection_table(rules.dice), roll_tables()[0], starts, actions)


def _counts(faces: tuple[int, ...]) -> list[int]:
    return [faces.count(face) for face in range(1, SIDES + 1)]


_PHASE_INDEX = {phase: k for k, phase in enumerate(Phase)}


def board_row(state: DragonState) -> list[int]:
    """A rules-engine state as a board row (the exact replays prove the two agree)."""
    row = [*state.scores, *([0] * (MAX_PLAYERS - len(state.scores)))]
    row += [state.round_no, state.seat, _PHASE_INDEX[state.phase], *_counts(state.collected), *_counts(state.rolled)]
    row.append(sum(1 << seat for seat in state.winners))
    last = state.last_turn
    if last is None:
        return row + [0] * (FIELDS - len(row))
    row += [1, last.seat, last.round_no, *_counts(last.collected), *_counts(last.last_roll), last.points]
    row.append(TURN_ENDINGS.index(last.ended_by))
    return row
