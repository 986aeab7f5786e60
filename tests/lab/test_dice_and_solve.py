"""``gamebag dice`` (exact turn odds from any held set) and ``gamebag solve`` for Eel games with any options."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

import gamebag
from gamebag.agents.equilibrium.build import build_continuation
from gamebag.agents.equilibrium.model import RoundRules, rules_for
from gamebag.agents.equilibrium.value import equilibrium_report
from gamebag.cli.app import app
from gamebag.core.errors import GamebagError, UnknownAgentError
from gamebag.games.catch_a_dragon.dice import bust_probability
from gamebag.lab.dice import turn_odds


def test_turn_start_odds_match_the_score_solver() -> None:
    odds = turn_odds(gamebag.make("catch-a-dragon", 2), None)
    assert sum(odds.roll_distribution.values()) == 1
    assert odds.roll_value == Fraction(1238297, 186624)  # docs/solvers.md
    assert sum(p * points for points, p in odds.roll_distribution.items()) == odds.roll_value


def test_odds_from_a_held_set() -> None:
    game = gamebag.make("catch-a-dragon", 2)
    odds = turn_odds(game, ["blue", "red"])  # faces 3 and 4: a chain of two, 4 points
    assert odds.stop_points == 4 and odds.best == "stop"
    # Rolling two dice busts at once unless neither shows blue or red: 1 - (4/6)^2.
    assert bust_probability((3, 4), "any") == Fraction(5, 9)
    assert odds.roll_bust >= Fraction(5, 9)
    assert sum(odds.roll_distribution.values()) == 1
    four = turn_odds(game, ["gold", "gold", "gold"])
    assert four.stop_points == 9 and four.roll_distribution == {0: Fraction(5, 6), 16: Fraction(1, 6)}
    with pytest.raises(GamebagError, match="no turn reaches"):
        turn_odds(game, ["blue", "blue", "red"])


def test_dice_command() -> None:
    result = CliRunner().invoke(app, ["dice", "catch-a-dragon", "--held", "gold,gold,gold", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["stop_points"] == 9 and data["roll_bust_exact"] == "5/6"
    five = CliRunner().invoke(app, ["dice", "catch-a-dragon", "-o", "dice=5", "--json"])
    assert (
        json.loads(five.output)["turn_value"]
        > json.loads(CliRunner().invoke(app, ["dice", "catch-a-dragon", "--json"]).output)["turn_value"]
    )


def test_solve_reads_the_shipped_table_for_rulebook_numbers() -> None:
    report = equilibrium_report(gamebag.make("eel-harvest", 2))
    assert report["source"] == "shipped table" and report["value"] == pytest.approx(0.5, abs=1e-4)


def test_generalised_solver_on_small_numbers_is_a_fair_symmetric_game() -> None:
    rules = rules_for(gamebag.make("wriggle-roulette", 2, eels=12, snakes=10, target=5, max_grab=3, outbreak_snakes=4))
    assert rules == RoundRules("wriggle-roulette", eels=12, snakes=10, target=5, threshold=4, max_grab=3)
    result = build_continuation(rules, tracks=3)
    assert result is not None
    values = result.values[0]
    # Two seats moving at once with nothing to tell them apart: W[a, b] = 1 - W[b, a].
    assert np.allclose(values + values.T, 1.0, atol=2e-3)
    assert result.game_value == pytest.approx(0.5, abs=2e-3)
    assert values[4, 0] > values[2, 0] > values[0, 0] > values[0, 2]  # a lead is worth more the bigger it is
    assert result.exploitability < 5e-3


def test_solve_command_any_options_and_refusals() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["solve", "eel-harvest", "-o", "target=4", "-o", "eels=10", "-o", "max_grab=2", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["source"].startswith("solved now") and 0.0 < report["value"] < 1.0
    with pytest.raises(UnknownAgentError, match="never runs short"):
        rules_for(gamebag.make("eel-harvest", 2, snakes=8))
