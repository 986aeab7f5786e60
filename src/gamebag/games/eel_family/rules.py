"""Rules of the Eel Harvest family: ``eel-harvest`` and ``wriggle-roulette``.

One engine, two rule sets (see ``rulings.md``, Eel Harvest family). A grab is a
decision node where every player still in the round chooses a count at once;
the draws that follow are one chance node whose outcome gives, for each seat
that drew, the tokens it drew in draw order (``"EES"``). Exits (count 0) resolve
at the reveal, before the draws take tokens from the bag, so the eels an exiting
player returns can be drawn in the same grab; they resolve before the outbreak
check, so an exiting player is never hit by that outbreak.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import product
from math import comb
from typing import Any, ClassVar, NamedTuple

from gamebag.core.engines import EngineSupport
from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError, OptionError
from gamebag.core.options import Option
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.rng import Rng
from gamebag.core.traits import Information, Moves, Termination, Traits
from gamebag.games.eel_family.encoding import grab_json, outcome_from_json, outcome_to_json
from gamebag.games.eel_family.options import (
    EEL_HARVEST_ENGINES,
    EEL_HARVEST_OPTIONS,
    EELS,
    MAX_GRAB_LIMIT,
    SNAKE_THRESHOLD,
    SNAKES,
    TARGET,
    WRIGGLE_ROULETTE_ENGINES,
    WRIGGLE_ROULETTE_OPTIONS,
    default_max_grab,
)

# A player still in the round when it ends exits "last" for the eel-harvest tie-break.
STILL_IN = 1_000_000
# Distinct draw sizes whose splits a configured game keeps (a game meets a few hundred at most).
CHANCE_MEMO_SIZE = 4096

Outcome = tuple[str, ...]  # per seat, the tokens drawn in order; "" for seats that drew nothing


class GrabResult(NamedTuple):
    """What the last grab revealed, per seat (public once revealed).

    A named tuple, like ``EelState``: immutable and hashable, and built in one call.
    """

    counts: tuple[int, ...]  # chosen count, -1 for seats not in the round
    eels: tuple[int, ...]  # eels each seat drew (the order of a hand does not matter once revealed)
    snakes: tuple[int, ...]
    exited: tuple[int, ...]
    outbreak: bool
    losers: tuple[int, ...]  # seats that lost their eels in an outbreak
    scored: tuple[int, ...]  # points each seat scored in this grab
    round_over: bool


class EelState(NamedTuple):
    """A position. ``pending`` holds the chosen counts while the draws are awaited.

    A named tuple: immutable and hashable like a frozen dataclass, and built in one
    call, which matters because every grab builds two (change fields with ``_replace``).
    """

    scores: tuple[int, ...]
    reserves: tuple[int, ...]
    in_round: tuple[bool, ...]
    bag_eels: int
    bag_snakes: int
    centre: int
    round_no: int
    start: int
    grab_no: int
    # When each seat left the current round, as an order key (0: still in): 2g for an exit by
    # choosing 0 in grab g, 2g + 1 for the automatic lone-player exit after grab g's reveal.
    exit_grab: tuple[int, ...]
    lone_left: int | None  # grabs left to a lone player under ``lone_player_grabs``
    pending: tuple[int, ...] | None
    last: GrabResult | None
    winners: tuple[int, ...]
    over: bool


class EelFamilyGame(Game[EelState, int, Outcome]):
    """The engine shared by both rule sets; subclasses choose the outbreak and end rules."""

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 4
    version: ClassVar[str] = "1.0"
    rule_set: ClassVar[str]
    # Everyone still in chooses a count at once; between the choice and the reveal the others' counts are hidden.
    traits: ClassVar[Traits] = Traits(Moves.SIMULTANEOUS, Information.HIDDEN, chance=True)

    def _configure(self) -> None:
        n = self.num_players
        self.eels = _int_option(self.options, "eels", EELS)
        self.snakes = _int_option(self.options, "snakes", SNAKES)
        self.target = _int_option(self.options, "target", TARGET)
        self.max_grab = _int_option(self.options, "max_grab", default_max_grab(n))
        self.threshold = _int_option(self.options, "outbreak_snakes", SNAKE_THRESHOLD[n])
        if self.threshold > self.snakes:
            # Otherwise a round could never end by an outbreak, and a drawn-out bag would not end it either.
            raise OptionError(
                f"option 'outbreak_snakes': {self.threshold} snakes cannot make an outbreak with only "
                f"{self.snakes} snakes in the bag; allowed: 1 to {self.snakes} (option 'snakes'), or none "
                f"for the rulebook's table ({SNAKE_THRESHOLD[n]} with {n} players)"
            )
        self.dice = self.options.get("draw", "bag") == "dice"
        self.rotate_start = bool(self.options.get("rotate_start", False))
        lone = self.options.get("lone_player_grabs")
        self.lone_limit: int | None = lone if isinstance(lone, int) else None
        self.scores_reserve_on_outbreak = bool(self.options.get("outbreak_scores_reserve", False))
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
        return EelState(
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

    def _draw_sizes(self, state: EelState, pending: Sequence[int]) -> list[int]:
        """How many tokens each seat actually draws, in draw order from the start player."""
        sizes = [0] * self.num_players
        if self.dice:
            return [max(c, 0) for c in pending]
        left = state.bag_eels + state.bag_snakes + sum(state.reserves[p] for p, c in enumerate(pending) if c == 0)
        for offset in range(self.num_players):
            seat = (state.start + offset) % self.num_players
            take = min(max(pending[seat], 0), left)
            sizes[seat] = take
            left -= take
        return sizes

    def _bag_after_exits(self, state: EelState, pending: Sequence[int]) -> tuple[int, int]:
        if 0 not in pending:
            return state.bag_eels, state.bag_snakes
        returned = sum(held for held, count in zip(state.reserves, pending, strict=True) if count == 0)
        return state.bag_eels + returned, state.bag_snakes

    def _pending_draw(self, state: EelState) -> tuple[int, int, int, tuple[tuple[Outcome, int, int, int], ...]] | None:
        """The bag (eels, snakes) the pending draw comes from, the number of tokens drawn and
        the splits of that draw over the seats; None where nothing is to be drawn."""
        if state.pending is None or state.over:
            return None
        sizes = self._draw_sizes(state, state.pending)
        eels, snakes = self._bag_after_exits(state, state.pending)
        return eels, snakes, sum(sizes), self._splits(tuple(sizes))

    def chance_outcomes(self, state: EelState) -> list[tuple[Outcome, Fraction]]:
        draw = self._pending_draw(state)
        if draw is None:
            return []
        eels, snakes, total_drawn, splits = draw
        if self.dice:
            every = 4**total_drawn
            return [(drawn, Fraction(ways * 3**e, every)) for drawn, ways, s, e in splits]
        by_snakes, by_eels = _fallings(snakes, total_drawn), _fallings(eels, total_drawn)
        every = _falling(eels + snakes, total_drawn)
        return [
            (drawn, Fraction(ways * by_snakes[s] * by_eels[e], every))
            for drawn, ways, s, e in splits
            if s <= snakes and e <= eels
        ]

    def chance_probabilities(self, state: EelState) -> list[tuple[Outcome, float]]:
        draw = self._pending_draw(state)
        if draw is None:
            return []
        eels, snakes, total_drawn, splits = draw
        # Integer true division is correctly rounded: each float is the one nearest the exact fraction.
        # The weight of a split's bag part depends only on its snake count, so it is found once per count.
        if self.dice:
            every = 4**total_drawn
            weight = [3 ** (total_drawn - s) for s in range(total_drawn + 1)]
            return [(drawn, ways * weight[s] / every) for drawn, ways, s, e in splits]
        by_snakes, by_eels = _fallings(snakes, total_drawn), _fallings(eels, total_drawn)
        every = _falling(eels + snakes, total_drawn)
        weight = [by_snakes[s] * by_eels[total_drawn - s] for s in range(total_drawn + 1)]
        return [(drawn, ways * weight[s] / every) for drawn, ways, s, e in splits if s <= snakes and e <= eels]

    def _splits(self, sizes: tuple[int, ...]) -> tuple[tuple[Outcome, int, int, int], ...]:
        """Every split of a draw of ``sizes`` tokens per seat, in the order ``chance_outcomes`` lists them:
        the outcome, its number of orderings, and the snakes and eels it holds (kept per ``sizes``)."""
        splits = self._split_memo.get(sizes)
        if splits is not None:
            return splits
        total_drawn = sum(sizes)
        drawers = [p for p in range(self.num_players) if sizes[p] > 0]
        found: list[tuple[Outcome, int, int, int]] = []
        for snake_counts in product(*(range(sizes[p] + 1) for p in drawers)):
            s_total = sum(snake_counts)
            ways = 1
            for p, s in zip(drawers, snake_counts, strict=True):
                ways *= comb(sizes[p], s)
            drawn = [""] * self.num_players
            for p, s in zip(drawers, snake_counts, strict=True):
                drawn[p] = "E" * (sizes[p] - s) + "S" * s
            found.append((tuple(drawn), ways, s_total, total_drawn - s_total))
        if len(self._split_memo) >= CHANCE_MEMO_SIZE:
            self._split_memo.clear()  # a bound on memory; play refills it with the common draws
        splits = self._split_memo[sizes] = tuple(found)
        return splits

    def sample_chance(self, state: EelState, rng: Rng) -> Outcome:
        if state.pending is None or state.over:
            raise IllegalChanceOutcomeError("no draw is awaited now")
        pending = state.pending
        n = self.num_players
        drawn = [""] * n
        random = rng.random
        if self.dice:
            for seat in range(n):
                drawn[seat] = "".join("S" if random() < 0.25 else "E" for _ in range(max(pending[seat], 0)))
            return tuple(drawn)
        eels, snakes = self._bag_after_exits(state, pending)
        for offset in range(n):
            seat = (state.start + offset) % n
            want = pending[seat]
            if want <= 0:
                continue
            tokens = []
            for _ in range(want):
                left = eels + snakes
                if left == 0:
                    break
                if random() * left < snakes:
                    snakes -= 1
                    tokens.append("S")
                else:
                    eels -= 1
                    tokens.append("E")
            drawn[seat] = "".join(tokens)
        return tuple(drawn)

    def advance_chance(self, state: EelState, rng: Rng) -> EelState:
        """``sample_chance`` and ``_apply_chance`` in one, counting tokens instead of spelling them.

        The same draws from ``rng`` in the same order as ``sample_chance``, so the same state.
        """
        pending = state.pending
        if pending is None or state.over:
            raise IllegalChanceOutcomeError("no draw is awaited now")
        n = self.num_players
        eels_drawn = [0] * n
        snakes_drawn = [0] * n
        random = rng.random
        if self.dice:
            for seat in range(n):
                for _ in range(pending[seat]):  # no draws for -1 (not in the round) or 0
                    if random() < 0.25:
                        snakes_drawn[seat] += 1
                    else:
                        eels_drawn[seat] += 1
            return self._resolve(state, pending, eels_drawn, snakes_drawn)
        eels, snakes = self._bag_after_exits(state, pending)
        start = state.start
        for offset in range(n):
            seat = (start + offset) % n
            want = pending[seat]
            if want <= 0:
                continue
            got_eels = got_snakes = 0
            for _ in range(want):
                left = eels + snakes
                if left == 0:
                    break
                if random() * left < snakes:
                    snakes -= 1
                    got_snakes += 1
                else:
                    eels -= 1
                    got_eels += 1
            eels_drawn[seat] = got_eels
            snakes_drawn[seat] = got_snakes
        return self._resolve(state, pending, eels_drawn, snakes_drawn)

    def _check_outcome(self, state: EelState, outcome: Any) -> None:
        """Check the draws directly: a grab's outcomes can number hundreds of thousands."""
        assert state.pending is not None  # a chance node always has pending counts
        if not isinstance(outcome, tuple) or len(outcome) != self.num_players:
            raise IllegalChanceOutcomeError("a draw outcome gives the tokens drawn by each seat")
        sizes = self._draw_sizes(state, state.pending)
        eels, snakes = self._bag_after_exits(state, state.pending)
        total_snakes = 0
        for seat, tokens in enumerate(outcome):
            if not isinstance(tokens, str) or tokens.strip("ES"):
                raise IllegalChanceOutcomeError(f"seat {seat}: drawn tokens are written with E and S, not {tokens!r}")
            if len(tokens) != sizes[seat]:
                chosen = state.pending[seat]
                why = (
                    f"it chose {chosen} and the bag holds enough"
                    if sizes[seat] == chosen
                    else f"it chose {chosen} and only {sizes[seat]} token(s) were left in the bag"
                    if chosen > 0
                    else "it did not draw"
                )
                raise IllegalChanceOutcomeError(
                    f"seat {seat} must draw exactly {sizes[seat]} token(s) ({why}), not {len(tokens)}"
                )
            total_snakes += tokens.count("S")
        if not self.dice:
            total_eels = sum(sizes) - total_snakes
            if total_snakes > snakes:
                raise IllegalChanceOutcomeError(f"the draws hold {total_snakes} snakes but the bag holds only {snakes}")
            if total_eels > eels:
                raise IllegalChanceOutcomeError(f"the draws hold {total_eels} eels but the bag holds only {eels}")

    def _apply_chance(self, state: EelState, outcome: Outcome) -> EelState:
        assert state.pending is not None  # a chance node always has pending counts
        snakes_drawn = [tokens.count("S") for tokens in outcome]
        eels_drawn = [len(tokens) - s for tokens, s in zip(outcome, snakes_drawn, strict=True)]
        return self._resolve(state, state.pending, eels_drawn, snakes_drawn)

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
        result = GrabResult(
            counts, tuple(eels_drawn), tuple(snakes_drawn), tuple(exited), outbreak, losers, tuple(scored), round_over
        )
        over, winners = self._game_end(scores, exit_grab, round_over)
        if round_over:
            # At a round's end every token goes back into the bag; nobody is in the round.
            if not over:
                start = (state.start + 1) % n if self.rotate_start else state.start
                return EelState(
                    tuple(scores),
                    self._nobody,
                    self._everyone_in,
                    self.eels,
                    self.snakes,
                    0,
                    state.round_no + 1,
                    start,
                    0,
                    self._nobody,
                    None,
                    None,
                    result,
                    (),
                    False,
                )
            return EelState(
                tuple(scores),
                self._nobody,
                self._nobody_in,
                self.eels,
                self.snakes,
                0,
                state.round_no,
                state.start,
                grab_no,
                tuple(exit_grab),
                lone_left,
                None,
                result,
                winners,
                over,
            )
        return EelState(
            tuple(scores),
            tuple(reserves),
            tuple(in_round),
            bag_eels,
            bag_snakes,
            centre,
            state.round_no,
            state.start,
            grab_no,
            tuple(exit_grab),
            lone_left,
            None,
            result,
            winners,
            over,
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
        result = GrabResult(counts, tuple(eels_drawn), tuple(snakes_drawn), (), False, (), self._nobody, False)
        over, winners = self._game_end(state.scores, state.exit_grab, False)
        return EelState(
            state.scores,
            tuple([held + got for held, got in zip(state.reserves, eels_drawn, strict=True)]),
            state.in_round,
            bag_eels,
            bag_snakes,
            state.centre + snakes,
            state.round_no,
            state.start,
            state.grab_no + 1,
            state.exit_grab,
            state.lone_left,
            None,
            result,
            winners,
            over,
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
            raise IllegalActionError(f"a grab is a whole number from 0 to {self.max_grab}, not {data!r}")
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
    title: ClassVar[str] = "Wriggle Roulette"
    summary: ClassVar[str] = "Grab eels from the bag together; snakes end the round. First to 20 points."
    rule_set: ClassVar[str] = "wriggle-roulette"
    option_specs: ClassVar[tuple[Option, ...]] = WRIGGLE_ROULETTE_OPTIONS
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
    title: ClassVar[str] = "Eel Harvest"
    summary: ClassVar[str] = "Grab eels from the bag together; the greediest hand loses at an outbreak."
    rule_set: ClassVar[str] = "eel-harvest"
    option_specs: ClassVar[tuple[Option, ...]] = EEL_HARVEST_OPTIONS
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


def _int_option(options: Mapping[str, Any], name: str, default: int) -> int:
    """An integer option's value, or ``default`` where it is unset (none: the rulebook's number)."""
    value = options.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


def _fallings(n: int, most: int) -> list[int]:
    """``_falling(n, k)`` for ``k`` from 0 to ``most``."""
    out = [1]
    for i in range(most):
        out.append(out[-1] * (n - i))
    return out


def _with_pending(state: EelState, pending: tuple[int, ...] | None) -> EelState:
    """``state`` awaiting the draws of ``pending`` (the hottest copy of a grab: one field changed in a list)."""
    values = list(state)
    values[_PENDING] = pending
    return tuple.__new__(EelState, values)


_PENDING = EelState._fields.index("pending")
