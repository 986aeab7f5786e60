"""Policy tables: written in the documented format, loaded back, and consistent with the solvers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gamebag
from gamebag.agents.solvers.policy_file import PolicyFileError, load_policy, write_policy
from gamebag.agents.solvers.report import policy_table, solve_report
from gamebag.agents.solvers.solutions import score_solution, turn_model, win_solution


def test_score_table_round_trip(tmp_path: Path) -> None:
    game = gamebag.make("catch-a-dragon", 2)
    path = tmp_path / "score.json"
    write_policy(path, policy_table(game, "score"))
    table = load_policy(path)
    assert table.objective == "score"
    assert table.data["value_exact"] == "1238297/186624"
    solution = score_solution(game)
    for node in solution.graph.decision_nodes[::37]:
        key = turn_model(game).turn_node_to_json(solution.graph.nodes[node])
        expected = game.action_to_json(solution.action_at(solution.graph.nodes[node]))
        assert table.action(key) == expected
    assert table.action({"step": "decide", "held": ["red", "red", "red"]}) == "stop"


def test_rounds_win_table_round_trip(tmp_path: Path) -> None:
    game = gamebag.make("catch-a-dragon", 2)
    path = tmp_path / "win.json"
    write_policy(path, policy_table(game, "win"))
    data = json.loads(path.read_text())
    assert data["format"] == "gamebag-policy" and data["model"] == "rounds"
    table = load_policy(path)
    solution = win_solution(game)
    graph = solution.graph
    for round_no, seat, difference in ((1, 0, 0), (4, 1, 8), (4, 0, -12), (5, 1, 3)):
        for node in graph.decision_nodes[::53]:
            choice = solution.choice_at(round_no, seat, difference, graph.nodes[node])
            expected = game.action_to_json(graph.actions[node][choice])
            found = table.action(
                turn_model(game).turn_node_to_json(graph.nodes[node]),
                round_no=round_no,
                seat=seat,
                difference=difference,
            )
            assert found == expected
    node = {"step": "decide", "held": ["green", "green"]}
    assert table.action(node, round_no=4, seat=1, difference=8) == "roll"  # behind by 8: 4 points cannot win
    assert table.action(node, round_no=1, seat=0, difference=0) == "stop"


def test_race_win_table_round_trip(tmp_path: Path) -> None:
    game = gamebag.make("pig", goal=25)
    path = tmp_path / "pig.json"
    write_policy(path, policy_table(game, "win"))
    table = load_policy(path)
    solution = win_solution(game)
    assert table.data["win_probability"][0][0] == pytest.approx(solution.value)
    for score, opponent, total in ((0, 0, 10), (10, 20, 6), (20, 5, 4), (0, 24, 12)):
        node = ("decide", total)
        expected = solution.graph.actions[solution.graph.index[node]][solution.choice_at(score, opponent, node)]
        assert table.action({"step": "decide", "total": total}, score=score, opponent=opponent) == expected


def test_bad_policy_files(tmp_path: Path) -> None:
    with pytest.raises(PolicyFileError, match="cannot read"):
        load_policy(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(PolicyFileError, match="not valid JSON"):
        load_policy(bad)
    bad.write_text('{"format": "something-else"}')
    with pytest.raises(PolicyFileError, match="gamebag-policy"):
        load_policy(bad)


def test_report_shows_how_an_option_moves_the_value() -> None:
    report = solve_report(gamebag.make("catch-a-dragon", 2, duplicate_bust="none-new"), "score")
    assert report["value_exact"] == "219053/31104"
    assert report["baseline"]["value"] == pytest.approx(1238297 / 186624)
    assert report["value"] > report["baseline"]["value"]
    plain = solve_report(gamebag.make("catch-a-dragon", 2), "score")
    assert "baseline" not in plain
    assert {"game", "objective", "value", "seconds"} <= set(plain)


def test_win_report_lists_where_the_policies_differ() -> None:
    report = solve_report(gamebag.make("catch-a-dragon", 2), "win", top=5)
    versus = report["versus_optimal_score"]
    assert versus["win_vs_score"] > 0.5 > versus["score_vs_win"]
    assert 0 < versus["differing_decisions"] < versus["reachable_decisions"]
    assert len(versus["top"]) == 5
    first = versus["top"][0]
    assert first["optimal_win"] != first["optimal_score"] and first["max_gain"] > 0
