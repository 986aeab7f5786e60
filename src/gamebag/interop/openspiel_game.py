"""Every gamebag game as an OpenSpiel (pyspiel) Python game.

Importing this module registers ``gamebag_<game_id>`` (hyphens become
underscores) for every game, e.g. ``pyspiel.load_game("gamebag_wriggle_roulette",
{"players": 2})`` or ``load("wriggle-roulette", 2)``. Game parameters:

* ``players`` and every option of the game. Bool and int options keep their
  type; choice options are strings; list options are space-separated strings
  (OpenSpiel game strings cannot hold commas); an int option that may be none
  is an int where one below its minimum means none (``lone_player_grabs=-1``);
* ``max_game_length`` (default 1000): the game stops after that many decision
  nodes; if it has not ended by its rules, the seats with the highest score
  share the win (OpenSpiel needs a bound on the number of moves);
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
changes) with its own actions between them. The information-state tensor has a
fixed size, so it cannot hold a whole history: it is the observation tensor
followed by a one-hot of the seat's most recent action. A public observer
(``private_info=NONE``) gives the spectator view as JSON (no tensor).

A state is serialised (pickled, as OpenSpiel does for Python games) as its move
list and restored by replaying it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel

import gamebag
from gamebag.core.errors import IllegalActionError, OptionError
from gamebag.core.options import Option
from gamebag.core.protocol import Game, NodeKind
from gamebag.interop.common import ActionCodec, canonical_json, leaders_share, observation_string, public_string

NAME_PREFIX = "gamebag_"
DEFAULT_MAX_GAME_LENGTH = 1000
DEFAULT_MAX_CHANCE_OUTCOMES = 1024
ADAPTER_PARAMETERS = ("players", "max_game_length", "max_chance_outcomes", "start")

# An entry of a state's move log: a joint action as ((seat, action id), ...) or a chance id.
LogEntry = tuple[tuple[int, int], ...] | int


def spiel_name(game_id: str) -> str:
    """The OpenSpiel short name of a game: ``gamebag_wriggle_roulette``."""
    return NAME_PREFIX + game_id.replace("-", "_")


def load(game_id: str, players: int | None = None, **parameters: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` for a gamebag game id, with keyword parameters."""
    register_openspiel_games()
    params: dict[str, Any] = dict(parameters)
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(spiel_name(game_id), params)


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


def _option_value(option: Option, value: Any) -> Any:
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
    }
    for option in game_class.option_specs:
        if option.name in spec:
            raise ValueError(
                f"{game_class.game_id}: option {option.name!r} clashes with the OpenSpiel adapter's "
                f"parameter of that name"
            )
        spec[option.name] = _option_default(option)
    return spec


def _game_type(game_class: type[Game[Any, Any, Any]]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=spiel_name(game_class.game_id),
        long_name=f"gamebag {game_class.title}",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game_class.max_players,
        min_num_players=game_class.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(game_class),
    )


def _positive_int(params: Mapping[str, Any], name: str, minimum: int) -> int:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise OptionError(f"parameter {name} must be an integer of at least {minimum}, not {value!r}")
    return value


class SpielConfig:
    """One configured game as OpenSpiel sees it; shared by every state of that game."""

    def __init__(self, game_id: str, params: Mapping[str, Any]) -> None:
        self.game_id = game_id
        self.params = dict(sorted(params.items()))
        specs = {option.name: option for option in gamebag.entry(game_id).game_class.option_specs}
        options = {
            name: _option_value(specs[name], value) if name in specs else value
            for name, value in self.params.items()
            if name not in ADAPTER_PARAMETERS
        }
        self.game: Game[Any, Any, Any] = gamebag.make(game_id, self.params.get("players"), **options)
        self.codec = ActionCodec(self.game)
        self.num_players = self.game.num_players
        self.max_game_length = _positive_int(self.params, "max_game_length", 1)
        self.branching = _positive_int(self.params, "max_chance_outcomes", 2)
        start = self.params.get("start", "")
        if not isinstance(start, str):
            raise OptionError(f"parameter start must be a string of moves (see start_string), not {start!r}")
        self.start_entries = parse_moves(start)
        self.initial = _Track.initial(self).replayed(self.start_entries, "start").rebased()
        self.observation_size = len(self.game.observation_tensor(self.initial.state, 0))


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


def start_string(state: GamebagSpielState) -> str:
    """The ``start`` parameter of a game that begins at ``state`` (for subgames and endgames)."""
    track = state.track
    return format_moves([*track.config.start_entries, *_Log.entries(track.log)])


_CONFIGS: dict[tuple[str, tuple[tuple[str, Any], ...]], SpielConfig] = {}


def _config(game_id: str, params: Mapping[str, Any]) -> SpielConfig:
    key = (game_id, tuple(sorted(params.items())))
    config = _CONFIGS.get(key)
    if config is None:
        config = _CONFIGS[key] = SpielConfig(game_id, params)
    return config


# ---- the immutable position behind a pyspiel state -----------------------------------------
class _Trail:
    """A persistent list of strings (appending shares the old list)."""

    __slots__ = ("item", "previous")

    def __init__(self, item: str, previous: _Trail | None) -> None:
        self.item = item
        self.previous = previous

    def items(self) -> list[str]:
        out: list[str] = []
        node: _Trail | None = self
        while node is not None:
            out.append(node.item)
            node = node.previous
        out.reverse()
        return out


class _Log:
    """A persistent list of moves, for serialisation by replay."""

    __slots__ = ("entry", "previous")

    def __init__(self, entry: LogEntry, previous: _Log | None) -> None:
        self.entry = entry
        self.previous = previous

    @staticmethod
    def entries(log: _Log | None) -> list[LogEntry]:
        out: list[LogEntry] = []
        while log is not None:
            out.append(log.entry)
            log = log.previous
        out.reverse()
        return out


class _Track:
    """Everything a pyspiel state holds, immutable: transitions return new tracks.

    Cloning a pyspiel state deep-copies its attributes; a track is its own copy.
    Pickling (OpenSpiel's serialisation of Python states) writes the move log and
    replays it when loaded.
    """

    __slots__ = ("_chance", "config", "decisions", "digits", "last_action", "log", "state", "trails")

    def __init__(
        self,
        config: SpielConfig,
        state: Any,
        decisions: int,
        digits: tuple[int, ...],
        trails: tuple[_Trail, ...],
        last_action: tuple[int, ...],
        log: _Log | None,
        chance: Sequence[tuple[Any, Fraction]] | None = None,
    ) -> None:
        self.config = config
        self.state = state
        self.decisions = decisions
        self.digits = digits
        self.trails = trails
        self.last_action = last_action
        self.log = log
        self._chance = chance

    @classmethod
    def initial(cls, config: SpielConfig) -> _Track:
        game = config.game
        state = game.initial_state()
        trails = tuple(_Trail("o " + observation_string(game, state, p), None) for p in range(config.num_players))
        return cls(config, state, 0, (), trails, (-1,) * config.num_players, None)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Track:
        return self

    def replayed(self, entries: Sequence[LogEntry], what: str = "move log") -> _Track:
        """The track after ``entries``; a move that is not possible is an ``OptionError``."""
        track = self
        for number, entry in enumerate(entries, start=1):
            try:
                track = track.with_chance(entry) if isinstance(entry, int) else track.with_joint(dict(entry))
            except IllegalActionError as error:
                raise OptionError(f"{what}: move {number} ({format_moves([entry])}) is not possible: {error}") from None
        return track

    def rebased(self) -> _Track:
        """This position as the root of a game: no decisions, moves or history yet."""
        game = self.config.game
        trails = tuple(
            _Trail("o " + observation_string(game, self.state, p), None) for p in range(self.config.num_players)
        )
        return _Track(
            self.config, self.state, 0, self.digits, trails, (-1,) * self.config.num_players, None, self._chance
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        config = self.config
        return (_replay, (config.game_id, tuple(config.params.items()), tuple(_Log.entries(self.log))))

    # ---- what the node is --------------------------------------------------------------
    @property
    def truncated(self) -> bool:
        return (
            self.decisions >= self.config.max_game_length
            and self.config.game.node_kind(self.state) is NodeKind.DECISION
        )

    def is_terminal(self) -> bool:
        return self.config.game.is_terminal(self.state) or self.truncated

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        game = self.config.game
        if game.node_kind(self.state) is NodeKind.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        acting = game.acting_players(self.state)
        return acting[0] if len(acting) == 1 else int(pyspiel.PlayerId.SIMULTANEOUS)

    def legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or self.config.game.node_kind(self.state) is not NodeKind.DECISION:
            return []
        return self.config.codec.legal_indices(self.state, player)

    def returns(self) -> list[float]:
        game = self.config.game
        if game.is_terminal(self.state):
            return [float(r) for r in game.returns(self.state)]
        if self.truncated:
            return list(leaders_share(game.scores(self.state)))
        return [0.0] * self.config.num_players

    # ---- chance ------------------------------------------------------------------------
    def chance_list(self) -> Sequence[tuple[Any, Fraction]]:
        """The event's outcomes with positive probability, in the game's order (cached)."""
        if self._chance is None:
            self._chance = tuple(
                (outcome, Fraction(p)) for outcome, p in self.config.game.chance_outcomes(self.state) if p > 0
            )
        return self._chance

    def _depth(self) -> int:
        """How many chance nodes the current event takes (digits in base ``branching``)."""
        count, base, depth = len(self.chance_list()), self.config.branching, 1
        while base**depth < count:
            depth += 1
        return depth

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The ids of the next digit with their exact conditional probabilities."""
        outcomes = self.chance_list()
        base, depth = self.config.branching, self._depth()
        span = base ** (depth - len(self.digits) - 1)  # outcomes covered by one value of the next digit
        start = 0
        for digit in self.digits:
            start = start * base + digit
        start *= span * base
        groups: list[tuple[int, Fraction]] = []
        for digit in range(base):
            low = start + digit * span
            if low >= len(outcomes):
                break
            weight = sum((p for _, p in outcomes[low : low + span]), Fraction(0))
            if weight > 0:
                groups.append((digit, weight))
        total = sum((w for _, w in groups), Fraction(0))
        return [(digit, float(weight / total)) for digit, weight in groups]

    def with_chance(self, digit: int) -> _Track:
        if digit not in {d for d, _ in self.chance_outcomes()}:
            raise IllegalActionError(f"chance id {digit} is not a possible outcome here")
        digits = (*self.digits, digit)
        log = _Log(digit, self.log)
        if len(digits) < self._depth():
            return _Track(
                self.config, self.state, self.decisions, digits, self.trails, self.last_action, log, self._chance
            )
        index = 0
        for d in digits:
            index = index * self.config.branching + d
        outcome = self.chance_list()[index][0]
        state = self.config.game.apply_chance(self.state, outcome)
        return self._moved(state, self.decisions, {}, log)

    def chance_description(self, digit: int) -> str:
        depth = self._depth()
        if depth == 1 and 0 <= digit < len(self.chance_list()):
            outcome = self.chance_list()[digit][0]
            return "chance " + canonical_json(self.config.game.outcome_to_json(outcome))
        return f"chance part {len(self.digits) + 1} of {depth}: {digit}"

    # ---- decisions ---------------------------------------------------------------------
    def with_joint(self, joint: Mapping[int, int]) -> _Track:
        game, codec = self.config.game, self.config.codec
        acting = game.acting_players(self.state)
        missing = [seat for seat in acting if seat not in joint]
        if missing:
            raise IllegalActionError(f"seat(s) {', '.join(map(str, missing))} also choose at this node")
        moves: dict[int, Any] = {}
        for seat in acting:
            index = joint[seat]
            legal = codec.legal_indices(self.state, seat)
            if index not in legal:
                raise IllegalActionError(
                    f"seat {seat}: action id {index} is not legal here; legal ids: {', '.join(map(str, legal))}"
                )
            moves[seat] = codec.action(index)
        state = game.apply(self.state, moves)
        chosen = {seat: joint[seat] for seat in acting}
        log = _Log(tuple(sorted(chosen.items())), self.log)
        return self._moved(state, self.decisions + 1, chosen, log)

    def _moved(self, state: Any, decisions: int, chosen: Mapping[int, int], log: _Log) -> _Track:
        game, codec = self.config.game, self.config.codec
        trails = []
        last_action = list(self.last_action)
        for seat, trail in enumerate(self.trails):
            if seat in chosen:
                trail = _Trail("a " + codec.describe(chosen[seat]), trail)
                last_action[seat] = chosen[seat]
            seen = "o " + observation_string(game, state, seat)
            if seen != _last_observation(trail):
                trail = _Trail(seen, trail)
            trails.append(trail)
        return _Track(self.config, state, decisions, (), tuple(trails), tuple(last_action), log)

    def describe(self) -> str:
        text = repr(self.state)
        if self.digits:
            text += f"\nchance digits so far: {list(self.digits)}"
        if self.truncated and not self.config.game.is_terminal(self.state):
            text += f"\nstopped after {self.decisions} decisions (max_game_length)"
        return text


def _last_observation(trail: _Trail) -> str | None:
    node: _Trail | None = trail
    while node is not None:
        if node.item.startswith("o "):
            return node.item
        node = node.previous
    return None


def _replay(game_id: str, params: tuple[tuple[str, Any], ...], entries: tuple[LogEntry, ...]) -> _Track:
    """Rebuild a track from its move log (the inverse of ``_Track.__reduce__``)."""
    return _config(game_id, dict(params)).initial.replayed(entries)


# ---- pyspiel classes ------------------------------------------------------------------------
class GamebagSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A configured gamebag game as a pyspiel game."""

    def __init__(self, game_id: str, game_type: pyspiel.GameType, params: Mapping[str, Any]) -> None:
        config = _config(game_id, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=config.codec.size,
            max_chance_outcomes=config.branching,
            num_players=config.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=config.max_game_length,
        )
        super().__init__(game_type, info, dict(params))
        self.config = config

    def new_initial_state(self) -> GamebagSpielState:
        return GamebagSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> GamebagObserver:
        return GamebagObserver(self.config, iig_obs_type, params)


class GamebagSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state; its position is an immutable ``_Track``."""

    def __init__(self, game: GamebagSpielGame) -> None:
        super().__init__(game)
        self.track: _Track = game.config.initial

    def current_player(self) -> int:
        return self.track.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.track.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.track.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        track = self.track
        if track.config.game.node_kind(track.state) is NodeKind.CHANCE:
            self.track = track.with_chance(int(action))
        else:
            self.track = track.with_joint({track.current_player(): int(action)})

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
        size = config.observation_size
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]]
        if self.kind == "public":
            self.tensor, self.dict = None, {}
        elif self.kind == "observation":
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}
        else:
            self.tensor = np.zeros(size + config.codec.size, np.float32)
            self.dict = {"observation": self.tensor[:size], "last_action": self.tensor[size:]}

    def set_from(self, state: GamebagSpielState, player: int) -> None:
        if self.tensor is None:
            return
        track = state.track
        size = self.config.observation_size
        self.tensor.fill(0.0)
        values = self.config.game.observation_tensor(track.state, player)
        if len(values) != size:
            raise RuntimeError(f"{self.config.game_id}: observation_tensor length changed from {size}")
        self.tensor[:size] = values
        if self.kind == "information_state" and track.last_action[player] >= 0:
            self.tensor[size + track.last_action[player]] = 1.0

    def string_from(self, state: GamebagSpielState, player: int) -> str:
        track = state.track
        if self.kind == "public":
            return public_string(self.config.game, track.state)
        if self.kind == "observation":
            return observation_string(self.config.game, track.state, player)
        return "\n".join(track.trails[player].items())


# ---- registration ------------------------------------------------------------------------
# pyspiel keeps each registered creator until after the interpreter has shut down
# and then releases it without the GIL: a creator must not be freed at that point.
# A class never is (it refers to itself through its MRO), so each game gets one.
_GAME_CLASSES: dict[str, type[GamebagSpielGame]] = {}


def _game_class(game_id: str, game_type: pyspiel.GameType) -> type[GamebagSpielGame]:
    def __init__(self: GamebagSpielGame, params: Mapping[str, Any] | None = None) -> None:
        GamebagSpielGame.__init__(self, game_id, game_type, params or {})

    name = "Spiel_" + game_id.replace("-", "_")
    return type(name, (GamebagSpielGame,), {"__init__": __init__, "__module__": __name__})


def register_openspiel_games() -> list[str]:
    """Register every gamebag game not yet known to pyspiel; return all their names."""
    known = set(pyspiel.registered_names())
    names = []
    for game_id in gamebag.game_ids():
        name = spiel_name(game_id)
        if name not in known:
            game_type = _game_type(gamebag.entry(game_id).game_class)
            _GAME_CLASSES[name] = _game_class(game_id, game_type)
            pyspiel.register_game(game_type, _GAME_CLASSES[name])
        names.append(name)
    return names


register_openspiel_games()
