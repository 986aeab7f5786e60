"""Every rulebook number is an option: defaults, bounds, and the rules using the value given."""

from __future__ import annotations

from fractions import Fraction

import pytest
from typer.testing import CliRunner

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.cli.app import app
from gamebag.core.errors import IllegalActionError, OptionError, UnknownAgentError
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng
from gamebag.sim.play import play_game


@pytest.mark.parametrize("game_id", ["eel-harvest", "wriggle-roulette"])
def test_eel_defaults_are_the_rulebook_numbers(game_id: str) -> None:
    for players, threshold in {2: 6, 3: 7, 4: 9, 5: 11, 6: 13, 7: 15, 8: 17}.items():
        game = gamebag.make(game_id, players)
        view = game.public_view(game.initial_state())
        assert (view["bag"]["eels"], view["bag"]["snakes"], view["target"]) == (51, 17, 20)
        assert view["threshold"] == threshold
        assert view["max_grab"] == (6 if players == 2 else 4)


@pytest.mark.parametrize("game_id", ["eel-harvest", "wriggle-roulette"])
def test_eel_numbers_change_the_game(game_id: str) -> None:
    game = gamebag.make(game_id, 3, eels=30, snakes=5, target=8, max_grab=2, outbreak_snakes=3)
    state = game.initial_state()
    assert (state.bag_eels, state.bag_snakes) == (30, 5)
    assert tuple(game.legal_actions(state, 0)) == (0, 1, 2)
    with pytest.raises(IllegalActionError, match="0 to 2"):
        game.apply(state, {0: 3, 1: 1, 2: 1})
    # Three snakes drawn make an outbreak under outbreak_snakes=3 (the table says 7 for 3 players).
    state = game.apply(state, {0: 1, 1: 1, 2: 1})
    state = game.apply_chance(state, ("S", "S", "S"))
    assert state.last is not None and state.last.outbreak
    # Whole games end at the target given, with every token back in a bag of 30 + 5.
    rng = make_rng(7)
    agents = [make_agent("heuristic", game) for _ in range(3)]
    for _ in range(5):
        played = play_game(game, agents, rng)
        assert max(played.scores) >= 8
        assert played.state.bag_eels + sum(played.state.reserves) == 30
        assert played.state.bag_snakes + played.state.centre == 5


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"eels": 0}, "option 'eels'"),
        ({"eels": 201}, "option 'eels'"),
        ({"snakes": 0}, "option 'snakes'"),
        ({"target": 0}, "option 'target'"),
        ({"max_grab": 11}, "option 'max_grab'"),
        ({"outbreak_snakes": 0}, "option 'outbreak_snakes'"),
        ({"snakes": 5, "outbreak_snakes": 6}, "cannot make an outbreak with only 5 snakes"),
        ({"snakes": 8}, "cannot make an outbreak with only 8 snakes"),  # 4 players: the table says 9
    ],
)
def test_eel_numbers_are_bounded(options: dict[str, int], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        gamebag.make("wriggle-roulette", 4, **options)


def test_equilibrium_agent_refuses_numbers_its_tables_do_not_cover() -> None:
    game = gamebag.make("eel-harvest", 2, target=15)
    with pytest.raises(UnknownAgentError, match="target"):
        make_agent("equilibrium", game)
    # The rulebook's numbers written out are the defaults, and are accepted.
    make_agent("equilibrium", gamebag.make("eel-harvest", 2, eels=51, snakes=17, max_grab=6, outbreak_snakes=6))


def test_dragon_dice_and_rounds() -> None:
    game = gamebag.make("catch-a-dragon", 2, dice=2, rounds=1)
    state = game.initial_state()
    outcomes = game.chance_outcomes(state)
    assert all(len(roll) == 2 for roll, _ in outcomes)
    assert sum(p for _, p in outcomes) == 1
    # Two green dragons: collecting both ends the turn with 2 squared.
    state = game.apply_chance(state, (1, 1))
    state = game.apply(state, {0: (1, 1)})
    assert state.last_turn is not None and state.last_turn.points == 4 and state.last_turn.ended_by == "four"
    # One round only: the game ends after seat 1's turn unless the totals tie.
    state = game.apply_chance(state, (2, 5))  # gold and purple: not linked, 1 + 1
    state = game.apply(state, {1: (2, 5)})
    assert game.node_kind(state) is NodeKind.TERMINAL
    assert game.winners(state) == (0,)


def test_dragon_heuristic_plays_any_number_of_dice() -> None:
    for dice in (1, 3, 6):
        game = gamebag.make("catch-a-dragon", 2, dice=dice, rounds=2)
        agents = [make_agent("heuristic", game) for _ in range(2)]
        played = play_game(game, agents, make_rng(dice))
        assert played.winners


@pytest.mark.parametrize(
    ("options", "name"),
    [({"dice": 0}, "dice"), ({"dice": 7}, "dice"), ({"rounds": 0}, "rounds"), ({"rounds": 21}, "rounds")],
)
def test_dragon_numbers_are_bounded(options: dict[str, int], name: str) -> None:
    with pytest.raises(OptionError, match=f"option '{name}'"):
        gamebag.make("catch-a-dragon", 2, **options)


def test_pig_die_sides() -> None:
    game = gamebag.make("pig", 2, die_sides=3, goal=10)
    state = game.initial_state()
    assert list(game.chance_outcomes(state)) == [(1, Fraction(1, 3)), (2, Fraction(1, 3)), (3, Fraction(1, 3))]
    with pytest.raises(Exception, match="1 to 3"):
        game.apply_chance(state, 4)
    for sides in (1, 21):
        with pytest.raises(OptionError, match="option 'die_sides'"):
            gamebag.make("pig", 2, die_sides=sides)


def test_pig_solver_reads_the_die() -> None:
    from gamebag.agents.solvers.solutions import win_solution

    two = win_solution(gamebag.make("pig", 2, goal=6, die_sides=2))
    six = win_solution(gamebag.make("pig", 2, goal=6))
    assert two.value != six.value


def test_list_shows_the_new_options() -> None:
    result = CliRunner().invoke(app, ["list"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    for name in ("eels", "snakes", "target", "max_grab", "outbreak_snakes", "dice", "rounds", "die_sides"):
        assert name in result.output


def test_rules_pages_document_the_new_options() -> None:
    pages = {game_id: gamebag.entry(game_id).rules_text() for game_id in gamebag.game_ids()}
    for name in ("`eels`", "`snakes`", "`target`", "`max_grab`", "`outbreak_snakes`"):
        assert name in pages["eel-harvest"]
    assert "`dice`" in pages["catch-a-dragon"] and "`rounds`" in pages["catch-a-dragon"]
    assert "`die_sides`" in pages["pig"]
