"""The Catch A Dragon policies: the compiled ``choose`` and the tables it reads.

``choose`` picks the action of ``random``, ``heuristic``, ``optimal-score`` or
``optimal-win`` at a board row. The heuristic reads its value of every set code (the
heuristic agent's own arithmetic, in the same order); the optimal policies read the
solved optimal-score and optimal-win choices (the exact solvers' own, handed over
through :mod:`gamebag.fast.solved`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.core.protocol import Game
from gamebag.fast import solved
from gamebag.fast.dragon.kernel import (
    held_code,
    legal_range,
    rolled_rank,
)
from gamebag.fast.dragon.layout import (
    COLLECTED,
    COLLECTIONS,
    DECIDING,
    HEURISTIC,
    HEURISTIC_ROLL,
    HEURISTIC_VALUE,
    LEGAL_LIST,
    OPTIMAL_SCORE,
    PHASE,
    POLICIES,
    RANDOM,
    ROLL,
    ROLL_RANK,
    ROLL_RANKS,
    ROUND,
    SCORE_COLLECT,
    SCORE_DECIDE,
    SCORES,
    SEAT,
    SET_CODES,
    SIDES,
    STOP,
    WIN_CHOICES,
    WIN_LOW,
    WIN_OFFSET,
    WIN_SLOT,
    WIN_WIDTH,
    FloatArray,
    Int8Array,
    IntArray,
    RulesArrays,
    TablesArrays,
    U64Array,
)
from gamebag.fast.dragon.tables import (
    DragonRules,
    roll_code,
    roll_tables,
    rules_of,
    set_code,
    set_faces,
)
from gamebag.fast.rng import draw_below, helper
from gamebag.games.catch_a_dragon.dice import bust_probability, set_points
from gamebag.games.catch_a_dragon.strategy import DIFFERENT_GAIN as DIFFERENT_GAIN
from gamebag.games.catch_a_dragon.strategy import ONE_DRAGON_GAIN as ONE_DRAGON_GAIN


# ---- the policies --------------------------------------------------------------------------
@helper
def choose(
    policy: int, board: IntArray, i: int, key: np.uint64, counters: U64Array, rules: RulesArrays, tables: TablesArrays
) -> int:
    """The action ``policy`` takes at row ``i`` (collecting or deciding)."""
    deciding = board[i, PHASE] == DECIDING
    code = held_code(board, i, COLLECTED)
    first, last = (0, 0) if deciding else legal_range(board, i, rules)
    if policy == RANDOM:
        if deciding:
            pick = int(draw_below(key, counters[i], np.int64(2)))
            counters[i] += np.uint64(1)
            return pick
        pick = int(draw_below(key, counters[i], np.int64(last - first)))
        counters[i] += np.uint64(1)
        return int(rules[LEGAL_LIST][first + pick])
    if policy == HEURISTIC:
        if deciding:
            return ROLL if tables[HEURISTIC_ROLL][code] else STOP
        best = -1
        best_value = 0.0
        collections = rules[COLLECTIONS]
        for k in range(first, last):
            action = rules[LEGAL_LIST][k]
            size = 0
            distinct = 0
            mask = 0
            face = 0
            for f in range(SIDES):
                count = board[i, COLLECTED + f] + collections[action, f]
                if count > 0:
                    size += count
                    distinct += 1
                    mask |= 1 << f
                    face = f
            after = 64 + 6 * face + size - 1 if size >= 2 and distinct == 1 else mask
            value = tables[HEURISTIC_VALUE][after]
            if best < 0 or value > best_value:  # ties go to the first, as max() does
                best = action
                best_value = value
        return best
    if policy == OPTIMAL_SCORE:
        if deciding:
            return int(tables[SCORE_DECIDE][code])
        return int(tables[SCORE_COLLECT][code, rolled_rank(board, i, rules[ROLL_RANK])])
    seat = board[i, SEAT]
    round_no = board[i, ROUND]
    if deciding:
        slot = tables[WIN_SLOT][code, 0]
    else:
        slot = tables[WIN_SLOT][code, rolled_rank(board, i, rules[ROLL_RANK]) + 1]
    width = tables[WIN_WIDTH][round_no, seat]
    column = board[i, SCORES] - board[i, SCORES + 1] - tables[WIN_LOW][round_no, seat]
    if slot < 0 or column < 0 or column >= width:
        raise ValueError("optimal-win: a position outside the solved table")
    return int(tables[WIN_CHOICES][tables[WIN_OFFSET][round_no, seat] + slot * width + column])


def heuristic_points(faces: tuple[int, ...], cyclic: bool) -> float:
    """The heuristic agent's scoring: the game's own ``set_points``."""
    return float(set_points(faces, cyclic))


def heuristic_bust_chance(faces: tuple[int, ...], duplicate_bust: str, dice_in_all: int) -> float:
    """The heuristic agent's bust chance: the game's own exact ``bust_probability``."""
    return float(bust_probability(faces, duplicate_bust, dice_in_all))


def heuristic_estimate(faces: tuple[int, ...], cyclic: bool, duplicate_bust: str, dice_in_all: int) -> float:
    """The heuristic agent's value of rolling on with ``faces`` (same arithmetic, same order)."""
    points = heuristic_points(faces, cyclic)
    if len(faces) == dice_in_all:
        return points
    if len(faces) == 1:
        gain = ONE_DRAGON_GAIN
    elif len(set(faces)) == 1:
        gain = float((len(faces) + 1) ** 2 - len(faces) ** 2)
    else:
        gain = DIFFERENT_GAIN
    return (1.0 - heuristic_bust_chance(faces, duplicate_bust, dice_in_all)) * (points + gain)


def heuristic_tables(rules: DragonRules) -> tuple[FloatArray, Int8Array]:
    """``[set code]``: the heuristic's worth of a set (the better of stopping and rolling on), and if it rolls on."""
    value = np.zeros(SET_CODES, dtype=np.float64)
    roll = np.zeros(SET_CODES, dtype=np.int8)
    for code in range(SET_CODES):
        faces = set_faces(code)
        if len(faces) > rules.dice:
            continue
        points = heuristic_points(faces, rules.cyclic)
        estimate = heuristic_estimate(faces, rules.cyclic, rules.duplicate_bust, rules.dice)
        value[code] = max(points, estimate)
        roll[code] = 1 if estimate > points else 0
    return value, roll


def _node_codes(node: Hashable) -> tuple[int, int]:
    """(set code, roll rank, or -1 at a stop-or-roll node) of a turn decision node."""
    if not isinstance(node, tuple) or node[0] not in ("collect", "decide"):
        raise TypeError(f"{node!r} is not a decision node of a Catch A Dragon turn")
    if node[0] == "decide":
        return set_code(node[1]), -1
    return set_code(node[1]), int(roll_tables()[0][roll_code(node[2])])


def score_tables(game: Game[Any, Any, Any]) -> tuple[Int8Array, Int8Array]:
    """``[set code, roll rank]`` and ``[set code]``: the optimal-score action at every decision."""
    # The solved policy is the optimal-score agent's own (computed once per process).
    solution = solved.solution(game, "score")
    collect = np.full((SET_CODES, ROLL_RANKS), -1, dtype=np.int8)
    decide = np.full(SET_CODES, -1, dtype=np.int8)
    for node in solution.graph.decision_nodes:
        turn_node = solution.graph.nodes[node]
        code, rank = _node_codes(turn_node)
        action = game.action_index(solution.action_at(turn_node))
        if rank < 0:
            decide[code] = action
        else:
            collect[code, rank] = action
    return collect, decide


def win_tables(game: Game[Any, Any, Any]) -> tuple[IntArray, Int8Array, npt.NDArray[np.int64], IntArray, IntArray]:
    """The optimal-win action for every (round, seat, score difference, decision), flattened.

    Returns the decision slot of every (set code, roll rank + 1; column 0 for the
    stop-or-roll node), the actions, and each level's offset, smallest difference and width.
    """
    # The solved policy is the optimal-win agent's own (computed once per process), a rounds solution.
    solution = solved.solution(game, "win")
    graph = solution.graph
    slots = np.full((SET_CODES, ROLL_RANKS + 1), -1, dtype=np.int32)
    widest = max(len(graph.actions[n]) for n in graph.decision_nodes)
    actions = np.zeros((len(graph.decision_nodes), widest), dtype=np.int8)
    for slot, node in enumerate(graph.decision_nodes):
        code, rank = _node_codes(graph.nodes[node])
        slots[code, rank + 1] = slot
        for k, action in enumerate(graph.actions[node]):
            actions[slot, k] = game.action_index(action)
    last_round = solution.rounds + solution.tiebreak_rounds
    offset = np.zeros((last_round + 1, 2), dtype=np.int64)
    low = np.zeros((last_round + 1, 2), dtype=np.int32)
    width = np.zeros((last_round + 1, 2), dtype=np.int32)
    parts = []
    position = 0
    for (round_no, seat), level in sorted(solution.levels.items()):
        parts.append(np.take_along_axis(actions, level.choices.astype(np.int64), axis=1).ravel())
        offset[round_no, seat] = position
        low[round_no, seat] = level.low
        width[round_no, seat] = level.choices.shape[1]
        position += level.choices.size
    return slots, np.concatenate(parts).astype(np.int8), offset, low, width


_TABLES: dict[tuple[Any, ...], TablesArrays] = {}
KEPT_TABLES = 8  # configurations whose tables stay in memory (a simulation asks once per chunk)


def policy_tables(game: Game[Any, Any, Any], agents: Sequence[str]) -> TablesArrays:
    """The tables the named policies read (a placeholder where no policy reads one), kept per configuration."""
    key = (game.num_players, tuple(sorted(game.options.items())), *(name in agents for name in POLICIES[1:]))
    tables = _TABLES.get(key)
    if tables is None:
        if len(_TABLES) >= KEPT_TABLES:
            _TABLES.pop(next(iter(_TABLES)))
        tables = _TABLES[key] = _build_tables(game, agents)
    return tables


def _build_tables(game: Game[Any, Any, Any], agents: Sequence[str]) -> TablesArrays:
    rules = rules_of(game)
    value, roll = heuristic_tables(rules) if "heuristic" in agents else (np.zeros(1), np.zeros(1, dtype=np.int8))
    collect, decide = (
        score_tables(game)
        if "optimal-score" in agents
        else (np.zeros((1, 1), dtype=np.int8), np.zeros(1, dtype=np.int8))
    )
    if "optimal-win" in agents:
        slots, choices, offset, low, width = win_tables(game)
    else:
        slots, choices = np.zeros((1, 1), dtype=np.int32), np.zeros(1, dtype=np.int8)
        offset, low, width = np.zeros((1, 1), dtype=np.int64), np.zeros((1, 1), np.int32), np.zeros((1, 1), np.int32)
    return (value, roll, collect, decide, slots, choices, offset, low, width)


def policy_codes(agents: Sequence[str]) -> Int8Array:
    return np.array([POLICIES.index(agent) for agent in agents], dtype=np.int8)
