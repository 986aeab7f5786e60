"""Eigen Kweek's analysis on batched compiled playouts: every decision judged to ±5 points, or undecided.

A short seeded game (three rounds) keeps these fast; the budgets of a whole game are measured by
``bench/analysis_kweek.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

import gamebag
from gamebag.agents.registry import heuristic_for
from gamebag.analysis import AnalysisSettings, analyse_record, batched
from gamebag.analysis.batched import JUDGED_HALF_WIDTH, BatchedEvaluator, batched_sampler
from gamebag.analysis.estimate import RolloutEvaluator
from gamebag.analysis.run import select_evaluator
from gamebag.core.protocol import NodeKind
from gamebag.core.records import Record, apply_event, decode_moves
from gamebag.core.rng import Rng, derive_rng
from gamebag.sim.play import play_game

OPTIONS = {"max_rounds": 3}


def short_game(seed: int = 4) -> tuple[Any, Record]:
    game = gamebag.make("eigen-kweek", 3, **OPTIONS)
    result = play_game(game, [heuristic_for(game)] * 3, Rng(seed))
    assert result.record is not None
    return game, result.record


def half_width(interval: list[float]) -> float:
    return (interval[1] - interval[0]) / 2


def test_every_decision_is_judged_to_five_points_or_marked_undecided() -> None:
    game, record = short_game()
    assert isinstance(select_evaluator(game, AnalysisSettings()), BatchedEvaluator)
    found = analyse_record(record, AnalysisSettings(seed=2)).to_json()
    decisions = found["decisions"]
    assert len(decisions) > 10
    for d in decisions:
        if d["judged"]:
            assert "undecided" not in d
            assert half_width(d["value_interval"]) <= JUDGED_HALF_WIDTH + 1e-12, d
            assert half_width(d["best_value_interval"]) <= JUDGED_HALF_WIDTH + 1e-12, d
            assert half_width(d["loss_interval"]) <= JUDGED_HALF_WIDTH + 1e-12, d
        else:
            assert d["undecided"] and "value_interval" not in d and d["label"] is None, d
    assert sum(d["judged"] for d in decisions) > len(decisions) // 2


def test_a_decision_the_budget_cannot_judge_says_so_instead_of_a_wide_number(monkeypatch: pytest.MonkeyPatch) -> None:
    _, record = short_game()
    monkeypatch.setattr(batched, "DECISION_COST", 20_000)
    monkeypatch.setattr(batched, "LUCK_COST", 2_000)
    found = analyse_record(record, AnalysisSettings(seats=(0,), seed=2))
    undecided = [d for d in found.decisions if d.undecided is not None]
    assert undecided, "a budget this small cannot judge every decision"
    for d in undecided:
        data = d.to_json()
        assert data["judged"] is False and "draws" in data["undecided"]
        assert "value_interval" not in data and "loss_interval" not in data and data["label"] is None
    judged = [d for d in found.decisions if d.undecided is None]
    seat = found.seats[0]
    assert seat.to_json()["undecided"] == len(undecided)
    assert judged and seat.accuracy is not None  # the mean over the judged decisions only
    # With the budget spent before the first decision, every decision says so (two draws each).
    monkeypatch.setattr(batched, "DECISION_COST", 0)
    spent = analyse_record(record, AnalysisSettings(seats=(0,), seed=2))
    assert spent.decisions and all(d.undecided == batched.SPENT for d in spent.decisions)
    assert spent.seats[0].accuracy is None and spent.playouts == 2


def test_a_seats_choices_do_not_depend_on_what_it_could_not_see() -> None:
    """From the real state and from another the seat cannot tell apart, the batched evaluator gives
    the seat the same figures to the last digit: the compiled draws read only what it may know."""
    game, record = short_game(seed=6)
    sampler = batched_sampler(game)
    assert not isinstance(sampler, str)
    state = game.initial_state()
    compared = 0
    for index, event in enumerate(record.events):
        if game.node_kind(state) is NodeKind.DECISION and "moves" in event and compared < 2:
            moves = decode_moves(game, event["moves"])
            for seat in game.acting_players(state):
                legal = list(game.legal_actions(state, seat))
                if len(legal) < 2:
                    continue
                twin = game.resample_from_infostate(state, seat, derive_rng(1, index, seat))
                figures = []
                for position in (state, twin):
                    evaluator = BatchedEvaluator(game, sampler, (seat,), seed=3)
                    evaluator.expect_taken(index, seat, moves[seat])
                    figures.append(evaluator.choices(position, seat, legal, index))
                assert figures[0] == figures[1], (index, seat)
                compared += 1
                break
        state = apply_event(game, state, event)
    assert compared == 2


def test_fixed_count_playouts_remain_for_comparison_and_an_explicit_budget() -> None:
    game, _ = short_game()
    assert isinstance(select_evaluator(game, AnalysisSettings(batched=False)), RolloutEvaluator)
    assert isinstance(select_evaluator(game, AnalysisSettings(playouts=20)), RolloutEvaluator)


def test_the_terminal_and_the_pages_leave_undecided_decisions_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gamebag.cli.commands.analyse import UNDECIDED, show
    from gamebag.web.tables.analysis import presentation

    _, record = short_game()
    monkeypatch.setattr(batched, "DECISION_COST", 0)  # every decision undecided
    data = analyse_record(record, AnalysisSettings(seats=(0,), seed=2)).to_json()
    count = len(data["decisions"])
    assert count and all("undecided" in d for d in data["decisions"])
    shown = presentation(data, record.to_json(), ["Ann", "Bob", "Cy"])
    assert shown["curves"]["0"] == [[len(record.events), data["seats"][0]["result"]]] and shown["worst"] == []
    show(data)
    printed = capsys.readouterr().out
    assert " ".join(UNDECIDED.format(count=count).split()) in " ".join(printed.split())
    assert "No decision lost winning chance." in printed  # no undecided guess in the table
