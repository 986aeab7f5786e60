"""Card studies and the ``heuristic:abstain=CARD`` agent spec."""

from __future__ import annotations

import pytest

import gamebag
from gamebag import lab
from gamebag.agents.registry import make_agent
from gamebag.core.errors import GamebagError, UnknownAgentError
from gamebag.core.rng import derive_rng
from gamebag.games.eigen_kweek.components import CARDS
from gamebag.sim.play import play_game


def test_abstain_spec_names_cards_case_insensitively() -> None:
    game = gamebag.make("eigen-kweek", 3)
    agent = make_agent("heuristic:abstain=steven+Den Ollander", game)
    assert agent.abstain == frozenset({"STEVEN", "DEN OLLANDER"})  # type: ignore[attr-defined]
    with pytest.raises(UnknownAgentError, match="allowed: RIA"):
        make_agent("heuristic:abstain=BOB", game)
    with pytest.raises(UnknownAgentError, match="no parameter"):
        make_agent("heuristic:abstain=STEVEN", gamebag.make("pig"))


def test_abstaining_from_the_spec_never_plays_the_card() -> None:
    game = gamebag.make("eigen-kweek", 2)
    agents = [make_agent("heuristic:abstain=STEVEN", game), make_agent("heuristic", game)]
    for index in range(3):
        record = play_game(game, agents, derive_rng(2, index)).record
        assert record is not None
        mine = [e.get("moves", {}).get("0", "") for e in record.events]
        assert "choose:STEVEN" not in mine and "play:STEVEN" not in mine


def test_card_study_has_a_row_per_card() -> None:
    study = lab.card_study("eigen-kweek", 2, games=6, seed=4)
    assert [row.card for row in study.rows] == list(CARDS)
    assert study.study.cells[0].cell.agents == ("heuristic", "heuristic")
    for row in study.rows:
        low, high = row.without_card_ci
        assert low <= row.without_card <= high
        assert row.difference.estimate == pytest.approx(row.with_card - row.without_card)
    assert len(study.to_json()["cards"]) == len(CARDS)


def test_card_study_needs_cards() -> None:
    with pytest.raises(GamebagError, match="no cards"):
        lab.card_study("pig", 2, games=5)


def test_card_study_takes_several_player_counts_in_one_run() -> None:
    study = lab.card_study("eigen-kweek", [2, 3], games=4, seed=4)
    assert [(row.players, row.card) for row in study.rows] == [(2, c) for c in CARDS] + [(3, c) for c in CARDS]
    baselines = [cell for cell in study.study.cells if set(cell.cell.agents) == {"heuristic"}]
    assert [cell.cell.players for cell in baselines] == [2, 3]
    for row in study.rows:
        base = baselines[row.players - 2]
        assert row.with_card == base.win_share[0]
        assert row.difference.estimate == pytest.approx(row.with_card - row.without_card)
    single = lab.card_study("eigen-kweek", 2, games=4, seed=4)
    assert [r.to_json() for r in single.rows] == [r.to_json() for r in study.rows if r.players == 2]


def test_learned_takes_abstain_as_the_heuristic_does() -> None:
    game = gamebag.make("eigen-kweek", 2)
    agent = make_agent("learned:abstain=steven+Den Ollander", game)
    assert agent.abstain == frozenset({"STEVEN", "DEN OLLANDER"})  # type: ignore[attr-defined]
    assert agent.name == "learned:abstain=DEN OLLANDER+STEVEN"
    with pytest.raises(UnknownAgentError, match=r"learned parameter abstain='BOB' is not known; allowed: RIA"):
        make_agent("learned:abstain=BOB", game)
    dragon = gamebag.make("catch-a-dragon", 2)  # a learned policy ships, but it has no cards
    with pytest.raises(UnknownAgentError, match="no parameter"):
        make_agent("learned:abstain=STEVEN", dragon)


def test_learned_abstaining_never_chooses_or_plays_the_card() -> None:
    game = gamebag.make("eigen-kweek", 2)
    # BERNARD: the card the shipped 2-player policy chooses and plays most in these games, so abstaining binds.
    plain = [make_agent("learned", game), make_agent("heuristic", game)]
    abstaining = [make_agent("learned:abstain=BERNARD", game), make_agent("heuristic", game)]
    chosen = {"plain": 0, "abstaining": 0}
    for label, agents in (("plain", plain), ("abstaining", abstaining)):
        for index in range(3):
            record = play_game(game, agents, derive_rng(2, index)).record
            assert record is not None
            mine = [e.get("moves", {}).get("0", "") for e in record.events]
            chosen[label] += sum(move in ("choose:BERNARD", "play:BERNARD") for move in mine)
    assert chosen["plain"] > 0 and chosen["abstaining"] == 0, chosen


def test_card_study_with_learned_seats_plays_compiled() -> None:
    study = lab.card_study("eigen-kweek", 2, games=4, seed=4, agent="learned")
    assert [row.card for row in study.rows] == list(CARDS)
    cells = study.study.cells
    assert cells[0].cell.agents == ("learned", "learned")
    assert cells[1].cell.agents == (f"learned:abstain={CARDS[0]}", "learned")
    assert {cell.engine for cell in cells} == {"compiled"}  # the kernels, not the rules engine
    with pytest.raises(GamebagError, match="heuristic or learned"):
        lab.card_study("eigen-kweek", 2, games=4, agent="random")
