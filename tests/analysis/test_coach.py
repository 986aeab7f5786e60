"""The coach's advice: the solver's values where exact, and only the seat's own information where hidden."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import gamebag
from gamebag.agents.base import SeatView
from gamebag.agents.registry import heuristic_for
from gamebag.analysis.coach import advise
from gamebag.analysis.run import AnalysisError
from gamebag.analysis.turns import TurnWinEvaluator
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import Rng


def decisions_of(game: Any, seat: int, seed: int, wanted: int, skip: int = 0) -> list[tuple[int, Any]]:
    """States (with their step) where ``seat`` has a choice, in a game the heuristic plays."""
    agents = [heuristic_for(game)] * game.num_players
    rng, state, found = Rng(seed), game.initial_state(), []
    for step in range(2000):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL or len(found) >= wanted:
            break
        if kind is NodeKind.CHANCE:
            state = game.advance_chance(state, rng)
            continue
        if seat in game.acting_players(state) and len(game.legal_actions(state, seat)) > 1:
            if skip > 0:
                skip -= 1
            else:
                found.append((step, state))
        by_seat = game.legal_actions_by_seat(state)
        state = game.apply_chosen(
            state, {p: agents[p].act(SeatView(game, state, p, c), rng) for p, c in by_seat.items()}, by_seat
        )
    return found


def test_exact_advice_is_the_solvers_values_in_words() -> None:
    game = gamebag.make("pig", 2, goal=30)
    evaluator = TurnWinEvaluator(game)
    for step, state in decisions_of(game, 0, seed=2, wanted=3):
        advice = advise(game, state, 0, step)
        legal = game.legal_actions(state, 0)
        found = evaluator.choices(state, 0, legal, step)
        values = {c["action"]: c["value"] for c in advice["choices"]}
        assert values == pytest.approx({game.action_to_json(a): found.values[a].mean for a in legal}, abs=1e-12)
        best = advice["best"][0]
        assert values[best] == max(values.values()) and advice["exact"] is True
        # The choices in Pig's words (render.action_words), win chances in whole %.
        said = {"roll": "roll the die", "hold": "hold: bank your turn total of "}[best]
        assert advice["words"].startswith(f"The solver's choice here: {said}")
        assert f"Win chance after each choice: {said}" in advice["words"]
        assert "Playouts" not in advice["words"] and "winning chance" not in advice["words"]
        # The turn graph's exact odds: rolling ends the turn with nothing on a 1.
        assert advice["words"].endswith(" Roll the die: a bust 1/6 of the time.")
        assert {c["action"]: c.get("busts") for c in advice["choices"]} == {"roll": "1/6", "hold": None}
    with pytest.raises(AnalysisError, match="no choice"):
        advise(game, decisions_of(game, 0, seed=2, wanted=1)[0][1], 1)  # seat 1 does not act there


def test_advice_does_not_change_with_the_others_hidden_information() -> None:
    """The same seat-0 decision with the other seats' hidden information (cards, coins, tokens) drawn
    again gives the same advice. (The Eel games keep nothing hidden in a state: the grabs chosen at
    the same time are not in it until revealed, and the web's advice job never gets pending ones.)"""
    game = gamebag.make("eigen-kweek", 3)
    checked = 0
    for step, state in decisions_of(game, 0, seed=4, wanted=2, skip=3):
        advice = advise(game, state, 0, step, playouts=10)
        assert advice["exact"] is False
        for draw in range(3):
            other = game.resample_from_infostate(state, 0, Rng(100 + draw))
            assert game.observation(other, 0) == game.observation(state, 0)
            checked += other != state  # hidden information really differs
            assert advise(game, other, 0, step, playouts=10) == advice
    assert checked > 0, "no decision had hidden information to change"


def test_play_with_the_coach_at_the_terminal(tmp_path: Path) -> None:
    """``gamebag play --coach``: advice before each of the one person's decisions, noted in the record;
    refused (exit 2, nothing written) where two people sit at the table."""
    record = tmp_path / "pig.json"
    command = [sys.executable, "-m", "gamebag.cli", "play", "pig", "-o", "goal=20", "--seed", "4", "--auto-delay", "0"]
    played = subprocess.run(
        [*command, "--seats", "human,heuristic", "--coach", "--record", str(record)],
        input="roll\n" * 40,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert played.returncode == 0, played.stderr
    said = " ".join(played.stdout.split())  # the terminal wraps long lines
    assert (
        "Coach: The solver's choice here: roll the die. Win chance after each choice: roll the die (66%), hold" in said
    )
    assert json.loads(record.read_text())["meta"]["coach"] == {"on": [[0, None]]}
    refused = subprocess.run(
        [*command, "--seats", "human,human", "--coach", "--record", str(tmp_path / "no.json")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert refused.returncode == 2 and "--coach needs exactly one 'human' seat" in refused.stderr
    assert not (tmp_path / "no.json").exists()
