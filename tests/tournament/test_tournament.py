"""Tournaments: pairings and seat mixes, the win-rate matrix, ratings, the ladder, the command and the plot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamebag.cli.app import app
from gamebag.core.errors import GamebagError, UnknownAgentError
from gamebag.sim.ratings import RatedGame, places, rate_games
from gamebag.sim.tournament import (
    GameOutcome,
    TournamentSpec,
    ladder_field,
    ladder_specs,
    run_tournament,
    seat_mixes,
    win_rate_matrix,
)

runner = CliRunner()


def test_seat_mixes_cover_every_pairing_and_mix() -> None:
    assert seat_mixes(3, 2) == [(0, 1), (0, 2), (1, 2)]
    mixes = seat_mixes(2, 3)
    assert mixes == [(0, 0, 1), (0, 1, 1)]
    assert all(len(set(m)) > 1 for m in seat_mixes(3, 4))
    assert len(seat_mixes(3, 4)) == 15 - 3  # multisets of 4 from 3, less the three single-agent ones


def test_matrix_counts_ties_as_half_and_duplicates_once() -> None:
    outcomes = [
        GameOutcome((0, 1), ((1.0, 20.0), (0.0, 10.0))),
        GameOutcome((1, 0), ((1.0, 21.0), (0.0, 5.0))),
        GameOutcome((0, 1), ((0.5, 20.0), (0.5, 20.0))),
        # Three seats, agent 1 twice: 0 beats one copy, loses to the other -> one half for this game.
        GameOutcome((1, 0, 1), ((0.0, 3.0), (0.0, 4.0), (1.0, 9.0))),
    ]
    matrix = win_rate_matrix(2, outcomes)
    cell = matrix[0][1]
    assert cell is not None and cell.games == 4
    assert cell.rate == pytest.approx((1 + 0 + 0.5 + 0.5) / 4)
    assert matrix[1][0] is not None and matrix[1][0].rate == pytest.approx(1 - cell.rate)
    assert matrix[0][0] is None
    assert cell.low < cell.rate < cell.high


def test_places_and_ratings_order() -> None:
    assert places([(1.0, 20.0), (0.0, 10.0), (0.0, 10.0)]) == [1, 2, 2]
    games = [RatedGame((0, 1), ((1.0, 20.0), (0.0, 5.0))) for _ in range(30)]
    ratings = rate_games(["strong", "weak"], games)
    assert [r.agent for r in ratings] == ["strong", "weak"]
    assert ratings[0].mu > 25 > ratings[1].mu
    assert ratings[0].games == 30
    assert ratings[0].ordinal == pytest.approx(ratings[0].mu - 3 * ratings[0].sigma)


def test_ladder_specs_double_the_budget() -> None:
    key, budgets, specs = ladder_specs("ismcts:iterations=25,c=0.5", 4)
    assert key == "iterations"
    assert budgets == (25, 50, 100, 200)
    assert specs[-1] == "ismcts:c=0.5,iterations=200"
    assert ladder_specs("ismcts:ms=12.5", 2)[2] == ("ismcts:ms=12.5", "ismcts:ms=25")
    with pytest.raises(GamebagError, match="budget"):
        ladder_specs("ismcts:c=1", 3)
    assert ladder_field(["random", "heuristic", "ismcts:iterations=9"], "ismcts:iterations=25") == [
        "random",
        "heuristic",
    ]


def small_spec(**changes: object) -> TournamentSpec:
    base = dict(
        game="eel-harvest",
        players=2,
        agents=("random", "heuristic"),
        games=12,
        seed=4,
        ladder="ismcts:iterations=4",
        ladder_steps=2,
    )
    base.update(changes)
    return TournamentSpec(**base)  # type: ignore[arg-type]


def test_tournament_is_reproducible_and_worker_independent() -> None:
    first = run_tournament(small_spec())
    again = run_tournament(small_spec(), workers=2)
    assert first.to_json()["win_rate_matrix"] == again.to_json()["win_rate_matrix"]
    assert first.to_json()["ratings"] == again.to_json()["ratings"]
    assert first.to_json()["ladder"] == again.to_json()["ladder"]
    heuristic_vs_random = first.matrix[1][0]
    assert heuristic_vs_random is not None and heuristic_vs_random.games == 12
    assert heuristic_vs_random.rate > 0.8
    assert first.ratings[0].agent == "heuristic"
    assert first.ladder is not None and first.ladder.budgets == (4, 8)
    assert first.ladder.field == ("random", "heuristic")


def test_more_players_play_seat_mixes() -> None:
    result = run_tournament(small_spec(players=3, games=3, ladder=None, auto_ladder=False))
    assert len(result.matchups) == 2
    assert result.ladder is None
    cell = result.matrix[0][1]
    assert cell is not None and cell.games == 6


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"games": 0}, "--games"),
        ({"agents": ("random",)}, "at least two"),
        ({"agents": ("random", "random")}, "only once"),
        ({"ladder_steps": 0}, "--ladder-steps"),
        ({"game": "catch-a-dragon", "players": 1}, "at least 2 players"),
    ],
)
def test_bad_tournaments_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(GamebagError, match=message):
        run_tournament(small_spec(**changes))


def test_unknown_agent_is_refused() -> None:
    with pytest.raises(UnknownAgentError, match="unknown agent"):
        run_tournament(small_spec(agents=("random", "genius")))


def test_command_prints_json_and_draws_the_plot(tmp_path: Path) -> None:
    plot = tmp_path / "t.png"
    result = runner.invoke(
        app,
        [
            "tournament",
            "wriggle-roulette",
            "--agents",
            "random,heuristic,ismcts:iterations=3,c=0.5",
            "--games",
            "4",
            "--seed",
            "2",
            "--ladder-steps",
            "2",
            "--json",
            "--plot",
            str(plot),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["agents"] == ["random", "heuristic", "ismcts:iterations=3,c=0.5"]
    assert len(data["win_rate_matrix"]) == 3 and data["win_rate_matrix"][0][0] is None
    assert {r["agent"] for r in data["ratings"]} == set(data["agents"])
    assert data["ladder"]["specs"] == ["ismcts:c=0.5,iterations=25", "ismcts:c=0.5,iterations=50"]
    assert plot.stat().st_size > 10_000
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_command_text_output_and_errors(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["tournament", "eel-harvest", "--agents", "random,heuristic", "--games", "4", "--no-ladder"]
    )
    assert result.exit_code == 0, result.output
    assert "openskill" in result.output and "heuristic" in result.output
    bad_plot = runner.invoke(
        app, ["tournament", "eel-harvest", "--agents", "random,heuristic", "--plot", str(tmp_path / "x.txt")]
    )
    assert bad_plot.exit_code != 0
    assert not (tmp_path / "x.txt").exists()
