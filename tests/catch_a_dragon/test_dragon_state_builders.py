"""Catch A Dragon's positional state builder keeps every field it is not told to change, each in its place."""

from __future__ import annotations

import dataclasses
from typing import Any

from gamebag.games.catch_a_dragon.rules import DragonState, _moved


def test_moved_changes_what_it_names_and_keeps_the_rest() -> None:
    fields = [field.name for field in dataclasses.fields(DragonState)]
    before: Any = DragonState(**{name: f"<{name}>" for name in fields})
    after = _moved(before, phase="<new phase>", collected="<new collected>", rolled="<new rolled>")  # type: ignore[arg-type]
    changed = {"phase": "<new phase>", "collected": "<new collected>", "rolled": "<new rolled>"}
    assert {name: getattr(after, name) for name in fields} == {
        **{name: getattr(before, name) for name in fields},
        **changed,
    }
