"""Tiny Dash (``tiny-dash``): a plugin game for the tests of "agents that exist".

Written as an outsider's plugin would be (one file, loaded only through ``--plugin`` or
``GAMEBAG_PLUGINS``): it has no heuristic agent, no compiled engine and no trained policy, so
every default that would pick one of those must fall back to an agent that can play it.

Each seat in turn walks (one point) or dashes (a coin: three points or none); after ``turns``
turns of every seat the highest score wins, ties sharing the win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from gamebag.core.options import Option, options_to_json
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.registry import register
from gamebag.core.traits import Information, Moves, Termination, Traits

WALK = "walk"
DASH = "dash"
HEADS = "heads"
TAILS = "tails"
DASH_POINTS = 3


@dataclass(frozen=True, slots=True)
class DashState:
    scores: tuple[int, ...]
    seat: int
    turns_done: int  # turns finished by all seats together
    dashing: bool  # the coin of a dash is about to be tossed
    last: str | None  # what the last turn did, for the views


class TinyDash(Game[DashState, str, str]):
    """Walk for one point or dash for three on a coin toss; the most points win."""

    game_id: ClassVar[str] = "tiny-dash"
    title: ClassVar[str] = "Tiny Dash"
    version: ClassVar[str] = "1.0"
    summary: ClassVar[str] = "Walk for a point or dash for three on a coin; most points win."
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 2
    traits: ClassVar[Traits] = Traits(Moves.SEQUENTIAL, Information.PERFECT, chance=True)
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("turns", "int", 3, "Turns each seat takes.", minimum=1, maximum=10),
    )

    def _configure(self) -> None:
        turns = self.options["turns"]
        self.turns = turns if isinstance(turns, int) else 3
        self.total_turns = self.turns * self.num_players

    def initial_state(self) -> DashState:
        return DashState((0,) * self.num_players, 0, 0, False, None)

    def node_kind(self, state: DashState) -> NodeKind:
        if state.turns_done >= self.total_turns:
            return NodeKind.TERMINAL
        return NodeKind.CHANCE if state.dashing else NodeKind.DECISION

    def acting_players(self, state: DashState) -> tuple[int, ...]:
        return (state.seat,) if self.node_kind(state) is NodeKind.DECISION else ()

    def legal_actions(self, state: DashState, player: int) -> Sequence[str]:
        return (WALK, DASH) if player in self.acting_players(state) else ()

    def _apply(self, state: DashState, moves: Mapping[int, str]) -> DashState:
        if moves[state.seat] == DASH:
            return DashState(state.scores, state.seat, state.turns_done, True, None)
        return self._end_turn(state, 1, WALK)

    def _end_turn(self, state: DashState, points: int, last: str) -> DashState:
        scores = list(state.scores)
        scores[state.seat] += points
        return DashState(tuple(scores), (state.seat + 1) % self.num_players, state.turns_done + 1, False, last)

    def chance_outcomes(self, state: DashState) -> Sequence[tuple[str, Fraction]]:
        return ((HEADS, Fraction(1, 2)), (TAILS, Fraction(1, 2))) if self.node_kind(state) is NodeKind.CHANCE else ()

    def _apply_chance(self, state: DashState, outcome: str) -> DashState:
        return self._end_turn(state, DASH_POINTS if outcome == HEADS else 0, f"dash:{outcome}")

    def scores(self, state: DashState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def winners(self, state: DashState) -> tuple[int, ...]:
        if self.node_kind(state) is not NodeKind.TERMINAL:
            return ()
        best = max(state.scores)
        return tuple(seat for seat, score in enumerate(state.scores) if score == best)

    def termination(self, state: DashState) -> Termination | None:
        return Termination.ROUNDS if self.node_kind(state) is NodeKind.TERMINAL else None

    def round_number(self, state: DashState) -> int:
        done = min(state.turns_done, self.total_turns - 1)
        return done // self.num_players + 1

    def public_view(self, state: DashState) -> JsonDict:
        over = self.node_kind(state) is NodeKind.TERMINAL
        return {
            "game": self.game_id,
            "players": self.num_players,
            "round": self.round_number(state),
            "turn_seat": None if over else state.seat,
            "dashing": state.dashing,
            "scores": list(state.scores),
            "last": state.last,
            "over": over,
            "winners": list(self.winners(state)),
            "options": options_to_json(self.options),
        }

    def all_actions(self) -> Sequence[str]:
        return (WALK, DASH)

    def observation_tensor(self, state: DashState, player: int) -> list[float]:
        most = DASH_POINTS * self.turns
        mine = state.scores[player] / most
        # Fixed length whatever the player count: the other seats in turn order, then zeros.
        others = [state.scores[(player + k) % self.num_players] / most for k in range(1, self.num_players)]
        others += [0.0] * (self.max_players - self.num_players)
        return [mine, *others, 1.0 if state.seat == player else 0.0, state.turns_done / self.total_turns]


def render_view(view: Mapping[str, Any]) -> str:
    scores = ", ".join(f"seat {seat}: {score}" for seat, score in enumerate(view["scores"]))
    turn = "over" if view["over"] else f"seat {view['turn_seat']} to move"
    return f"Tiny Dash, round {view['round']}: {scores} ({turn})"


def rules_text() -> str:
    return "# Tiny Dash\n\nWalk for one point or dash for three on a coin toss. Most points win.\n"


register(TinyDash, render_view, rules_text)
