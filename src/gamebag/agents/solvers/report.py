"""What ``gamebag solve`` reports: a JSON-ready summary of one solve.

Kept apart from the command line so that tests, notebooks and the benchmark get
the same figures. Every report has ``game``, ``objective``, ``players``,
``options``, ``value`` (a float) and ``seconds`` (the solve's own time).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Hashable
from typing import Any

import gamebag
from gamebag.agents.solvers.model import TurnModel
from gamebag.agents.solvers.policy_file import (
    race_policy_json,
    rounds_policy_json,
    score_policy_json,
)
from gamebag.agents.solvers.race import RaceWinSolution
from gamebag.agents.solvers.rounds import (
    Difference,
    RoundsWinSolution,
    differences,
    outcome_breakdown,
    score_policy_tables,
)
from gamebag.agents.solvers.score import ScoreSolution
from gamebag.agents.solvers.solutions import (
    OBJECTIVES,
    SolveError,
    rules_at,
    score_solution,
    turn_model,
    turn_rules_keys,
    win_solution,
)
from gamebag.core.options import options_to_json
from gamebag.core.protocol import Game


def solve_report(game: Game[Any, Any, Any], objective: str, *, compare: bool = True, top: int = 10) -> dict[str, Any]:
    """Solve ``game`` for ``objective`` and summarise it (with comparisons if ``compare``)."""
    if objective not in OBJECTIVES:
        raise SolveError(f"objective {objective!r} is not known; choose one of {', '.join(OBJECTIVES)}")
    model = turn_model(game)
    report: dict[str, Any] = {
        "game": game.game_id,
        "title": game.title,
        "objective": objective,
        "players": game.num_players,
        "options": options_to_json(game.options),
    }
    if objective == "score":
        report.update(_score_part(game))
    else:
        report.update(_win_part(game, model, compare, top))
    report["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    baseline = _baseline(game, objective)
    if baseline is not None:
        report["baseline"] = baseline
    return report


def _score_part(game: Game[Any, Any, Any]) -> dict[str, Any]:
    """The first turn's solve; where the turn rules vary, each key's solve under ``by_turn_rules``."""
    part = _one_score(score_solution(game))
    keys = turn_rules_keys(game)
    if len(keys) > 1:
        part["by_turn_rules"] = [{"turn_rules": str(key), **_one_score(score_solution(game, key))} for key in keys]
    return part


def _one_score(solution: ScoreSolution) -> dict[str, Any]:
    return {
        "value": float(solution.value),
        "value_exact": str(solution.value),
        "seconds": solution.seconds,
        "turn_nodes": solution.graph.size,
        "decision_nodes": solution.decisions,
        "bust_probability": float(solution.bust_probability()),
        "points_distribution": {str(p): float(q) for p, q in solution.distribution.items()},
    }


def _win_part(game: Game[Any, Any, Any], model: TurnModel, compare: bool, top: int) -> dict[str, Any]:
    started = time.perf_counter()
    solution = win_solution(game)
    part: dict[str, Any] = {
        "value": solution.value,
        "seconds": solution.seconds,
        "table_entries": solution.table_entries,
        "table_bytes": solution.table_bytes,
    }
    if isinstance(solution, RaceWinSolution):
        part.update({"model": "race", "goal": solution.goal, "sweeps": solution.sweeps})
        return part
    part.update(
        {
            "model": "rounds",
            "rounds": solution.rounds,
            "max_tiebreak_rounds": solution.tiebreak_rounds,
            "outcomes": solution.breakdown,
        }
    )
    if compare:
        part["versus_optimal_score"] = _versus_score(game, model, solution, top)
    part["report_seconds"] = time.perf_counter() - started
    return part


def _versus_score(game: Game[Any, Any, Any], model: TurnModel, solution: RoundsWinSolution, top: int) -> dict[str, Any]:
    """Exact head-to-head shares and the decisions where the two policies differ."""
    def score_choice(round_no: int, seat: int) -> dict[int, int]:
        return score_solution(game, rules_at(game, round_no, seat)).choice

    table = score_policy_tables(solution, score_choice)
    found, situations = differences(solution, score_choice)
    by_turn: dict[str, int] = {}
    by_kind: dict[str, int] = {}
    kinds: dict[tuple[Any, Any], str] = {}  # a few distinct action pairs recur thousands of times
    for item in sorted(found, key=lambda d: (d.round, d.seat)):
        label = f"round {item.round} seat {item.seat}"
        by_turn[label] = by_turn.get(label, 0) + 1
        pair = (item.win_action, item.score_action)
        kind = kinds.get(pair)
        if kind is None:
            win_json, score_json = model.action_to_json(item.win_action), model.action_to_json(item.score_action)
            if isinstance(win_json, str) and isinstance(score_json, str):
                kind = f"'{win_json}' instead of '{score_json}'"
            else:
                kind = "a different collection or other choice"
            kinds[pair] = kind
        by_kind[kind] = by_kind.get(kind, 0) + 1
    return {
        "win_vs_score": outcome_breakdown(solution, None, table)["share"],
        "score_vs_win": outcome_breakdown(solution, table, None)["share"],
        "score_vs_score": outcome_breakdown(solution, table, table)["share"],
        "differing_decisions": len(found),
        "reachable_decisions": situations,
        "differing_by_turn": by_turn,
        "differing_by_kind": dict(sorted(by_kind.items(), key=lambda kv: -kv[1])),
        "top": _grouped(model, found)[:top],
    }


def _grouped(model: TurnModel, found: list[Difference]) -> list[dict[str, Any]]:
    """Differences grouped by turn and situation, over the score differences where they occur.

    ``weight`` sums gain x reach over the group: the win share optimal-win gains
    there, on average over games, by deciding as it does at that one decision.
    """
    groups: dict[tuple[int, int, Hashable, Any, Any], list[Difference]] = {}
    for item in found:
        key = (item.round, item.seat, item.node, item.win_action, item.score_action)
        groups.setdefault(key, []).append(item)
    rows = []
    for (round_no, seat, node, win_action, score_action), items in groups.items():
        rows.append(
            {
                "round": round_no,
                "seat": seat,
                "node": model.turn_node_to_json(node),
                "optimal_win": model.action_to_json(win_action),
                "optimal_score": model.action_to_json(score_action),
                "differences": _ranges(sorted(i.difference for i in items)),
                "max_gain": max(i.gain for i in items),
                "reach": sum(i.reach for i in items),
                "weight": sum(i.weight for i in items),
            }
        )
    rows.sort(key=lambda row: -row["weight"])
    return rows


def _ranges(values: list[int]) -> list[list[int]]:
    """[1, 2, 3, 7] -> [[1, 3], [7, 7]]."""
    ranges: list[list[int]] = []
    for value in values:
        if ranges and value == ranges[-1][1] + 1:
            ranges[-1][1] = value
        else:
            ranges.append([value, value])
    return ranges


def _baseline(game: Game[Any, Any, Any], objective: str) -> dict[str, Any] | None:
    """The value with every option at its default, when the game's options differ."""
    defaults = gamebag.make(game.game_id, game.num_players)
    if dict(defaults.options) == dict(game.options):
        return None
    value = float(score_solution(defaults).value) if objective == "score" else win_solution(defaults).value
    return {"options": options_to_json(defaults.options), "value": value}


def policy_table(game: Game[Any, Any, Any], objective: str) -> dict[str, Any]:
    """The whole policy table of a solve, in the documented file format."""
    model = turn_model(game)
    if objective == "score":
        keys = turn_rules_keys(game)
        if len(keys) > 1:
            raise SolveError(
                f"{game.game_id}'s turns follow {len(keys)} different rules, and a score policy table holds one "
                "turn's; write the win objective's table (it has every turn), or read each turn's with the API"
            )
        return score_policy_json(model, game.game_id, game.num_players, game.options, score_solution(game))
    solution = win_solution(game)
    if isinstance(solution, RaceWinSolution):
        return race_policy_json(model, game.game_id, game.options, solution)
    return rounds_policy_json(model, game.game_id, game.options, solution)
