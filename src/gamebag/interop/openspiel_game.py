"""Every gamebag game as an OpenSpiel (pyspiel) Python game.

Importing this module registers ``gamebag_<game_id>`` (hyphens become
underscores) for every game, e.g. ``pyspiel.load_game("gamebag_wriggle_roulette",
{"players": 2})`` or ``load("wriggle-roulette", 2)``. Game parameters:

* ``players`` and every option of the game. Bool and int options keep their
  type; choice options are strings; list options are space-separated strings
  (OpenSpiel game strings cannot hold commas); an int option that may be none
  is an int where one below its minimum means none (``lone_player_grabs=-1``);
* ``max_game_length`` (default 1000): the game stops after that many decision
  nodes; if it has not ended by its rules, the seats with the best score
  (the highest, or the lowest where ``Game.lower_score_wins``) share the win
  (OpenSpiel needs a bound on the number of moves);
* ``max_chance_outcomes`` (default 1024): the most outcomes one OpenSpiel chance
  node offers. A gamebag chance event with more outcomes (several players
  drawing at once, say) becomes a short chain of chance nodes: outcome ``i`` of
  the event's ``chance_outcomes`` list is written in base
  ``max_chance_outcomes`` and each node draws one digit with the exact total
  probability of the outcomes that share it. A smaller event is one node whose
  ids are positions in that list;
* ``start`` (default empty): moves played before the game begins, as written by
  ``start_string(state)`` (``c<id>`` for a chance id, ``<seat>:<id>/<seat>:<id>``
  for the choices at one decision node), so any position can be the root of a
  game (endgames, subgames).

The mapping: decision nodes where several seats choose are SIMULTANEOUS nodes
(seats that do not choose have no legal actions and their entry of the joint
action is ignored); a node where one seat chooses is that seat's turn. Action
ids are positions in ``all_actions()``. Returns are the game's win shares (1/k
for each of k winners), so the game is constant-sum with sum 1.

Observations: the observation string is the seat's ``observation`` as JSON and
the observation tensor its ``observation_tensor``. The information-state string
is perfect recall: the seat's observations in order (each one written when it
changes) with its own actions between them; in a game of perfect information,
where every seat sees everything, it is the move list. It is written as a
128-bit digest of that history (``information_state_history`` writes it out).
There is no information-state tensor: a fixed size cannot hold a whole
history. A public observer
(``private_info=NONE``) gives the spectator view as JSON (no tensor).

A state is serialised (pickled, as OpenSpiel does for Python games) as its move
list and restored by replaying it.

This module holds the pyspiel classes and their registration; ``openspiel_config`` the
adapter's parameters and names, ``openspiel_track`` the configured game and the immutable
positions behind the states. Every name importable from here before that split still is.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

import gamebag
from gamebag.interop.common import public_string
from gamebag.interop.openspiel_config import (
    ADAPTER_PARAMETERS,
    CHANCE_CACHE_SIZE,
    DEFAULT_MAX_CHANCE_OUTCOMES,
    DEFAULT_MAX_GAME_LENGTH,
    NAME_PREFIX,
    SHARED_CHANCE_SIZE,
    SIMULTANEOUS,
    LogEntry,
    format_moves,
    game_traits,
    parse_moves,
    spiel_game_type,
    spiel_name,
)
from gamebag.interop.openspiel_track import MoveLog, SpielConfig, Track, config_for, replay_track, restore_track

__all__ = [
    "ADAPTER_PARAMETERS",
    "CHANCE_CACHE_SIZE",
    "DEFAULT_MAX_CHANCE_OUTCOMES",
    "DEFAULT_MAX_GAME_LENGTH",
    "NAME_PREFIX",
    "SHARED_CHANCE_SIZE",
    "GamebagObserver",
    "GamebagSpielGame",
    "GamebagSpielState",
    "LogEntry",
    "SpielConfig",
    "format_moves",
    "game_traits",
    "load",
    "parse_moves",
    "register_openspiel_games",
    "spiel_name",
    "start_string",
]
# Pickles of states written before the adapter was split name these here.
_replay = replay_track
_restore = restore_track


def load(game_id: str, players: int | None = None, **parameters: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` for a gamebag game id, with keyword parameters."""
    register_openspiel_games()
    params: dict[str, Any] = dict(parameters)
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(spiel_name(game_id), params)


def start_string(state: GamebagSpielState) -> str:
    """The ``start`` parameter of a game that begins at ``state`` (for subgames and endgames)."""
    track = state.track
    return format_moves([*track.config.start_entries, *MoveLog.entries(track.log)])


def no_tensor_message(game_id: str, kind: str) -> str:
    """Why a gamebag OpenSpiel game has no tensor of ``kind`` (``information_state`` or ``public``), and what to use."""
    if kind == "public":
        return (
            f"{spiel_name(game_id)}: the public view has no tensor (it is JSON text); read it with the "
            "public observer's string_from(state, player)"
        )
    return (
        f"{spiel_name(game_id)}: no information-state tensor (provides_information_state_tensor is false: a "
        "fixed size cannot hold a whole history); use information_state_string(player), or "
        "observation_tensor(player) for a fixed-size tensor"
    )


# ---- pyspiel classes ------------------------------------------------------------------------
class GamebagSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A configured gamebag game as a pyspiel game."""

    def __init__(self, game_id: str, params: Mapping[str, Any]) -> None:
        config = config_for(game_id, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=config.codec.size,
            max_chance_outcomes=config.branching,
            num_players=config.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=config.max_game_length * (config.num_players if config.turn_based else 1),
        )
        game_class = type(config.game)
        perfect = game_traits(config.game)[1]
        super().__init__(spiel_game_type(game_class, config.sequential, perfect), info, dict(params))
        self.config = config

    def new_initial_state(self) -> GamebagSpielState:
        return GamebagSpielState(self)

    # pyspiel would answer ``[]`` and ``0`` (no tensor) where a caller expects a tensor's shape.
    def information_state_tensor_shape(self) -> list[int]:
        raise pyspiel.SpielError(no_tensor_message(self.config.game_id, "information_state"))

    def information_state_tensor_size(self) -> int:
        raise pyspiel.SpielError(no_tensor_message(self.config.game_id, "information_state"))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> GamebagObserver:
        return GamebagObserver(self.config, iig_obs_type, params)


class GamebagSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state; its position is an immutable ``Track``."""

    def __init__(self, game: GamebagSpielGame) -> None:
        super().__init__(game)
        self.track: Track = game.config.initial

    def current_player(self) -> int:
        return self.track.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.track.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.track.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        track = self.track
        if track.is_chance:
            self.track = track.with_chance(int(action))
        else:
            self.track = track.with_move(track.current_player(), int(action))

    # Python callers reach these directly; C++ callers go through pyspiel's trampoline to
    # current_player, is_terminal, _legal_actions and chance_outcomes, which give the same answers
    # (a test compares both routes).
    def is_chance_node(self) -> bool:
        return self.track.is_chance

    def is_simultaneous_node(self) -> bool:
        return self.track.current_player() == SIMULTANEOUS

    def is_player_node(self) -> bool:
        return self.track.current_player() >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal ids of ``player`` (default: the current player), as pyspiel's own method answers."""
        track = self.track
        current = track.current_player()
        if player is None:
            player = current
        if track.is_terminal():
            return []
        if track.is_chance:
            return [digit for digit, _ in track.chance_outcomes()]
        if player == current or (player >= 0 and current == SIMULTANEOUS):
            return list(track.legal_actions(player))
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def _apply_actions(self, actions: Sequence[int]) -> None:
        self.track = self.track.with_joint({seat: int(a) for seat, a in enumerate(actions)})

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.track.chance_description(int(action))
        codec = self.track.config.codec
        if 0 <= action < codec.size:
            return f"seat {player}: {codec.describe(int(action))}"
        return f"seat {player}: id {action}"

    def is_terminal(self) -> bool:
        return self.track.is_terminal()

    def returns(self) -> list[float]:
        return self.track.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GamebagSpielState:
        """A state ``player_id`` cannot tell from this one, drawn with ``probability_sampler()``.

        OpenSpiel's ISMCTS calls this to determinise hidden information. The sampler's
        draw seeds the game's own resampling, so the same draws give the same state.
        """
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        clone: GamebagSpielState = self.clone()
        clone.track = self.track.resampled(int(player_id), rng)
        return clone

    def information_state_history(self, player: int) -> list[str]:
        """The information state of ``player`` written out (its observations and actions, in order)."""
        return self.track.history(player)

    def __str__(self) -> str:
        return self.track.describe()


class GamebagObserver:
    """OpenSpiel observer: observation, information state, or public view of a state."""

    def __init__(
        self,
        config: SpielConfig,
        iig_obs_type: pyspiel.IIGObservationType | None,
        params: Mapping[str, Any] | None,
    ) -> None:
        if params:
            raise ValueError(f"gamebag observers take no parameters, not {dict(params)!r}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        private = obs_type.private_info
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER and obs_type.public_info:
            self.kind = "information_state" if obs_type.perfect_recall else "observation"
        elif private == pyspiel.PrivateInfoType.NONE and obs_type.public_info and not obs_type.perfect_recall:
            self.kind = "public"
        else:
            raise ValueError(
                "gamebag games offer the observation and information state of one seat "
                "(private_info=SINGLE_PLAYER, public_info=True) and the public view "
                f"(private_info=NONE, perfect_recall=False), not {obs_type}"
            )
        self.config = config
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]]
        if self.kind == "observation":
            self.tensor = np.zeros(config.observation_size, np.float32)
            self.dict = {"observation": self.tensor}
        else:  # no tensor: the public view is JSON, and a fixed size cannot hold a whole history
            self.tensor, self.dict = None, {}

    def set_from(self, state: GamebagSpielState, player: int) -> None:
        if (
            self.tensor is None
        ):  # OpenSpiel's callers check ``tensor is None`` first; a caller that did not asked for one
            raise pyspiel.SpielError(no_tensor_message(self.config.game_id, self.kind))
        values = self.config.game.observation_tensor(state.track.state, player)
        if len(values) != self.config.observation_size:
            raise RuntimeError(f"{self.config.game_id}: observation_tensor length changed")
        self.tensor[:] = values

    def string_from(self, state: GamebagSpielState, player: int) -> str:
        track = state.track
        if self.kind == "public":
            return public_string(self.config.game, track.state)
        if self.kind == "observation":
            return track.observed(player)
        return f"p{player}:{track.info_key(player).hex()}"


# ---- registration ------------------------------------------------------------------------
# pyspiel keeps each registered creator until after the interpreter has shut down
# and then releases it without the GIL: a creator must not be freed at that point.
# A class never is (it refers to itself through its MRO), so each game gets one.
_GAME_CLASSES: dict[str, type[GamebagSpielGame]] = {}


def _game_class(game_id: str) -> type[GamebagSpielGame]:
    def __init__(self: GamebagSpielGame, params: Mapping[str, Any] | None = None) -> None:
        GamebagSpielGame.__init__(self, game_id, params or {})

    name = "Spiel_" + game_id.replace("-", "_")
    return type(name, (GamebagSpielGame,), {"__init__": __init__, "__module__": __name__})


def register_openspiel_games() -> list[str]:
    """Register every gamebag game not yet known to pyspiel; return all their names."""
    known = set(pyspiel.registered_names())
    names = []
    for game_id in gamebag.game_ids():
        name = spiel_name(game_id)
        if name not in known:
            game_class = gamebag.entry(game_id).game_class
            # Registered once per game, with its default configuration's traits.
            game_type = spiel_game_type(game_class, *game_traits(game_class()))
            _GAME_CLASSES[name] = _game_class(game_id)
            pyspiel.register_game(game_type, _GAME_CLASSES[name])
        names.append(name)
    return names


register_openspiel_games()
