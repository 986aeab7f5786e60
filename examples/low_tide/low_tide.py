"""Low Tide (``low-tide``): a card game for 2 to 6 players where the lowest score wins.

gamebag's worked example of a game written outside the package (docs/protocol.md walks through
it). It is one plugin file, loaded through the public plugin paths only:

- ``gamebag --plugin examples/low_tide/low_tide.py simulate low-tide ...``;
- ``GAMEBAG_PLUGINS=examples/low_tide/low_tide.py gamebag ...``;
- ``pip install examples/low_tide``, whose ``pyproject.toml`` names this module in the
  ``gamebag.games`` entry point group, so that ``import gamebag`` registers it.

Sequential moves, hidden hands, chance (a shuffled deck dealt one card at a time, turn-ups) and no
heuristic agent of its own: every generic agent and command plays it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, TypeVar

from gamebag.core.options import Option, options_to_json, typed_options
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.registry import register
from gamebag.core.rng import Rng
from gamebag.core.traits import Information, Moves, Termination, Traits

T = TypeVar("T")
HIGHEST_CARD = 12
COPIES = 5  # of each value: 60 cards, enough for 6 hands of 5 and every turn-up of a round
FULL_DECK: tuple[int, ...] = (COPIES,) * HIGHEST_CARD  # the number of cards of each value 1..12
MAX_PLAYERS = 6
MAX_HAND = 5
MAX_ROUNDS = 6

DEAL, TURN_UP, PLAY, OVER = "deal", "turn-up", "play", "over"
NODE_KINDS = {DEAL: NodeKind.CHANCE, TURN_UP: NodeKind.CHANCE, PLAY: NodeKind.DECISION, OVER: NodeKind.TERMINAL}

OPTIONS: tuple[Option, ...] = (
    Option("rounds", "int", 3, "Rounds played; then the lowest total wins.", minimum=1, maximum=MAX_ROUNDS),
    Option("hand_size", "int", 3, "Cards dealt to each player every round.", minimum=2, maximum=MAX_HAND),
)

RULES = f"""\
# Low Tide

**Goal.** Take as few points as you can: after the last round the lowest total wins (a tie
shares the win).

**Cards.** {COPIES * HIGHEST_CARD} cards: {COPIES} of each value from 1 to {HIGHEST_CARD}.

**A round.** Shuffle every card into the deck. Deal each player `hand_size` cards (3 unless
chosen otherwise), one at a time, starting with the round's first player; hands are secret.
Turn up the top card of the deck: it is the **tide**. The first player of round 1 is seat 0, of
round 2 seat 1, and so on around the table.

**Your turn.** Starting with the round's first player and going round the table, play one card
of your hand face up:

- **under the tide** (a lower value): your card becomes the new tide. You take nothing.
- **at or over the tide** (an equal or higher value): you take the tide, scoring its value in
  points. Your card and the tide go face up to the discard pile and the next card of the deck is
  turned up as the new tide (not after the round's last card).

When every hand is empty the round ends. After `rounds` rounds (3 unless chosen otherwise) the
player with the fewest points wins.

**Tip.** A high card is safe under a high tide; a low card keeps a cheap tide for the next player.
"""


@dataclass(frozen=True, slots=True)
class TideState:
    """A position. Built by field name everywhere: one misplaced field would be a silent rules bug."""

    round: int  # 1-based
    phase: str  # DEAL, TURN_UP, PLAY or OVER
    seat: int  # who plays next (PLAY), who is dealt the next card (DEAL)
    hands: tuple[tuple[int, ...], ...]  # each seat's cards, sorted (secret)
    deck: tuple[int, ...]  # how many cards of each value 1..12 are still in the deck (secret)
    tide: int  # the face-up card to play under; 0 before the turn-up
    discards: tuple[int, ...]  # the face-up cards of this round's discard pile, in the order they fell
    scores: tuple[int, ...]
    last: tuple[int, int, int] | None  # the last play: (seat, card, points taken)
    plays: int  # cards played so far in the game (two equal plays in a row are still two events)


def _replaced(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with the one at ``index`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


@dataclass(frozen=True)
class LowTideOptions:
    """The options, typed: read once from the validated mapping (``typed_options``)."""

    rounds: int
    hand_size: int


class LowTide(Game[TideState, int, int]):
    """Low Tide: play under the tide or take it; the lowest total wins."""

    game_id: ClassVar[str] = "low-tide"
    title: ClassVar[str] = "Low Tide"
    version: ClassVar[str] = "1.0"
    summary: ClassVar[str] = "Play a card under the tide or take the tide's points; the lowest total wins."
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    default_players: ClassVar[int] = 4
    traits: Traits = Traits(Moves.SEQUENTIAL, Information.HIDDEN, chance=True)
    option_specs: ClassVar[tuple[Option, ...]] = OPTIONS
    lower_score_wins: ClassVar[bool] = True

    def _configure(self) -> None:
        self.settings = typed_options(LowTideOptions, self.options)
        self.rounds = self.settings.rounds
        self.hand_size = self.settings.hand_size
        # The most points one seat can take: the highest tide, every turn of every round.
        self.max_score = HIGHEST_CARD * self.hand_size * self.rounds

    # ---- dynamics -------------------------------------------------------------------------
    def initial_state(self) -> TideState:
        return self._new_round(round_number=1, scores=(0,) * self.num_players, last=None, plays=0)

    def _new_round(
        self, round_number: int, scores: tuple[int, ...], last: tuple[int, int, int] | None, plays: int
    ) -> TideState:
        return TideState(
            round=round_number,
            phase=DEAL,
            seat=(round_number - 1) % self.num_players,
            hands=((),) * self.num_players,
            deck=FULL_DECK,
            tide=0,
            discards=(),
            scores=scores,
            last=last,  # the round's last play, still to be told
            plays=plays,
        )

    def node_kind(self, state: TideState) -> NodeKind:
        return NODE_KINDS[state.phase]

    def acting_players(self, state: TideState) -> tuple[int, ...]:
        return (state.seat,) if state.phase == PLAY else ()

    def legal_actions(self, state: TideState, player: int) -> Sequence[int]:
        if state.phase != PLAY or player != state.seat:
            return ()
        return tuple(sorted(set(state.hands[player])))

    def _illegal_action_message(self, state: TideState, player: int, action: Any, legal: Sequence[int]) -> str:
        cards = ", ".join(map(str, legal))
        return f"seat {player} must play a card of their hand ({cards}), not {action!r}"

    def _apply(self, state: TideState, moves: Mapping[int, int]) -> TideState:
        seat, card = state.seat, moves[state.seat]
        hand = list(state.hands[seat])
        hand.remove(card)
        hands = _replaced(state.hands, seat, tuple(hand))
        round_over = not any(hands)
        next_seat = (seat + 1) % self.num_players
        if card < state.tide:  # under the tide: the card is the new tide
            if round_over:
                return self._end_round(state, state.scores, (*state.discards, state.tide, card), (seat, card, 0))
            return TideState(
                round=state.round, phase=PLAY, seat=next_seat, hands=hands, deck=state.deck, tide=card,
                discards=(*state.discards, state.tide), scores=state.scores, last=(seat, card, 0),
                plays=state.plays + 1,
            )
        scores = _replaced(state.scores, seat, state.scores[seat] + state.tide)
        discards = (*state.discards, state.tide, card)
        if round_over:
            return self._end_round(state, scores, discards, (seat, card, state.tide))
        return TideState(
            round=state.round, phase=TURN_UP, seat=next_seat, hands=hands, deck=state.deck, tide=0,
            discards=discards, scores=scores, last=(seat, card, state.tide), plays=state.plays + 1,
        )

    def _end_round(
        self, state: TideState, scores: tuple[int, ...], discards: tuple[int, ...], last: tuple[int, int, int]
    ) -> TideState:
        if state.round < self.rounds:
            return self._new_round(state.round + 1, scores, last, state.plays + 1)
        return TideState(
            round=state.round, phase=OVER, seat=state.seat, hands=((),) * self.num_players, deck=state.deck,
            tide=0, discards=discards, scores=scores, last=last, plays=state.plays + 1,
        )

    def chance_outcomes(self, state: TideState) -> Sequence[tuple[int, Fraction]]:
        if state.phase not in (DEAL, TURN_UP):
            return ()
        left = sum(state.deck)
        return tuple((value, Fraction(count, left)) for value, count in enumerate(state.deck, 1) if count)

    def sample_chance(self, state: TideState, rng: Rng) -> int:
        if state.phase not in (DEAL, TURN_UP):
            return super().sample_chance(state, rng)  # raises, naming the node
        position = rng.randrange(sum(state.deck))  # the position of the card drawn in the deck
        for value, count in enumerate(state.deck, 1):
            if position < count:
                return value
            position -= count
        raise AssertionError("a position inside the deck always names a card")

    def _apply_chance(self, state: TideState, outcome: int) -> TideState:
        deck = _replaced(state.deck, outcome - 1, state.deck[outcome - 1] - 1)
        if state.phase == TURN_UP:
            return TideState(
                round=state.round, phase=PLAY, seat=state.seat, hands=state.hands, deck=deck, tide=outcome,
                discards=state.discards, scores=state.scores, last=state.last, plays=state.plays,
            )
        seat = state.seat
        hands = _replaced(state.hands, seat, tuple(sorted((*state.hands[seat], outcome))))
        dealt = all(len(hand) == self.hand_size for hand in hands)
        first = (state.round - 1) % self.num_players
        return TideState(
            round=state.round, phase=TURN_UP if dealt else DEAL, seat=first if dealt else (seat + 1) % self.num_players,
            hands=hands, deck=deck, tide=0, discards=state.discards, scores=state.scores, last=state.last,
            plays=state.plays,
        )

    # ---- results --------------------------------------------------------------------------
    def scores(self, state: TideState) -> tuple[float, ...]:
        return tuple(float(points) for points in state.scores)

    def winners(self, state: TideState) -> tuple[int, ...]:
        if state.phase != OVER:
            return ()
        lowest = min(state.scores)
        return tuple(seat for seat, points in enumerate(state.scores) if points == lowest)

    def termination(self, state: TideState) -> Termination | None:
        return Termination.ROUNDS if state.phase == OVER else None

    def round_number(self, state: TideState) -> int:
        return state.round

    # ---- information ----------------------------------------------------------------------
    def public_view(self, state: TideState) -> JsonDict:
        return {
            "game": self.game_id,
            "players": self.num_players,
            "round": state.round,
            "rounds": self.rounds,
            "phase": state.phase,
            "turn_seat": state.seat if state.phase == PLAY else None,
            "tide": state.tide or None,
            "scores": list(state.scores),
            "cards_in_hand": [len(hand) for hand in state.hands],
            "deck_size": sum(state.deck),
            "discards": list(state.discards),
            "last_play": None if state.last is None else dict(zip(("seat", "card", "took"), state.last, strict=True)),
            "plays": state.plays,
            "over": state.phase == OVER,
            "winners": list(self.winners(state)),
            "options": options_to_json(self.options),
        }

    def _private_view(self, state: TideState, player: int) -> JsonDict:
        return {"hand": list(state.hands[player])}

    def resample_from_infostate(self, state: TideState, player: int, rng: Rng) -> TideState:
        """Deal the other seats' hands again from every card ``player`` has not seen; the rest is the deck."""
        unseen = [value for value, count in enumerate(state.deck, 1) for _ in range(count)]
        for seat, hand in enumerate(state.hands):
            if seat != player:
                unseen.extend(hand)
        unseen.sort()  # the draw depends only on what the seat cannot tell apart
        rng.shuffle(unseen)
        hands = list(state.hands)
        for seat, hand in enumerate(state.hands):
            if seat != player:
                hands[seat], unseen = tuple(sorted(unseen[: len(hand)])), unseen[len(hand) :]
        deck = tuple(unseen.count(value) for value in range(1, HIGHEST_CARD + 1))
        return TideState(
            round=state.round, phase=state.phase, seat=state.seat, hands=tuple(hands), deck=deck, tide=state.tide,
            discards=state.discards, scores=state.scores, last=state.last, plays=state.plays,
        )

    def all_actions(self) -> Sequence[int]:
        return tuple(range(1, HIGHEST_CARD + 1))

    def observation_tensor(self, state: TideState, player: int) -> list[float]:
        """Every feature in [0, 1], seats counted from ``player`` (the viewer is slot 0)."""
        seats = [(player + offset) % self.num_players for offset in range(self.num_players)]
        padding = [0.0] * (MAX_PLAYERS - self.num_players)
        hand = [state.hands[player].count(value) / MAX_HAND for value in range(1, HIGHEST_CARD + 1)]
        tide = [1.0 if state.tide == value else 0.0 for value in range(HIGHEST_CARD + 1)]  # slot 0: no tide
        discarded = [state.discards.count(value) / COPIES for value in range(1, HIGHEST_CARD + 1)]
        scores = [state.scores[seat] / self.max_score for seat in seats] + padding
        sizes = [len(state.hands[seat]) / self.hand_size for seat in seats] + padding
        to_play = [1.0 if state.phase == PLAY and state.seat == seat else 0.0 for seat in seats] + padding
        phase = [1.0 if state.phase == name else 0.0 for name in (DEAL, TURN_UP, PLAY, OVER)]
        return hand + tide + discarded + scores + sizes + to_play + phase + [state.round / self.rounds]


# ---- text for the terminal ("seat N" is rewritten by `gamebag play` into the seat's name) ----
def render_view(view: JsonDict) -> str:
    """The table as one seat (or a spectator) sees it, in Rich markup."""
    lines = [f"[bold]Low Tide[/bold] - round {view['round']} of {view['rounds']}, lowest total wins."]
    for seat, points in enumerate(view["scores"]):
        marks = ["to play"] if seat == view["turn_seat"] else []
        marks += ["you"] if seat == view.get("seat") else []
        suffix = f"  ({', '.join(marks)})" if marks else ""
        lines.append(f"{f'seat {seat}':<8}  {_points(points):>9}, {view['cards_in_hand'][seat]} cards{suffix}")
    if view["over"]:
        names = " and ".join(f"seat {seat}" for seat in view["winners"])
        lines.append(f"[bold green]Game over: {names} won with the fewest points.[/bold green]")
        return "\n".join(lines)
    lines.append(f"Tide: [bold]{view['tide'] or 'not turned up yet'}[/bold]. Deck: {view['deck_size']} cards.")
    if "hand" in view:
        lines.append(f"Your hand: {', '.join(map(str, view['hand'])) or 'empty'}")
    return "\n".join(lines)


def narrate(before: JsonDict | None, after: JsonDict) -> list[str]:
    """The play that happened between two views of one seat."""
    play = after["last_play"]
    if before is None or play is None or after["plays"] == before["plays"]:
        return []
    if play["took"]:
        return [f"seat {play['seat']} plays {play['card']} and takes the tide: {_points(play['took'])}."]
    return [f"seat {play['seat']} slips {play['card']} under the tide."]


def _points(count: int) -> str:
    return f"{count} point{'' if count == 1 else 's'}"


def action_words(view: JsonDict, action: object) -> str:
    """What playing the card ``action`` does now (the terminal shows the card's number before it)."""
    tide = view.get("tide") or 0
    if isinstance(action, int) and action < tide:
        return "slip it under the tide: safe"
    return f"take the tide: {_points(tide)}"


def decision_help(view: JsonDict) -> str:
    return f"Play a card under the tide ({view.get('tide')}) to stay safe; at or over it you take its points."


register(LowTide, render_view, lambda: RULES, narrate=narrate, action_words=action_words, decision_help=decision_help)
