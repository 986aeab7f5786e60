"""Pig's positional state builder keeps every field it is not told to change, each in its place."""

from __future__ import annotations

import dataclasses
from typing import Any

from gamebag.games.pig.rules import PigState, _within_turn


def test_within_turn_changes_what_it_names_and_keeps_the_rest() -> None:
    fields = [field.name for field in dataclasses.fields(PigState)]
    before: Any = PigState(**{name: f"<{name}>" for name in fields})
    after = _within_turn(before, turn_total="<new total>", phase="<new phase>", last_roll="<new roll>")  # type: ignore[arg-type]
    changed = {"turn_total": "<new total>", "phase": "<new phase>", "last_roll": "<new roll>"}
    assert dataclasses.asdict(after) == {**dataclasses.asdict(before), **changed}
