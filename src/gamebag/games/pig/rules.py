"""Rules of Pig (``pig``): the reference dice game for checking the win solver.

Two players take turns. A turn starts with a roll of one die; a 1 ends the turn
and loses its running total, any other face adds to it, and the player then holds
(banking the total, which passes the turn) or rolls again. The first player whose
banked score plus running total reaches the goal (``goal``, default 100) wins at
once. The die has ``die_sides`` faces (default 6); a 1 always busts. Neller and
Presser (2004) solved it: the first player wins about 53.06% of games under
optimal play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from gamebag.core.engines import ANY, EngineSupport
from gamebag.core.errors import IllegalChanceOutcomeError
from gamebag.core.options import Option, options_to_json, typed_options
from gamebag.core.presets import Preset
from gamebag.core.protocol import Game, JsonDict, NodeKind, is_choice, nearest_float
from gamebag.core.rng import Rng, draw_index
from gamebag.core.traits import Information, Moves, Termination, Traits
from gamebag.games.pig.presets import PRESETS
from gamebag.games.pig.translation import N_

ROLL = "roll"
HOLD = "hold"
SIDES = 6
MAX_SIDES = 20


class Phase(StrEnum):
    """Where a turn stands: the die about to be rolled (chance), hold or roll, or the end."""

    ROLL = "roll"
    DECIDE = "decide"
    OVER = "over"


NODE_KINDS = {Phase.ROLL: NodeKind.CHANCE, Phase.DECIDE: NodeKind.DECISION, Phase.OVER: NodeKind.TERMINAL}


@dataclass(frozen=True, slots=True)
class PigState:
    """A position: banked scores, whose turn, the running total and the phase."""

    scores: tuple[int, int]
    seat: int
    turn_total: int
    phase: Phase
    last_roll: int | None
    turns: int  # turns finished so far
    winner: int | None


OPTIONS: tuple[Option, ...] = (
    Option("goal", "int", 100, N_("The score that wins the game at once."), minimum=2, maximum=1000),
    Option(
        "die_sides",
        "int",
        SIDES,
        N_("Faces of the die, numbered 1 to this; a 1 loses the turn's total."),
        minimum=2,
        maximum=MAX_SIDES,
    ),
)


@dataclass(frozen=True, slots=True)
class PigOptions:
    """The options of one game of Pig, typed (``OPTIONS`` holds their bounds and defaults)."""

    goal: int
    die_sides: int


# Which engines play each option (gamebag.core.engines): the numba kernel (gamebag.fast.pig)
# and the JAX engine (gamebag.fast.jax.pig) play both options, every value.
ENGINES = EngineSupport(OPTIONS, {"goal": {"numba": ANY, "jax": ANY}, "die_sides": {"numba": ANY, "jax": ANY}})


class Pig(Game[PigState, str, int]):
    """Pig: roll or hold; a 1 loses the turn's total; first to the goal wins."""

    game_id: ClassVar[str] = "pig"
    title: ClassVar[str] = N_("Pig")
    version: ClassVar[str] = "1.0"
    summary: ClassVar[str] = N_("Roll or hold with one die; a 1 loses the turn's points. First to 100 wins.")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    traits: Traits = Traits(Moves.SEQUENTIAL, Information.PERFECT, chance=True)
    option_specs: ClassVar[tuple[Option, ...]] = OPTIONS
    preset_specs: ClassVar[tuple[Preset, ...]] = PRESETS
    engine_support: ClassVar[EngineSupport | None] = ENGINES
    text_domain: ClassVar[str | None] = "pig"

    def _configure(self) -> None:
        self.settings = typed_options(PigOptions, self.options)
        self.goal = self.settings.goal
        self.sides = self.settings.die_sides
        self.faces = tuple(range(1, self.sides + 1))
        self._face_chance = Fraction(1, self.sides)
        self._roll_probabilities = tuple((face, nearest_float(self._face_chance)) for face in self.faces)
        self._phase_part = {phase: tuple(1.0 if phase == other else 0.0 for other in Phase) for phase in Phase}

    # ---- dynamics -------------------------------------------------------------------------
    def initial_state(self) -> PigState:
        return PigState(scores=(0, 0), seat=0, turn_total=0, phase=Phase.ROLL, last_roll=None, turns=0, winner=None)

    def node_kind(self, state: PigState) -> NodeKind:
        return NODE_KINDS[state.phase]

    def acting_players(self, state: PigState) -> tuple[int, ...]:
        return (state.seat,) if state.phase == Phase.DECIDE else ()

    def legal_actions(self, state: PigState, player: int) -> Sequence[str]:
        return (HOLD, ROLL) if state.phase == Phase.DECIDE and player == state.seat else ()

    def _illegal_action_message(self, state: PigState, player: int, action: Any, legal: Sequence[str]) -> str:
        return f"seat {player} has {state.turn_total} this turn and must choose 'hold' or 'roll', not {action!r}"

    def _apply(self, state: PigState, moves: Mapping[int, str]) -> PigState:
        if moves[state.seat] == ROLL:
            return _within_turn(state, turn_total=state.turn_total, phase=Phase.ROLL, last_roll=state.last_roll)
        return self._end_turn(state, state.turn_total, last_roll=state.last_roll)

    def _end_turn(self, state: PigState, banked: int, last_roll: int | None) -> PigState:
        """Bank ``banked`` points and pass the die, or end the game if they reach the goal."""
        scores = list(state.scores)
        scores[state.seat] += banked
        won = scores[state.seat] >= self.goal
        return PigState(
            scores=(scores[0], scores[1]),
            seat=state.seat if won else 1 - state.seat,
            turn_total=0,
            phase=Phase.OVER if won else Phase.ROLL,
            last_roll=last_roll,
            turns=state.turns + 1,
            winner=state.seat if won else None,
        )

    def chance_outcomes(self, state: PigState) -> Sequence[tuple[int, Fraction]]:
        return tuple((face, self._face_chance) for face in self.faces) if state.phase == Phase.ROLL else ()

    def chance_probabilities(self, state: PigState) -> Sequence[tuple[int, float]]:
        return self._roll_probabilities if state.phase == Phase.ROLL else ()

    def sample_chance(self, state: PigState, rng: Rng) -> int:
        if state.phase != Phase.ROLL:
            raise IllegalChanceOutcomeError("no die is being rolled now")
        return draw_index(rng, self.sides) + 1

    def _check_outcome(self, state: PigState, outcome: Any) -> None:
        if not is_choice(outcome, self.faces):
            raise IllegalChanceOutcomeError(f"a roll of the die is a face from 1 to {self.sides}, not {outcome!r}")

    def _apply_chance(self, state: PigState, outcome: int) -> PigState:
        if outcome == 1:
            return self._end_turn(state, 0, last_roll=1)
        total = state.turn_total + outcome
        if state.scores[state.seat] + total >= self.goal:
            return self._end_turn(state, total, last_roll=outcome)
        return _within_turn(state, turn_total=total, phase=Phase.DECIDE, last_roll=outcome)

    # ---- results --------------------------------------------------------------------------
    def scores(self, state: PigState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def winners(self, state: PigState) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    def termination(self, state: PigState) -> Termination | None:
        return Termination.GOAL if state.phase == Phase.OVER else None

    def round_number(self, state: PigState) -> int:
        """A round is one turn of each player."""
        return (state.turns - 1 if state.phase == Phase.OVER else state.turns) // 2 + 1

    # ---- information ----------------------------------------------------------------------
    def public_view(self, state: PigState) -> JsonDict:
        over = state.phase == Phase.OVER
        return {
            "game": self.game_id,
            "players": self.num_players,
            "goal": self.goal,
            "die_sides": self.sides,
            "round": self.round_number(state),
            "turn_seat": None if over else state.seat,
            "phase": state.phase,
            "scores": list(state.scores),
            "turn_total": state.turn_total,
            "last_roll": state.last_roll,
            "over": over,
            "winners": list(self.winners(state)),
            "options": options_to_json(self.options),
        }

    # ---- encodings ------------------------------------------------------------------------
    def all_actions(self) -> Sequence[str]:
        return (HOLD, ROLL)

    def observation_tensor(self, state: PigState, player: int) -> list[float]:
        goal, phase = self.goal, state.phase
        # A final score may pass the goal; the tensor stays in [0, 1] as the protocol promises.
        return [
            min(1.0, state.scores[player] / goal),
            min(1.0, state.scores[1 - player] / goal),
            state.turn_total / goal,
            1.0 if state.seat == player and phase != Phase.OVER else 0.0,
            *self._phase_part[phase],
        ]


def _within_turn(state: PigState, *, turn_total: int, phase: Phase, last_roll: int | None) -> PigState:
    """``state`` a step further in the same turn: what changes is named, the rest is kept.

    Every roll passes here twice, so the state is built positionally, in this one place (a
    keyword call of the class, or ``dataclasses.replace``, costs about 8% of the engine's speed in
    random playouts); tests/pig/test_pig_state_builders.py checks each field lands in its place.
    """
    return PigState(state.scores, state.seat, turn_total, phase, last_roll, state.turns, state.winner)
