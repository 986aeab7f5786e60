"""Record and view encodings of the Eel family (fixed by the foundation issue, see docs/records.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamebag.core.errors import IllegalChanceOutcomeError
from gamebag.core.protocol import JsonDict

if TYPE_CHECKING:
    from gamebag.games.eel_family.state import GrabResult


def outcome_to_json(outcome: tuple[str, ...]) -> JsonDict:
    """``("EES", "", "S")`` -> ``{"0": "EES", "2": "S"}``: seats that drew nothing are left out."""
    return {str(seat): tokens for seat, tokens in enumerate(outcome) if tokens}


def outcome_from_json(data: Any, players: int) -> tuple[str, ...]:
    """The inverse of ``outcome_to_json``; the rules check the tokens themselves."""
    if not isinstance(data, dict):
        raise IllegalChanceOutcomeError(
            'a draw is an object mapping each seat that drew to its tokens, e.g. {"0": "EES"}'
        )
    drawn = [""] * players
    for key, tokens in data.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise IllegalChanceOutcomeError(f"{key!r} is not a seat number") from None
        if not 0 <= seat < players:
            raise IllegalChanceOutcomeError(f"seat {seat} does not exist; seats are 0 to {players - 1}")
        if not isinstance(tokens, str):
            raise IllegalChanceOutcomeError(f"seat {seat}: tokens are a string of E and S, not {tokens!r}")
        drawn[seat] = tokens
    return tuple(drawn)


def grab_json(result: GrabResult | None) -> JsonDict | None:
    """What the last grab revealed, as shown in every view."""
    if result is None:
        return None
    return {
        "counts": [c if c >= 0 else None for c in result.counts],
        "eels": list(result.eels),
        "snakes": list(result.snakes),
        "exited": list(result.exited),
        "outbreak": result.outbreak,
        "losers": list(result.losers),
        "scored": list(result.scored),
        "round_over": result.round_over,
    }
