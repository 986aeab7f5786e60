"""The command line, run as a user runs it (a real ``gamebag`` process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

GAMEBAG = [sys.executable, "-m", "gamebag.cli"]

GOOD_RECORD = {
    "game": "wriggle-roulette",
    "players": 2,
    "options": {},
    "events": [
        {"moves": {"0": 6, "1": 6}},
        {"chance": {"0": "EEEEEE", "1": "EEEEES"}},
        {"moves": {"0": 6, "1": 6}},
        {"chance": {"0": "EEEEEE", "1": "EEEEEE"}},
        {"moves": {"0": 6, "1": 0}},
        {"chance": {"0": "EEEEEE"}},
        {"moves": {"0": 0}},
    ],
}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMEBAG, *args], input=stdin, capture_output=True, text=True, timeout=300)


def write(tmp_path: Path, data: Any, name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_help_for_every_command() -> None:
    top = run("--help")
    assert top.returncode == 0
    for command in ("list", "rules", "play", "simulate", "replay"):
        assert command in top.stdout
        result = run(command, "--help")
        assert result.returncode == 0, result.stderr
        assert "Usage" in result.stdout


def test_list_and_rules() -> None:
    listing = run("list")
    assert listing.returncode == 0 and "wriggle-roulette" in listing.stdout and "heuristic" in listing.stdout
    rules = run("rules", "eel-harvest")
    assert rules.returncode == 0 and "outbreak" in rules.stdout.lower()
    unknown = run("rules", "chess")
    assert unknown.returncode == 2 and "known games" in unknown.stderr and not unknown.stdout


def test_replay_json_of_a_good_record(tmp_path: Path) -> None:
    result = run("replay", str(write(tmp_path, GOOD_RECORD)), "--json")
    assert result.returncode == 3, result.stderr  # the game is not over
    data = json.loads(result.stdout)
    assert data["game"] == "wriggle-roulette"
    assert data["terminal"] is False and data["winners"] == []
    assert data["scores"] == [18, 11]


def test_replay_says_when_a_record_is_unfinished(tmp_path: Path) -> None:
    result = run("replay", str(write(tmp_path, GOOD_RECORD)))
    assert result.returncode == 3, result.stderr
    assert "The record is unfinished: the game is not over" in " ".join(result.stdout.split())
    assert "--resume" in result.stdout


def test_list_folds_long_option_names_instead_of_cutting_them() -> None:
    listing = subprocess.run([*GAMEBAG, "list"], capture_output=True, text=True, timeout=300,
                             env={**os.environ, "COLUMNS": "80"})
    assert listing.returncode == 0 and "…" not in listing.stdout
    assert "outbreak_scores_reserv" in listing.stdout


def test_replay_of_a_finished_game(tmp_path: Path) -> None:
    record = {
        "game": "wriggle-roulette",
        "players": 2,
        "events": [
            {"moves": {"0": 6, "1": 6}}, {"chance": {"0": "EEEEEE", "1": "EEEEEE"}},
            {"moves": {"0": 6, "1": 6}}, {"chance": {"0": "EEEEEE", "1": "EEEEEE"}},
            {"moves": {"0": 6, "1": 6}}, {"chance": {"0": "EEEEEE", "1": "EEEESS"}},
            {"moves": {"0": 5, "1": 0}}, {"chance": {"0": "EEEEE"}},
            {"moves": {"0": 0}},
        ],
    }
    data = json.loads(run("replay", str(write(tmp_path, record)), "--json").stdout)
    assert data["terminal"] is True and data["scores"] == [23, 16] and data["winners"] == [0]


@pytest.mark.parametrize(
    ("event_index", "bad_event", "reason"),
    [
        (2, {"moves": {"0": 7, "1": 1}}, "0 to 6"),
        (3, {"chance": {"0": "EEEEEE", "1": "EEEE"}}, "must draw exactly 6"),
        (4, {"chance": {"0": "EEEEEE"}}, "not expected"),
        (2, {"moves": {"0": 1}}, "missing the choice of seat"),
        (1, {"chance": {"0": "EEXEEE", "1": "EEEEEE"}}, "E and S"),
    ],
)
def test_replay_of_a_broken_record_names_the_event(
    tmp_path: Path, event_index: int, bad_event: dict[str, Any], reason: str
) -> None:
    record = json.loads(json.dumps(GOOD_RECORD))
    record["events"][event_index] = bad_event
    result = run("replay", str(write(tmp_path, record)), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert f"event {event_index}" in result.stderr and reason in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_of_broken_files(tmp_path: Path) -> None:
    for content, reason in [
        ("{not json", "not valid JSON"),
        ({"game": "wriggle-roulette", "players": 9, "events": []}, "2 to 8 players"),
        ({"game": "nope", "players": 2, "events": []}, "unknown game"),
        ({"game": "wriggle-roulette", "players": 2, "events": [{"move": {}}]}, "event 0"),
    ]:
        result = run("replay", str(write(tmp_path, content)))
        assert result.returncode == 2 and result.stdout == "" and reason in result.stderr
    missing = run("replay", str(tmp_path / "missing.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_simulate_json_is_deterministic_whatever_the_workers() -> None:
    args = ["simulate", "eel-harvest", "--players", "3", "--games", "60", "--agents", "heuristic,random,random",
            "--seed", "5", "--json"]
    one = json.loads(run(*args, "--workers", "1").stdout)
    two = json.loads(run(*args, "--workers", "2").stdout)
    for key in ("game", "players", "games", "seed", "agents", "win_share", "mean_score", "mean_rounds",
                "games_per_second"):
        assert key in one
    assert one["win_share"] == two["win_share"] and one["mean_score"] == two["mean_score"]
    assert sum(one["win_share"]) == pytest.approx(1.0)
    assert one["agents"] == ["heuristic", "random", "random"]


def test_simulate_records_replay(tmp_path: Path) -> None:
    result = run("simulate", "wriggle-roulette", "-n", "2", "-g", "3", "--json", "--record", str(tmp_path))
    assert result.returncode == 0, result.stderr
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    replayed = json.loads(run("replay", str(files[0]), "--json").stdout)
    assert replayed["terminal"] is True and replayed["winners"]


def test_simulate_refuses_bad_input_clearly() -> None:
    for args, reason in [
        (["--agents", "nobody"], "unknown agent"),
        (["--option", "rotate_start=maybe"], "true or false"),
        (["--players", "1"], "2 to 8"),
        (["--games", "0"], "from 1 to 1,000,000"),
    ]:
        result = run("simulate", "wriggle-roulette", *args)
        assert result.returncode == 2 and reason in result.stderr and "Traceback" not in result.stderr


def test_play_at_the_terminal_re_asks_on_bad_input() -> None:
    answers = "9\nabc\n" + "0\n" * 400
    result = run("play", "wriggle-roulette", "--players", "4", "--seats", "human,heuristic,heuristic,heuristic",
                 "--seed", "3", stdin=answers)
    assert result.returncode == 0, result.stderr
    assert "'9' is not a legal choice" in result.stdout and "'abc' is not a legal choice" in result.stdout
    assert "game over" in result.stdout


def test_a_game_cut_short_is_saved_and_resumes(tmp_path: Path) -> None:
    first = subprocess.run([*GAMEBAG, "play", "wriggle-roulette", "-n", "3", "--seats", "human,random,random",
                            "--seed", "9"], input="2\n", capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert first.returncode == 0, first.stderr
    saved = tmp_path / "gamebag-wriggle-roulette-9.json"
    record = json.loads(saved.read_text())
    assert record["events"][0]["moves"]["0"] == 2 and record["meta"] == {"seed": 9}
    second = subprocess.run([*GAMEBAG, "play", "wriggle-roulette", "--resume", str(saved), "--seats",
                             "human,random,random"], input="0\n" * 300, capture_output=True, text=True,
                            cwd=tmp_path, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "game over" in second.stdout
    final = json.loads(saved.read_text())
    assert final["events"][: len(record["events"])] == record["events"]
    replayed = json.loads(run("replay", str(saved), "--json").stdout)
    assert replayed["terminal"] is True
