"""Low Tide, a plugin game where the lowest score wins, through the commands a user runs.

Each command runs in a child process with the plugin named the public way (``--plugin``,
``GAMEBAG_PLUGINS`` or the ``gamebag.games`` entry point of the installed example). The expected
results are the rules' own: the lowest total wins, so standings, ratings and margins put the lowest
scorers first; and a game without a heuristic agent is played by an agent that exists.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from low_tide_support import CAREFUL, GAME_ID, LOW_TIDE_DIR, LOW_TIDE_FILE, RECKLESS, gamebag_command, low_tide_loaded

import gamebag
from gamebag import plugins
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import Rng, make_rng


@pytest.fixture(scope="module")
def low_tide() -> Iterator[ModuleType]:
    """The plugin module, loaded in this process for this module's tests and forgotten after them."""
    with low_tide_loaded() as module:
        yield module


def _ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_each_public_plugin_path_loads_it(tmp_path: Path) -> None:
    # --plugin FILE
    assert "Low Tide" in _ok(gamebag_command("rules", GAME_ID, cwd=tmp_path))
    # GAMEBAG_PLUGINS, as worker processes inherit it
    listed = _ok(gamebag_command("list", cwd=tmp_path, plugin=False, env={plugins.PLUGIN_ENV: str(LOW_TIDE_FILE)}))
    assert GAME_ID in listed
    # the gamebag.games entry point of the example's own pyproject.toml, installed with pip
    source, site = tmp_path / "source", tmp_path / "site"
    shutil.copytree(LOW_TIDE_DIR, source, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index"]
    _ok(subprocess.run([*install, "--target", str(site), str(source)], capture_output=True, text=True, timeout=300))
    path = os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])
    listed = _ok(gamebag_command("list", cwd=tmp_path, plugin=False, env={"PYTHONPATH": path}))
    assert GAME_ID in listed
    # and nothing else: without a plugin the game is unknown, in one line, exit 2
    unknown = gamebag_command("rules", GAME_ID, cwd=tmp_path, plugin=False)
    assert unknown.returncode == 2 and "unknown game 'low-tide'" in unknown.stderr


def test_simulate_plays_it_on_the_rules_engine(tmp_path: Path) -> None:
    agents = f"{CAREFUL},{RECKLESS}"
    out = _ok(gamebag_command("simulate", GAME_ID, "-n", "2", "--agents", agents, "--games", "400", "--seed", "1",
                              "--json", cwd=tmp_path))
    result = json.loads(out)
    assert result["engine"] == "rules" and result["games_played"] == 400
    # The careful player takes fewer points and so wins most games (80% over 2,000 games).
    assert result["mean_score"][0] < result["mean_score"][1]
    assert result["win_share"][0] > 0.7


def test_tournament_rates_the_lowest_scorers_first(tmp_path: Path) -> None:
    """Six players: most games are lost, so the order among the losers (their scores) drives the ratings."""
    reckless_vs_random = f"random,{RECKLESS}," * 3
    scores = json.loads(_ok(gamebag_command(
        "simulate", GAME_ID, "-n", "6", "--agents", reckless_vs_random.rstrip(","), "--games", "200", "--seed", "2",
        "--json", cwd=tmp_path)))["mean_score"]
    assert max(scores[0::2]) + 3 < min(scores[1::2])  # the reckless seats take far more points than random ones
    out = _ok(gamebag_command("tournament", GAME_ID, "-n", "6", "--agents", f"random,{CAREFUL},{RECKLESS}",
                              "--games", "40", "--seed", "1", "--json", cwd=tmp_path))
    result = json.loads(out)
    assert [rating["agent"] for rating in result["ratings"]] == [CAREFUL, "random", RECKLESS]
    ahead = result["win_rate_matrix"]  # row agent finishing ahead of column agent
    assert ahead[0][2]["rate"] > 0.5 and ahead[1][0]["rate"] > 0.5 and ahead[1][2]["rate"] > 0.5


def test_balance_measures_margins_between_the_two_lowest_scores(tmp_path: Path) -> None:
    per_game = tmp_path / "games.csv"
    agents = f"{CAREFUL},random,{RECKLESS}"
    out = _ok(gamebag_command("balance", GAME_ID, "-n", "3", "--agents", agents, "--games", "200", "--seed", "1",
                              "--per-game", str(per_game), "--json", cwd=tmp_path))
    cell = json.loads(out)["cells"][0]
    margins = []
    with per_game.open() as rows:
        for row in csv.DictReader(rows):
            if len(row["winners"].split(";")) == 1:  # shared winners are written "0;2"
                lowest, runner_up = sorted(float(row[f"score_{seat}"]) for seat in range(3))[:2]
                margins.append(runner_up - lowest)
    # The same games: the winner's margin is the runner-up's total less the winner's (7.6 here; 9.9
    # between the two highest totals).
    assert cell["winning_margin"]["mean"] == pytest.approx(sum(margins) / len(margins))


def _random_game_by_round(game: Any, rng: Rng) -> tuple[list[tuple[float, ...]], tuple[int, ...]]:
    """One random game: the scores as each round ended (the final ones last) and the winners."""
    state, rounds = game.initial_state(), []
    while not game.is_terminal(state):
        before = game.round_number(state)
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            seat = game.acting_players(state)[0]
            legal = game.legal_actions(state, seat)
            state = game.apply(state, {seat: legal[rng.randrange(len(legal))]})
        if game.round_number(state) != before:
            rounds.append(game.scores(state))
    if not rounds or rounds[-1] != game.scores(state):
        rounds.append(game.scores(state))
    return rounds, game.winners(state)


def test_balance_metrics_count_comebacks_against_the_lowest_score(tmp_path: Path, low_tide: ModuleType) -> None:
    """The comeback rate: games where the sole leader (the lowest total) at half-length does not win."""
    out = _ok(gamebag_command("balance", GAME_ID, "-n", "2", "--agents", "random", "--games", "50", "--seed", "1",
                              "--metrics", "--metrics-games", "400", "--json", cwd=tmp_path))
    reported = json.loads(out)["cells"][0]["quality"]["comeback_rate"]["value"]
    game = gamebag.make(GAME_ID, 2)
    comebacks = counted = 0
    for index in range(600):  # games of our own: the same measure, counted with the lowest total leading
        round_scores, winners = _random_game_by_round(game, make_rng(index))
        half = round_scores[(len(round_scores) - 1) // 2]
        leaders = [seat for seat, score in enumerate(half) if score == min(half)]
        if len(leaders) == 1:
            counted += 1
            comebacks += leaders[0] not in winners
    # 0.15: a lead after two rounds of three is usually kept (0.84 if the highest total led)
    expected = comebacks / counted
    assert reported == pytest.approx(expected, abs=0.1)


def test_balance_without_agents_falls_back_to_random_and_says_so(tmp_path: Path) -> None:
    result = gamebag_command("balance", GAME_ID, "-n", "2-3", "--games", "100", "--seed", "1", cwd=tmp_path)
    out = _ok(result)
    assert "random" in out + result.stderr


def test_play_lists_the_final_standings_lowest_score_first(tmp_path: Path) -> None:
    out = _ok(gamebag_command("play", GAME_ID, "-n", "3", "--seats", "random,random,random", "--seed", "2",
                              "--auto-delay", "0", cwd=tmp_path))
    standings = out.split("game over")[-1].strip().splitlines()[-3:]
    points = [int(line.split(":")[-1].split("-")[0]) for line in standings]
    assert points == sorted(points), standings
    assert standings[0].endswith("winner")
    assert "Bot 1" in out and "seat 0" not in out  # the terminal names the seats in the game's own words


def test_play_fills_missing_seats_with_an_agent_that_exists(tmp_path: Path) -> None:
    """``--seats random`` leaves the other seats to the default agent, which must be able to play the game."""
    out = _ok(gamebag_command("play", GAME_ID, "-n", "3", "--seats", "random", "--seed", "2", "--auto-delay", "0",
                              cwd=tmp_path))
    assert "game over" in out
