"""Rules of the Eel Harvest family: ``eel-harvest`` and ``wriggle-roulette``.

One engine, two rule sets (see ``rulings.md``, Eel Harvest family). A grab is a
decision node where every player still in the round chooses a count at once;
the draws that follow are one chance node whose outcome gives, for each seat
that drew, the tokens it drew in draw order (``"EES"``). Exits (count 0) resolve
at the reveal, before the draws take tokens from the bag, so the eels an exiting
player returns can be drawn in the same grab; they resolve before the outbreak
check, so an exiting player is never hit by that outbreak.

The positions are in ``state``; the chance side of a grab (who draws how many tokens,
every outcome with its exact weight, seeded sampling) in ``draws``, whose ``EelDraws``
this engine extends with the moves, the resolution of a grab and the views.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gamebag.core.engines import EngineSupport
from gamebag.core.errors import IllegalActionError, OptionError
from gamebag.core.options import Option, typed_options
from gamebag.core.presets import Preset
from gamebag.core.protocol import JsonDict, NodeKind
from gamebag.core.rng import Rng
from gamebag.core.traits import Information, Moves, Termination, Traits
from gamebag.games.eel_family.draws import CHANCE_MEMO_SIZE, EelDraws
from gamebag.games.eel_family.encoding import grab_json, outcome_from_json, outcome_to_json
from gamebag.games.eel_family.options import (
    EEL_HARVEST_ENGINES,
    EEL_HARVEST_OPTIONS,
    MAX_GRAB_LIMIT,
    SNAKE_THRESHOLD,
    WRIGGLE_ROULETTE_ENGINES,
    WRIGGLE_ROULETTE_OPTIONS,
    EelOptions,
    default_max_grab,
)
from gamebag.games.eel_family.presets import EEL_HARVEST_PRESETS, WRIGGLE_ROULETTE_PRESETS
from gamebag.games.eel_family.state import (
    STILL_IN,
    EelState,
    GrabResult,
    Outcome,
    make_grab_result,
    make_state,
)
from gamebag.games.eel_family.translation import N_, _

__all__ = [
    "CHANCE_MEMO_SIZE",
    "STILL_IN",
    "EelFamilyGame",
    "EelHarvest",
    "EelState",
    "GrabResult",
    "Outcome",
    "WriggleRoulette",
]


class EelFamilyGame(EelDraws):
    """The engine shared by both rule sets; subclasses choose the outbreak and end rules."""

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 4
    version: ClassVar[str] = "1.0"
    rule_set: ClassVar[str]
    # The catalogue of the family's words (option descriptions, preset names, titles: ``game_text``).
    text_domain: ClassVar[str | None] = "eel_family"
    # Everyone still in chooses a count at once; between the choice and the reveal the others' counts are hidden.
    traits: Traits = Traits(Moves.SIMULTANEOUS, Information.HIDDEN, chance=True)

    def table_numbers(self) -> dict[str, str]:
        """The grab limit and the outbreak's snakes of this player count (the rulebook's where not set)."""
        return {"max_grab": str(self.max_grab), "outbreak_snakes": str(self.threshold)}

    def _configure(self) -> None:
        n = self.num_players
        self.settings = settings = typed_options(EelOptions, self.options)
        self.eels = settings.eels
        self.snakes = settings.snakes
        self.target = settings.target
        # None: the rulebook's numbers for this player count.
        self.max_grab = default_max_grab(n) if settings.max_grab is None else settings.max_grab
        self.threshold = SNAKE_THRESHOLD[n] if settings.outbreak_snakes is None else settings.outbreak_snakes
        if self.threshold > self.snakes:
            # Otherwise a round could never end by an outbreak, and a drawn-out bag would not end it either.
            raise OptionError(
                _(
                    "option 'outbreak_snakes': {threshold} snakes cannot make an outbreak with only "
                    "{snakes} snakes in the bag; allowed: 1 to {snakes} (option 'snakes'), or none "
                    "for the rulebook's table ({table} with {players} players)",
                    threshold=self.threshold,
                    snakes=self.snakes,
                    table=SNAKE_THRESHOLD[n],
                    players=n,
                )
            )
        self.dice = settings.draw == "dice"
        self.rotate_start = settings.rotate_start
        self.lone_limit: int | None = settings.lone_player_grabs
        self.scores_reserve_on_outbreak = settings.outbreak_scores_reserve
        self._legal = tuple(range(self.max_grab + 1))
        # Whether a seat spared by an outbreak scores its whole reserve (else only this grab's eels).
        self._outbreak_scores_reserve = self.rule_set == "wriggle-roulette" or self.scores_reserve_on_outbreak
        self._nobody = (0,) * n
        self._everyone_in = (True,) * n
        self._nobody_in = (False,) * n
        # What every observation tensor holds of the configuration, and each seat's order of seats.
        self._observation_padding = (0.0,) * (3 * (8 - n))
        self._threshold_share = self.threshold / self.snakes
        self._grab_share = self.max_grab / MAX_GRAB_LIMIT
        self._seat_orders = tuple(tuple((player + k) % n for k in range(n)) for player in range(n))
        # Who acts, per ``in_round`` (at most 2**8 keys): asked at every grab by players, agents and checks.
        self._acting: dict[tuple[bool, ...], tuple[int, ...]] = {}
        # The splits of each draw (by tokens per seat), which ``chance_outcomes`` weighs by the bag.
        self._split_memo: dict[tuple[int, ...], tuple[tuple[Outcome, int, int, int], ...]] = {}

    # ---- dynamics -------------------------------------------------------------------------
    def initial_state(self) -> EelState:
        n = self.num_players
        return make_state(
            scores=(0,) * n,
            reserves=(0,) * n,
            in_round=(True,) * n,
            bag_eels=self.eels,
            bag_snakes=self.snakes,
            centre=0,
            round_no=1,
            start=0,
            grab_no=0,
            exit_grab=(0,) * n,
            lone_left=None,
            pending=None,
            last=None,
            winners=(),
            over=False,
        )

    def node_kind(self, state: EelState) -> NodeKind:
        if state.over:
            return NodeKind.TERMINAL
        return NodeKind.DECISION if state.pending is None else NodeKind.CHANCE

    def acting_players(self, state: EelState) -> tuple[int, ...]:
        if state.over or state.pending is not None:
            return ()
        acting = self._acting.get(state.in_round)
        if acting is None:
            acting = self._acting[state.in_round] = tuple(p for p, inside in enumerate(state.in_round) if inside)
        return acting

    def legal_actions(self, state: EelState, player: int) -> Sequence[int]:
        if state.over or state.pending is not None or not state.in_round[player]:
            return ()
        return self._legal

    def legal_actions_by_seat(self, state: EelState) -> dict[int, Sequence[int]]:
        return dict.fromkeys(self.acting_players(state), self._legal)

    def _illegal_action_message(self, state: EelState, player: int, action: Any, legal: Sequence[int]) -> str:
        if isinstance(action, bool) or not isinstance(action, int):
            return f"seat {player}: a grab is a whole number of tokens, not {action!r}"
        return (
            f"seat {player}: may grab 0 to {self.max_grab} tokens with {self.num_players} players, "
            f"not {action} (0 exits the round)"
        )

    def _apply(self, state: EelState, moves: Mapping[int, int]) -> EelState:
        counts = [-1] * self.num_players
        for seat, count in moves.items():
            counts[seat] = count
        pending = tuple(counts)
        if max(pending) > 0:
            return _with_pending(state, pending)
        # Nobody draws: every acting player exits and there is nothing left to chance.
        nothing = [0] * self.num_players
        return self._resolve(state, pending, nothing, nothing)

    # ---- resolution of a grab ------------------------------------------------------------
    def _resolve(
        self, state: EelState, counts: tuple[int, ...], eels_drawn: list[int], snakes_drawn: list[int]
    ) -> EelState:
        """The state after a grab: ``counts`` chosen (-1: not in the round), then these draws, per seat."""
        drawn_snakes = sum(snakes_drawn)
        if 0 not in counts and state.centre + drawn_snakes < self.threshold and self.lone_limit is None:
            return self._quiet_grab(state, counts, eels_drawn, snakes_drawn, drawn_snakes)
        n = self.num_players
        dice = self.dice
        grab_no = state.grab_no + 1
        scores = list(state.scores)
        reserves = list(state.reserves)
        in_round = list(state.in_round)
        exit_grab = list(state.exit_grab)
        bag_eels, bag_snakes = state.bag_eels, state.bag_snakes
        scored = [0] * n
        exited = []
        # Exits first: score the reserve, eels back into the bag.
        if 0 in counts:
            for seat in range(n):
                if counts[seat] == 0:
                    held = reserves[seat]
                    scores[seat] += held
                    scored[seat] += held
                    if not dice:
                        bag_eels += held
                    reserves[seat] = 0
                    in_round[seat] = False
                    exit_grab[seat] = 2 * grab_no
                    exited.append(seat)
        # The reveal: eels to reserves, snakes to the centre.
        reserves = [held + got for held, got in zip(reserves, eels_drawn, strict=True)]
        centre = state.centre + drawn_snakes
        if not dice:
            bag_eels -= sum(eels_drawn)
            bag_snakes -= drawn_snakes
        still_in = [p for p in range(n) if in_round[p]]
        outbreak = centre >= self.threshold and bool(still_in)
        losers: tuple[int, ...] = ()
        round_over = False
        lone_left = state.lone_left
        if outbreak:
            sizes = [e + s for e, s in zip(eels_drawn, snakes_drawn, strict=True)]
            losers = self._outbreak_losers(still_in, reserves, sizes)
            keeps_reserve = self._outbreak_scores_reserve
            for seat in still_in:
                if seat in losers:
                    gain = 0
                elif keeps_reserve:
                    gain = reserves[seat]
                else:
                    gain = eels_drawn[seat]
                scores[seat] += gain
                scored[seat] += gain
                exit_grab[seat] = STILL_IN
            round_over = True
        elif not still_in:
            round_over = True
        elif self.lone_limit is not None and len(still_in) == 1:
            lone_left = self.lone_limit if lone_left is None else lone_left - 1
            if lone_left <= 0:
                seat = still_in[0]
                held = reserves[seat]
                scores[seat] += held
                scored[seat] += held
                if not dice:
                    bag_eels += held
                reserves[seat] = 0
                in_round[seat] = False
                # Still in at this grab's reveal, so later than this grab's voluntary exits.
                exit_grab[seat] = 2 * grab_no + 1
                exited.append(seat)
                round_over = True
        result = make_grab_result(
            counts=counts,
            eels=tuple(eels_drawn),
            snakes=tuple(snakes_drawn),
            exited=tuple(exited),
            outbreak=outbreak,
            losers=losers,
            scored=tuple(scored),
            round_over=round_over,
        )
        over, winners = self._game_end(scores, exit_grab, round_over)
        if round_over:
            # At a round's end every token goes back into the bag; nobody is in the round.
            if not over:
                start = (state.start + 1) % n if self.rotate_start else state.start
                return make_state(
                    scores=tuple(scores),
                    reserves=self._nobody,
                    in_round=self._everyone_in,
                    bag_eels=self.eels,
                    bag_snakes=self.snakes,
                    centre=0,
                    round_no=state.round_no + 1,
                    start=start,
                    grab_no=0,
                    exit_grab=self._nobody,
                    lone_left=None,
                    pending=None,
                    last=result,
                    winners=(),
                    over=False,
                )
            # The game is over at this round's end: the tokens are back in the bag, nobody is in.
            reserves, in_round = list(self._nobody), list(self._nobody_in)
            bag_eels, bag_snakes, centre = self.eels, self.snakes, 0
        return make_state(
            scores=tuple(scores),
            reserves=tuple(reserves),
            in_round=tuple(in_round),
            bag_eels=bag_eels,
            bag_snakes=bag_snakes,
            centre=centre,
            round_no=state.round_no,
            start=state.start,
            grab_no=grab_no,
            exit_grab=tuple(exit_grab),
            lone_left=lone_left,
            pending=None,
            last=result,
            winners=winners,
            over=over,
        )

    def _quiet_grab(
        self, state: EelState, counts: tuple[int, ...], eels_drawn: list[int], snakes_drawn: list[int], snakes: int
    ) -> EelState:
        """``_resolve`` for the most common grab: nobody exits, no outbreak, no lone-player count.

        Then nobody scores and who is in stays as it was: only the reserves, the bag and
        the centre change (the same state ``_resolve``'s general path would build).
        """
        bag_eels, bag_snakes = state.bag_eels, state.bag_snakes
        if not self.dice:
            bag_eels -= sum(eels_drawn)
            bag_snakes -= snakes
        result = make_grab_result(
            counts=counts,
            eels=tuple(eels_drawn),
            snakes=tuple(snakes_drawn),
            exited=(),
            outbreak=False,
            losers=(),
            scored=self._nobody,
            round_over=False,
        )
        over, winners = self._game_end(state.scores, state.exit_grab, False)
        return make_state(
            scores=state.scores,
            reserves=tuple([held + got for held, got in zip(state.reserves, eels_drawn, strict=True)]),
            in_round=state.in_round,
            bag_eels=bag_eels,
            bag_snakes=bag_snakes,
            centre=state.centre + snakes,
            round_no=state.round_no,
            start=state.start,
            grab_no=state.grab_no + 1,
            exit_grab=state.exit_grab,
            lone_left=state.lone_left,
            pending=None,
            last=result,
            winners=winners,
            over=over,
        )

    @abstractmethod
    def _outbreak_losers(self, still_in: list[int], reserves: list[int], sizes: list[int]) -> tuple[int, ...]:
        """The seats still in that lose their eels at an outbreak (``sizes``: tokens each seat drew)."""

    @abstractmethod
    def _game_end(
        self, scores: Sequence[int], exit_grab: Sequence[int], round_over: bool
    ) -> tuple[bool, tuple[int, ...]]:
        """Whether the game is over after this grab, and its winners."""

    # ---- results ------------------------------------------------------------------------
    def scores(self, state: EelState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def winners(self, state: EelState) -> tuple[int, ...]:
        return state.winners

    def termination(self, state: EelState) -> Termination | None:
        return Termination.GOAL if state.over else None

    def round_number(self, state: EelState) -> int:
        return state.round_no

    # ---- information --------------------------------------------------------------------
    def public_view(self, state: EelState) -> JsonDict:
        n = self.num_players
        view: JsonDict = {
            "game": self.game_id,
            "players": n,
            "phase": "over" if state.over else ("draw" if state.pending is not None else "grab"),
            "round": state.round_no,
            "grab": state.grab_no + 1 if not state.over else state.grab_no,
            "start_player": state.start,
            "scores": list(state.scores),
            "target": self.target,
            "reserves": list(state.reserves),
            "in_round": list(state.in_round),
            "bag": {"eels": state.bag_eels, "snakes": state.bag_snakes, "dice": self.dice},
            "centre_snakes": state.centre,
            "threshold": self.threshold,
            "max_grab": self.max_grab,
            "chosen": [p for p in range(n) if state.pending is not None and state.pending[p] >= 0],
            "last_grab": grab_json(state.last),
            "over": state.over,
            "winners": list(state.winners),
            "options": dict(self.options),
        }
        return view

    def _private_view(self, state: EelState, player: int) -> JsonDict:
        pending = state.pending
        return {"my_pending_grab": pending[player] if pending is not None and pending[player] >= 0 else None}

    def resample_from_infostate(self, state: EelState, player: int, rng: Rng) -> EelState:
        if state.pending is None:
            return state  # nothing is hidden between grabs
        counts = list(state.pending)
        for seat, count in enumerate(counts):
            if seat != player and count >= 0:
                counts[seat] = rng.randrange(self.max_grab + 1)
        return _with_pending(state, tuple(counts))

    # ---- encodings ----------------------------------------------------------------------
    def action_from_json(self, data: Any) -> int:
        """Any whole number: ``apply`` names the allowed range if it is out of it."""
        if isinstance(data, bool) or not isinstance(data, int):
            raise IllegalActionError(
                _("a grab is a whole number from 0 to {most}, not {value}", most=self.max_grab, value=repr(data))
            )
        return data

    def outcome_to_json(self, outcome: Outcome) -> Any:
        return outcome_to_json(outcome)

    def outcome_from_json(self, data: Any) -> Outcome:
        return outcome_from_json(data, self.num_players)

    def all_actions(self) -> Sequence[int]:
        return self._legal

    def observation_tensor(self, state: EelState, player: int) -> list[float]:
        target, eels, snakes = self.target, self.eels, self.snakes
        scores, reserves, in_round = state.scores, state.reserves, state.in_round
        out: list[float] = []
        for seat in self._seat_orders[player]:  # own seat first
            score = scores[seat]
            # min(score / target, 1.0), without the call
            out += (score / target if score < target else 1.0, reserves[seat] / eels, 1.0 if in_round[seat] else 0.0)
        # Padded to eight seats so every player count has the same layout.
        out += self._observation_padding
        grab_no = state.grab_no
        out += (
            state.bag_eels / eels,
            state.bag_snakes / snakes,
            state.centre / snakes,
            self._threshold_share,
            ((state.start - player) % self.num_players) / 8,
            (grab_no if grab_no < 40 else 40) / 40,
            self._grab_share,
        )
        return out


class WriggleRoulette(EelFamilyGame):
    """Wriggle Roulette: the most eels lose at an outbreak; first to 20 ends the game at once."""

    game_id: ClassVar[str] = "wriggle-roulette"
    title: ClassVar[str] = N_("Wriggle Roulette")
    summary: ClassVar[str] = N_("Grab eels from the bag together; snakes end the round. First to 20 points.")
    rule_set: ClassVar[str] = "wriggle-roulette"
    option_specs: ClassVar[tuple[Option, ...]] = WRIGGLE_ROULETTE_OPTIONS
    preset_specs: ClassVar[tuple[Preset, ...]] = WRIGGLE_ROULETTE_PRESETS
    engine_support: ClassVar[EngineSupport | None] = WRIGGLE_ROULETTE_ENGINES

    def _outbreak_losers(self, still_in: list[int], reserves: list[int], sizes: list[int]) -> tuple[int, ...]:
        most = max(reserves[p] for p in still_in)
        return tuple(p for p in still_in if reserves[p] == most)

    def _game_end(
        self, scores: Sequence[int], exit_grab: Sequence[int], round_over: bool
    ) -> tuple[bool, tuple[int, ...]]:
        if max(scores) < self.target:
            return False, ()
        best = max(scores)
        return True, tuple(p for p, s in enumerate(scores) if s == best)


class EelHarvest(EelFamilyGame):
    """Eel Harvest: the biggest grab loses at an outbreak; the game ends at a round's end."""

    game_id: ClassVar[str] = "eel-harvest"
    title: ClassVar[str] = N_("Eel Harvest")
    summary: ClassVar[str] = N_("Grab eels from the bag together; the greediest hand loses at an outbreak.")
    rule_set: ClassVar[str] = "eel-harvest"
    option_specs: ClassVar[tuple[Option, ...]] = EEL_HARVEST_OPTIONS
    preset_specs: ClassVar[tuple[Preset, ...]] = EEL_HARVEST_PRESETS
    engine_support: ClassVar[EngineSupport | None] = EEL_HARVEST_ENGINES

    def _outbreak_losers(self, still_in: list[int], reserves: list[int], sizes: list[int]) -> tuple[int, ...]:
        most = max(sizes[p] for p in still_in)
        return tuple(p for p in still_in if sizes[p] == most)

    def _game_end(
        self, scores: Sequence[int], exit_grab: Sequence[int], round_over: bool
    ) -> tuple[bool, tuple[int, ...]]:
        if not round_over or max(scores) < self.target:
            return False, ()
        best = max(scores)
        tied = [p for p, s in enumerate(scores) if s == best]
        latest = max(exit_grab[p] for p in tied)
        return True, tuple(p for p in tied if exit_grab[p] == latest)


def _with_pending(state: EelState, pending: tuple[int, ...] | None) -> EelState:
    """``state`` awaiting the draws of ``pending`` (the hottest copy of a grab: one field changed in a list)."""
    values = list(state)
    values[_PENDING] = pending
    return tuple.__new__(EelState, values)


_PENDING = EelState._fields.index("pending")
