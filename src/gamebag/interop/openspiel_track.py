"""The positions behind the OpenSpiel adapter's states: a configured game and immutable tracks.

``SpielConfig`` is one configured game as OpenSpiel sees it (shared by all its states, with
its chance lists); ``Track`` is everything a pyspiel state holds, immutable, with each seat's
information state chained from the track it came from; ``MoveLog`` the moves behind it, for
serialisation by replay (``replay_track`` and ``restore_track`` rebuild pickled tracks).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pyspiel

import gamebag
from gamebag.core.errors import IllegalActionError, OptionError
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.results import leaders_share
from gamebag.core.translation import _
from gamebag.interop.common import ActionCodec, canonical_json, observation_string
from gamebag.interop.openspiel_config import (
    ADAPTER_PARAMETERS,
    CHANCE_CACHE_SIZE,
    SHARED_CHANCE_SIZE,
    LogEntry,
    format_moves,
    game_traits,
    option_value,
    parse_moves,
    positive_int,
)


class SpielConfig:
    """One configured game as OpenSpiel sees it; shared by every state of that game."""

    def __init__(self, game_id: str, params: Mapping[str, Any]) -> None:
        self.game_id = game_id
        self.params = dict(sorted(params.items()))
        specs = {option.name: option for option in gamebag.entry(game_id).game_class.option_specs}
        options = {
            name: option_value(specs[name], value) if name in specs else value
            for name, value in self.params.items()
            if name not in ADAPTER_PARAMETERS
        }
        self.game: Game[Any, Any, Any] = gamebag.make(game_id, self.params.get("players"), **options)
        self.codec = ActionCodec(self.game)
        self.num_players = self.game.num_players
        self.max_game_length = positive_int(self.params, "max_game_length", 1)
        self.branching = positive_int(self.params, "max_chance_outcomes", 2)
        turn_based = self.params.get("turn_based", False)
        if not isinstance(turn_based, bool):
            raise OptionError(_("parameter turn_based must be true or false, not {value}", value=repr(turn_based)))
        self.turn_based = turn_based
        self.perfect_information = game_traits(self.game)[1]
        self._chance_cache: dict[Any, tuple[tuple[Any, float], ...]] = {}
        self._lists_by_state = True
        # Chance lists by the id of the sequence they came from, each held with it (see chance_list).
        self._shared_chance: dict[int, tuple[Sequence[tuple[Any, float]], tuple[tuple[Any, float], ...]]] = {}
        self._digit_lists: dict[int, tuple[tuple[tuple[Any, float], ...], tuple[tuple[int, float], ...]]] = {}
        start = self.params.get("start", "")
        if not isinstance(start, str):
            raise OptionError(
                _("parameter start must be a string of moves (see start_string), not {value}", value=repr(start))
            )
        self.start_entries = parse_moves(start)
        self.initial = Track.initial(self).replayed(self.start_entries, "start").rebased()
        self.observation_size = len(self.game.observation_tensor(self.initial.state, 0))

    def chance_list(self, state: Any) -> tuple[tuple[Any, float], ...]:
        """The outcomes of a chance state with positive probability, as floats.

        A game that hands out the same sequence for many states (a die's faces) has it read
        once; other games' lists are kept per state, for the most recent states (searches
        revisit them).
        """
        by_state = self._chance_cache
        if self._lists_by_state:
            cached = by_state.get(state)
            if cached is not None:
                return cached
        # The game's floats: each the one nearest its exact fraction (games may skip the fractions).
        probabilities = self.game.chance_probabilities(state)
        shared = self._shared_chance.get(id(probabilities))
        if shared is not None and shared[0] is probabilities:  # held here, so its id is not reused
            self._lists_by_state = False  # cheaper to ask the game than to hash the state
            return shared[1]
        cached = tuple([(o, w) for o, w in probabilities if w > 0])
        if isinstance(probabilities, tuple):  # what a game shares is immutable; a fresh list is not kept
            if len(self._shared_chance) >= SHARED_CHANCE_SIZE:
                self._shared_chance.clear()
            self._shared_chance[id(probabilities)] = (probabilities, cached)
        if self._lists_by_state:
            if len(by_state) >= CHANCE_CACHE_SIZE:
                by_state.clear()  # a bound on memory; searches refill it with what they revisit
            by_state[state] = cached
        return cached

    def digit_outcomes(self, outcomes: tuple[tuple[Any, float], ...]) -> tuple[tuple[int, float], ...]:
        """``(position, probability)`` of each outcome of a one-node chance event (kept per list)."""
        kept = self._digit_lists.get(id(outcomes))
        if kept is not None and kept[0] is outcomes:
            return kept[1]
        ids = tuple([(digit, p) for digit, (_outcome, p) in enumerate(outcomes)])
        if self._lists_by_state:  # lists are per state: keeping them would only churn
            return ids
        if len(self._digit_lists) >= SHARED_CHANCE_SIZE:
            self._digit_lists.clear()
        self._digit_lists[id(outcomes)] = (outcomes, ids)
        return ids

    @property
    def sequential(self) -> bool:
        """Whether OpenSpiel sees one seat choosing at a time (by the game's nature or ``turn_based``)."""
        return self.turn_based or game_traits(self.game)[0]


_CONFIGS: dict[tuple[str, tuple[tuple[str, Any], ...]], SpielConfig] = {}


def config_for(game_id: str, params: Mapping[str, Any]) -> SpielConfig:
    key = (game_id, tuple(sorted(params.items())))
    config = _CONFIGS.get(key)
    if config is None:
        config = _CONFIGS[key] = SpielConfig(game_id, params)
    return config


# ---- the immutable position behind a pyspiel state -----------------------------------------
class MoveLog:
    """A persistent list of moves, for serialisation by replay."""

    __slots__ = ("entry", "previous")

    def __init__(self, entry: LogEntry, previous: MoveLog | None) -> None:
        self.entry = entry
        self.previous = previous

    @staticmethod
    def entries(log: MoveLog | None) -> list[LogEntry]:
        out: list[LogEntry] = []
        while log is not None:
            out.append(log.entry)
            log = log.previous
        out.reverse()
        return out


def _digest(previous: bytes, item: str) -> bytes:
    return hashlib.blake2b(previous + item.encode("utf-8"), digest_size=16).digest()


class Track:
    """Everything a pyspiel state holds, immutable: transitions return new tracks.

    A track knows the track it came from (``parent``) and what the seats did to get
    here (``acted``), so each seat's information state is computed only when asked,
    once per track and seat, and chained from the parent's: a 128-bit digest of the
    seat's observations (each written when it changes) and its own actions, in order.
    Cloning a pyspiel state deep-copies its attributes; a track is its own copy.
    Pickling (OpenSpiel's serialisation of Python states) writes the move log and
    replays it when loaded; a resampled track, which has no moves behind it, writes
    its state instead.
    """

    __slots__ = (
        "_acting",
        "_chance",
        "_chance_ids",
        "_choosing",
        "_current",
        "_keys",
        "_kind",
        "_legal",
        "_observed",
        "_terminal",
        "acted",
        "config",
        "decisions",
        "digits",
        "log",
        "parent",
        "pending",
        "replayable",
        "state",
    )

    def __init__(
        self,
        config: SpielConfig,
        state: Any,
        decisions: int,
        *,
        parent: Track | None = None,
        acted: tuple[tuple[int, int], ...] = (),
        digits: tuple[int, ...] = (),
        pending: tuple[tuple[int, int], ...] = (),
        log: MoveLog | None = None,
        replayable: bool = True,
        chance: Sequence[tuple[Any, float]] | None = None,
    ) -> None:
        self.config = config
        self.state = state
        self.decisions = decisions
        self.parent = parent
        self.acted = acted
        self.digits = digits
        self.pending = pending
        self.log = log
        self.replayable = replayable
        self._chance = chance
        self._chance_ids: Sequence[tuple[int, float]] | None = None
        self._legal: dict[int, list[int]] = {}
        kind = self._kind = config.game.node_kind(state)
        self._terminal = kind is NodeKind.TERMINAL or (
            kind is NodeKind.DECISION and decisions >= config.max_game_length and not pending
        )
        self._acting: tuple[int, ...] | None = None
        self._choosing: tuple[int, ...] | None = None
        self._current: int | None = None
        self._keys: list[bytes | None] = [None] * config.num_players
        self._observed: list[str | None] = [None] * config.num_players

    @classmethod
    def initial(cls, config: SpielConfig) -> Track:
        return cls(config, config.game.initial_state(), 0)

    def __deepcopy__(self, memo: dict[int, Any]) -> Track:
        return self

    def replayed(self, entries: Sequence[LogEntry], what: str = "move log") -> Track:
        """The track after ``entries``; a move that is not possible is an ``OptionError``."""
        track = self
        for number, entry in enumerate(entries, start=1):
            try:
                if isinstance(entry, int):
                    track = track.with_chance(entry)
                elif track.config.turn_based and len(entry) == 1 and track.simultaneous:
                    track = track.with_turn(*entry[0])
                else:
                    track = track.with_joint(dict(entry))
            except IllegalActionError as error:
                raise OptionError(
                    _("{what}: move {number} ({move}) is not possible: {reason}", what=what, number=number,
                      move=format_moves([entry]), reason=error)
                ) from None
        return track

    def rebased(self) -> Track:
        """This position as the root of a game: no decisions, moves or history yet."""
        return Track(self.config, self.state, 0, digits=self.digits, pending=self.pending, chance=self._chance)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        config = self.config
        params = tuple(config.params.items())
        if self.replayable:
            return (replay_track, (config.game_id, params, tuple(MoveLog.entries(self.log))))
        return (restore_track, (config.game_id, params, self.state, self.decisions, self.digits, self.pending))

    # ---- what the node is --------------------------------------------------------------
    @property
    def is_chance(self) -> bool:
        return self._kind is NodeKind.CHANCE

    def acting(self) -> tuple[int, ...]:
        """The seats that choose at this decision node in the game's own terms (asked once)."""
        acting = self._acting
        if acting is None:
            acting = self._acting = (
                tuple(self.config.game.acting_players(self.state)) if self._kind is NodeKind.DECISION else ()
            )
        return acting

    @property
    def simultaneous(self) -> bool:
        """Whether several seats choose at this decision node (in the game's own terms)."""
        return len(self.acting()) > 1

    @property
    def truncated(self) -> bool:
        return self.decisions >= self.config.max_game_length and self._kind is NodeKind.DECISION and not self.pending

    def is_terminal(self) -> bool:
        return self._terminal

    def choosing(self) -> tuple[int, ...]:
        """The seats that choose now as OpenSpiel sees it (one seat in turn-based play)."""
        choosing = self._choosing
        if choosing is None:
            choosing = ()
            if self._kind is NodeKind.DECISION and not self._terminal:
                choosing = self.acting()
                if self.config.turn_based and len(choosing) > 1:
                    done = {seat for seat, _action in self.pending}
                    choosing = tuple(seat for seat in choosing if seat not in done)[:1]
            self._choosing = choosing
        return choosing

    def current_player(self) -> int:
        current = self._current
        if current is None:
            if self.is_terminal():
                current = int(pyspiel.PlayerId.TERMINAL)
            elif self._kind is NodeKind.CHANCE:
                current = int(pyspiel.PlayerId.CHANCE)
            else:
                choosing = self.choosing()
                current = choosing[0] if len(choosing) == 1 else int(pyspiel.PlayerId.SIMULTANEOUS)
            self._current = current
        return current

    def legal_actions(self, player: int) -> list[int]:
        legal = self._legal.get(player)
        if legal is None:
            legal = self._legal[player] = (
                list(self.config.codec.indices_of(self.config.game.legal_actions(self.state, player)))
                if player in self.choosing()
                else []
            )
        return legal

    def returns(self) -> list[float]:
        game = self.config.game
        if game.is_terminal(self.state):
            return [float(r) for r in game.returns(self.state)]
        if self.truncated:
            # Stopped before the rules' end: the best score in the game's direction takes the win.
            return list(leaders_share(game.scores(self.state), game.score_sign()))
        return [0.0] * self.config.num_players

    # ---- chance ------------------------------------------------------------------------
    def chance_list(self) -> Sequence[tuple[Any, float]]:
        """The event's outcomes with positive probability, in the game's order (cached)."""
        if self._chance is None:
            self._chance = self.config.chance_list(self.state)
        return self._chance

    def _depth(self) -> int:
        """How many chance nodes the current event takes (digits in base ``branching``)."""
        count, base, depth = len(self.chance_list()), self.config.branching, 1
        while base**depth < count:
            depth += 1
        return depth

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The ids of the next digit with their conditional probabilities (floats; a fresh list)."""
        ids = self._chance_ids
        if ids is None:
            ids = self._chance_ids = self._digit_outcomes()
        return list(ids)

    def _digit_outcomes(self) -> Sequence[tuple[int, float]]:
        outcomes = self.chance_list()
        base, depth = self.config.branching, self._depth()
        if depth == 1:
            return self.config.digit_outcomes(tuple(outcomes))
        span = base ** (depth - len(self.digits) - 1)  # outcomes covered by one value of the next digit
        start = 0
        for digit in self.digits:
            start = start * base + digit
        start *= span * base
        groups: list[tuple[int, float]] = []
        for digit in range(base):
            low = start + digit * span
            if low >= len(outcomes):
                break
            weight = sum(p for _outcome, p in outcomes[low : low + span])
            if weight > 0:
                groups.append((digit, weight))
        total = sum(w for _group, w in groups)
        return [(digit, weight / total) for digit, weight in groups]

    def with_chance(self, digit: int) -> Track:
        outcomes = self.chance_list()
        if len(outcomes) <= self.config.branching:  # one chance node: the id is the outcome's position
            if not 0 <= digit < len(outcomes):  # every listed outcome has a positive probability
                raise IllegalActionError(f"chance id {digit} is not a possible outcome here")
            state = self.config.game._apply_chance(self.state, outcomes[digit][0])  # an outcome of its own list
            return Track(
                self.config,
                state,
                self.decisions,
                parent=self,
                log=MoveLog(digit, self.log),
                replayable=self.replayable,
            )
        depth = self._depth()
        possible = (
            0 <= digit < len(self.chance_list())
            if depth == 1  # every listed outcome has a positive probability
            else digit in {d for d, _weight in self.chance_outcomes()}
        )
        if not possible:
            raise IllegalActionError(f"chance id {digit} is not a possible outcome here")
        digits = (*self.digits, digit)
        log = MoveLog(digit, self.log)
        if len(digits) < depth:
            return Track(
                self.config,
                self.state,
                self.decisions,
                parent=self,
                digits=digits,
                log=log,
                replayable=self.replayable,
                chance=self._chance,
            )
        index = 0
        for d in digits:
            index = index * self.config.branching + d
        outcome = self.chance_list()[index][0]
        state = self.config.game._apply_chance(self.state, outcome)  # an outcome of its own list
        return Track(self.config, state, self.decisions, parent=self, log=log, replayable=self.replayable)

    def chance_description(self, digit: int) -> str:
        depth = self._depth()
        if depth == 1 and 0 <= digit < len(self.chance_list()):
            outcome = self.chance_list()[digit][0]
            return "chance " + canonical_json(self.config.game.outcome_to_json(outcome))
        return f"chance part {len(self.digits) + 1} of {depth}: {digit}"

    # ---- decisions ---------------------------------------------------------------------
    def _checked(self, seat: int, index: int) -> Any:
        legal = self.legal_actions(seat)
        if index not in legal:
            raise IllegalActionError(
                f"seat {seat}: action id {index} is not legal here; legal ids: {', '.join(map(str, legal))}"
            )
        return self.config.codec.actions[index]

    def with_joint(self, joint: Mapping[int, int]) -> Track:
        choosing = self.choosing()
        if self.config.turn_based and len(choosing) == 1 and self.simultaneous:
            seat = choosing[0]
            if seat not in joint:
                raise IllegalActionError(f"seat {seat} chooses now")
            return self.with_turn(seat, joint[seat])
        missing = [seat for seat in choosing if seat not in joint]
        if missing or not choosing:
            raise IllegalActionError(
                f"seat(s) {', '.join(map(str, missing))} also choose at this node" if missing else "nobody chooses now"
            )
        moves = {seat: self._checked(seat, joint[seat]) for seat in choosing}
        return self._after(moves, tuple((seat, joint[seat]) for seat in choosing))

    def with_move(self, seat: int, index: int) -> Track:
        """The one choice OpenSpiel applies at a player node (a turn, or one seat's part in turn-based play)."""
        if self.config.turn_based and self.simultaneous:
            return self.with_turn(seat, index)
        choosing = self.choosing()
        if choosing != (seat,):
            return self.with_joint({seat: index})  # it names what is missing
        return self._after({seat: self._checked(seat, index)}, ((seat, index),))

    def _after(self, moves: dict[int, Any], chosen: tuple[tuple[int, int], ...]) -> Track:
        """The track one decision further: ``moves`` (checked against the legal ids) applied."""
        state = self.config.game._apply_unchecked(self.state, moves)
        return Track(
            self.config,
            state,
            self.decisions + 1,
            parent=self,
            acted=chosen,
            log=MoveLog(chosen, self.log),
            replayable=self.replayable,
        )

    def with_turn(self, seat: int, index: int) -> Track:
        """One seat's part of a simultaneous node in turn-based play; the last one reveals them all."""
        action = self._checked(seat, index)
        pending = (*self.pending, (seat, index))
        log = MoveLog(((seat, index),), self.log)
        if len(pending) < len(self.acting()):
            return Track(
                self.config,
                self.state,
                self.decisions,
                parent=self,
                acted=((seat, index),),
                pending=pending,
                log=log,
                replayable=self.replayable,
            )
        codec = self.config.codec
        moves = {p: codec.action(i) for p, i in self.pending}
        moves[seat] = action
        state = self.config.game._apply_unchecked(self.state, moves)  # checked against the legal ids above
        return Track(
            self.config,
            state,
            self.decisions + 1,
            parent=self,
            acted=((seat, index),),
            log=log,
            replayable=self.replayable,
        )

    # ---- information -------------------------------------------------------------------
    def observed(self, seat: int) -> str:
        """The seat's observation as canonical JSON (cached; shared with the parent when the state is)."""
        text = self._observed[seat]
        if text is None:
            parent = self.parent
            if parent is not None and parent.state is self.state:
                text = parent.observed(seat)
            else:
                text = observation_string(self.config.game, self.state, seat)
            self._observed[seat] = text
        return text

    def _items(self, seat: int) -> list[str]:
        """What this track adds to the seat's history: its own actions, then a changed observation.

        In a game of perfect information every seat sees every move and chance outcome, so the
        move that led here is the whole addition, the same for every seat: no observation needs
        writing out.
        """
        codec = self.config.codec
        if self.config.perfect_information:
            if self.parent is None or self.log is None:
                return []
            entry = self.log.entry
            if isinstance(entry, int):
                return [f"c {entry}"]
            return ["m " + " ".join(f"{who}:{codec.describe(index)}" for who, index in entry)]
        items = [f"a {codec.describe(index)}" for who, index in self.acted if who == seat]
        parent = self.parent
        changed = parent is None or (parent.state is not self.state and self.observed(seat) != parent.observed(seat))
        if changed:
            items.append("o " + self.observed(seat))
        return items

    def info_key(self, seat: int) -> bytes:
        """The seat's information state as a 128-bit digest (computed once per track and seat)."""
        key = self._keys[seat]
        if key is not None:
            return key
        chain: list[Track] = []
        node: Track | None = self
        while node is not None and node._keys[seat] is None:
            chain.append(node)
            node = node.parent
        cached = node._keys[seat] if node is not None else None  # the nearest ancestor already keyed
        running = cached if cached is not None else f"seat {seat}".encode()
        for track in reversed(chain):  # root first
            for item in track._items(seat):
                running = _digest(running, item)
            track._keys[seat] = running
        return running

    def history(self, seat: int) -> list[str]:
        """The seat's information state written out: its observations and its own actions, in order."""
        chain: list[Track] = []
        node: Track | None = self
        while node is not None:
            chain.append(node)
            node = node.parent
        return [item for track in reversed(chain) for item in track._items(seat)]

    def resampled(self, player: int, rng: random.Random) -> Track:
        """A position ``player`` cannot tell from this one, with the same information state.

        The game draws the hidden state (``resample_from_infostate``); choices other seats
        have already made at a turn-based simultaneous node are hidden from ``player`` too and
        are drawn uniformly from their legal actions. The other seats' histories start at
        the sampled position.
        """
        if self.digits or self._kind is not NodeKind.DECISION:
            return self
        game, codec = self.config.game, self.config.codec
        state = game.resample_from_infostate(self.state, player, rng)
        pending = tuple(
            (seat, index if seat == player else rng.choice(codec.legal_indices(state, seat)))
            for seat, index in self.pending
        )
        track = Track(self.config, state, self.decisions, pending=pending, replayable=False)
        track._keys[player] = self.info_key(player)
        track._observed[player] = self.observed(player)
        return track

    def describe(self) -> str:
        text = repr(self.state)
        if self.digits:
            text += f"\nchance digits so far: {list(self.digits)}"
        if self.pending:
            text += f"\nseats that have chosen (hidden until all have): {[seat for seat, _action in self.pending]}"
        if self.truncated and not self.config.game.is_terminal(self.state):
            text += f"\nstopped after {self.decisions} decisions (max_game_length)"
        return text


def replay_track(game_id: str, params: tuple[tuple[str, Any], ...], entries: tuple[LogEntry, ...]) -> Track:
    """Rebuild a track from its move log (the inverse of ``Track.__reduce__``)."""
    return config_for(game_id, dict(params)).initial.replayed(entries)


def restore_track(
    game_id: str,
    params: tuple[tuple[str, Any], ...],
    state: Any,
    decisions: int,
    digits: tuple[int, ...],
    pending: tuple[tuple[int, int], ...],
) -> Track:
    """Rebuild a resampled track from its state (its history starts there)."""
    config = config_for(game_id, dict(params))
    return Track(config, state, decisions, digits=digits, pending=pending, replayable=False)
