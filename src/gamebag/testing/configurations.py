"""Conformance across a game's configurations: every player count, each option's bounds, option errors.

A game that passes at its default configuration may still crash at seven players or at an
option's maximum. ``check_configurations`` builds every player count from the fewest to the most
and each option at its bounds (an int option's minimum and maximum, each choice, both bools),
plays one quick random game in each (the smoke pass), then runs the whole suite on as many of
them as a time budget allows, the default configuration first. Any exception, not only a
``ConformanceError``, is reported as one ``ConformanceError`` naming the configuration.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from gamebag.core.errors import OptionError
from gamebag.core.options import Option, OptionValue
from gamebag.core.rng import make_rng
from gamebag.testing.information import checked_tensor
from gamebag.testing.playouts import AnyGame, ConformanceError, random_playout, require

GameClass = type[AnyGame]
DEFAULT_BUDGET_SECONDS = 3.0


@dataclass(frozen=True)
class Configuration:
    """A player count and the options that differ from the defaults."""

    players: int
    options: tuple[tuple[str, OptionValue], ...] = ()

    def describe(self) -> str:
        """``players=4, hand_size=5``: how messages name the configuration."""
        return ", ".join([f"players={self.players}", *(f"{name}={value!r}" for name, value in self.options)])

    def build(self, game_class: GameClass) -> AnyGame:
        return game_class(self.players, **dict(self.options))


@dataclass(frozen=True)
class ConfigurationReport:
    """What ``check_configurations`` did: configurations smoke-tested, fully checked, left for lack of
    time, and refused by the game itself with an ``OptionError`` (a combination it does not allow)."""

    smoked: tuple[Configuration, ...]
    checked: tuple[Configuration, ...]
    unchecked: tuple[Configuration, ...]
    refused: tuple[Configuration, ...] = ()


def _bound_values(spec: Option) -> list[OptionValue]:
    """An option's values at its bounds: an int's minimum and maximum, each choice, both bools."""
    if spec.kind == "bool":
        return [False, True]
    if spec.kind == "choice":
        return list(spec.choices)
    if spec.kind == "list":  # a game may refuse both (it checks a list's length): refused is fine
        return [tuple(spec.choices[:1]), tuple(spec.choices)]
    values: list[OptionValue] = [v for v in (spec.minimum, spec.maximum) if v is not None]
    return [*values, None] if spec.nullable else values


def configurations(game_class: GameClass) -> list[Configuration]:
    """The default configuration, every other player count, then each option's bound values (default seats)."""
    found = [Configuration(game_class.default_players)]
    found += [Configuration(n) for n in range(game_class.min_players, game_class.max_players + 1)]
    for spec in game_class.option_specs:
        found += [
            Configuration(game_class.default_players, ((spec.name, v),))
            for v in _bound_values(spec)
            if v != spec.default
        ]
    return list(dict.fromkeys(found))


@contextmanager
def reported(label: str) -> Iterator[None]:
    """Turn any exception in the block into one ``ConformanceError`` line that starts with ``label``."""
    try:
        yield
    except ConformanceError as error:
        raise ConformanceError(f"{label}: {error}") from None
    except Exception as error:  # a crash is a broken promise too; name it in one line
        message = " ".join(str(error).split()) or "(no message)"
        raise ConformanceError(f"{label}: {type(error).__name__}: {message}") from None


def smoke(game: AnyGame, seed: int = 0, views: int = 60) -> None:
    """One random playout, with every seat's observation and tensor at about ``views`` of its states
    (evenly spread, the first and the last among them): the crash finder."""
    states = list(random_playout(game, make_rng(seed)))
    stride = max(1, len(states) // views)
    length: int | None = None
    for step, state in enumerate(states):
        if step % stride and step != len(states) - 1:
            continue
        game.public_view(state)
        for seat in range(game.num_players):
            game.observation(state, seat)
            length = len(checked_tensor(game, state, seat, f"step {step}, seat {seat}", length))
    game.winners(states[-1])
    game.scores(states[-1])


def check_configurations(
    game_class: GameClass,
    check: Callable[[AnyGame], None],
    budget_seconds: float = DEFAULT_BUDGET_SECONDS,
) -> ConfigurationReport:
    """Smoke-test every configuration, then ``check`` as many as ``budget_seconds`` allows.

    The default configuration is always checked in full, and every configuration is built and
    played once, whatever the budget; only the full checks beyond the default stop when time runs out.
    A configuration the game refuses with an ``OptionError`` is skipped (the default one must build).
    """
    started = time.perf_counter()
    all_configurations = configurations(game_class)
    games: dict[Configuration, AnyGame] = {}
    refused: list[Configuration] = []
    for configuration in all_configurations:
        with reported(f"{configuration.describe()}: building the game"):
            try:
                games[configuration] = configuration.build(game_class)
            except OptionError:  # the game's own clear refusal of a combination: not a broken promise
                refused.append(configuration)
                continue
        with reported(f"{configuration.describe()}: a random playout"):
            smoke(games[configuration])
    checked: list[Configuration] = []
    for configuration in games:
        if checked and time.perf_counter() - started > budget_seconds:
            break
        with reported(configuration.describe()):
            check(games[configuration])
        checked.append(configuration)
    unchecked = tuple(c for c in games if c not in checked)
    return ConfigurationReport(tuple(games), tuple(checked), unchecked, tuple(refused))


def check_option_errors(game_class: GameClass) -> None:
    """Unknown options, bad values and player counts out of range raise ``OptionError`` naming them."""
    for options, players, what in (
        ({"no_such_option": 1}, game_class.default_players, "an unknown option"),
        ({}, game_class.max_players + 1, f"{game_class.max_players + 1} players"),
        ({}, game_class.min_players - 1, f"{game_class.min_players - 1} players"),
    ):
        _require_option_error(game_class, players, options, what)
    for spec in game_class.option_specs:
        for bad, shown in _bad_values(spec):
            what = f"{spec.name}={shown}"
            error = _require_option_error(game_class, game_class.default_players, {spec.name: bad}, what)
            require(spec.name in str(error), f"the error for {what} does not name the option: {error}")


def _bad_values(spec: Option) -> list[tuple[Any, str]]:
    """Values of no allowed kind, and an int option's neighbours just outside its bounds: ``(value, as shown)``."""
    bad: list[tuple[Any, str]] = [(object(), "<a value of no allowed kind>")]
    if spec.kind == "int":
        outside = [spec.minimum - 1 if spec.minimum is not None else None]
        outside.append(spec.maximum + 1 if spec.maximum is not None else None)
        bad += [(value, repr(value)) for value in outside if value is not None]
    if spec.kind == "choice":
        bad.append(("no such choice", "'no such choice'"))
    return bad


def _require_option_error(game_class: GameClass, players: int, options: dict[str, Any], what: str) -> OptionError:
    try:
        game_class(players, **options)
    except OptionError as error:
        bound = str(game_class.max_players)
        named = (
            bound in str(error)
            or str(game_class.min_players) in str(error)
            or any(name in str(error) for name in options)
        )
        require(named, f"the error for {what} names neither the option nor the bounds: {error}")
        return error
    except Exception as error:  # the promise is OptionError with a clear message
        raise ConformanceError(f"{what} raised {type(error).__name__} ({error}), not OptionError") from None
    raise ConformanceError(f"{game_class.__name__}({players}, **{options}) was accepted ({what})")
