"""Typed options: each game reads its validated options once, as a frozen dataclass (``typed_options``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import pytest

import gamebag
from gamebag.core.options import typed_options
from gamebag.core.protocol import Game


@dataclass(frozen=True)
class Sample:
    size: int
    name: str
    flag: bool
    limit: int | None
    colours: tuple[str, ...]
    extra: bool = False


VALUES: dict[str, Any] = {"size": 3, "name": "a", "flag": True, "limit": None, "colours": ("red",)}


def test_values_become_typed_fields_and_absent_ones_take_the_rule_set_default() -> None:
    parsed = typed_options(Sample, VALUES)
    assert parsed == Sample(size=3, name="a", flag=True, limit=None, colours=("red",), extra=False)


@pytest.mark.parametrize(
    ("field", "value"),
    [("size", True), ("size", "3"), ("flag", 1), ("limit", "none"), ("colours", ("red", 2)), ("colours", ["red"])],
)
def test_a_value_that_does_not_fit_its_field_is_a_programming_error(field: str, value: Any) -> None:
    with pytest.raises(TypeError, match=f"option '{field}'"):
        typed_options(Sample, {**VALUES, field: value})


def test_a_field_without_option_or_default_is_a_programming_error() -> None:
    values = {key: value for key, value in VALUES.items() if key != "name"}
    with pytest.raises(TypeError, match=r"Sample\.name has no option"):
        typed_options(Sample, values)


def _games() -> list[Game[Any, Any, Any]]:
    return [gamebag.make(game_id) for game_id in gamebag.game_ids()]


@pytest.mark.parametrize("game", _games(), ids=lambda game: game.game_id)
def test_every_game_types_every_option_it_declares(game: Game[Any, Any, Any]) -> None:
    """The typed options hold exactly the game's own options, with the validated values."""
    settings = getattr(game, "settings", None)
    assert settings is not None and dataclasses.is_dataclass(settings), f"{game.game_id} has no typed options"
    fields = {field.name for field in dataclasses.fields(settings)}
    declared = {spec.name for spec in type(game).option_specs}
    own = {name for name in declared if name in fields}
    assert own, f"{game.game_id}: its typed options hold none of its options"
    for name in own:
        assert getattr(settings, name) == game.options[name]
