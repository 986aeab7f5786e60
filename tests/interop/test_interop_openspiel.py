"""OpenSpiel adapter: ``pyspiel.random_sim_test`` with serialisation for every game, plus our checks.

Our checks: the game type and parameters; chance split into several nodes gives
the exact gamebag probabilities; hidden choices stay out of other seats'
observations and information states; ``start`` positions and serialisation
round-trip; ``max_game_length`` stops a game with the highest score winning;
observers; clear errors.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

import pyspiel
import pytest

import gamebag
from conftest import configurations
from gamebag.core.errors import OptionError, PlayerCountError
from gamebag.core.protocol import NodeKind
from gamebag.core.results import leaders_share
from gamebag.interop import openspiel_game
from gamebag.interop.openspiel_game import GamebagSpielState, load, spiel_name, start_string

CONFIGS = configurations()
# The games where one seat chooses at a time and nothing is hidden (the rest are simultaneous and hidden).
SEQUENTIAL_PERFECT = ("catch-a-dragon", "pig")
IDS = [f"{g}-{n}p" for g, n in CONFIGS]


def _random_step(state: GamebagSpielState, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    elif state.is_simultaneous_node():
        state.apply_actions(
            [rng.choice(state.legal_actions(p)) if state.legal_actions(p) else 0 for p in range(state.num_players())]
        )
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def test_every_game_is_registered_with_its_type() -> None:
    names = openspiel_game.register_openspiel_games()
    assert names == [spiel_name(game_id) for game_id in gamebag.game_ids()]
    assert set(names) <= set(pyspiel.registered_names())
    for game_id in gamebag.game_ids():
        game_type = load(game_id).get_type()
        game_class = gamebag.entry(game_id).game_class
        sequential, perfect = openspiel_game.game_traits(game_class())
        assert (sequential, perfect) == (game_id in SEQUENTIAL_PERFECT, game_id in SEQUENTIAL_PERFECT)
        dynamics, information = pyspiel.GameType.Dynamics, pyspiel.GameType.Information
        assert game_type.dynamics == (dynamics.SEQUENTIAL if sequential else dynamics.SIMULTANEOUS)
        assert load(game_id, turn_based=True).get_type().dynamics == dynamics.SEQUENTIAL
        assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        expected = information.PERFECT_INFORMATION if perfect else information.IMPERFECT_INFORMATION
        assert game_type.information == expected
        assert game_type.utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert (game_type.min_num_players, game_type.max_num_players) == (
            game_class.min_players,
            game_class.max_players,
        )
        # The information-state tensor is not offered: a fixed size cannot hold the whole history.
        assert game_type.provides_information_state_string and not game_type.provides_information_state_tensor
        assert game_type.provides_observation_string and game_type.provides_observation_tensor
        assert {"players", "max_game_length", "max_chance_outcomes", "start", "turn_based"} <= set(
            game_type.parameter_specification
        )


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=IDS)
def test_random_sim_test_with_serialisation(game_id: str, players: int) -> None:
    game = load(game_id, players)
    assert game.num_players() == players
    assert game.num_distinct_actions() == len(gamebag.make(game_id, players).all_actions())
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", ["wriggle-roulette", "eigen-kweek"])
def test_turn_based_transform_passes_random_sim_test(game_id: str) -> None:
    game = pyspiel.convert_to_turn_based(load(game_id, 3))
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_large_chance_events_become_chains_with_exact_probabilities() -> None:
    game = load("eel-harvest", 3, max_chance_outcomes=4)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_actions([4, 3, 2])  # 5 * 4 * 3 = 60 possible draws: three chance nodes of base 4
    core = state.track.config.game
    gamebag_state = state.track.state
    expected = {core.apply_chance(gamebag_state, o): p for o, p in core.chance_outcomes(gamebag_state)}
    reached: dict[object, float] = {}

    def walk(node: GamebagSpielState, probability: float, depth: int) -> None:
        if not node.is_chance_node() or node.track.state is not gamebag_state:
            reached[node.track.state] = reached.get(node.track.state, 0.0) + probability
            return
        assert depth < 3
        outcomes = node.chance_outcomes()
        assert len(outcomes) <= 4 and math.isclose(sum(p for _, p in outcomes), 1.0)
        for action, p in outcomes:
            walk(node.child(action), probability * p, depth + 1)

    walk(state, 1.0, 0)
    assert reached.keys() == expected.keys()
    for key, probability in expected.items():
        assert reached[key] == pytest.approx(float(probability), rel=1e-12)


def test_pending_choices_stay_hidden_from_the_other_seat() -> None:
    game = load("wriggle-roulette", 2)
    seen = {}
    for own, other in ((2, 1), (2, 5)):
        state = game.new_initial_state()
        state.apply_actions([own, other])
        assert state.is_chance_node()
        seen[other] = (
            state.information_state_string(0),
            state.observation_string(0),
            state.information_state_history(0),
            state.observation_tensor(0),
            state.information_state_string(1),
        )
    assert seen[1][:4] == seen[5][:4]
    assert seen[1][4] != seen[5][4]
    assert '"my_pending_grab":2' in seen[1][1]


def test_information_state_is_perfect_recall_of_own_moves_and_observations() -> None:
    game = load("wriggle-roulette", 2)
    state = game.new_initial_state()
    state.apply_actions([3, 1])
    lines = state.information_state_history(0)
    assert lines[0].startswith("o ") and lines[1] == "a 3" and lines[2].startswith("o ")
    # The string is a compact digest of that history: fixed length, one per history, one per seat.
    key = state.information_state_string(0)
    assert key.startswith("p0:") and len(key) == 3 + 32
    assert key != state.information_state_string(1)
    again = game.new_initial_state()
    again.apply_actions([3, 1])
    assert again.information_state_string(0) == key
    other = game.new_initial_state()
    other.apply_actions([4, 1])
    assert other.information_state_string(0) != key


def test_information_state_strings_stay_short_over_a_long_game() -> None:
    game = load("eigen-kweek", 4)
    state = game.new_initial_state()
    rng = random.Random(2)
    lengths = set()
    while not state.is_terminal():
        _random_step(state, rng)
        lengths.update(len(state.information_state_string(seat)) for seat in range(4))
    assert lengths == {35}
    assert len("\n".join(state.information_state_history(0))) > 1000  # what the digest stands for


@pytest.mark.parametrize("game_id", ["catch-a-dragon", "eel-harvest", "eigen-kweek"])
def test_start_parameter_and_serialisation_round_trip(game_id: str) -> None:
    game = load(game_id, 2)
    state = game.new_initial_state()
    rng = random.Random(6)
    for _ in range(25):
        if state.is_terminal():
            break
        _random_step(state, rng)
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)

    sub = load(game_id, 2, start=start_string(state))
    root = sub.new_initial_state()
    assert root.track.state == state.track.state
    assert root.history() == [] and start_string(root) == start_string(state)
    if not state.is_terminal():
        pyspiel.random_sim_test(sub, num_sims=1, serialize=True, verbose=False)


def test_max_game_length_stops_with_the_highest_score_winning() -> None:
    game = load("wriggle-roulette", 2, max_game_length=3)
    rng = random.Random(1)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        decisions += 0 if state.is_chance_node() else 1
        _random_step(state, rng)
    assert decisions <= 3
    core = state.track.config.game
    if not core.is_terminal(state.track.state):
        assert state.returns() == list(leaders_share(core.scores(state.track.state), core.score_sign()))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_observers() -> None:
    game = load("eel-harvest", 2)
    state = game.new_initial_state()
    public_type = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    public = game.make_py_observer(public_type)
    assert public.tensor is None
    core = state.track.config.game
    assert json.loads(public.string_from(state, 0)) == core.public_view(state.track.state)
    with pytest.raises(ValueError, match="private_info"):
        everyone = pyspiel.PrivateInfoType.ALL_PLAYERS
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, private_info=everyone))
    with pytest.raises(ValueError, match="no parameters"):
        game.make_py_observer(None, {"x": 1})


def test_asking_for_a_tensor_the_game_does_not_provide_is_a_clear_error() -> None:
    # pyspiel answered [] (and a shape of [], a size of 0) for the information-state tensor.
    game = load("eel-harvest", 2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert not game.get_type().provides_information_state_tensor
    no_tensor = r"gamebag_eel_harvest: no information-state tensor.*information_state_string"
    for ask in (
        lambda: state.information_state_tensor(0),
        game.information_state_tensor_shape,
        game.information_state_tensor_size,
        lambda: game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True)).set_from(state, 0),
    ):
        with pytest.raises(pyspiel.SpielError, match=no_tensor):
            ask()
    public_type = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(pyspiel.SpielError, match=r"public view has no tensor.*string_from"):
        game.make_py_observer(public_type).set_from(state, 0)
    # What the game does provide still answers.
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() > 0
    assert state.information_state_string(0).startswith("p0:")


def test_options_as_parameters() -> None:
    game = load("eel-harvest", 2, lone_player_grabs=3, draw="dice")
    options = game.new_initial_state().track.config.game.options
    assert options["lone_player_grabs"] == 3 and options["draw"] == "dice"
    assert load("eel-harvest", 2).new_initial_state().track.config.game.options["lone_player_grabs"] is None
    faces = "gray purple red blue gold green"
    dragon = pyspiel.load_game(f"gamebag_catch_a_dragon(players=2,faces={faces})")
    assert dragon.new_initial_state().track.config.game.options["faces"] == tuple(faces.split())
    with pytest.raises(PlayerCountError, match="2 to 8 players"):
        load("eel-harvest", 9)
    with pytest.raises(OptionError, match="'draw'"):
        load("eel-harvest", 2, draw="coins")
    with pytest.raises(OptionError, match="start"):
        load("eel-harvest", 2, start="0:3/1:x")
    with pytest.raises(OptionError, match="not possible"):
        load("eel-harvest", 2, start="0:3")  # seat 1 chooses too


def test_chance_outcomes_sum_to_one_and_match_gamebag() -> None:
    game = load("catch-a-dragon", 1)
    state = game.new_initial_state()
    assert state.is_chance_node()
    core = state.track.config.game
    outcomes = state.chance_outcomes()
    exact = [p for _, p in core.chance_outcomes(state.track.state)]
    assert [p for _, p in outcomes] == [float(p) for p in exact]
    assert sum(exact, Fraction(0)) == 1
    assert core.node_kind(state.child(outcomes[0][0]).track.state) is not NodeKind.CHANCE


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [("pig", 2, {}), ("catch-a-dragon", 2, {}), ("wriggle-roulette", 3, {}), ("eel-harvest", 3, {"draw": "dice"})],
)
def test_every_chance_node_offers_the_games_exact_probabilities(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    # Lists a game shares between states (a die's faces) and lists built per draw alike.
    game = load(game_id, players, **options)
    rng = random.Random(0)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                core = state.track.config.game
                exact = core.chance_outcomes(state.track.state)
                assert state.chance_outcomes() == [(i, float(p)) for i, (_, p) in enumerate(exact)]
                checked += 1
            _random_step(state, rng)
    assert checked > 20


def test_perfect_information_states_are_the_move_history() -> None:
    game = load("pig", 2, goal=20)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or len(state.history()) < 6:
        _random_step(state, rng)
    history = state.information_state_history(0)
    assert history == state.information_state_history(1)  # both seats saw every move and roll
    assert len(history) == len(state.history())
    assert all(item.startswith(("c ", "m ")) for item in history)
    assert state.information_state_string(0) != state.information_state_string(1)  # keyed per seat
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay.information_state_string(0) == state.information_state_string(0)
    other = game.new_initial_state()
    for action in state.history()[:-1]:
        other.apply_action(action)
    other.apply_action(next(a for a in other.legal_actions() if a != state.history()[-1]))
    assert other.information_state_string(0) != state.information_state_string(0)


def _both_routes(call: Any) -> Any:
    try:
        return call()
    except pyspiel.SpielError as error:
        return f"error: {error}"


@pytest.mark.parametrize(
    ("game_id", "players", "parameters"),
    [
        ("pig", 2, {"goal": 20}),
        ("catch-a-dragon", 2, {}),
        ("eel-harvest", 3, {}),
        ("wriggle-roulette", 3, {"turn_based": True}),
        ("eigen-kweek", 2, {"max_game_length": 20}),
    ],
)
def test_python_queries_answer_as_pyspiels_own_methods(game_id: str, players: int, parameters: dict[str, Any]) -> None:
    # The state answers legal_actions and the node-kind questions in Python; pyspiel's C++ methods
    # (what C++ algorithms see, through the trampoline) must agree everywhere.
    game = load(game_id, players, **parameters)
    state = game.new_initial_state()
    rng = random.Random(4)
    seen = 0
    while not state.is_terminal() and seen < 60:
        for player in [None, *range(-4, players)]:
            args = () if player is None else (player,)
            ours = _both_routes(lambda args=args: state.legal_actions(*args))
            theirs = _both_routes(lambda args=args: pyspiel.State.legal_actions(state, *args))
            assert ours == theirs, (player, ours, theirs)
        for query in ("is_chance_node", "is_simultaneous_node", "is_player_node", "is_terminal"):
            assert getattr(state, query)() == getattr(pyspiel.State, query)(state), query
        _random_step(state, rng)
        seen += 1
    assert seen > 5
