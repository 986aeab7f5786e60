"""The equality harness (``gamebag.equality``) catches a wrong engine: state, conservation, views, results."""

from __future__ import annotations

from typing import Any

import numpy as np
from replays import PigKernelReplay, seatings_of

import gamebag
from gamebag.equality import Sample, comparisons, coverage_gaps, holm_failures, play_rules, replay
from gamebag.fast import pig as fast_pig
from gamebag.games.pig.rules import Pig


def test_a_kernel_with_a_wrong_rule_fails_the_replay() -> None:
    game = gamebag.make("pig", goal=20)
    engine = PigKernelReplay(game)
    engine.goal = 15  # the kernel told the wrong goal: a game ends too early
    log = replay(game, engine, seatings_of(game, [("heuristic", "random")]), 30, "wrong goal")
    assert log.problems and "phase" in log.problems[0]
    assert log.games < 30  # the replay stops after a handful of problems


class Leaky(PigKernelReplay):
    """Right rows, but a conservation check that finds points lost, a view that differs, and a wrong length."""

    reported: tuple[bool, bool] = (False, False)

    def conservation(self) -> str | None:
        if self.reported[0] or self.board[0, fast_pig.TURNS] != 2:
            return None
        self.reported = (True, self.reported[1])
        return "points lost"

    def views(self, state: Any) -> list[str]:
        if self.reported[1] or state.turns != 3:
            return []
        self.reported = (self.reported[0], True)
        return ["observation of seat 1 differs"]

    def finish(self, state: Any) -> list[str]:
        return ["round 0"]


def test_conservation_views_and_end_checks_are_reported_where_they_fail() -> None:
    game = gamebag.make("pig", goal=20)
    log = replay(game, Leaky(game), seatings_of(game, [("random", "random")]), 1, "leaky")
    assert any(p.endswith("points lost") for p in log.problems)
    assert any(p.endswith("observation of seat 1 differs") for p in log.problems)
    assert log.problems[-1] == "game 0 end: round 0"


def test_distributions_of_different_play_are_told_apart_and_equal_ones_are_not() -> None:
    game = gamebag.make("pig", goal=20)
    random_play = play_rules(game, seatings_of(game, [("random", "random")])[0], 600, "a")
    again = play_rules(game, seatings_of(game, [("random", "random")])[0], 600, "b")
    heuristic = play_rules(game, seatings_of(game, [("heuristic", "random")])[0], 600, "c")
    assert not holm_failures(comparisons(again, random_play), 0.001)
    assert holm_failures(comparisons(heuristic, random_play), 0.001)
    # A sample is any object with returns, scores and length arrays (a BatchResult too).
    same = Sample(random_play.returns, random_play.scores, np.asarray(random_play.length))
    assert not holm_failures(comparisons(same, random_play), 0.001)


def test_coverage_names_unknown_engine_kinds() -> None:
    assert coverage_gaps(Pig, "turbo", [])[0].startswith("'turbo' is not an engine kind")
    assert len(coverage_gaps(Pig, "numba", [])) == 2  # goal and die_sides, declared for numba
    assert not coverage_gaps(Pig, "numba", [{"goal": 30, "die_sides": 3}])
    assert not coverage_gaps(Pig, "equilibrium", [])  # refused: nothing to cover
