"""Swap Low: a tiny hidden-card game with chance where the lowest card wins, for testing the suite.

Cards 1 to ``deck`` are shuffled; each seat is dealt one secret card (one chance node per card),
then one card is turned up. In seat order (``order``: forward or backward) each seat keeps its
card or, if the turn-up is lower, swaps: it takes the turn-up and its old card becomes the new
turn-up, so everyone now knows the swapper's card. The lowest card wins (ties share).
``open_hands`` plays with every card face up, which makes the game one of perfect information:
the configuration, not the class, decides the traits.

The game defines ``validate_state`` (the suite's optional hook): every card is in exactly one
place. The planted bugs of ``tests/test_conformance_planted.py`` are subclasses of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from gamebag.core.options import Option
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.rng import Rng
from gamebag.core.traits import Information, Moves, Termination, Traits

KEEP, SWAP = "keep", "swap"
MAX_DECK = 9


@dataclass(frozen=True, slots=True)
class SwapState:
    hands: tuple[int, ...]  # each seat's card, 0 while not dealt (secret unless shown)
    shown: tuple[bool, ...]  # whether a seat's card is known to all (it swapped)
    turnup: int  # the face-up card, 0 before it is turned up
    deck: tuple[int, ...]  # the cards not dealt, sorted (secret)
    turn: int  # how many seats have chosen


class SwapLow(Game[SwapState, str, int]):
    """Swap Low (see the module docstring)."""

    game_id: ClassVar[str] = "swap-low"
    title: ClassVar[str] = "Swap Low"
    version: ClassVar[str] = "1"
    summary: ClassVar[str] = "Keep your card or swap it for a lower turn-up; the lowest card wins."
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 3
    traits: Traits = Traits(Moves.SEQUENTIAL, Information.HIDDEN, chance=True)
    lower_score_wins: ClassVar[bool] = True
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("deck", "int", 7, "Cards 1 to deck.", minimum=5, maximum=MAX_DECK),
        Option("open_hands", "bool", False, "Play with every card face up."),
        Option("order", "choice", "forward", "Who chooses first.", choices=("forward", "backward")),
    )

    def _configure(self) -> None:
        self.deck_size = int(str(self.options["deck"]))  # an int, validated by its option spec
        self.open_hands = bool(self.options["open_hands"])
        seats = range(self.num_players)
        self.order = tuple(seats) if self.options["order"] == "forward" else tuple(reversed(seats))
        if self.open_hands:
            self.traits = Traits(Moves.SEQUENTIAL, Information.PERFECT, chance=True)

    # ---- dynamics -------------------------------------------------------------------------
    def initial_state(self) -> SwapState:
        n = self.num_players
        return SwapState((0,) * n, (False,) * n, 0, tuple(range(1, self.deck_size + 1)), 0)

    def node_kind(self, state: SwapState) -> NodeKind:
        if state.turnup == 0:
            return NodeKind.CHANCE
        return NodeKind.DECISION if state.turn < self.num_players else NodeKind.TERMINAL

    def acting_players(self, state: SwapState) -> tuple[int, ...]:
        return (self.order[state.turn],) if self.node_kind(state) is NodeKind.DECISION else ()

    def legal_actions(self, state: SwapState, player: int) -> Sequence[str]:
        if player not in self.acting_players(state):
            return ()
        return (KEEP, SWAP) if state.turnup < state.hands[player] else (KEEP,)

    def _apply(self, state: SwapState, moves: Mapping[int, str]) -> SwapState:
        ((seat, action),) = moves.items()
        if action == KEEP:
            return SwapState(state.hands, state.shown, state.turnup, state.deck, state.turn + 1)
        hands = tuple(state.turnup if s == seat else card for s, card in enumerate(state.hands))
        shown = tuple(True if s == seat else known for s, known in enumerate(state.shown))
        return SwapState(hands, shown, state.hands[seat], state.deck, state.turn + 1)

    def chance_outcomes(self, state: SwapState) -> Sequence[tuple[int, Fraction]]:
        if self.node_kind(state) is not NodeKind.CHANCE:
            return ()
        return [(card, Fraction(1, len(state.deck))) for card in state.deck]

    def _apply_chance(self, state: SwapState, outcome: int) -> SwapState:
        deck = tuple(card for card in state.deck if card != outcome)
        if 0 in state.hands:
            seat = state.hands.index(0)
            hands = tuple(outcome if s == seat else card for s, card in enumerate(state.hands))
            return SwapState(hands, state.shown, 0, deck, 0)
        return SwapState(state.hands, state.shown, outcome, deck, 0)

    # ---- results --------------------------------------------------------------------------
    def scores(self, state: SwapState) -> tuple[float, ...]:
        return tuple(float(card) for card in state.hands)

    def winners(self, state: SwapState) -> tuple[int, ...]:
        if not self.is_terminal(state):
            return ()
        low = min(state.hands)
        return tuple(s for s, card in enumerate(state.hands) if card == low)

    def termination(self, state: SwapState) -> Termination | None:
        return Termination.ROUNDS if self.is_terminal(state) else None

    def round_number(self, state: SwapState) -> int:
        return 1

    # ---- information ----------------------------------------------------------------------
    def public_view(self, state: SwapState) -> JsonDict:
        visible = [card if self.open_hands or state.shown[s] else None for s, card in enumerate(state.hands)]
        return {
            "cards": visible,
            "dealt": sum(1 for card in state.hands if card),
            "turnup": state.turnup,
            "deck_left": len(state.deck),
            "turn": state.turn,
        }

    def _private_view(self, state: SwapState, player: int) -> JsonDict:
        return {} if self.open_hands else {"hand": state.hands[player]}

    def resample_from_infostate(self, state: SwapState, player: int, rng: Rng) -> SwapState:
        if self.open_hands:
            return state
        hidden = [s for s, card in enumerate(state.hands) if card and s != player and not state.shown[s]]
        pool = sorted([state.hands[s] for s in hidden] + list(state.deck))
        rng.shuffle(pool)
        hands = list(state.hands)
        for s in hidden:
            hands[s] = pool.pop()
        return SwapState(tuple(hands), state.shown, state.turnup, tuple(sorted(pool)), state.turn)

    def validate_state(self, state: SwapState) -> None:
        """Every card is in exactly one place: a hand, the turn-up or the deck."""
        cards = [card for card in (*state.hands, state.turnup) if card] + list(state.deck)
        if sorted(cards) != list(range(1, self.deck_size + 1)):
            raise ValueError(f"the cards in play are {sorted(cards)}, not each of 1 to {self.deck_size} once")

    # ---- encodings ------------------------------------------------------------------------
    def all_actions(self) -> Sequence[str]:
        return (KEEP, SWAP)

    def observation_tensor(self, state: SwapState, player: int) -> list[float]:
        size = MAX_DECK + 1
        out = [0.0] * (size * (self.num_players + 1) + 2)
        out[state.hands[player]] = 1.0  # index 0 when not dealt
        out[size + state.turnup] = 1.0
        public = self.public_view(state)["cards"]
        for s, card in enumerate(public):
            if card is not None and s != player:
                out[size * (2 + s - (s > player)) + card] = 1.0
        out[-2] = state.turn / self.num_players
        out[-1] = 1.0 if player in self.acting_players(state) else 0.0
        return out
