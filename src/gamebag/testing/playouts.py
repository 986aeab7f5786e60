"""What every conformance check shares: the error it raises, where it was, and random playouts.

A ``ConformanceError`` message starts with where the broken promise showed (``step 14, seat 2``)
and names what differed (``observation differs in 'hand'``, ``observation_tensor differs at
index 37``), so a game's author can go straight to the rule or view at fault.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from gamebag.core.protocol import Game, NodeKind
from gamebag.core.records import Record, chance_event, moves_event, new_record
from gamebag.core.rng import Rng

AnyGame = Game[Any, Any, Any]
GameFactory = Callable[..., AnyGame]

MAX_STEPS = 1_000_000  # a random playout longer than this is taken as a game that never ends
# How deep ``describe_difference`` follows nested views before it names the outer field.
MAX_DIFFERENCE_DEPTH = 8


class ConformanceError(AssertionError):
    """A promise of the protocol that a game breaks; the message names it, and where."""


def require(condition: bool, message: str) -> None:
    """Raise ``ConformanceError(message)`` unless ``condition`` holds."""
    if not condition:
        raise ConformanceError(message)


def at(step: int, seat: int | None = None) -> str:
    """The place a message starts with: ``step 14`` or ``step 14, seat 2``."""
    return f"step {step}" if seat is None else f"step {step}, seat {seat}"


def describe_difference(expected: Any, actual: Any) -> str:
    """Where two views, tensors or states first differ: ``in 'hand'``, ``at index 37``, ``in 'hands'[2]``."""
    path = _difference_path(expected, actual, 0)
    if not path:
        return "in the whole value"
    if path.startswith("["):  # a list or tensor at the top: its index, then any path inside
        index, rest = path[1:].split("]", 1)
        return f"at index {index}" + (f" (in {rest})" if rest else "")
    return f"in {path}"


def _difference_path(expected: Any, actual: Any, depth: int) -> str:
    if depth >= MAX_DIFFERENCE_DEPTH or type(expected) is not type(actual):
        return ""
    if isinstance(expected, dict):
        for key in [*expected, *(k for k in actual if k not in expected)]:
            if key not in expected or key not in actual or expected[key] != actual[key]:
                inner = _difference_path(expected.get(key), actual.get(key), depth + 1)
                return f"{key!r}{inner}" if depth == 0 else f"[{key!r}]{inner}"
        return ""
    if dataclasses.is_dataclass(expected) and not isinstance(expected, type):
        for field in dataclasses.fields(expected):
            mine, theirs = getattr(expected, field.name), getattr(actual, field.name)
            if mine != theirs:
                inner = _difference_path(mine, theirs, depth + 1)
                return f"{field.name!r}{inner}" if depth == 0 else f".{field.name}{inner}"
        return ""
    names = getattr(type(expected), "_fields", None)  # a NamedTuple: name the field
    if isinstance(expected, list | tuple):
        for index, (mine, theirs) in enumerate(zip(expected, actual, strict=False)):
            if mine != theirs:
                inner = _difference_path(mine, theirs, depth + 1)
                if names is not None and depth == 0:
                    return f"{names[index]!r}{inner}"
                return f"[{index}]{inner}"
        if len(expected) != len(actual):
            return f"[{min(len(expected), len(actual))}]"
    return ""


def random_playout(game: AnyGame, rng: Rng) -> Iterator[Any]:
    """Every state of one uniformly random playout (the final one included)."""
    state = game.initial_state()
    yield state
    for _ in range(MAX_STEPS):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return
        state = random_step(game, state, rng)[1]
        yield state
    raise ConformanceError(f"{game!r} did not end within {MAX_STEPS} random steps")


def random_step(game: AnyGame, state: Any, rng: Rng) -> tuple[Any, Any]:
    """One uniformly random step from a decision or chance node: ``(joint action or outcome, next state)``."""
    if game.node_kind(state) is NodeKind.CHANCE:
        outcome = game.sample_chance(state, rng)
        return outcome, game.apply_chance(state, outcome)
    moves = {}
    for seat in game.acting_players(state):
        legal = game.legal_actions(state, seat)
        moves[seat] = legal[rng.randrange(len(legal))]
    return moves, game.apply(state, moves)


def recorded_playout(game: AnyGame, rng: Rng) -> tuple[Record, Any]:
    """A random playout with its record: ``(record, final state)``."""
    record, states = recorded_states(game, rng)
    return record, states[-1]


def recorded_states(game: AnyGame, rng: Rng) -> tuple[Record, list[Any]]:
    """A random playout with its record and every state it passed (``states[i]`` before event ``i``)."""
    record = new_record(game)
    states = [game.initial_state()]
    for _ in range(MAX_STEPS):
        state = states[-1]
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return record, states
        choice, after = random_step(game, state, rng)
        event = chance_event(game, choice) if kind is NodeKind.CHANCE else moves_event(game, choice)
        record.events.append(event)
        states.append(after)
    raise ConformanceError(f"{game!r} did not end within {MAX_STEPS} random steps")
