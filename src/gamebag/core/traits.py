"""What a game declares about itself: its traits, the kinds of node, and how a game can end.

``Traits`` are true statements about every state of a configured game (the
conformance suite in ``gamebag.testing`` checks them on random playouts), so
adapters such as OpenSpiel's can rely on them: a sequential game with perfect
information is handed to algorithms that refuse anything else (MCTS, minimax).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class NodeKind(StrEnum):
    """What happens next in a state."""

    DECISION = "decision"
    CHANCE = "chance"
    TERMINAL = "terminal"


class Moves(StrEnum):
    """How players choose at decision nodes."""

    SEQUENTIAL = "sequential"  # exactly one seat acts at every decision node
    SIMULTANEOUS = "simultaneous"  # some decision nodes have several seats choosing at once, unseen


class Information(StrEnum):
    """What players may know of a state."""

    PERFECT = "perfect"  # every seat sees the whole state at every node
    HIDDEN = "hidden"  # some states hold data some seat may not know (secret choices, hands)


@dataclass(frozen=True, slots=True)
class Traits:
    """The declared shape of a game; ``Game.traits`` holds one."""

    moves: Moves
    information: Information
    chance: bool  # whether chance nodes (dice, draws, shuffles) occur

    @property
    def sequential(self) -> bool:
        return self.moves is Moves.SEQUENTIAL

    @property
    def simultaneous(self) -> bool:
        return self.moves is Moves.SIMULTANEOUS

    @property
    def perfect_information(self) -> bool:
        return self.information is Information.PERFECT

    @property
    def hidden_information(self) -> bool:
        return self.information is Information.HIDDEN


class Termination(StrEnum):
    """Why a finished game ended (``Game.termination``), as reported by simulations."""

    GOAL = "goal"  # a player reached the winning goal (points, sacks...)
    ROUNDS = "rounds"  # the rulebook's number of rounds was played
    TIEBREAK_CAP = "tiebreak_cap"  # the tie-break rounds ran out and the tied leaders share the win
    ROUND_CAP = "round_cap"  # the safety cap on rounds ended a game that had not reached its goal
