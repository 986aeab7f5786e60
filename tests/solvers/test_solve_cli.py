"""``gamebag solve``: one real process for the published Pig value and the error path, the rest in-process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamebag.cli.app import app

GAMEBAG = [sys.executable, "-m", "gamebag.cli"]
runner = CliRunner()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMEBAG, *args], capture_output=True, text=True, timeout=300)


def test_pig_win_prints_the_published_value_and_its_time() -> None:
    result = run("solve", "pig", "--objective", "win")
    assert result.returncode == 0, result.stderr
    assert "0.5306 to four decimals" in result.stdout and "solved in" in result.stdout


def test_a_user_mistake_is_a_one_line_error() -> None:
    result = run("solve", "catch-a-dragon", "--objective", "win", "--players", "3")
    assert result.returncode == 2
    assert "2 players" in result.stderr and len(result.stderr.strip().splitlines()) == 1 and not result.stdout


def test_expected_score_json() -> None:
    result = runner.invoke(app, ["solve", "catch-a-dragon", "--objective", "score", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["game"] == "catch-a-dragon" and report["objective"] == "score"
    assert report["value_exact"] == "1238297/186624"
    assert abs(report["value"] - 6.635250557) < 1e-8 and report["seconds"] < 5


def test_option_change_and_text_output(tmp_path: Path) -> None:
    out = tmp_path / "policy.json"
    args = ["solve", "catch-a-dragon", "--option", "duplicate_bust=none-new", "--policy-out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "219053/31104" in result.stdout and "with default options" in result.stdout
    assert json.loads(out.read_text())["objective"] == "score"


def test_win_json_for_two_players() -> None:
    result = runner.invoke(
        app, ["solve", "catch-a-dragon", "--objective", "win", "--players", "2", "--json", "--top", "3"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {"game", "objective", "value", "seconds"} <= set(report)
    assert 0.4 < report["value"] < 0.5 and len(report["versus_optimal_score"]["top"]) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "catch-a-dragon", "--objective", "fame"], "--objective"),
        # Eel games are solved as two-player equilibria; with more players there is no exact solver.
        (["solve", "eel-harvest", "--players", "3"], "turn model"),
        (["solve", "wriggle-roulette", "--objective", "equilibrium", "--players", "4"], "two-player"),
        (["solve", "catch-a-dragon", "--option", "duplicate_bust=sometimes"], "duplicate_bust"),
        (["solve", "catch-a-dragon", "--option", "nonsense"], "key=value"),
        (["solve", "pig", "--option", "goal=1"], "goal"),
    ],
)
def test_user_mistakes_raise_gamebag_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr
