"""The one protocol every gamebag game implements.

In the spirit of OpenSpiel and Pgx:

* a ``Game`` object is a rulebook configured with a player count and options;
  it holds no mutable play state;
* a state is an immutable value; ``apply`` and ``apply_chance`` return new states
  and never modify their input, so an illegal action leaves the state unchanged
  by construction;
* every node is a decision node (one or more players choose *simultaneously*,
  giving a joint action), a chance node (an enumerable distribution of outcomes
  with exact probabilities), or terminal;
* ``observation(state, player)`` is a JSON-ready view holding exactly what that
  player may know; ``public_view`` is what a spectator sees;
* actions and chance outcomes have a JSON encoding (for records), and actions an
  integer index (for array-based learners).

``apply`` and ``apply_chance`` are template methods, as ``step``/``_step`` in Pgx:
they check the joint action (or the outcome) once, for every game, and then call
the game's ``_apply`` (or ``_apply_chance``), which may assume a legal input. The
boilerplate has defaults: the observation is the public view plus the seat's
secrets (``_private_view``), a perfect-information game's resample returns the
state itself, and actions and outcomes made of JSON scalars and tuples encode
themselves.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar, final

from gamebag.core.engines import EngineSupport
from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError, PlayerCountError
from gamebag.core.options import Option, OptionGroup, OptionValue, expand_option_groups, validate_options
from gamebag.core.presets import Preset, game_presets
from gamebag.core.rng import Rng
from gamebag.core.traits import Information, Moves, NodeKind, Termination, Traits
from gamebag.core.translation import _

StateT = TypeVar("StateT", bound=Hashable)
ActionT = TypeVar("ActionT", bound=Hashable)
OutcomeT = TypeVar("OutcomeT", bound=Hashable)

JsonDict = dict[str, Any]

# How many legal actions or outcomes an error message lists before "...".
SHOWN_CHOICES = 12

__all__ = [
    "Game",
    "Information",
    "JsonDict",
    "Moves",
    "NodeKind",
    "Termination",
    "Traits",
]


class Game(ABC, Generic[StateT, ActionT, OutcomeT]):
    """A rulebook, configured with a player count and validated options.

    Subclasses set the class attributes (``traits`` included) and implement the
    abstract methods. All methods are pure functions of their arguments.
    """

    game_id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    # The shape of the game: a class default, which a configuration may change by setting
    # ``self.traits`` in ``_configure`` (an option that shows every hand makes it PERFECT there).
    # Code reads it on the instance, ``game.traits``, never on the class.
    traits: Traits
    option_specs: ClassVar[tuple[Option, ...]] = ()
    # Which engines play which options (``gamebag.core.engines``); ``None``: the rules engine only.
    engine_support: ClassVar[EngineSupport | None] = None
    # Options given together as one value ``a/b/c`` (``coins=20/10/5/0/0``); see ``OptionGroup``.
    option_groups: ClassVar[tuple[OptionGroup, ...]] = ()
    # The layout of ``observation_tensor``: a game bumps it whenever the tensor's features change,
    # so that a policy trained on an older layout is refused instead of silently misread.
    observation_version: ClassVar[int] = 1
    # Whether a lower score is better (golf, Hearts): every consumer of scores (standings, ratings,
    # margins, leaders, rewards, truncation) reads the direction through ``score_sign``.
    lower_score_wins: ClassVar[bool] = False
    # Named sets of options (``gamebag.core.presets``): a quick game, the variants the rulebook
    # names; ``presets()`` puts the rulebook's setup first. Not inherited: a subclass is another
    # rule set, whose options a base game's presets may not fit.
    preset_specs: ClassVar[tuple[Preset, ...]] = ()

    # The translation domain of the game's words (its package's ``locale`` catalogues): option
    # descriptions and preset names are marked with ``N_`` and shown through ``core.i18n.game_text``.
    text_domain: ClassVar[str | None] = None

    @classmethod
    def presets(cls) -> tuple[Preset, ...]:
        """The game's named presets, the rulebook's setup first (``gamebag.core.presets``)."""
        own: tuple[Preset, ...] = cls.__dict__.get("preset_specs", ())
        return game_presets(own)

    def table_numbers(self) -> dict[str, str]:
        """Numbers this configuration plays with where an option leaves them to the player count
        (an option of none: "the rulebook's for N players"), by option name, for the players' rules
        page of a table; a game whose options say every number itself has none."""
        return {}

    def __init__(self, players: int | None = None, **options: Any) -> None:
        self._check_declarations()
        if players is None:
            players = self.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise PlayerCountError(
                _("{game}: players must be an integer from {low} to {high}", game=self.game_id,
                  low=self.min_players, high=self.max_players)
            )
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(
                _("{game} is played by {low} to {high} players, not {count}", game=self.game_id,
                  low=self.min_players, high=self.max_players, count=players)
            )
        self.num_players: int = players
        if self.option_groups:
            options = expand_option_groups(self.option_groups, options)
        self.options: Mapping[str, OptionValue] = validate_options(self.option_specs, options)
        self._configure()
        self._check_configured_traits()

    @cached_property
    def _engine_refusals(self) -> dict[str, str | None]:
        """``gamebag.core.engines.engine_refusal``'s answers for this game, by engine kind (its
        options never change, and search asks before every compiled playout)."""
        return {}

    @classmethod
    def _check_declarations(cls) -> None:
        """Refuse a game class whose declarations cannot be true (a programming error)."""
        if not isinstance(getattr(cls, "traits", None), Traits):
            raise TypeError(f"{cls.__name__} must declare its traits: traits = Traits(...)")
        if cls.traits.hidden_information and cls.resample_from_infostate is Game.resample_from_infostate:
            raise TypeError(f"{cls.__name__} hides information, so it must implement resample_from_infostate")

    def _check_configured_traits(self) -> None:
        """Refuse traits a configuration set that cannot be true (a programming error, as above)."""
        if not isinstance(self.traits, Traits):
            raise TypeError(f"{type(self).__name__}._configure set traits to {self.traits!r}, not a Traits")
        if self.traits.hidden_information and type(self).resample_from_infostate is Game.resample_from_infostate:
            name = type(self).__name__
            raise TypeError(f"{name} hides information here, so it must implement resample_from_infostate")

    def _configure(self) -> None:
        """Derive constants from ``num_players`` and ``options`` (override as needed), and the
        configuration's ``traits`` where an option changes them."""

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(players={self.num_players}{', ' if opts else ''}{opts})"

    # ---- dynamics -------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> StateT:
        """The state before anything has happened (possibly a chance node)."""

    @abstractmethod
    def node_kind(self, state: StateT) -> NodeKind:
        """Whether ``state`` waits for players, for chance, or is over."""

    @abstractmethod
    def acting_players(self, state: StateT) -> tuple[int, ...]:
        """The seats that choose simultaneously at a decision node (empty otherwise)."""

    @abstractmethod
    def legal_actions(self, state: StateT, player: int) -> Sequence[ActionT]:
        """The actions ``player`` may choose now (empty if the player does not act)."""

    def legal_actions_by_seat(self, state: StateT) -> dict[int, Sequence[ActionT]]:
        """Each acting seat's legal actions, in ``acting_players`` order (empty if nobody acts).

        For play loops, which need both at every decision; games may answer in one pass.
        """
        return {player: self.legal_actions(state, player) for player in self.acting_players(state)}

    @final
    def apply(self, state: StateT, moves: Mapping[int, ActionT]) -> StateT:
        """The state after the joint action ``moves`` (one legal action per acting player).

        Raises ``IllegalActionError`` naming the rule broken; ``state`` is unchanged.
        """
        self.check_joint_action(state, moves)
        return self._apply(state, moves)

    @final
    def apply_chosen(
        self, state: StateT, moves: Mapping[int, ActionT], legal: Mapping[int, Sequence[ActionT]]
    ) -> StateT:
        """``apply`` for a joint action chosen from this state's own legal-action lists.

        For play loops that build ``moves`` themselves: one action for each seat of
        ``acting_players(state)`` and no other, with ``legal[seat]`` the list
        ``legal_actions(state, seat)`` the seat chose from. Who acts is trusted (the
        caller asked); each action is still checked against its list, so an agent's
        wrong choice raises ``IllegalActionError`` as ``apply`` would. Anything else
        (records, clients, users) goes through ``apply``.
        """
        for seat, action in moves.items():
            choices = legal[seat]
            if not is_choice(action, choices):
                raise IllegalActionError(self._illegal_action_message(state, seat, action, choices))
        return self._apply(state, moves)

    @final
    def _apply_unchecked(self, state: StateT, moves: Mapping[int, ActionT]) -> StateT:
        """``_apply`` with no check at all: gamebag's own adapters only, never a user's input.

        For the RL adapters (``gamebag.interop``), which decode each seat's action from this
        state's legal-action mask or ids and have already refused any index outside them, so
        that a second check per step would only repeat theirs. It is private and final: the
        one public way to apply a joint action is ``apply`` (or ``apply_chosen``, which checks
        against lists the caller asked for); agents, records, clients and users go through those.
        """
        return self._apply(state, moves)

    @abstractmethod
    def _apply(self, state: StateT, moves: Mapping[int, ActionT]) -> StateT:
        """The state after ``moves``, already checked: one legal action per acting player."""

    @abstractmethod
    def chance_outcomes(self, state: StateT) -> Sequence[tuple[OutcomeT, Fraction]]:
        """Every outcome of a chance node with its exact probability (they sum to 1)."""

    def chance_probabilities(self, state: StateT) -> Sequence[tuple[OutcomeT, float]]:
        """``chance_outcomes`` with each probability as the float nearest it (for callers that compute
        in floats; games may build these without the exact fractions)."""
        return [(outcome, nearest_float(p)) for outcome, p in self.chance_outcomes(state)]

    def sample_chance(self, state: StateT, rng: Rng) -> OutcomeT:
        """Draw one outcome with the caller's generator (games may do this faster)."""
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise IllegalChanceOutcomeError(self._no_chance_message(state))
        pick = Fraction(rng.random())
        total = Fraction(0)
        for outcome, probability in outcomes:
            total += probability
            if pick < total:
                return outcome
        return outcomes[-1][0]

    @final
    def apply_chance(self, state: StateT, outcome: OutcomeT) -> StateT:
        """The state after ``outcome``; raises ``IllegalChanceOutcomeError`` if impossible."""
        self.check_outcome(state, outcome)
        return self._apply_chance(state, outcome)

    @abstractmethod
    def _apply_chance(self, state: StateT, outcome: OutcomeT) -> StateT:
        """The state after ``outcome``, already checked by ``check_outcome``."""

    @final
    def sample_and_apply_chance(self, state: StateT, rng: Rng) -> tuple[OutcomeT, StateT]:
        """Draw an outcome with ``sample_chance`` and apply it: ``(outcome, next state)``.

        An outcome the game drew itself can happen by construction (the conformance
        suite checks that every sample is in ``chance_outcomes``), so its check is
        skipped; outcomes from outside (records, clients) go through ``apply_chance``.
        """
        outcome = self.sample_chance(state, rng)
        return outcome, self._apply_chance(state, outcome)

    def advance_chance(self, state: StateT, rng: Rng) -> StateT:
        """Draw a chance outcome and apply it, returning only the next state (for loops keeping no record).

        It draws from ``rng`` exactly as ``sample_chance`` does and reaches the state
        ``sample_and_apply_chance`` reaches (the conformance suite checks both), so a
        seed plays the same game with or without a record. Games may override it to
        skip building an outcome nobody reads (a grab's token strings, for example).
        """
        return self._apply_chance(state, self.sample_chance(state, rng))

    # ---- results --------------------------------------------------------------------------
    def is_terminal(self, state: StateT) -> bool:
        return self.node_kind(state) is NodeKind.TERMINAL

    @abstractmethod
    def scores(self, state: StateT) -> tuple[float, ...]:
        """Each seat's score as the rulebook counts it (points, fame, sacks...)."""

    @abstractmethod
    def winners(self, state: StateT) -> tuple[int, ...]:
        """The winning seats once the game is over (several for a shared win), else ()."""

    def returns(self, state: StateT) -> tuple[float, ...]:
        """Each seat's share of the win: 1/k for each of k winners, 0 otherwise."""
        winners = self.winners(state)
        if not winners:
            return (0.0,) * self.num_players
        share = 1.0 / len(winners)
        return tuple(share if seat in winners else 0.0 for seat in range(self.num_players))

    def score_sign(self) -> int:
        """+1 when a higher score is better, -1 when a lower one is (``lower_score_wins``).

        Multiplying a score by it gives a value where higher is always better
        (``gamebag.core.results.oriented``). A game whose options flip the direction
        overrides this method (its answer may depend on ``self.options``).
        """
        return -1 if self.lower_score_wins else 1

    def termination(self, state: StateT) -> Termination | None:
        """Why a finished game ended; ``None`` while it goes on (or if the game does not say)."""
        return None

    @abstractmethod
    def round_number(self, state: StateT) -> int:
        """The current round (1-based); after the end, the number of rounds played."""

    # ---- information ----------------------------------------------------------------------
    def observation(self, state: StateT, player: int) -> JsonDict:
        """A JSON-ready view holding exactly what ``player`` may know.

        By default: the public view, the seat, and the seat's secrets (``_private_view``).
        """
        view = self.public_view(state)
        view["seat"] = player
        view.update(self._private_view(state, player))
        return view

    def _private_view(self, state: StateT, player: int) -> JsonDict:
        """What ``player`` knows beyond the public view (its hand, its pending choice)."""
        return {}

    @abstractmethod
    def public_view(self, state: StateT) -> JsonDict:
        """A JSON-ready view holding what a spectator may know."""

    def resample_from_infostate(self, state: StateT, player: int, rng: Rng) -> StateT:
        """A state drawn from those ``player`` cannot tell apart from ``state``.

        Search agents call this to determinise hidden information. With perfect
        information that is ``state`` itself (the default); games that hide
        information must override it. The conformance suite checks that the
        sample gives ``player`` the same observation.
        """
        return state

    # ---- encodings ------------------------------------------------------------------------
    def action_to_json(self, action: ActionT) -> Any:
        """The record encoding of an action (by default: tuples become lists)."""
        return _to_json(action)

    def action_from_json(self, data: Any) -> ActionT:
        """Decode an action; raises ``IllegalActionError`` for a malformed one.

        By default the action of ``all_actions()`` whose encoding is ``data``; a string
        is also tried without surrounding spaces and in lower case (for typing).
        """
        table = self._actions_by_json
        candidates = [data]
        if isinstance(data, str):
            candidates += [data.strip(), data.strip().lower()]
        for candidate in candidates:
            key = _json_key(candidate)
            if key is not None and key in table:
                return table[key]
        shown = _show_choices([self.action_to_json(a) for a in self.all_actions()])
        raise IllegalActionError(_("{data} is not a {game} action; actions: {actions}", data=repr(data),
                                   game=self.title, actions=shown))

    @cached_property
    def _actions_by_json(self) -> dict[str, ActionT]:
        """Each action of ``all_actions()`` by the JSON text of its encoding, built on first use."""
        table: dict[str, ActionT] = {}
        for action in self.all_actions():
            key = _json_key(self.action_to_json(action))
            if key is not None:
                table[key] = action
        return table

    def outcome_to_json(self, outcome: OutcomeT) -> Any:
        """The record encoding of a chance outcome (by default: tuples become lists)."""
        return _to_json(outcome)

    def outcome_from_json(self, data: Any) -> OutcomeT:
        """Decode a chance outcome; raises ``IllegalChanceOutcomeError`` for a malformed one.

        By default lists become tuples; whether the outcome can happen is checked by
        ``apply_chance``.
        """
        value = _from_json(data)
        if value is None:
            raise IllegalChanceOutcomeError(
                _("{data} is not a {game} chance outcome: write a number, a text or a list of them", data=repr(data),
                  game=self.title)
            )
        outcome: OutcomeT = value  # type: ignore[assignment]  # apply_chance checks it
        return outcome

    @abstractmethod
    def all_actions(self) -> Sequence[ActionT]:
        """Every distinct action of this configuration, in a fixed order (for array learners)."""

    def action_index(self, action: ActionT) -> int:
        """The position of ``action`` in ``all_actions()``."""
        index = self._action_indices.get(action)
        if index is None:
            raise IllegalActionError(f"{action!r} is not an action of {self.game_id}")
        return index

    @cached_property
    def _action_indices(self) -> dict[ActionT, int]:
        """Each action's position in ``all_actions()``, built on first use."""
        return {action: index for index, action in enumerate(self.all_actions())}

    @abstractmethod
    def observation_tensor(self, state: StateT, player: int) -> list[float]:
        """A fixed-length numeric encoding of ``observation(state, player)``."""

    # ---- the checks behind apply and apply_chance ---------------------------------------
    def check_joint_action(self, state: StateT, moves: Mapping[int, ActionT]) -> None:
        """Raise unless ``moves`` has exactly one legal action per acting player."""
        if self.node_kind(state) is not NodeKind.DECISION:
            raise IllegalActionError(
                _("no player may act now: the game is at a {node} node", node=self.node_kind(state))
            )
        acting = self.acting_players(state)
        extra = sorted(set(moves) - set(acting))
        if extra:
            raise IllegalActionError(
                _("seat(s) {seats} may not act now; acting seats: {acting}", seats=", ".join(map(str, extra)),
                  acting=", ".join(map(str, acting)))
            )
        missing = [p for p in acting if p not in moves]
        if missing:
            raise IllegalActionError(_("missing the choice of seat(s) {seats}", seats=", ".join(map(str, missing))))
        for player in acting:
            self.check_action(state, player, moves[player])

    def check_action(self, state: StateT, player: int, action: Any) -> None:
        """Raise unless ``action`` is one of ``player``'s legal actions now (same value and type)."""
        legal = self.legal_actions(state, player)
        if not is_choice(action, legal):
            raise IllegalActionError(self._illegal_action_message(state, player, action, legal))

    def _illegal_action_message(self, state: StateT, player: int, action: Any, legal: Sequence[ActionT]) -> str:
        """Why ``action`` is refused; games override this to name the rule broken."""
        shown = _show_choices([self.action_to_json(a) for a in legal])
        return _("seat {seat}: {action} is not allowed now; allowed: {allowed}", seat=player, action=repr(action),
                 allowed=shown)

    def check_outcome(self, state: StateT, outcome: Any) -> None:
        """Raise unless the state is a chance node and ``outcome`` can happen there."""
        if self.node_kind(state) is not NodeKind.CHANCE:
            raise IllegalChanceOutcomeError(self._no_chance_message(state))
        self._check_outcome(state, outcome)

    def _no_chance_message(self, state: StateT) -> str:
        return _("no chance event happens now: the game is at a {node} node", node=self.node_kind(state))

    def _check_outcome(self, state: StateT, outcome: Any) -> None:
        """Raise unless ``outcome`` is one of ``chance_outcomes(state)``.

        Games whose chance nodes have many outcomes override this with a direct check.
        """
        possible = [o for o, _weight in self.chance_outcomes(state)]
        if not is_choice(outcome, possible):
            shown = _show_choices([self.outcome_to_json(o) for o in possible])
            raise IllegalChanceOutcomeError(
                _("{outcome} cannot happen now; possible outcomes: {possible}", outcome=repr(outcome), possible=shown)
            )


def nearest_float(probability: Any) -> float:
    """A probability as a float: a ``Fraction``'s numerator divided by its denominator (correctly
    rounded, and faster than ``float()`` on one); anything else through ``float``."""
    try:
        return float(probability.numerator / probability.denominator)
    except AttributeError:
        return float(probability)


def is_choice(item: Any, choices: Sequence[Any]) -> bool:
    """Whether ``item`` is one of ``choices``, with the same type (so ``True`` is not ``1``)."""
    try:
        position = choices.index(item)
    except (ValueError, TypeError):
        return False
    return type(choices[position]) is type(item)


def _show_choices(encoded: Sequence[Any]) -> str:
    shown = ", ".join(json.dumps(e) for e in encoded[:SHOWN_CHOICES])
    return shown + (", ..." if len(encoded) > SHOWN_CHOICES else "")


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(item) for item in value]
    return value


def _from_json(data: Any) -> Hashable | None:
    """Lists to tuples; ``None`` for data that is not JSON scalars and lists."""
    if isinstance(data, list):
        items = [_from_json(item) for item in data]
        return None if any(item is None for item in items) else tuple(items)
    if isinstance(data, str | int | float):
        return data
    return None


def _json_key(data: Any) -> str | None:
    try:
        return json.dumps(data, sort_keys=True)
    except (TypeError, ValueError):
        return None
