"""Policy tables on disk: one JSON document per solve, and a loader for other tools.

The format (``"format": "gamebag-policy"``, ``"version": 1``) is described in
``docs/solvers.md``. Win policies vary with the score, so their choices are
stored as *runs*: ``[first, last, action]`` means the action for every score
value (difference, or opponent's score) from ``first`` to ``last`` inclusive.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.agents.solvers.model import TurnModel
from gamebag.agents.solvers.race import RaceWinSolution
from gamebag.agents.solvers.rounds import RoundsWinSolution
from gamebag.agents.solvers.score import ScoreSolution
from gamebag.agents.solvers.turn_graph import TurnGraph
from gamebag.core.errors import GamebagError
from gamebag.core.options import OptionValue, options_to_json

FORMAT = "gamebag-policy"
VERSION = 1


class PolicyFileError(GamebagError, ValueError):
    """A policy file that cannot be read or does not follow the format."""


def _header(
    game_id: str, players: int, options: Mapping[str, OptionValue], objective: str, value: float
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game_id,
        "players": players,
        "options": options_to_json(options),
        "objective": objective,
        "value": value,
    }


def score_policy_json(
    model: TurnModel, game_id: str, players: int, options: Mapping[str, OptionValue], solution: ScoreSolution
) -> dict[str, Any]:
    """Every decision node of the turn with its best action and the value of each choice."""
    graph = solution.graph
    data = _header(game_id, players, options, "score", float(solution.value))
    data["value_exact"] = str(solution.value)
    decisions = []
    for node in graph.decision_nodes:
        kids = graph.children[node]
        chosen = solution.choice[node]
        decisions.append(
            {
                "node": model.turn_node_to_json(graph.nodes[node]),
                "action": model.action_to_json(graph.actions[node][chosen]),
                "value": float(solution.node_values[node]),
                "value_exact": str(solution.node_values[node]),
                "choices": [
                    {"action": model.action_to_json(action), "value": float(solution.node_values[kid])}
                    for action, kid in zip(graph.actions[node], kids, strict=True)
                ],
            }
        )
    data["decisions"] = decisions
    return data


def _runs(model: TurnModel, graph: TurnGraph, node: int, chosen: npt.NDArray[np.int8], first: int) -> list[list[Any]]:
    """``[[from, to, action], ...]`` for the choices of one node along a score axis."""
    runs: list[list[Any]] = []
    start = 0
    for position in range(1, len(chosen) + 1):
        if position == len(chosen) or chosen[position] != chosen[start]:
            action = model.action_to_json(graph.actions[node][int(chosen[start])])
            runs.append([first + start, first + position - 1, action])
            start = position
    return runs


def rounds_policy_json(
    model: TurnModel,
    game_id: str,
    options: Mapping[str, OptionValue],
    solution: RoundsWinSolution,
) -> dict[str, Any]:
    """Choices for every turn of the schedule, by difference (seat 0 minus seat 1)."""
    data = _header(game_id, 2, options, "win", solution.value)
    data["model"] = "rounds"
    data["rounds"] = solution.rounds
    data["max_tiebreak_rounds"] = solution.tiebreak_rounds
    data["difference"] = "total of seat 0 minus total of seat 1 at the start of the turn"
    turns = []
    for (round_no, seat), level in sorted(solution.levels.items()):
        graph = level.graph  # each turn's own graph where the turn rules vary
        decisions = [
            {
                "node": model.turn_node_to_json(graph.nodes[node]),
                "runs": _runs(model, graph, node, level.choices[slot], level.low),
            }
            for slot, node in enumerate(graph.decision_nodes)
        ]
        turns.append(
            {
                "round": round_no,
                "seat": seat,
                "differences": [level.low, level.high],
                "start_values": [round(float(v), 12) for v in level.start_values],
                "decisions": decisions,
            }
        )
    data["turns"] = turns
    return data


def race_policy_json(
    model: TurnModel,
    game_id: str,
    options: Mapping[str, OptionValue],
    solution: RaceWinSolution,
) -> dict[str, Any]:
    """Choices for every own score and turn node, by the opponent's score."""
    graph = solution.graph
    data = _header(game_id, 2, options, "win", solution.value)
    data["model"] = "race"
    data["goal"] = solution.goal
    data["win_probability"] = [[round(float(v), 12) for v in row] for row in solution.win_probability]
    decisions = []
    for score in range(solution.goal):
        for slot, node in enumerate(graph.decision_nodes):
            decisions.append(
                {
                    "score": score,
                    "node": model.turn_node_to_json(graph.nodes[node]),
                    "runs": _runs(model, graph, node, solution.choices[score, :, slot], 0),
                }
            )
    data["decisions"] = decisions
    return data


def write_policy(path: str | Path, data: Mapping[str, Any]) -> int:
    """Write a policy table; returns the number of bytes written."""
    text = json.dumps(data, separators=(",", ":"))
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise PolicyFileError(f"cannot write the policy table to {path}: {error.strerror}") from None
    return len(text.encode("utf-8"))


def node_key(node: Any) -> str:
    """The lookup key of a node's JSON description."""
    return json.dumps(node, sort_keys=True, separators=(",", ":"))


@dataclass
class PolicyTable:
    """A loaded policy table: look up the action for a node (and scores, for win tables)."""

    data: dict[str, Any]
    _lookup: dict[tuple[Any, ...], Any] = field(default_factory=dict)

    @property
    def objective(self) -> str:
        return str(self.data["objective"])

    @property
    def value(self) -> float:
        return float(self.data["value"])

    def action(
        self,
        node: Any,
        *,
        round_no: int | None = None,
        seat: int | None = None,
        difference: int | None = None,
        score: int | None = None,
        opponent: int | None = None,
    ) -> Any:
        """The action (as the game's JSON) at ``node``.

        Score tables need only the node; round tables need ``round_no``, ``seat`` and
        ``difference``; race tables ``score`` and ``opponent``.
        """
        key = node_key(node)
        if self.objective == "score":
            found = self._lookup.get((key,))
            if found is None:
                raise KeyError(f"no decision node {key} in this table")
            return found
        if self.data.get("model") == "rounds":
            runs = self._lookup.get((round_no, seat, key))
            axis = difference
        else:
            runs = self._lookup.get((score, key))
            axis = opponent
        if runs is None or axis is None:
            raise KeyError(f"no entry for node {key} at these coordinates")
        for first, last, action in runs:
            if first <= axis <= last:
                return action
        raise KeyError(f"{axis} is outside the table's range for node {key}")


def load_policy(path: str | Path) -> PolicyTable:
    """Read a policy table written by ``gamebag solve --policy-out``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise PolicyFileError(f"cannot read {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise PolicyFileError(f"{path} is not valid JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PolicyFileError(f"{path} is not a {FORMAT} file")
    if data.get("version") != VERSION:
        raise PolicyFileError(f"{path} has version {data.get('version')!r}; this gamebag reads version {VERSION}")
    table = PolicyTable(data)
    if data["objective"] == "score":
        for entry in data["decisions"]:
            table._lookup[(node_key(entry["node"]),)] = entry["action"]
    elif data.get("model") == "rounds":
        for turn in data["turns"]:
            for entry in turn["decisions"]:
                table._lookup[(turn["round"], turn["seat"], node_key(entry["node"]))] = entry["runs"]
    elif data.get("model") == "race":
        for entry in data["decisions"]:
            table._lookup[(entry["score"], node_key(entry["node"]))] = entry["runs"]
    else:
        raise PolicyFileError(f"{path}: unknown policy model {data.get('model')!r}")
    return table
