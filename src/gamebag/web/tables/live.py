"""A table in play on the server: its ``Match``, its seats, and durable submissions.

``LiveTable.submit`` is the single door through which any action (a person's, a
bot's, a timed-out seat's default) enters a game: it decodes and checks the
action, commits it to the database, and only then lets the caller tell anyone.
If the commit fails the in-memory match is put back as it was.

A table also keeps what its readers' recent history needs (``history_json``): the
state before each event since the first of its last ``HISTORY_STEPS`` decisions (every
roll and draw gets its line in the log), noted as the game moves on, and each reader's
views of them, serialized once; a full sync never replays the game. The same states give
the views between the events of the latest change (``trail_views``).
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import gamebag
from gamebag.core.errors import IllegalActionError
from gamebag.core.match import Match
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.records import apply_event
from gamebag.web.store.db import Also, SeatConfig, Store, StoredTable, TableConfig
from gamebag.web.tables.coachsetting import CoachSetting
from gamebag.web.words.text import _

HISTORY_STEPS = 40  # steps of history in a full sync (hello, sync)


class SeatError(ValueError):
    """A request that names a seat or token this table does not have."""


@dataclass(frozen=True)
class Submission:
    """What an accepted action did: the record events it caused (empty for a secret choice)."""

    seat: int
    events: tuple[JsonDict, ...]
    step: int


@dataclass(frozen=True)
class Staged:
    """An action checked and worked out but not yet committed: what the table becomes with it."""

    seat: int
    action_json: Any
    events: tuple[JsonDict, ...]
    first: int  # the index of its first event (the step it was made at)
    state: Any
    pending: dict[int, Any]


class LiveTable:
    """One table rebuilt in memory, with its match and seat tokens.

    ``lock`` is held from staging an action until it is applied, so that the actions of
    one table are committed one at a time, in order, while other tables go on.
    """

    def __init__(
        self,
        config: TableConfig,
        game: Game[Any, Any, Any],
        match: Match,
        marks: Iterable[tuple[int, Any, bool]] | None = None,
    ) -> None:
        self.config = config
        self.game = game
        self.match = match
        self.lock = asyncio.Lock()
        self._seat_by_token = {seat.token: seat.seat for seat in config.seats if seat.claimed}
        # The state before each event since the first of the last decisions (event index,
        # state, whether a decision), for the history; None until first needed when the caller
        # did not give them (``rebuild`` does).
        self._marks: deque[tuple[int, Any, bool]] | None = None
        self._decisions = 0  # decisions among the marks
        if marks is not None:
            self._marks = deque()
            for mark in marks:
                self._note(self._marks, mark)
        # Each reader's views of those states (JSON text by event index), and of the current state.
        self._mark_views: dict[int | None, dict[int, str]] = {}
        self._current_views: dict[int | None, tuple[int, str]] = {}
        # Where the latest change began (its first event) and the step it led to.
        self._change = (self.step, self.step)

    # ---- construction -----------------------------------------------------------------------
    @classmethod
    def rebuild(cls, stored: StoredTable, store: Store | None) -> LiveTable:
        """Replay the stored events and pending choices; save any chance events they lead to.

        ``store`` None: a read-only replica (another process owns the table and writes).
        """
        config = stored.config
        game = gamebag.make(config.game, config.players, **config.options)
        match = Match(game, config.seed, stored.events)
        if store is not None and len(match.record.events) > len(stored.events):
            # The stored events ended at a chance node (a table that has not started, for
            # one): resolving it is deterministic, so saving it now changes nothing.
            extra = match.record.events[len(stored.events) :]
            store.save_events(config.id, len(stored.events), extra, match.is_over, winners_of(game, match.state))
        for seat, action_json in sorted(stored.pending.items()):
            match.submit(seat, game.action_from_json(action_json))
        return cls(config, game, match, _event_marks(game, match.record.events))

    def catch_up(self, events: list[dict[str, Any]], pending: dict[int, Any]) -> None:
        """A replica follows the owner: apply the stored events after its own, take the pending choices."""
        match = self.match
        first = len(match.record.events)
        for event in events:
            if self._marks is not None:
                self._note(self._marks, (len(match.record.events), match.state, "moves" in event))
            match.state = apply_event(self.game, match.state, event)
            match.record.events.append(dict(event))
        if events:
            self._change = (first, self.step)
        match.pending = {seat: self.game.action_from_json(action) for seat, action in sorted(pending.items())}

    def reconfigure(self, config: TableConfig) -> None:
        """Take a changed configuration of the same table (a seat's token re-issued)."""
        self.config = config
        self._seat_by_token = {seat.token: seat.seat for seat in config.seats if seat.claimed}

    # ---- seats -----------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.config.id

    @property
    def seats(self) -> tuple[SeatConfig, ...]:
        return self.config.seats

    def seat_of_token(self, token: str) -> int:
        seat = self._seat_by_token.get(token)
        if seat is None:
            raise SeatError(_("this seat token does not belong to this table; use the invite link you were given"))
        if self.config.seats[seat].agent is not None:
            raise SeatError(_("seat {seat} is played by a bot", seat=seat))
        return seat

    def bot_seats(self) -> list[SeatConfig]:
        return [seat for seat in self.config.seats if seat.agent is not None]

    def human_seats(self) -> list[int]:
        return [seat.seat for seat in self.config.seats if seat.agent is None]

    # ---- progress ---------------------------------------------------------------------------
    @property
    def step(self) -> int:
        """The number of record events so far: it changes whenever the table moves on."""
        return len(self.match.record.events)

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    def acting(self) -> tuple[int, ...]:
        """Seats that may (still, or again) choose at this node."""
        if self.game.node_kind(self.match.state) is not NodeKind.DECISION:
            return ()
        return self.game.acting_players(self.match.state)

    def waiting_for(self) -> tuple[int, ...]:
        return self.match.waiting_for()

    def legal_json(self, seat: int) -> list[Any]:
        """The JSON encodings of ``seat``'s legal actions (empty when it does not act)."""
        if seat not in self.acting():
            return []
        return [self.game.action_to_json(a) for a in self.match.legal_actions(seat)]

    def stage(self, seat: int, action_json: Any) -> Staged:
        """Check ``seat``'s action and work out what it does, changing nothing yet.

        Raises ``IllegalActionError`` if it is refused. The caller commits the staged
        change to the database, then ``apply``-ies it: until then every reader still sees
        the table as committed.
        """
        if self.match.is_over:
            raise IllegalActionError(_("the game is over"))
        try:
            action = self.game.action_from_json(action_json)
        except IllegalActionError:
            raise
        except Exception as error:  # a game's decoder may fail in its own way on odd input
            raise IllegalActionError(
                _("not an action of {game}: {action} ({error})", game=self.game.game_id, action=repr(action_json),
                  error=error)
            ) from None
        match = self.match
        state, first, pending = match.state, len(match.record.events), dict(match.pending)
        try:
            events = match.submit(seat, action)
            staged = Staged(seat, self.game.action_to_json(action), tuple(events), first, match.state, match.pending)
        finally:
            match.state = state
            del match.record.events[first:]
            match.pending = pending
        return staged

    def write(self, staged: Staged, store: Store, also: Also = None) -> None:
        """Commit a staged action (``LeaseLostError`` and database errors leave everything as it was);
        ``also``: more writes in its transaction (SQLite; see ``Store.save_events``)."""
        if staged.events:
            over = self.game.is_terminal(staged.state)
            store.save_events(self.id, staged.first, staged.events, over, winners_of(self.game, staged.state), also)
        else:
            store.save_pending(self.id, staged.seat, staged.action_json, staged.first, also)

    def waiting_after(self, staged: Staged) -> tuple[int, ...]:
        """The seats that must choose once ``staged`` is applied (``Match.waiting_for`` of that state)."""
        if self.game.node_kind(staged.state) is not NodeKind.DECISION:
            return ()
        return tuple(p for p in self.game.acting_players(staged.state) if p not in staged.pending)

    def apply(self, staged: Staged) -> Submission:
        """Make a committed staged action the table's state."""
        match = self.match
        if len(match.record.events) != staged.first:
            raise RuntimeError("a staged action applied out of turn")
        if self._marks is not None:
            for mark in _event_marks(self.game, staged.events, match.state, staged.first):
                self._note(self._marks, mark)
        match.state = staged.state
        match.record.events.extend(staged.events)
        match.pending = dict(staged.pending)
        if staged.events:
            self._change = (staged.first, self.step)
        return Submission(staged.seat, staged.events, self.step)

    def submit(self, seat: int, action_json: Any, store: Store) -> Submission:
        """Check, commit and apply one action of ``seat``; ``IllegalActionError`` if refused.

        Nothing changes when the action is refused or the commit fails.
        """
        staged = self.stage(seat, action_json)
        self.write(staged, store)
        return self.apply(staged)

    # ---- views -------------------------------------------------------------------------------
    def view(self, seat: int | None) -> JsonDict:
        """The seat's observation (with the state of secret choices), or the spectators' view."""
        return self.match.public() if seat is None else self.match.view(seat)

    def step_views(self, seat: int | None, last: int | None = None, every_event: bool = False) -> list[JsonDict]:
        """The seat's (or the public) view at each step of the game so far, oldest first.

        A step ends where players are next asked to choose (or the game ends). Views
        are rebuilt from the record, so they hold what the seat knew then and no
        pending choices. ``last`` keeps only the most recent steps; ``every_event`` adds
        the view after each event within them (each roll or draw, for the log), from the
        game's start while it has no more than ``last`` steps.
        """
        game = self.game
        events = self.match.record.events
        boundaries = [i for i in range(len(events) + 1) if i == len(events) or "moves" in events[i]]
        whole = last is None or len(boundaries) <= last
        if last is not None:
            boundaries = boundaries[-last:] if last > 0 else []
        wanted = set(boundaries)
        if every_event and boundaries:
            wanted = set(range(0 if whole else boundaries[0], len(events) + 1))
        views: list[JsonDict] = []
        state = game.initial_state()
        for index in range(len(events) + 1):
            if index in wanted:
                views.append(game.public_view(state) if seat is None else game.observation(state, seat))
            if index < len(events):
                state = apply_event(game, state, events[index])
        return views

    def _note(self, marks: deque[tuple[int, Any, bool]], mark: tuple[int, Any, bool]) -> None:
        """Keep the state before one more event; drop those before the first of the last decisions."""
        marks.append(mark)
        self._decisions += mark[2]
        while self._decisions > HISTORY_STEPS - 1:
            self._decisions -= marks.popleft()[2]
            while marks and not marks[0][2]:
                marks.popleft()

    def _kept_marks(self) -> deque[tuple[int, Any, bool]]:
        if self._marks is None:  # a table not built by ``rebuild``: note the events once
            marks: deque[tuple[int, Any, bool]] = deque()
            for mark in _event_marks(self.game, self.match.record.events):
                self._note(marks, mark)
            self._marks = marks
        return self._marks

    def _mark_text(self, known: dict[int, str], index: int, state: Any, seat: int | None) -> str:
        text = known.get(index)
        if text is None:
            text = known[index] = _json(self._view_of(state, seat))
        return text

    def history_json(self, seat: int | None) -> str:
        """``step_views(seat, HISTORY_STEPS, every_event=True)`` as JSON text, from the states kept.

        Each view of a past event is serialized once per reader and kept while it is among
        the last ones; only the current state's view is new at each step.
        """
        marks = self._kept_marks()
        known = self._mark_views.setdefault(seat, {})
        texts = [self._mark_text(known, index, state, seat) for index, state, _ in marks]
        if len(known) > len(marks):
            kept = {index for index, _, _ in marks}
            for index in [i for i in known if i not in kept]:
                del known[index]
        step = self.step
        current = self._current_views.get(seat)
        if current is None or current[0] != step:
            current = self._current_views[seat] = (step, _json(self._view_of(self.match.state, seat)))
        texts.append(current[1])
        return "[" + ",".join(texts) + "]"

    def _view_of(self, state: Any, seat: int | None) -> JsonDict:
        return self.game.public_view(state) if seat is None else self.game.observation(state, seat)

    def trail_views(self, seat: int | None) -> JsonDict | None:
        """The seat's (or the public) view between the events of the latest change, if it led here.

        ``{"from": step, "views": [...]}``: the view after each event from ``step`` on, but the
        last (the message's own view), from the states kept. None when the change was one event.
        """
        first, end = self._change
        if end != self.step or end - first < 2:
            return None
        states = {index: state for index, state, _ in self._kept_marks() if first < index < end}
        if len(states) != end - first - 1:
            return None
        return {"from": first, "views": [self._view_of(states[index], seat) for index in range(first + 1, end)]}

    def record_json(self) -> JsonDict:
        record = self.match.record.to_json()
        record["meta"] = {
            "table": self.id,
            "source": "gamebag web",
            "seats": [{"seat": s.seat, "name": s.name, "agent": s.agent} for s in self.seats],
            "winners": list(self.game.winners(self.match.state)),
        }
        coach = CoachSetting.parse(self.config.coach).note()
        if coach is not None:
            record["meta"]["coach"] = coach  # the steps the coach was on (docs/records.md)
        return record


def winners_of(game: Game[Any, Any, Any], state: Any) -> list[int] | None:
    """The winning seats of a finished game (None while it goes on), for the lobby's summary row."""
    return [int(seat) for seat in game.winners(state)] if game.is_terminal(state) else None


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _event_marks(
    game: Game[Any, Any, Any], events: list[JsonDict] | tuple[JsonDict, ...], state: Any = None, first: int = 0
) -> list[tuple[int, Any, bool]]:
    """(index, state before it, whether a decision) of each of ``events``, which follow ``state``
    (None: the initial state) at event index ``first``; only those from the first of the last
    ``HISTORY_STEPS - 1`` decisions on (all when there are no more).
    """
    decisions = [k for k, event in enumerate(events) if "moves" in event]
    start = decisions[-(HISTORY_STEPS - 1)] if len(decisions) > HISTORY_STEPS - 1 else 0
    marks = []
    current = game.initial_state() if state is None else state
    for k, event in enumerate(events):
        if k >= start:
            marks.append((first + k, current, "moves" in event))
        if k < len(events) - 1:
            current = apply_event(game, current, event)
    return marks
