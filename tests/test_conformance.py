"""The conformance suite (``gamebag.testing``) over every registered game, with default and other options.

Each game must end under random play, be deterministic for a seed, round-trip
its records through replay, leak nothing through observations, give chance
distributions that sum to one, refuse illegal actions without changing state,
and keep the traits it declares. The suite itself is checked on broken games.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, ClassVar

import pytest

import gamebag
from conftest import configurations
from gamebag import testing
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import JsonDict
from gamebag.core.records import Record, replay
from gamebag.core.rng import derive_rng, make_rng
from gamebag.core.traits import Information, Moves, Termination, Traits
from gamebag.games.pig import Pig, PigState
from gamebag.sim.play import play_game

# Options other than the defaults, each set played at the fewest and the most seats.
OTHER_OPTIONS: dict[str, dict[str, Any]] = {
    "pig": {"goal": 30, "die_sides": 4},
    "catch-a-dragon": {
        "faces": ("white", "black", "orange", "yellow", "pink", "brown"),
        "cyclic": False,
        "duplicate_bust": "none-new",
        "max_tiebreak_rounds": 0,
        "dice": 5,
        "rounds": 2,
    },
    "eel-harvest": {
        "rotate_start": True,
        "outbreak_scores_reserve": True,
        "lone_player_grabs": 2,
        "draw": "dice",
        "target": 15,
    },
    "wriggle-roulette": {
        "rotate_start": True,
        "eels": 40,
        "snakes": 12,
        "target": 15,
        "max_grab": 3,
        "outbreak_snakes": 5,
    },
    "eigen-kweek": {
        "coin_visibility": "open",
        "stefaan_order": "tie",
        "fluppe_counts_sacks": False,
        "max_rounds": 20,
    },
}


def _all_configs() -> list[tuple[str, int, dict[str, Any]]]:
    configs: list[tuple[str, int, dict[str, Any]]] = [(g, n, {}) for g, n in configurations()]
    for game_id in gamebag.game_ids():
        cls = gamebag.entry(game_id).game_class
        for players in sorted({cls.min_players, cls.max_players}):
            configs.append((game_id, players, OTHER_OPTIONS[game_id]))
    return configs


CONFIGS = _all_configs()
IDS = [f"{g}-{n}p{'-options' if o else ''}" for g, n, o in CONFIGS]
ARGS = ("game_id", "players", "options")


def test_every_game_has_other_options_under_test() -> None:
    assert set(OTHER_OPTIONS) == set(gamebag.game_ids())
    for game_id, options in OTHER_OPTIONS.items():
        defaults = gamebag.make(game_id).options
        assert all(defaults[name] != value for name, value in options.items()), game_id


def test_every_rulebook_game_is_registered() -> None:
    assert gamebag.game_ids() == ("catch-a-dragon", "eel-harvest", "eigen-kweek", "pig", "wriggle-roulette")
    import gamebag.games as games_package

    assert games_package.__name__ == "gamebag.games", "the games package is not shadowed by a function"


@pytest.mark.parametrize(ARGS, CONFIGS, ids=IDS)
def test_declared_traits_hold(game_id: str, players: int, options: dict[str, Any]) -> None:
    testing.check_traits(gamebag.make(game_id, players, **options))


@pytest.mark.parametrize(ARGS, CONFIGS, ids=IDS)
def test_random_playouts_end_with_winners(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = gamebag.make(game_id, players, **options)
    testing.check_playouts(game)
    states = list(testing.random_playout(game, make_rng(players)))
    assert all(game.termination(state) is None for state in states[:-1]), "a game still going has not ended"
    assert isinstance(game.termination(states[-1]), Termination), "every gamebag game says why it ended"


@pytest.mark.parametrize(ARGS, CONFIGS, ids=IDS)
def test_same_seed_same_record_and_records_replay(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = gamebag.make(game_id, players, **options)
    testing.check_records(game, gamebag.make)
    # The same through the simulator's agents, which draw from the same generator as chance.
    agents = [make_agent("random", game) for _ in range(players)]
    first = play_game(game, agents, derive_rng(7, game_id))
    second = play_game(game, agents, derive_rng(7, game_id))
    assert first.record is not None and second.record is not None
    assert first.record.to_json() == second.record.to_json()
    other = play_game(game, agents, derive_rng(8, game_id))
    assert other.record is not None and other.record.to_json() != first.record.to_json()
    text = json.dumps(first.record.to_json())
    replayed_game, final = replay(Record.from_json(json.loads(text)), gamebag.make)
    assert final == first.state
    assert replayed_game.winners(final) == first.winners


@pytest.mark.parametrize(ARGS, CONFIGS, ids=IDS)
def test_observations_are_json_and_leak_nothing(game_id: str, players: int, options: dict[str, Any]) -> None:
    testing.check_observations(gamebag.make(game_id, players, **options))


@pytest.mark.parametrize(ARGS, CONFIGS, ids=IDS)
def test_chance_distributions_are_exact(game_id: str, players: int, options: dict[str, Any]) -> None:
    testing.check_chance(gamebag.make(game_id, players, **options))


@pytest.mark.parametrize(ARGS, CONFIGS, ids=IDS)
def test_illegal_actions_raise_and_change_nothing(game_id: str, players: int, options: dict[str, Any]) -> None:
    testing.check_illegal_actions(gamebag.make(game_id, players, **options))


@pytest.mark.parametrize(ARGS, CONFIGS, ids=IDS)
def test_match_hides_pending_choices(game_id: str, players: int, options: dict[str, Any]) -> None:
    testing.check_match_secrecy(gamebag.make(game_id, players, **options))


@pytest.mark.parametrize(ARGS, CONFIGS, ids=IDS)
def test_states_are_values_and_apply_is_a_function(game_id: str, players: int, options: dict[str, Any]) -> None:
    testing.check_states(gamebag.make(game_id, players, **options))


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_bad_options_and_player_counts_are_refused_clearly(game_id: str) -> None:
    testing.check_option_errors(gamebag.entry(game_id).game_class)


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_every_player_count_and_option_bound_plays(game_id: str) -> None:
    # What a plugin game gets at load: every configuration built and played once. The full checks
    # are the tests above (the fewest, default and most players), so none is run here.
    fully_checked: list[Any] = []
    report = testing.check_configurations(gamebag.entry(game_id).game_class, fully_checked.append, budget_seconds=0)
    assert len(report.smoked) >= 3 and report.checked == report.smoked[:1] and len(fully_checked) == 1


# ---- the suite catches broken games ---------------------------------------------------------
class ClaimsNoChance(Pig):
    """Pig that wrongly declares it has no chance nodes."""

    traits: ClassVar[Traits] = Traits(Moves.SEQUENTIAL, Information.PERFECT, chance=False)


class LeaksToSeatZero(Pig):
    """Pig that shows seat 0 something the table does not show, while declaring perfect information."""

    def _private_view(self, state: PigState, player: int) -> JsonDict:
        return {"hint": state.turns} if player == 0 else {}


class ForgetfulRecords(Pig):
    """Pig whose resample invents a different position for a game that hides nothing."""

    def resample_from_infostate(self, state: PigState, player: int, rng: Any) -> PigState:
        return replace(state, turns=state.turns + 1)


@pytest.mark.parametrize(
    ("broken", "complaint"),
    [
        (ClaimsNoChance, "chance"),
        (LeaksToSeatZero, "public view"),
        (ForgetfulRecords, "resampl"),
    ],
)
def test_the_suite_catches_broken_games(broken: type[Pig], complaint: str) -> None:
    with pytest.raises(testing.ConformanceError, match=complaint):
        testing.check_game(broken(2, goal=20))


def test_the_suite_passes_a_correct_third_party_game() -> None:
    testing.check_game(Pig(2, goal=20))
