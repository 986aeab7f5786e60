"""How the OpenSpiel adapter names and configures a gamebag game (see ``openspiel_game``).

The adapter's constants and parameters, a game's OpenSpiel name, parameter specification
and ``GameType``, and the move lists of the ``start`` parameter (``parse_moves``,
``format_moves``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pyspiel

from gamebag.core.errors import OptionError
from gamebag.core.options import Option
from gamebag.core.protocol import Game
from gamebag.core.translation import _

NAME_PREFIX = "gamebag_"
DEFAULT_MAX_GAME_LENGTH = 1000
DEFAULT_MAX_CHANCE_OUTCOMES = 1024
ADAPTER_PARAMETERS = ("players", "max_game_length", "max_chance_outcomes", "start", "turn_based")
# Chance states whose outcome lists a configured game keeps (searches revisit them).
CHANCE_CACHE_SIZE = 4096
# Distinct outcome sequences a configured game keeps by identity (games that share them have few).
SHARED_CHANCE_SIZE = 64

SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)

# An entry of a state's move log: a joint action (or one turn of one) as ((seat, action id), ...), or a chance id.
LogEntry = tuple[tuple[int, int], ...] | int


def spiel_name(game_id: str) -> str:
    """The OpenSpiel short name of a game: ``gamebag_wriggle_roulette``."""
    return NAME_PREFIX + game_id.replace("-", "_")


# ---- configuration ------------------------------------------------------------------------
def _none_sentinel(option: Option) -> int | None:
    """The integer standing for ``None`` of a nullable int option (one below its minimum)."""
    if option.kind == "int" and option.nullable and option.minimum is not None:
        return option.minimum - 1
    return None


def _option_default(option: Option) -> bool | int | str:
    """The OpenSpiel parameter default standing for a gamebag option's default."""
    value = option.default
    sentinel = _none_sentinel(option)
    if option.kind == "bool" and isinstance(value, bool):
        return value
    if option.kind == "int" and isinstance(value, int):
        return value
    if value is None and sentinel is not None:
        return sentinel
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return " ".join(value)
    return str(value)


def option_value(option: Option, value: Any) -> Any:
    """The gamebag option value an OpenSpiel parameter value stands for (gamebag validates it)."""
    if option.kind == "list" and isinstance(value, str):
        return tuple(value.split())
    sentinel = _none_sentinel(option)
    if sentinel is not None and value == sentinel and not isinstance(value, bool):
        return None
    return value


def _parameter_specification(game_class: type[Game[Any, Any, Any]]) -> dict[str, bool | int | str]:
    spec: dict[str, bool | int | str] = {
        "players": game_class.default_players,
        "max_game_length": DEFAULT_MAX_GAME_LENGTH,
        "max_chance_outcomes": DEFAULT_MAX_CHANCE_OUTCOMES,
        "start": "",
        "turn_based": False,
    }
    for option in game_class.option_specs:
        if option.name in spec:
            raise ValueError(
                f"{game_class.game_id}: option {option.name!r} clashes with the OpenSpiel adapter's "
                f"parameter of that name"
            )
        spec[option.name] = _option_default(option)
    return spec


def game_traits(game: Game[Any, Any, Any]) -> tuple[bool, bool]:
    """``(sequential, perfect_information)`` of a configured game, as its ``traits`` declare them
    (an instance's: a configuration may change them, as an option that shows every hand does)."""
    traits = game.traits
    return traits.sequential, traits.perfect_information


def spiel_game_type(game_class: type[Game[Any, Any, Any]], sequential: bool, perfect: bool) -> pyspiel.GameType:
    dynamics = pyspiel.GameType.Dynamics
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=spiel_name(game_class.game_id),
        long_name=f"gamebag {game_class.title}",
        dynamics=dynamics.SEQUENTIAL if sequential else dynamics.SIMULTANEOUS,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information.PERFECT_INFORMATION if perfect else information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game_class.max_players,
        min_num_players=game_class.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,  # a fixed-size tensor cannot hold the whole history
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(game_class),
    )


def positive_int(params: Mapping[str, Any], name: str, minimum: int) -> int:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise OptionError(
            _("parameter {name} must be an integer of at least {minimum}, not {value}", name=name, minimum=minimum,
              value=repr(value))
        )
    return value


def parse_moves(text: str) -> list[LogEntry]:
    """Moves written as by ``start_string``: ``c<id>`` for chance, ``<seat>:<id>/...`` for a joint action."""
    entries: list[LogEntry] = []
    for token in text.split():
        try:
            if token.startswith("c"):
                entries.append(int(token[1:]))
            else:
                pairs = [part.split(":") for part in token.split("/")]
                entries.append(tuple((int(seat), int(action)) for seat, action in pairs))
        except ValueError:
            raise OptionError(
                f"start: {token!r} is not a move; write c<id> for a chance outcome and "
                f"<seat>:<action id>/<seat>:<action id> for the choices of one decision node"
            ) from None
    return entries


def format_moves(entries: Sequence[LogEntry]) -> str:
    """The inverse of ``parse_moves``."""
    return " ".join(
        f"c{entry}" if isinstance(entry, int) else "/".join(f"{seat}:{action}" for seat, action in entry)
        for entry in entries
    )
