"""Ctrl-C and SIGTERM stop long runs and keep what finished (tournament, simulate)."""

from __future__ import annotations

import os
import signal

import pytest

from gamebag.cli.common import sigterm_as_interrupt
from gamebag.sim.simulate import SimulationSpec, run_simulation
from gamebag.sim.tournament import TournamentSpec, run_tournament


def _stop_after(games: int):  # type: ignore[no-untyped-def]
    seen = [0]

    def progress(k: int) -> None:
        seen[0] += k
        if seen[0] >= games:
            raise KeyboardInterrupt

    return progress


def test_tournament_interrupted_keeps_the_finished_games() -> None:
    spec = TournamentSpec("pig", 2, ("random", "heuristic", "optimal-score"), 40, seed=3, auto_ladder=False)
    result = run_tournament(spec, progress=_stop_after(30), engine="rules")
    assert result.interrupted
    assert 30 <= result.games_played < 3 * 40
    assert result.to_json()["interrupted"] is True
    played = sum(cell.games for row in result.matrix for cell in row if cell is not None) // 2
    assert played == result.games_played
    full = run_tournament(spec, engine="rules")
    assert not full.interrupted and full.games_played == 3 * 40


def test_simulation_interrupted_keeps_the_first_games() -> None:
    spec = SimulationSpec("wriggle-roulette", 3, ("heuristic",) * 3, 2000, seed=1)
    result = run_simulation(spec, progress=_stop_after(1), engine="rules")
    assert result.interrupted and 0 < result.played < 2000
    assert result.to_json()["games_played"] == result.played
    assert sum(result.win_share) == pytest.approx(1.0)
    shorter = run_simulation(
        SimulationSpec("wriggle-roulette", 3, ("heuristic",) * 3, result.played, seed=1), engine="rules"
    )
    assert shorter.win_share == result.win_share  # the games kept are the first ones


def test_sigterm_stops_like_ctrl_c() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), sigterm_as_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is before  # the handler is put back
