"""The solvers' turn models live beside the solvers, registered by game class; the games hold only rules."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

import gamebag
from gamebag.agents.solvers import turn_models
from gamebag.agents.solvers.model import RaceModel, RoundsModel, TurnModel, VaryingTurnModel
from gamebag.agents.solvers.models.pig import PigTurns
from gamebag.agents.solvers.solutions import SolveError, supports_score, supports_win, turn_model
from gamebag.games.catch_a_dragon import CatchADragon
from gamebag.games.pig import Pig

# What a game class carried only for the exact solvers before its turn model moved out of it.
SOLVER_ONLY = (
    "turn_root",
    "turn_node_kind",
    "turn_chance",
    "turn_choices",
    "turn_points",
    "turn_node_to_json",
    "turn_position",
    "turn_model_for",
    "race_goal",
    "round_structure",
)


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_no_game_class_carries_the_solvers_turn_model(game_id: str) -> None:
    game_class = gamebag.entry(game_id).game_class
    carried = [name for name in SOLVER_ONLY if hasattr(game_class, name)]
    assert not carried, f"{game_id} still carries {carried}"


def test_the_solvers_find_each_model_by_game_class_and_its_variants_by_their_base() -> None:
    pig, dragon = turn_model(gamebag.make("pig")), turn_model(gamebag.make("catch-a-dragon", 2))
    assert isinstance(pig, RaceModel) and not isinstance(pig, RoundsModel)
    assert isinstance(dragon, RoundsModel) and isinstance(dragon, VaryingTurnModel)
    # A variant (a subclass of CatchADragon) registers no model of its own. Defined here, unregistered:
    # importing gamebag.variants at collection would register its games for every test of the worker.
    class HouseDragon(CatchADragon):
        game_id: ClassVar[str] = "house-dragon"

    assert supports_win(HouseDragon)
    assert not supports_score(gamebag.entry("wriggle-roulette").game_class)
    with pytest.raises(SolveError, match="wriggle-roulette exposes no turn model"):
        turn_model(gamebag.make("wriggle-roulette"))


def test_one_model_per_game_object() -> None:
    game = gamebag.make("catch-a-dragon", 2)
    assert turn_model(game) is turn_model(game)
    assert turn_model(game) is not turn_model(gamebag.make("catch-a-dragon", 2))


class ShortPig(Pig):
    game_id: ClassVar[str] = "short-pig"


class ShortPigTurns(PigTurns):
    def race_goal(self) -> int:
        return 2 * super().race_goal()


def test_a_subclass_may_register_its_own_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turn_models, "_MODEL_CLASSES", dict(turn_models._MODEL_CLASSES))
    assert type(turn_model(ShortPig(goal=10))) is PigTurns  # its base's, until it registers its own
    turn_models.register_turn_model(ShortPig, ShortPigTurns)
    model: Any = turn_model(ShortPig(goal=10))
    assert isinstance(model, ShortPigTurns) and model.race_goal() == 20


def test_a_model_class_without_the_protocol_is_refused() -> None:
    class NotAModel:
        def turn_root(self) -> Any:
            return None

    assert not issubclass(NotAModel, TurnModel)
    with pytest.raises(TypeError, match="NotAModel lacks methods of the TurnModel protocol"):
        turn_models.register_turn_model(ShortPig, NotAModel)
