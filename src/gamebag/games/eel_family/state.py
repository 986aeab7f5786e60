"""The Eel Harvest family's positions: ``EelState`` and the reveal of a grab, ``GrabResult``."""

from __future__ import annotations

from typing import NamedTuple

# A player still in the round when it ends exits "last" for the eel-harvest tie-break.
STILL_IN = 1_000_000
Outcome = tuple[str, ...]  # per seat, the tokens drawn in order; "" for seats that drew nothing


class GrabResult(NamedTuple):
    """What the last grab revealed, per seat (public once revealed).

    A named tuple, like ``EelState``: immutable and hashable, and built in one call.
    """

    counts: tuple[int, ...]  # chosen count, -1 for seats not in the round
    eels: tuple[int, ...]  # eels each seat drew (the order of a hand does not matter once revealed)
    snakes: tuple[int, ...]
    exited: tuple[int, ...]
    outbreak: bool
    losers: tuple[int, ...]  # seats that lost their eels in an outbreak
    scored: tuple[int, ...]  # points each seat scored in this grab
    round_over: bool


class EelState(NamedTuple):
    """A position. ``pending`` holds the chosen counts while the draws are awaited.

    A named tuple: immutable and hashable like a frozen dataclass, and built in one
    call, which matters because every grab builds two (change fields with ``_replace``).
    """

    scores: tuple[int, ...]
    reserves: tuple[int, ...]
    in_round: tuple[bool, ...]
    bag_eels: int
    bag_snakes: int
    centre: int
    round_no: int
    start: int
    grab_no: int
    # When each seat left the current round, as an order key (0: still in): 2g for an exit by
    # choosing 0 in grab g, 2g + 1 for the automatic lone-player exit after grab g's reveal.
    exit_grab: tuple[int, ...]
    lone_left: int | None  # grabs left to a lone player under ``lone_player_grabs``
    pending: tuple[int, ...] | None
    last: GrabResult | None
    winners: tuple[int, ...]
    over: bool


# The one place that holds the field order of each record. Every state of the rules engine is
# built through these, by field name: calling a NamedTuple class with keywords goes through
# ``type.__call__``, which packs the keywords into a dict (measured 6-11% of the engine's speed in
# random playouts, bench/bench_engine.py); a plain function with keyword-only parameters matches
# them without one and is as fast as a positional call. tests/eel_family/test_eel_state_builders.py
# checks that each builder puts every field in its place.
_new_tuple = tuple.__new__


def make_state(
    *,
    scores: tuple[int, ...],
    reserves: tuple[int, ...],
    in_round: tuple[bool, ...],
    bag_eels: int,
    bag_snakes: int,
    centre: int,
    round_no: int,
    start: int,
    grab_no: int,
    exit_grab: tuple[int, ...],
    lone_left: int | None,
    pending: tuple[int, ...] | None,
    last: GrabResult | None,
    winners: tuple[int, ...],
    over: bool,
) -> EelState:
    """An ``EelState``, every field named."""
    return _new_tuple(
        EelState,
        (
            scores,
            reserves,
            in_round,
            bag_eels,
            bag_snakes,
            centre,
            round_no,
            start,
            grab_no,
            exit_grab,
            lone_left,
            pending,
            last,
            winners,
            over,
        ),
    )


def make_grab_result(
    *,
    counts: tuple[int, ...],
    eels: tuple[int, ...],
    snakes: tuple[int, ...],
    exited: tuple[int, ...],
    outbreak: bool,
    losers: tuple[int, ...],
    scored: tuple[int, ...],
    round_over: bool,
) -> GrabResult:
    """A ``GrabResult``, every field named."""
    return _new_tuple(GrabResult, (counts, eels, snakes, exited, outbreak, losers, scored, round_over))
