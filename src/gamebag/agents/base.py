"""What an agent is, and what it may see.

An agent chooses from a ``SeatView``: the rules (public), its seat, its
observation and its legal actions. Search agents may also draw full states
consistent with what the seat knows (``sample_state``), never the true state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from gamebag.core.protocol import Game, JsonDict
from gamebag.core.rng import Rng


class SeatView:
    """Everything one seat may use to choose an action.

    The observation is built on first use: agents that never read it (``random``) cost
    the game no view at all.
    """

    __slots__ = ("_observation", "_state", "game", "legal_actions", "player")

    def __init__(
        self, game: Game[Any, Any, Any], state: Any, player: int, legal_actions: Sequence[Any] | None = None
    ) -> None:
        """``legal_actions``: ``game.legal_actions(state, player)`` where the caller has it already."""
        self.game = game
        self.player = player
        self.legal_actions: Sequence[Any] = (
            game.legal_actions(state, player) if legal_actions is None else legal_actions
        )
        self._state = state
        self._observation: JsonDict | None = None

    @property
    def observation(self) -> JsonDict:
        """What this seat may know (``game.observation`` of the real state)."""
        if self._observation is None:
            self._observation = self.game.observation(self._state, self.player)
        return self._observation

    def observation_tensor(self) -> list[float]:
        """The seat's observation as the game's fixed-length numbers (for learned policies)."""
        return self.game.observation_tensor(self._state, self.player)

    def sample_state(self, rng: Rng) -> Any:
        """A full state the seat cannot tell apart from the real one (for search)."""
        return self.game.resample_from_infostate(self._state, self.player, rng)


class Agent(ABC):
    """A policy: given a seat's view and a generator, one legal action."""

    name: str = "agent"

    @abstractmethod
    def act(self, view: SeatView, rng: Rng) -> Any:
        """Choose one of ``view.legal_actions``."""

    def __repr__(self) -> str:
        return self.name
