"""The Eel family's state builders put every field in its place (they hold the field order alone)."""

from __future__ import annotations

from typing import Any

from gamebag.games.eel_family.state import EelState, GrabResult, make_grab_result, make_state


def _distinct(fields: tuple[str, ...]) -> dict[str, Any]:
    """A different value for every field, so that two swapped fields cannot go unnoticed."""
    return {name: f"<{name}>" for name in fields}


def test_make_state_names_every_field_of_eel_state() -> None:
    values = _distinct(EelState._fields)
    built = make_state(**values)
    assert type(built) is EelState
    assert built._asdict() == values


def test_make_grab_result_names_every_field_of_grab_result() -> None:
    values = _distinct(GrabResult._fields)
    built = make_grab_result(**values)
    assert type(built) is GrabResult
    assert built._asdict() == values
