"""The lab's default agent is the strongest compiled one, ``learned`` included, played on the step batch."""

from __future__ import annotations

import numpy as np
import pytest

import gamebag
from gamebag import lab
from gamebag.agents.learned import shipped_policies
from gamebag.fast import unavailable_reason
from gamebag.lab.cells import FAST_AGENTS_BY_STRENGTH, Cell, build_cells, default_agent
from gamebag.lab.play import FAST, RULES, STEPPED, Block, choose_engine, play_block
from gamebag.sim.stepped import stepped_reason

SHIPPED = shipped_policies()


def _blocks_equal(one: Block, other: Block) -> None:
    assert np.array_equal(one.scores, other.scores)
    assert np.allclose(one.returns, other.returns)
    assert np.array_equal(one.length, other.length)
    assert one.ended_by == other.ended_by


@pytest.mark.parametrize(
    ("game_id", "agents"),
    [
        ("eel-harvest", ("heuristic", "random", "heuristic")),
        ("wriggle-roulette", ("random", "heuristic", "heuristic", "random", "heuristic")),
        ("catch-a-dragon", ("heuristic", "optimal-score", "random")),
        ("catch-a-dragon", ("optimal-win", "heuristic")),
    ],
)
def test_the_step_batch_plays_the_whole_game_kernels_games(game_id: str, agents: tuple[str, ...]) -> None:
    # With compiled agents only, the stepped path must give the kernel's games row for row:
    # the same chance streams, scores, win shares, rounds and endings.
    cell = Cell(0, game_id, len(agents), {}, agents, 17)
    _blocks_equal(play_block(cell, 30, 330, STEPPED, 1000), play_block(cell, 30, 330, FAST, 1000))


def test_a_learned_seat_plays_on_the_step_batch_reproducibly_and_in_its_own_seat() -> None:
    cell = Cell(0, "eel-harvest", 2, {}, ("heuristic", "learned"), 3)
    assert choose_engine(cell) == (STEPPED, None)
    whole = play_block(cell, 0, 600, STEPPED, 1000)
    halves = [play_block(cell, 0, 250, STEPPED, 1000), play_block(cell, 250, 600, STEPPED, 1000)]
    for name in ("scores", "returns", "length"):
        assert np.array_equal(getattr(whole, name), np.concatenate([getattr(b, name) for b in halves]))
    # The shipped policy wins about 0.83 against the heuristic (docs/agents.md); seat 1 here.
    assert whole.returns[:, 1].mean() > 0.7
    rules = play_block(cell, 0, 120, RULES, 1000)
    assert rules.returns[:, 1].mean() > 0.6  # the rules engine's learned agent, the same policy


def test_a_population_with_learned_is_drawn_per_game_on_the_step_batch() -> None:
    cell = Cell(0, "catch-a-dragon", 2, {}, ("learned", "heuristic"), 5, population=True)
    assert choose_engine(cell) == (STEPPED, None)
    block = play_block(cell, 0, 200, STEPPED, 1000)
    again = play_block(cell, 100, 200, STEPPED, 1000)
    assert block.seats is not None and again.seats is not None
    assert np.array_equal(block.seats[100:], again.seats)
    assert np.array_equal(block.scores[100:], again.scores)
    assert np.allclose(block.returns.sum(axis=1), 1.0)


def test_the_default_is_the_strongest_compiled_agent_of_every_player_count() -> None:
    for game_id in ("eel-harvest", "wriggle-roulette", "catch-a-dragon", "pig", "eigen-kweek"):
        cls = gamebag.entry(game_id).game_class
        for n in range(cls.min_players, cls.max_players + 1):
            agent = default_agent(game_id, n, {})
            assert agent in FAST_AGENTS_BY_STRENGTH
            game = gamebag.make(game_id, n)
            seats = ["learned"] * n
            compiled = unavailable_reason(game, seats) is None or stepped_reason(game, seats) is None
            if agent == "learned":
                assert (game_id, n) in SHIPPED and compiled
            elif (game_id, n) in SHIPPED and compiled:
                assert agent == "optimal-win"  # level with learned where it exists, so it stays first
    assert default_agent("catch-a-dragon", 2, {}) == "optimal-win"
    # Eigen Kweek's kernels play its policy themselves.
    assert default_agent("eigen-kweek", 2, {}) == "learned"
    assert choose_engine(Cell(0, "eigen-kweek", 2, {}, ("learned", "learned"), 1)) == (FAST, None)
    assert default_agent("eel-harvest", 2, {}, learned=False) == "heuristic"


def test_a_learned_default_says_so_and_options_it_was_not_trained_for_fall_back_for_the_whole_count() -> None:
    assert ("eel-harvest", 2) in SHIPPED
    cells, notices = lab.plan("eel-harvest", 2)
    assert cells[0].agents == ("learned", "learned")
    assert any("'learned', the strongest compiled agent" in n and "played compiled" in n for n in notices)
    # A policy plays only its training options: the cell at other options gets the heuristic,
    # and so does the default cell of the same count, so the two compare like with like.
    cells, notices = lab.plan("eel-harvest", 2, vary=["rotate_start=false,true"])
    assert [c.agents for c in cells] == [("heuristic", "heuristic")] * 2
    assert any("plays only some of the option values" in n for n in notices)
    cells, _ = build_cells("eel-harvest", (2,), None, learned=False)
    assert cells[0].agents == ("heuristic", "heuristic")


def test_a_study_with_the_learned_default_warns_that_every_seat_plays_it() -> None:
    result = lab.balance("eel-harvest", players=2, games=300, seed=1).to_json()
    assert result["cells"][0]["agents"] == ["learned", "learned"]
    assert result["cells"][0]["engine"] == STEPPED
    assert result["cells"][0]["games"] == 300
    assert any("every seat plays the same agent (learned)" in w for w in result["warnings"])
