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
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError, PlayerCountError
from gamebag.core.options import Option, OptionValue, validate_options
from gamebag.core.rng import Rng

StateT = TypeVar("StateT", bound=Hashable)
ActionT = TypeVar("ActionT", bound=Hashable)
OutcomeT = TypeVar("OutcomeT", bound=Hashable)

JsonDict = dict[str, Any]


class NodeKind(enum.Enum):
    """What happens next in a state."""

    DECISION = "decision"
    CHANCE = "chance"
    TERMINAL = "terminal"


class Game(ABC, Generic[StateT, ActionT, OutcomeT]):
    """A rulebook, configured with a player count and validated options.

    Subclasses set the class attributes and implement the abstract methods. All
    methods are pure functions of their arguments.
    """

    game_id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    # True when some states hold data a player may not know (secret choices, hands, face-down items).
    has_hidden_information: ClassVar[bool] = False

    def __init__(self, players: int | None = None, **options: Any) -> None:
        if players is None:
            players = self.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise PlayerCountError(
                f"{self.game_id}: players must be an integer from {self.min_players} to {self.max_players}"
            )
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(
                f"{self.game_id} is played by {self.min_players} to {self.max_players} players, not {players}"
            )
        self.num_players: int = players
        self.options: Mapping[str, OptionValue] = validate_options(self.option_specs, options)
        self._configure()

    def _configure(self) -> None:
        """Derive constants from ``num_players`` and ``options`` (override as needed)."""

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

    @abstractmethod
    def apply(self, state: StateT, moves: Mapping[int, ActionT]) -> StateT:
        """The state after the joint action ``moves`` (one entry per acting player).

        Raises ``IllegalActionError`` naming the rule broken; ``state`` is unchanged.
        """

    @abstractmethod
    def chance_outcomes(self, state: StateT) -> Sequence[tuple[OutcomeT, Fraction]]:
        """Every outcome of a chance node with its exact probability (they sum to 1)."""

    def sample_chance(self, state: StateT, rng: Rng) -> OutcomeT:
        """Draw one outcome with the caller's generator (games may do this faster)."""
        outcomes = self.chance_outcomes(state)
        pick = Fraction(rng.random())
        total = Fraction(0)
        for outcome, probability in outcomes:
            total += probability
            if pick < total:
                return outcome
        return outcomes[-1][0]

    @abstractmethod
    def apply_chance(self, state: StateT, outcome: OutcomeT) -> StateT:
        """The state after ``outcome``; raises ``IllegalChanceOutcomeError`` if impossible."""

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

    @abstractmethod
    def round_number(self, state: StateT) -> int:
        """The current round (1-based); after the end, the number of rounds played."""

    # ---- information ----------------------------------------------------------------------
    @abstractmethod
    def observation(self, state: StateT, player: int) -> JsonDict:
        """A JSON-ready view holding exactly what ``player`` may know."""

    @abstractmethod
    def public_view(self, state: StateT) -> JsonDict:
        """A JSON-ready view holding what a spectator may know."""

    @abstractmethod
    def resample_from_infostate(self, state: StateT, player: int, rng: Rng) -> StateT:
        """A state drawn from those ``player`` cannot tell apart from ``state``.

        Search agents call this to determinise hidden information. Games whose
        states hold nothing hidden return ``state``. The conformance suite checks
        that the sample gives ``player`` the same observation.
        """

    # ---- encodings ------------------------------------------------------------------------
    @abstractmethod
    def action_to_json(self, action: ActionT) -> Any:
        """The record encoding of an action."""

    @abstractmethod
    def action_from_json(self, data: Any) -> ActionT:
        """Decode an action; raises ``IllegalActionError`` for a malformed one."""

    @abstractmethod
    def outcome_to_json(self, outcome: OutcomeT) -> Any:
        """The record encoding of a chance outcome."""

    @abstractmethod
    def outcome_from_json(self, data: Any) -> OutcomeT:
        """Decode a chance outcome; raises ``IllegalChanceOutcomeError`` for a malformed one."""

    @abstractmethod
    def all_actions(self) -> Sequence[ActionT]:
        """Every distinct action of this configuration, in a fixed order (for array learners)."""

    def action_index(self, action: ActionT) -> int:
        """The position of ``action`` in ``all_actions()``."""
        index = self._action_indices().get(action)
        if index is None:
            raise IllegalActionError(f"{action!r} is not an action of {self.game_id}")
        return index

    def _action_indices(self) -> dict[ActionT, int]:
        cached: dict[ActionT, int] | None = getattr(self, "_action_index_cache", None)
        if cached is None:
            cached = {a: i for i, a in enumerate(self.all_actions())}
            self._action_index_cache = cached
        return cached

    @abstractmethod
    def observation_tensor(self, state: StateT, player: int) -> list[float]:
        """A fixed-length numeric encoding of ``observation(state, player)``."""

    # ---- helpers for implementers -----------------------------------------------------
    def check_joint_action(self, state: StateT, moves: Mapping[int, ActionT]) -> None:
        """Raise unless ``moves`` has exactly one legal action per acting player."""
        if self.node_kind(state) is not NodeKind.DECISION:
            raise IllegalActionError(f"no player may act now: the game is at a {self.node_kind(state).value} node")
        acting = self.acting_players(state)
        extra = sorted(set(moves) - set(acting))
        if extra:
            raise IllegalActionError(
                f"seat(s) {', '.join(map(str, extra))} may not act now; acting seats: "
                f"{', '.join(map(str, acting))}"
            )
        missing = [p for p in acting if p not in moves]
        if missing:
            raise IllegalActionError(f"missing the choice of seat(s) {', '.join(map(str, missing))}")

    def check_outcome(self, state: StateT, outcome: OutcomeT) -> None:
        """Raise unless the state is a chance node (games check the outcome itself)."""
        if self.node_kind(state) is not NodeKind.CHANCE:
            raise IllegalChanceOutcomeError(
                f"no chance event happens now: the game is at a {self.node_kind(state).value} node"
            )
