"""Rules of Catch A Dragon By The Tail (``catch-a-dragon``), with the rulings' readings.

A turn is a loop of three steps: a roll of every uncollected die (a chance node
whose outcome is the sorted faces rolled), a collection of one or more of the
dice just rolled (a decision), then stop or roll again (a decision). A bust ends
the turn with nothing; collecting the fourth die ends it and scores. A variant whose bust
draws a prize (``bust_prizes`` with more than one outcome) adds one more chance node, the
draw, between the bust and the turn's end. Seat 0 takes
the first turn of every round; four rounds, then tie-break rounds while the
highest total is shared (at most ``max_tiebreak_rounds``, then a shared win).

Variants change a rule through the public hooks (``turn_rules``, ``stop_points``,
``bust_points``, ``bust_prizes``, ``duplicate_bust_rule``), which the rules call and the
exact solvers' turn model (``gamebag.agents.solvers.models.catch_a_dragon``) calls too.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from math import lcm
from typing import Any, ClassVar

from gamebag.core.engines import ANY, EngineSupport
from gamebag.core.errors import IllegalChanceOutcomeError, OptionError
from gamebag.core.options import Option, options_to_json, typed_options
from gamebag.core.presets import Preset
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.rng import Rng, draw_index
from gamebag.core.traits import Information, Moves, Termination, Traits
from gamebag.games.catch_a_dragon.dice import (
    DEFAULT_COLOURS,
    DICE,
    DUPLICATE_BUST_RULES,
    FACES,
    PALETTE,
    Dice,
    all_collections,
    chains,
    is_bust,
    legal_collections,
    merge,
    roll_outcomes,
    roll_probabilities,
    set_kind,
    set_points,
)
from gamebag.games.catch_a_dragon.encoding import ROLL, STOP, FaceNames, parse_action, parse_roll
from gamebag.games.catch_a_dragon.presets import PRESETS
from gamebag.games.catch_a_dragon.translation import N_, _

ROUNDS = 4
MAX_DICE = 6  # a set of different colours holds at most the die's six colours
MAX_ROUNDS = 20
DragonAction = Dice | str
# A chance outcome: the faces of a roll, or the points of the prize a bust draws (bust_prizes).
DragonOutcome = Dice | int
# The end-game part of the observation tensor (layout 2): thermometers of the margin over the best
# other total (thresholds -MARGIN_REACH..MARGIN_REACH) and of that margin plus the points held
# (-TURN_REACH..TURN_REACH), and the regular rounds left after this one as a one-hot up to ROUNDS_LEFT.
MARGIN_REACH = 32
TURN_REACH = 16
ROUNDS_LEFT = 4
SEATS = 8  # the tensor pads seats to eight, the most players
OBSERVATION_SIZE = 6 + 6 + 4 + 1 + 1 + SEATS + 3 + SEATS + ROUNDS_LEFT + (2 * MARGIN_REACH + 1) + (2 * TURN_REACH + 1)
# How many score parts of observations a game keeps (each 121 floats) before it starts afresh.
SCORE_PARTS_KEPT = 4096


class Phase(StrEnum):
    """How far a turn has got: dice about to be rolled (chance), collect, stop or roll, a bust's
    prize about to be drawn (chance; only a variant with a prize draw), or the end."""

    ROLL = "roll"
    COLLECT = "collect"  # ``rolled`` holds the roll to collect from
    DECIDE = "decide"
    OVER = "over"
    PRIZE = "prize"  # ``rolled`` holds the roll that busted


# The phases the observation tensor tells apart (its layout and the compiled engines' have four):
# a prize draw is a chance node like a roll and reads as one.
TENSOR_PHASES = (Phase.ROLL, Phase.COLLECT, Phase.DECIDE, Phase.OVER)


LAST_ROLL_PHASES = (Phase.DECIDE, Phase.PRIZE)
NODE_KINDS = {
    Phase.ROLL: NodeKind.CHANCE,
    Phase.COLLECT: NodeKind.DECISION,
    Phase.DECIDE: NodeKind.DECISION,
    Phase.OVER: NodeKind.TERMINAL,
    Phase.PRIZE: NodeKind.CHANCE,
}


@dataclass(frozen=True, slots=True)
class TurnSummary:
    """How the last finished turn ended (public)."""

    seat: int
    round_no: int
    collected: Dice
    last_roll: Dice  # the roll that busted, or the last roll of a scoring turn
    points: int
    ended_by: str  # "bust", "stop" or "four" (all four dice collected)
    prize_drawn: bool = False  # a bust whose points were drawn (bust_prizes): ``points`` is the draw


@dataclass(frozen=True, slots=True)
class DragonState:
    """A position: totals, whose turn, and how far the turn has got."""

    scores: tuple[int, ...]
    round_no: int
    seat: int
    phase: Phase
    collected: Dice
    rolled: Dice
    last_turn: TurnSummary | None
    winners: tuple[int, ...]


OPTIONS: tuple[Option, ...] = (
    Option(
        "faces",
        "list",
        DEFAULT_COLOURS,
        N_(
            "The six colours of the die in face order 1 to 6, which is also the order of the ring of "
            "links (each face's claw holds the tail of the next face). Comma-separated on a command "
            "line, e.g. faces=green,gold,blue,red,purple,gray."
        ),
        choices=PALETTE,
    ),
    Option(
        "dice",
        "int",
        DICE,
        N_("Dice (dragon eggs) a turn rolls; a turn ends and scores when all are collected."),
        minimum=1,
        maximum=MAX_DICE,
    ),
    Option(
        "rounds",
        "int",
        ROUNDS,
        N_("Rounds in a game (each player has one turn per round), before any tie-break rounds."),
        minimum=1,
        maximum=MAX_ROUNDS,
    ),
    Option("cyclic", "bool", True, N_("Face 6 links back to face 1, closing the ring of links.")),
    Option(
        "duplicate_bust",
        "choice",
        "any",
        N_(
            "When a set of different colours busts: 'any' (the rulebook's words) - any rolled die "
            "shows a colour already held; 'none-new' - no rolled die shows a new colour."
        ),
        choices=DUPLICATE_BUST_RULES,
    ),
    Option(
        "max_tiebreak_rounds",
        "int",
        10,
        N_(
            "Tie-break rounds played while the highest total is shared after round four; if still "
            "tied after this many, the tied leaders share the win (0: share at once)."
        ),
        minimum=0,
        maximum=100,
    ),
)


@dataclass(frozen=True, slots=True)
class DragonOptions:
    """The options of one game of Catch A Dragon, typed (``OPTIONS`` holds their bounds and defaults)."""

    faces: tuple[str, ...]
    dice: int
    rounds: int
    cyclic: bool
    duplicate_bust: str
    max_tiebreak_rounds: int


# Which engines play each option (gamebag.core.engines): the numba kernel (gamebag.fast.dragon)
# and the JAX engine (gamebag.fast.jax.dragon) play every option, every value.
ENGINES = EngineSupport(OPTIONS, {spec.name: {"numba": ANY, "jax": ANY} for spec in OPTIONS})


class CatchADragon(Game[DragonState, DragonAction, DragonOutcome]):
    """Catch A Dragon By The Tail: push your luck for identical or linked sets of dragons."""

    game_id: ClassVar[str] = "catch-a-dragon"
    title: ClassVar[str] = N_("Catch A Dragon By The Tail")
    version: ClassVar[str] = "1.0"
    summary: ClassVar[str] = N_(
        "Roll four dragon eggs, keep identical or linked sets, and stop before a bust. Four rounds."
    )
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 2
    traits: Traits = Traits(Moves.SEQUENTIAL, Information.PERFECT, chance=True)
    # 2: the seat, the rounds left and the score margins (thermometers) joined the tensor.
    observation_version: ClassVar[int] = 2
    option_specs: ClassVar[tuple[Option, ...]] = OPTIONS
    preset_specs: ClassVar[tuple[Preset, ...]] = PRESETS
    engine_support: ClassVar[EngineSupport | None] = ENGINES
    text_domain: ClassVar[str | None] = "catch_a_dragon"

    def _configure(self) -> None:
        self.settings = typed_options(DragonOptions, self.options)
        faces = self.settings.faces
        if len(faces) != len(FACES):
            raise OptionError(
                _(
                    "option 'faces': give exactly six distinct colours, faces 1 to 6 in ring order "
                    "(got {count}); allowed colours: {colours}",
                    count=len(faces),
                    colours=", ".join(PALETTE),
                )
            )
        self.names = FaceNames(faces)
        self.cyclic = self.settings.cyclic
        self.duplicate_bust = self.settings.duplicate_bust
        self.max_tiebreak_rounds = self.settings.max_tiebreak_rounds
        self.dice = self.settings.dice
        self.rounds = self.settings.rounds
        self._all_actions: tuple[DragonAction, ...] = (STOP, ROLL, *all_collections(self.dice))
        # What observation tensors reuse: scales, padding, each phase's one-hot part, and the parts
        # of each multiset of dice met (at most the 924 rolls of six dice or fewer, and as many sets).
        self._score_scale = max(16, self.dice**2)
        self._tiebreak_scale = max(1, self.max_tiebreak_rounds)
        self._score_padding = (0.0,) * (SEATS - self.num_players)
        self._phase_part = {
            phase: tuple(1.0 if phase == other else 0.0 for other in TENSOR_PHASES) for phase in TENSOR_PHASES
        }
        self._phase_part[Phase.PRIZE] = self._phase_part[Phase.ROLL]
        self._seat_part = [one_hot(seat, SEATS) for seat in range(self.num_players)]
        self._rounds_left_part = [one_hot(left, ROUNDS_LEFT) for left in range(ROUNDS_LEFT)]
        self._dice_parts: dict[Dice, tuple[float, ...]] = {}
        self._held_points: dict[Dice, int] = {}
        # The part read off the totals, round and seat, kept per position of the scores (it stays
        # the same through a turn, where most observations are read), with the best rival total
        # that the margin if the seat to move banked its points needs.
        self._score_parts: dict[tuple[tuple[int, ...], int, int, int], tuple[tuple[float, ...], int | None]] = {}

    # ---- dynamics -------------------------------------------------------------------------
    def initial_state(self) -> DragonState:
        return DragonState(
            scores=(0,) * self.num_players,
            round_no=1,
            seat=0,
            phase=Phase.ROLL,
            collected=(),
            rolled=(),
            last_turn=None,
            winners=(),
        )

    def node_kind(self, state: DragonState) -> NodeKind:
        return NODE_KINDS[state.phase]

    def acting_players(self, state: DragonState) -> tuple[int, ...]:
        return (state.seat,) if NODE_KINDS[state.phase] is NodeKind.DECISION else ()

    def legal_actions(self, state: DragonState, player: int) -> Sequence[DragonAction]:
        if player != state.seat:
            return ()
        if state.phase == Phase.COLLECT:
            rule = self.duplicate_bust_rule(self.turn_rules(state.round_no, state.seat))
            return legal_collections(state.collected, state.rolled, rule)
        return (STOP, ROLL) if state.phase == Phase.DECIDE else ()

    def _illegal_action_message(
        self, state: DragonState, player: int, action: Any, legal: Sequence[DragonAction]
    ) -> str:
        if state.phase == Phase.DECIDE:
            return (
                f"seat {state.seat} holds {self.names.describe(state.collected)} and must now choose "
                f"'stop' (score {self.stop_points(state.collected, self.turn_rules(state.round_no, state.seat))}) "
                f"or 'roll' the "
                f"{self.dice - len(state.collected)} other dice, not {self._show(action)}"
            )
        allowed = "; ".join(self.names.describe(c) for c in legal if not isinstance(c, str))
        return (
            f"seat {state.seat} rolled {self.names.describe(state.rolled)} holding "
            f"{self.names.describe(state.collected)}: collect one or more of the dice just rolled "
            f"that fit the set before stopping or rolling again; {self._show(action)} is not "
            f"allowed. Allowed: {allowed}"
        )

    def _apply(self, state: DragonState, moves: Mapping[int, DragonAction]) -> DragonState:
        action = moves[state.seat]
        if state.phase == Phase.DECIDE:
            if action == STOP:
                rules = self.turn_rules(state.round_no, state.seat)
                return self._end_turn(state, self.stop_points(state.collected, rules), "stop")
            return _moved(state, phase=Phase.ROLL, collected=state.collected, rolled=())
        assert not isinstance(action, str)  # a legal action at the collect step is a collection
        collected = merge(state.collected, action)
        if len(collected) == self.dice:
            rules = self.turn_rules(state.round_no, state.seat)
            last_die_in = _moved(state, phase=state.phase, collected=collected, rolled=state.rolled)
            return self._end_turn(last_die_in, self.stop_points(collected, rules), "four")
        return _moved(state, phase=Phase.DECIDE, collected=collected, rolled=state.rolled)

    def chance_outcomes(self, state: DragonState) -> Sequence[tuple[DragonOutcome, Fraction]]:
        if state.phase == Phase.PRIZE:
            return self._prizes(state)
        return roll_outcomes(self.dice - len(state.collected)) if state.phase == Phase.ROLL else ()

    def chance_probabilities(self, state: DragonState) -> Sequence[tuple[DragonOutcome, float]]:
        if state.phase == Phase.PRIZE:
            return tuple((points, float(chance)) for points, chance in self._prizes(state))
        return roll_probabilities(self.dice - len(state.collected)) if state.phase == Phase.ROLL else ()

    def sample_chance(self, state: DragonState, rng: Rng) -> DragonOutcome:
        if state.phase == Phase.PRIZE:
            # One draw over the common denominator of the exact probabilities: the same seed
            # draws the same prize, each with exactly its probability.
            prizes = self._prizes(state)
            denominator = lcm(*(chance.denominator for _, chance in prizes))
            pick = draw_index(rng, denominator)
            for points, chance in prizes:
                pick -= chance.numerator * (denominator // chance.denominator)
                if pick < 0:
                    return points
            return prizes[-1][0]
        if state.phase != Phase.ROLL:
            raise IllegalChanceOutcomeError("no dice are being rolled and no prize is being drawn now")
        faces = len(FACES)
        return tuple(sorted([draw_index(rng, faces) + 1 for _ in range(self.dice - len(state.collected))]))

    def _check_outcome(self, state: DragonState, outcome: Any) -> None:
        if state.phase == Phase.PRIZE:
            possible = [points for points, chance in self._prizes(state) if chance > 0]
            if isinstance(outcome, bool) or not isinstance(outcome, int) or outcome not in possible:
                raise IllegalChanceOutcomeError(
                    f"seat {state.seat} busted and draws a prize now: the prize is the points of the card "
                    f"drawn, one of {', '.join(str(p) for p in possible)}, not {outcome!r}"
                )
            return
        dice = self.dice - len(state.collected)
        if (
            not isinstance(outcome, tuple)
            or len(outcome) != dice
            or any(isinstance(f, bool) or not isinstance(f, int) or f not in FACES for f in outcome)
        ):
            raise IllegalChanceOutcomeError(
                f"seat {state.seat} rolls {dice} dice now (holding {len(state.collected)}): a roll is "
                f"{dice} face(s) from 1 to 6 or colours {', '.join(self.names.colours)}, not {outcome!r}"
            )

    def _apply_chance(self, state: DragonState, outcome: DragonOutcome) -> DragonState:
        if isinstance(outcome, int):  # a prize drawn (``_check_outcome`` allows it only then)
            return self._end_turn(state, outcome, "bust", prize_drawn=True)
        roll = tuple(sorted(outcome))
        rules = self.turn_rules(state.round_no, state.seat)
        if is_bust(state.collected, roll, self.duplicate_bust_rule(rules)):
            prizes = self.bust_prizes(state.collected, rules)
            busted = _moved(state, phase=Phase.PRIZE, collected=state.collected, rolled=roll)
            if len(prizes) > 1:
                return busted  # the prize is drawn at a chance node of its own
            return self._end_turn(busted, prizes[0][0], "bust")
        return _moved(state, phase=Phase.COLLECT, collected=state.collected, rolled=roll)

    def _prizes(self, state: DragonState) -> Sequence[tuple[int, Fraction]]:
        """The prizes the bust of ``state`` draws from (a prize phase)."""
        return self.bust_prizes(state.collected, self.turn_rules(state.round_no, state.seat))

    # ---- hooks a variant overrides (docs/designers.md, "Writing a variant") ------------------
    # The rules engine and the turn model the exact solvers read (agents/solvers/models) both call these, so a
    # variant that overrides them is played and solved by the same rule. Each takes the key of
    # the turn's rules (``turn_rules``); the rulebook has one key, None, for every turn.
    def turn_rules(self, round_no: int, seat: int) -> Hashable:
        """Which rules the turn of ``seat`` in round ``round_no`` (tie-break rounds included) is played by.

        Any hashable key, handed to the other hooks; turns with equal keys are played (and solved)
        alike, so a variant returns as few distinct keys as its rules need. The rulebook: ``None``.
        """
        return None

    def stop_points(self, collected: Dice, rules: Hashable) -> int:
        """What the set ``collected`` scores when its turn stops or collects the last die (the rulebook:
        identical sets the square, different sets their chains)."""
        return set_points(collected, self.cyclic)

    def bust_points(self, collected: Dice, rules: Hashable) -> int:
        """What a turn that busts scores, given the dice collected before the bust (the rulebook: 0).

        At least 0: the exact win solver counts on totals that never fall.
        """
        return 0

    def bust_prizes(self, collected: Dice, rules: Hashable) -> Sequence[tuple[int, Fraction]]:
        """What a bust may score, given the dice collected before it: ``(points, probability)`` pairs,
        exact probabilities adding up to 1, points at least 0 (the rulebook: ``bust_points`` for sure).

        With more than one pair the bust goes to a chance node, the prize draw, and the turn ends
        with the points drawn; the turn model the solvers read has the same node. Each draw must
        be independent of earlier turns (a deck reshuffled before every draw, say), which keeps
        every turn alike and the solvers exact.
        """
        return ((self.bust_points(collected, rules), Fraction(1)),)

    def duplicate_bust_rule(self, rules: Hashable) -> str:
        """When a set of different colours busts, one of ``DUPLICATE_BUST_RULES`` (the option)."""
        return self.duplicate_bust

    def _end_turn(self, state: DragonState, points: int, ended_by: str, prize_drawn: bool = False) -> DragonState:
        scores = list(state.scores)
        scores[state.seat] += points
        summary = TurnSummary(
            seat=state.seat,
            round_no=state.round_no,
            collected=state.collected,
            last_roll=state.rolled,
            points=points,
            ended_by=ended_by,
            prize_drawn=prize_drawn,
        )
        next_seat = state.seat + 1
        round_no = state.round_no
        winners: tuple[int, ...] = ()
        phase = Phase.ROLL
        if next_seat == self.num_players:
            next_seat = 0
            if round_no >= self.rounds:
                best = max(scores)
                leaders = tuple(p for p, s in enumerate(scores) if s == best)
                tiebreaks_played = round_no - self.rounds
                if len(leaders) == 1 or tiebreaks_played >= self.max_tiebreak_rounds:
                    winners, phase = leaders, Phase.OVER
            if phase != Phase.OVER:
                round_no += 1
        return DragonState(
            scores=tuple(scores),
            round_no=round_no,
            seat=next_seat if phase != Phase.OVER else state.seat,
            phase=phase,
            collected=(),
            rolled=(),
            last_turn=summary,
            winners=winners,
        )

    # ---- results --------------------------------------------------------------------------
    def scores(self, state: DragonState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def winners(self, state: DragonState) -> tuple[int, ...]:
        return state.winners

    def termination(self, state: DragonState) -> Termination | None:
        if state.phase != Phase.OVER:
            return None
        if len(state.winners) > 1:
            return Termination.TIEBREAK_CAP
        return Termination.ROUNDS

    def round_number(self, state: DragonState) -> int:
        return state.round_no

    # ---- information ----------------------------------------------------------------------
    def public_view(self, state: DragonState) -> JsonDict:
        over = state.phase == Phase.OVER
        collected = state.collected
        return {
            "game": self.game_id,
            "players": self.num_players,
            "round": state.round_no,
            "rounds": self.rounds,
            "dice": self.dice,
            "tiebreak_round": max(0, state.round_no - self.rounds),
            "max_tiebreak_rounds": self.max_tiebreak_rounds,
            "turn_seat": None if over else state.seat,
            "phase": state.phase,
            "scores": list(state.scores),
            "faces": list(self.names.colours),
            "cyclic": self.cyclic,
            "duplicate_bust": self.duplicate_bust,
            "collected": self.names.colour_list(collected),
            "collected_faces": list(collected),
            "set_kind": set_kind(collected),
            "set_points": self.stop_points(collected, self.turn_rules(state.round_no, state.seat)),
            "chains": self._chains_json(collected),
            "rolled": self.names.colour_list(state.rolled) if state.phase == Phase.COLLECT else [],
            "rolled_faces": list(state.rolled) if state.phase == Phase.COLLECT else [],
            # At a decision, the roll just collected from; at a prize draw, the roll that busted.
            "last_roll": self.names.colour_list(state.rolled) if state.phase in LAST_ROLL_PHASES else [],
            "dice_left": self.dice - len(collected),
            "last_turn": self._summary_json(state.last_turn),
            "over": over,
            "winners": list(state.winners),
            "options": options_to_json(self.options),
        }

    def _chains_json(self, collected: Dice) -> list[list[str]]:
        if set_kind(collected) != "different":
            return []
        return [self.names.colour_list(c) for c in chains(collected, self.cyclic)]

    def _summary_json(self, summary: TurnSummary | None) -> JsonDict | None:
        if summary is None:
            return None
        data: JsonDict = {
            "seat": summary.seat,
            "round": summary.round_no,
            "collected": self.names.colour_list(summary.collected),
            "last_roll": self.names.colour_list(summary.last_roll),
            "points": summary.points,
            "ended_by": summary.ended_by,
        }
        if summary.prize_drawn:  # only variants draw prizes: the rulebook's views keep their keys
            data["prize_drawn"] = True
        return data

    # ---- encodings ------------------------------------------------------------------------
    def action_to_json(self, action: DragonAction) -> Any:
        if isinstance(action, str):
            return action
        return self.names.colour_list(action)

    def action_from_json(self, data: Any) -> DragonAction:
        return parse_action(data, self.names)

    def outcome_to_json(self, outcome: DragonOutcome) -> Any:
        if isinstance(outcome, int):
            return {"prize": outcome}
        return self.names.colour_list(outcome)

    def outcome_from_json(self, data: Any) -> DragonOutcome:
        if isinstance(data, dict):
            points = data.get("prize")
            if set(data) != {"prize"} or isinstance(points, bool) or not isinstance(points, int):
                raise IllegalChanceOutcomeError(
                    f'{data!r} is not a prize draw: write it as {{"prize": POINTS}} with the points drawn'
                )
            return points
        return parse_roll(data, self.names)

    def all_actions(self) -> Sequence[DragonAction]:
        return self._all_actions

    def observation_tensor(self, state: DragonState, player: int) -> list[float]:
        phase, seat = state.phase, state.seat
        out = [*self._dice_part(state.collected), *self._dice_part(state.rolled)]
        out += self._phase_part[phase]
        out.append(1.0 if seat == player and phase != Phase.OVER else 0.0)
        held = self._held_points_of(state.collected)
        out.append(held / self._score_scale)
        key = (state.scores, state.round_no, seat, player)
        entry = self._score_parts.get(key)
        if entry is None:
            if len(self._score_parts) >= SCORE_PARTS_KEPT:
                self._score_parts.clear()  # a bound on memory; play refills it as it goes
            entry = self._score_parts[key] = self._score_part(*key)
        part, rival = entry
        out += part
        own, seat_total = state.scores[player], state.scores[seat]
        # The margin over the best other total if the seat to move banked what it holds.
        if rival is None:  # alone in the game, or two players with the other one to move
            banked = 0 if seat == player else own - (seat_total + held)
        elif seat == player:
            banked = own + held - rival
        else:
            best = seat_total + held
            banked = own - (rival if rival > best else best)
        out += thermometer(banked, TURN_REACH)
        return out

    def _score_part(
        self, scores: tuple[int, ...], round_no: int, seat: int, player: int
    ) -> tuple[tuple[float, ...], int | None]:
        """The observation's part read off the totals, with the best rival total the banked margin needs.

        The part: totals, seat, round, the observer's seat, the rounds left and the margin now. The
        rival is the best total of the seats other than the observer and, when another seat is to
        move, other than that seat too (it is then compared with the seat's total once banked).
        """
        n, rounds = self.num_players, self.rounds
        top = self._score_scale * rounds
        # Totals, own seat first, padded to eight seats so every player count has one layout.
        out = [scores[(player + k) % n] / top for k in range(n)]
        out += self._score_padding
        out.append(((seat - player) % n) / SEATS)
        out.append((round_no if round_no < rounds else rounds) / rounds)
        out.append((round_no - rounds if round_no > rounds else 0) / self._tiebreak_scale)
        # The end game turns on exact margins, which a total divided by 64 hides: the seat (who
        # still moves this round), the rounds left, and thermometers of the margin over the best
        # other total, now and (added by observation_tensor) if the seat to move banked its points.
        out += self._seat_part[player]
        out += self._rounds_left_part[min(ROUNDS_LEFT - 1, max(0, rounds - round_no))]
        out += thermometer(margin(scores, player), MARGIN_REACH)
        rivals = [total for other, total in enumerate(scores) if other != player and other != seat]
        rival = max(rivals) if rivals else None  # none: the banked total of the seat to move alone counts
        return tuple(out), rival

    def _dice_part(self, dice: Dice) -> tuple[float, ...]:
        """The share of the dice showing each face (kept per multiset of faces: there are few)."""
        part = self._dice_parts.get(dice)
        if part is None:
            part = self._dice_parts[dice] = tuple(dice.count(face) / self.dice for face in FACES)
        return part

    def _held_points_of(self, collected: Dice) -> int:
        """The points the collected set would bank (kept per set)."""
        points = self._held_points.get(collected)
        if points is None:
            points = self._held_points[collected] = set_points(collected, self.cyclic)
        return points

    def _show(self, action: Any) -> str:
        if isinstance(action, tuple) and all(isinstance(f, int) and f in FACES for f in action):
            return self.names.describe(action)
        return repr(action)


def _moved(state: DragonState, *, phase: Phase, collected: Dice, rolled: Dice) -> DragonState:
    """``state`` a step further in the same turn: what changes is named, the rest is kept.

    Built positionally, in this one place: every roll and collection passes here, and a keyword
    call of the class (or ``dataclasses.replace``) costs 3-7% of the engine's speed in random
    playouts; tests/catch_a_dragon/test_dragon_state_builders.py checks each field lands in its place.
    """
    return DragonState(
        state.scores, state.round_no, state.seat, phase, collected, rolled, state.last_turn, state.winners
    )


def margin(totals: Sequence[int], player: int) -> int:
    """``player``'s total minus the best other total (0 with no other player)."""
    others = [total for seat, total in enumerate(totals) if seat != player]
    return totals[player] - max(others) if others else 0


def one_hot(index: int, size: int) -> tuple[float, ...]:
    """``size`` zeros with a one at ``index``."""
    return tuple(1.0 if k == index else 0.0 for k in range(size))


def thermometer(value: int, reach: int) -> tuple[float, ...]:
    """``1.0`` for every threshold ``-reach .. reach`` that ``value`` reaches, else ``0.0``."""
    return _thermometer(max(-reach - 1, min(reach, value)), reach)


@cache
def _thermometer(value: int, reach: int) -> tuple[float, ...]:
    # Clipped first, so the cache holds at most 2 * reach + 2 tuples per reach.
    return tuple(1.0 if value >= threshold else 0.0 for threshold in range(-reach, reach + 1))
