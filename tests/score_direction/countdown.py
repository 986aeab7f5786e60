"""Countdown: a tiny test game where the fewest points win (``lowest_wins=false`` flips it).

Each round every seat in turn takes 1, 2 or 3 points; after the last round the seats
with the best total win (the fewest, unless ``lowest_wins=false``). Its heuristic takes
the best number of points for the game's direction and ``taker`` always takes 3, so
which seat should come first, last or ahead is known without playing.

It is registered only inside the ``countdown`` fixture (``conftest.py``), so that tests
which walk every registered game never meet it. It uses nothing but the protocol a
plugin would use, and reads its direction the way the contract says: the class declares
``lower_score_wins`` and ``score_sign`` follows the option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, NamedTuple

from gamebag.agents.base import Agent, SeatView
from gamebag.core.options import Option
from gamebag.core.protocol import Game, JsonDict
from gamebag.core.rng import Rng
from gamebag.core.traits import Information, Moves, NodeKind, Traits

GAME_ID = "countdown-score-test"
TAKES = (1, 2, 3)


class CountdownState(NamedTuple):
    scores: tuple[int, ...]
    round: int  # 1-based; rounds + 1 once the game is over
    seat: int  # whose turn it is


class Countdown(Game[CountdownState, int, Any]):
    game_id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Countdown (score-direction test)"
    version: ClassVar[str] = "1"
    summary: ClassVar[str] = "Take 1 to 3 points a turn; after the last round the fewest points win."
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 2
    traits: ClassVar[Traits] = Traits(Moves.SEQUENTIAL, Information.PERFECT, chance=False)
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("rounds", "int", 3, "How many rounds are played.", minimum=1, maximum=20),
        Option("lowest_wins", "bool", True, "Whether the fewest points win (false: the most)."),
    )
    lower_score_wins: ClassVar[bool] = True

    def score_sign(self) -> int:
        return -1 if self.options["lowest_wins"] else 1

    def _configure(self) -> None:
        self.rounds = int(self.options["rounds"])  # type: ignore[arg-type]

    def initial_state(self) -> CountdownState:
        return CountdownState((0,) * self.num_players, 1, 0)

    def node_kind(self, state: CountdownState) -> NodeKind:
        return NodeKind.TERMINAL if state.round > self.rounds else NodeKind.DECISION

    def acting_players(self, state: CountdownState) -> tuple[int, ...]:
        return () if state.round > self.rounds else (state.seat,)

    def legal_actions(self, state: CountdownState, player: int) -> Sequence[int]:
        return TAKES if player in self.acting_players(state) else ()

    def _apply(self, state: CountdownState, moves: Mapping[int, int]) -> CountdownState:
        seat = state.seat
        scores = tuple(s + (moves[seat] if p == seat else 0) for p, s in enumerate(state.scores))
        last = seat == self.num_players - 1
        return CountdownState(scores, state.round + last, 0 if last else seat + 1)

    def chance_outcomes(self, state: CountdownState) -> Sequence[tuple[Any, Fraction]]:
        return ()

    def _apply_chance(self, state: CountdownState, outcome: Any) -> CountdownState:
        raise AssertionError("Countdown has no chance nodes")

    def scores(self, state: CountdownState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def winners(self, state: CountdownState) -> tuple[int, ...]:
        if state.round <= self.rounds:
            return ()
        # The game's own verdict, written without gamebag.core.results so it holds on any version.
        pick = min if self.options["lowest_wins"] else max
        best = pick(state.scores)
        return tuple(seat for seat, score in enumerate(state.scores) if score == best)

    def round_number(self, state: CountdownState) -> int:
        return min(state.round, self.rounds) if state.round > self.rounds else state.round

    def public_view(self, state: CountdownState) -> JsonDict:
        return {"scores": list(state.scores), "round": state.round, "turn": state.seat, "rounds": self.rounds}

    def all_actions(self) -> Sequence[int]:
        return TAKES

    def observation_tensor(self, state: CountdownState, player: int) -> list[float]:
        most = 3 * self.rounds
        return [
            *(s / most for s in state.scores),
            min(state.round, self.rounds) / self.rounds,
            *(1.0 if seat == state.seat else 0.0 for seat in range(self.num_players)),
        ]


class BestTake(Agent):
    """The heuristic: the fewest points where the fewest win, else the most."""

    name = "heuristic"

    def act(self, view: SeatView, rng: Rng) -> Any:
        return min(view.legal_actions) if view.game.score_sign() < 0 else max(view.legal_actions)


class Taker(Agent):
    """Always takes 3 points: the worst player where the fewest points win."""

    name = "taker"

    def act(self, view: SeatView, rng: Rng) -> Any:
        return max(view.legal_actions)


class Scripted(Agent):
    """Takes the given points turn after turn (for traces whose leaders are known)."""

    name = "scripted"

    def __init__(self, takes: Sequence[int]) -> None:
        self.takes = list(takes)
        self.turn = 0

    def act(self, view: SeatView, rng: Rng) -> Any:
        take = self.takes[self.turn]
        self.turn += 1
        return take


def render_view(view: JsonDict) -> str:
    scores = ", ".join(f"seat {seat}: {score}" for seat, score in enumerate(view["scores"]))
    return f"Countdown, round {view['round']} of {view['rounds']}: {scores}"


def rules_text() -> str:
    return "Take 1 to 3 points on your turn. After the last round the fewest points win."
