"""Every command refuses bad input before it works: one ``error:`` line, exit status 2, no traceback,
no file or folder left behind.

The table runs in-process through ``typer.testing.CliRunner`` (the app's own group turns user
mistakes into the one line, as the console script does); two real processes check the same
for a user at a shell. Each refusal runs in an empty working folder holding only ``afile`` (a
file, so ``afile/x`` cannot be created even by root) and ``folder``; the tree is compared before
and after, and the commands that play games are replaced by a tripwire, so a refusal that came
after the work would fail the test rather than cost its time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamebag.cli.commands.simulate as simulate_command
import gamebag.cli.commands.tournament as tournament_command
from gamebag.cli.app import app
from gamebag.cli.common import MAX_WORKERS

TEN_TO_12 = str(10**12)
FINISHED = {  # a finished two-player Wriggle Roulette (seat 0 wins 23 to 16)
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

# (arguments, a fragment the one line must hold)
REFUSALS: list[tuple[list[str], str]] = [
    # list and rules take no counts; an unknown name or option is one line.
    (["list", "--games", "3"], "No such option"),
    (["rules", "chess"], "unknown game"),
    # play
    (["play", "pig", "--record", "afile/r.json"], "afile is a file, not a folder"),
    (["play", "pig", "--record", "folder"], "this is a folder"),
    (["play", "pig", "--resume", "afile"], "not valid JSON"),
    (["play", "pig", "--auto-delay", "1e9"], "--auto-delay must be from 0 to 10"),
    (["play", "pig", "--players", "9"], "2 to 2 players"),
    # simulate
    (["simulate", "pig", "--games", TEN_TO_12], "--games must be from 1 to 1,000,000"),
    (["simulate", "pig", "--games", "0"], "--games must be from 1 to 1,000,000"),
    (["simulate", "pig", "--workers", "0"], f"--workers must be from 1 to {MAX_WORKERS}"),
    (["simulate", "pig", "--workers", "-3"], f"--workers must be from 1 to {MAX_WORKERS}"),
    (["simulate", "pig", "--workers", "100000"], f"--workers must be from 1 to {MAX_WORKERS}"),
    (["simulate", "pig", "--record", "afile/games"], "afile is a file, not a folder"),
    (["simulate", "pig", "--record", "afile"], "this is a file, not a folder"),
    (["simulate", "pig", "--record", "new-folder", "--agents", "nobody"], "unknown agent"),
    (["simulate", "pig", "--agents", "ismcts:iterations=" + TEN_TO_12], "iterations must be from 1 to 1,000,000"),
    (["simulate", "pig", "--agents", "ismcts:ms=1e12"], "up to 60,000"),
    (["simulate", "pig", "--games", "many"], "valid integer"),
    # tournament
    (["tournament", "pig", "-a", "random,heuristic", "--games", TEN_TO_12], "from 1 to 1,000,000 per matchup"),
    (["tournament", "pig", "-a", "random,heuristic", "--ladder-steps", str(10**9)], "--ladder-steps must be from 1"),
    (["tournament", "pig", "-a", "random,heuristic", "--ladder-steps", "0"], "--ladder-steps must be from 1"),
    (["tournament", "pig", "-a", "random,heuristic", "--ladder", "ismcts:iterations=1000000", "--ladder-steps", "3"],
     "iterations must be from 1 to 1,000,000"),
    (["tournament", "eel-harvest", "-n", "8", "-a", ",".join(["random", *(f"ismcts:c={c}" for c in range(11))]),
      "-g", "1000"], "at most 10,000,000"),
    (["tournament", "pig", "-a", ",".join(f"ismcts:c={c}" for c in range(40))], "at most 32 agents"),
    (["tournament", "pig", "-a", "random,heuristic", "--workers", "0"], f"--workers must be from 1 to {MAX_WORKERS}"),
    (["tournament", "pig", "-a", "random,heuristic", "--plot", "afile/p.png"], "afile is a file, not a folder"),
    (["tournament", "pig", "-a", "random,heuristic", "--plot", "folder"], "name a file ending in"),
    (["tournament", "pig", "-a", "random,heuristic", "--plot", "p.txt"], "name a file ending in"),
    # balance (refused before the lab is imported)
    (["balance", "pig", "--games", TEN_TO_12], "--games must be from 1 to 1,000,000"),
    (["balance", "pig", "--workers", "0"], f"--workers must be from 1 to {MAX_WORKERS}"),
    (["balance", "pig", "--max-rounds", TEN_TO_12], "--max-rounds must be from 1"),
    (["balance", "pig", "--per-game", "afile/x.csv"], "afile is a file, not a folder"),
    (["balance", "pig", "--per-game", "x.xlsx"], "name a file ending in .csv, .parquet"),
    (["balance", "pig", "--plot", "afile/x.png"], "afile is a file, not a folder"),
    (["balance", "pig", "--report", "afile"], "this is a file, not a folder"),
    (["balance", "pig", "--report", "afile/report"], "afile is a file, not a folder"),
    (["balance", "eigen-kweek", "--cards", "--games", TEN_TO_12], "--games must be from 1 to 1,000,000"),
    (["balance", "eigen-kweek", "--cards", "--agents", "random"], "one agent for every seat, heuristic or learned"),
    (["balance", "eigen-kweek", "--cards", "--population", "heuristic,learned"], "leave out --population"),
    (["balance", "pig", "--metrics", "--metrics-games", TEN_TO_12], "--metrics-games must be from 1 to 20,000"),
    # tune (workers and the report folder before the lab is imported; the rest before any trial)
    (["tune", "pig", "--workers", "0"], f"--workers must be from 1 to {MAX_WORKERS}"),
    (["tune", "pig", "--report", "afile"], "this is a file, not a folder"),
    (["tune", "pig", "--report", "afile/tune"], "afile is a file, not a folder"),
    (["tune", "pig", "--search", "goal=20..40", "--goal", "fair", "--trials", TEN_TO_12], "--trials must be from 1"),
    (["tune", "pig", "--search", "goal=20..40", "--goal", "fair", "--games", TEN_TO_12], "--games must be from 1"),
    (["tune", "pig", "--search", "goal=20..40", "--goal", "fair", "--metrics-games", "0"], "--metrics-games must be"),
    (["tune", "pig", "--search", "goal=20..40", "--goal", "fair", "--max-rounds", TEN_TO_12], "--max-rounds must be"),
    (["tune", "pig", "--search", "goal=20..40", "--goal", "fair", "--storage", "sqlite:///afile/t.db"],
     "cannot be opened"),
    # an unknown executor is refused before the trial database is created
    (["tune", "pig", "--search", "goal=20..40", "--goal", "fair", "--storage", "sqlite:///t.db", "--executor", "spark"],
     "--executor 'spark' is not known"),
    # analyse
    (["analyse", "afile"], "not valid JSON"),
    (["analyse", "unfinished.json"], "only a finished game can be analysed"),
    (["analyse", "finished.json", "--budget", TEN_TO_12], "--budget must be 10 to 5000"),
    (["analyse", "finished.json", "--seat", "9"], "--seat 9 does not exist"),
    # replay: unreadable and non-JSON records
    (["replay", "folder"], "cannot read"),
    (["replay", "missing.json"], "cannot read"),
    (["replay", "afile"], "not valid JSON"),
    # solve
    (["solve", "pig", "--top", "-1"], "--top must be from 0 to 1,000"),
    (["solve", "pig", "--top", TEN_TO_12], "--top must be from 0 to 1,000"),
    (["solve", "pig", "--policy-out", "afile/p.json"], "afile is a file, not a folder"),
    (["solve", "pig", "--policy-out", "folder"], "this is a folder"),
    (["solve", "wriggle-roulette", "--policy-out", "p.json"], "the equilibrium has none"),
    # dice
    (["dice", "catch-a-dragon", "--held", ",".join(["red"] * 9)], "no turn reaches this set"),
    (["dice", "eel-harvest"], "turn model"),
    # check
    (["check", "pig", "--seconds", "-1"], "--seconds must be from 0.0 to 3,600.0"),
    (["check", "chess"], "unknown game"),
    # serve (refused before any server starts)
    (["serve", "--port", "0"], "--port"),
    (["serve", "--bot-workers", "0"], "--bot-workers"),
    (["serve", "--workers", "0"], "--workers"),
    (["serve", "--workers", "2"], "needs PostgreSQL"),
    (["serve", "--db", "::::"], "is not a database URL"),
    (["serve", "--db", "sqlite:///afile/web.db"], "is not a folder"),
    # db (nothing is created: a missing SQLite file is refused, not made)
    (["db", "current", "--db", "::::"], "is not a database URL"),
    (["db", "upgrade", "--db", "sqlite:///missing.db"], "there is no such file"),
    (["db", "upgrade", "--db", "sqlite:///afile/web.db"], "is not a folder"),
    (["db", "revision", "--message", ""], "--message must be a few words"),
    (["users", "list", "--db", "::::"], "is not a database URL"),
    (["users", "disable", "someone", "--db", "sqlite:///missing.db"], "there is no such file"),
    (["users", "delete", "someone", "--db", "sqlite:///missing.db"], "add --yes"),
    # train (the output is checked before the training extras are even imported)
    (["train", "pig", "--out", "afile/p.npz"], "afile is a file, not a folder"),
    (["train", "pig", "--out", "folder"], "this is a folder"),
    (["train", "pig", "--eval-games", "-1"], "--eval-games must be from 0 to 100,000"),
]


def _tree(root: Path) -> set[str]:
    return {str(path.relative_to(root)) for path in root.rglob("*")}


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "afile").write_text("not a record\n")
    (tmp_path / "folder").mkdir()
    (tmp_path / "unfinished.json").write_text(json.dumps({"game": "pig", "players": 2, "events": []}))
    (tmp_path / "finished.json").write_text(json.dumps(FINISHED))
    monkeypatch.chdir(tmp_path)

    def tripwire(*args: object, **kwargs: object) -> None:
        raise AssertionError("games were played before the refusal")

    monkeypatch.setattr(simulate_command, "run_simulation", tripwire)
    monkeypatch.setattr(tournament_command, "run_tournament", tripwire)
    return tmp_path


def refused(args: list[str]) -> str:
    """Run ``gamebag ARGS`` in-process; check the refusal's form and return its line."""
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code == 2, (args, result.exit_code, result.output)
    assert result.stdout == "", (args, result.stdout)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.stderr)
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize(("args", "reason"), REFUSALS, ids=[" ".join(a)[:60] for a, _ in REFUSALS])
def test_every_command_refuses_bad_input_in_one_line_and_leaves_nothing(
    workdir: Path, args: list[str], reason: str
) -> None:
    before = _tree(workdir)
    line = refused(args)
    assert reason in line, (args, line)
    assert _tree(workdir) == before


def test_the_table_covers_every_command() -> None:
    commands = {command.name for command in app.registered_commands} | {group.name for group in app.registered_groups}
    assert commands == {args[0] for args, _ in REFUSALS}


def test_unwritable_folders_and_system_paths_are_refused(workdir: Path) -> None:
    if sys.platform.startswith("linux"):  # nobody, root included, creates files in /proc
        assert "cannot write in /proc" in refused(["simulate", "pig", "--record", "/proc/gamebag-games"])
        assert "cannot write in /proc" in refused(["solve", "pig", "--policy-out", "/proc/gamebag-policy.json"])
    if os.geteuid() != 0:  # permissions bind only others than root
        locked = workdir / "locked"
        locked.mkdir(mode=0o500)
        before = _tree(workdir)
        assert "cannot write in" in refused(["balance", "pig", "--plot", "locked/x.png"])
        assert _tree(workdir) == before


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "is not UTF-8 text"),
        (json.dumps({"game": "pig", "players": 2, "events": []}).encode("utf-16"), "is not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b"", "not valid JSON"),
        (b"[]", "must be a JSON object"),
    ],
    ids=["binary", "utf-16", "deeply-nested", "empty", "a-list"],
)
def test_replay_of_unreadable_or_non_json_records(workdir: Path, content: bytes, reason: str) -> None:
    (workdir / "record.json").write_bytes(content)
    assert reason in refused(["replay", "record.json"])
    assert reason in refused(["analyse", "record.json"])
    assert reason in refused(["play", "pig", "--resume", "record.json"])


def test_replay_refuses_a_huge_file_without_reading_it(workdir: Path) -> None:
    huge = workdir / "huge.json"
    with huge.open("wb") as file:  # sparse: 65 MiB that take no disk
        file.truncate(65 * 1024 * 1024)
    assert "over 64 MiB" in refused(["replay", "huge.json"])


def test_a_good_output_path_keeps_nothing_of_the_check(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # play for real
    monkeypatch.chdir(workdir)
    result = CliRunner().invoke(app, ["simulate", "pig", "-g", "2", "--engine", "rules", "--record", "new/games"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (workdir / "new" / "games").iterdir()) == ["game-000000.json", "game-000001.json"]
    assert not list(workdir.rglob(".gamebag-probe-*"))


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["replay", "binary.json"], "is not UTF-8 text"),
        (["simulate", "pig", "--games", TEN_TO_12], "--games must be from 1 to 1,000,000"),
    ],
)
def test_a_real_process_refuses_in_one_line(tmp_path: Path, args: list[str], reason: str) -> None:
    (tmp_path / "binary.json").write_bytes(b"\x00\xff\xfe binary")
    result = subprocess.run(
        [sys.executable, "-m", "gamebag.cli", *args], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ") and reason in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["binary.json"]


@pytest.mark.parametrize(
    ("command", "bounds"),
    [
        ("play", ["0-10"]),
        ("simulate", ["1 to 1,000,000", f"1 to {MAX_WORKERS}", "checked writable"]),
        ("tournament", ["1 to 1,000,000", "10,000,000", "1 to 12", "2 to 32", f"1 to {MAX_WORKERS}", "checked"]),
        ("balance", ["1 to 1,000,000", f"1 to {MAX_WORKERS}", "1 to 100,000", "1 to 20,000", "checked writable"]),
        ("tune", ["1 to 10,000", "1 to 250,000", f"1 to {MAX_WORKERS}", "1 to 20,000", "checked writable"]),
        ("solve", ["0 to 1,000", "checked writable"]),
        ("train", ["1,000 to 100,000,000", "1 to 4,096", "0 to 100,000", "checked writable"]),
        ("analyse", ["10 to 5000"]),
        ("serve", ["1<=x<=65535"]),
    ],
)
def test_help_texts_give_the_bounds(command: str, bounds: list[str]) -> None:
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.replace("│", " ").split())
    for bound in bounds:
        assert bound in text, (command, bound)
