"""``gamebag play``'s final standings and the web table's result in the game's score direction."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from typer.testing import CliRunner

import gamebag
from gamebag.cli.app import app
from gamebag.web.tables.messages import result_json

from .conftest import TAKER


def _standing_lines(output: str) -> list[str]:
    lines = output.splitlines()
    return [line for line in lines[lines.index(next(x for x in lines if "game over" in x)) :] if ": " in line]


def test_play_lists_the_final_standings_best_first_in_the_games_direction(countdown: str, tmp_path: Path) -> None:
    # Seat 0 (heuristic) ends on 3 points, seat 1 (the taker) on 9.
    args = ["play", countdown, "--seats", f"heuristic,{TAKER}", "--seed", "1", "--auto-delay", "0"]
    result = CliRunner().invoke(app, [*args, "--record", str(tmp_path / "low.json")])
    assert result.exit_code == 0, result.output
    standings = [line for line in _standing_lines(result.output) if line.startswith("Bot")]
    assert standings[0].endswith(": 3 - winner") and standings[1].endswith(": 9"), result.output
    assert "the lowest score is best" in result.output
    # Most win (the control): the heuristic takes 3 a turn too, a shared win on 9 each, seats in order.
    result = CliRunner().invoke(app, [*args, "--option", "lowest_wins=false", "--record", str(tmp_path / "hi.json")])
    assert result.exit_code == 0, result.output
    standings = [line for line in _standing_lines(result.output) if line.startswith("Bot")]
    assert len(standings) == 2 and all(line.endswith(": 9 - winner") for line in standings), result.output
    assert "lowest score" not in result.output


def _web_result(game_id: str, takes: list[int], **options: object) -> dict[str, Any]:
    """``result_json`` of a finished table where seat ``i`` took ``takes[i]`` points each turn.

    The message is built from the table's game and final state only; a stand-in table holds
    them (a real server runs bots in worker processes, where this test's game is not registered).
    """
    game = gamebag.make(game_id, len(takes), **options)
    state = game.initial_state()
    while not game.is_terminal(state):
        (seat,) = game.acting_players(state)
        state = game.apply(state, {seat: takes[seat]})
    table = SimpleNamespace(is_over=True, match=SimpleNamespace(state=state), game=game)
    result = result_json(table)  # type: ignore[arg-type]
    assert result is not None
    return result


def test_the_web_result_ranks_the_seats_in_the_games_direction(countdown: str) -> None:
    # Seats 0 and 2 end on 9 points, seat 1 on 3, seat 3 on 6: seat 1 wins where the fewest win.
    result = _web_result(countdown, [3, 1, 3, 2])
    assert result["scores"] == [9, 3, 9, 6] and result["winners"] == [1]
    assert result["places"] == [3, 1, 3, 2]
    assert result["lower_score_wins"] is True
    # Most win (the control): seats 0 and 2 share the win.
    result = _web_result(countdown, [3, 1, 3, 2], lowest_wins=False)
    assert result["winners"] == [0, 2]
    assert result["places"] == [1, 4, 1, 3]
    assert result["lower_score_wins"] is False
