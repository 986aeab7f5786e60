"""The server's tables: opening, loading, acting, publishing, and the bots and turn timers.

Everything runs on the server's one event loop, so an action is checked,
committed and published with no other action in between. Bots and timed-out
seats act through the same door as people (``LiveTable.submit``), with
generators derived from the table's secret seed and the event index, so a
rebuilt table's bots choose exactly as they would have.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from gamebag.agents.base import Agent, SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.rng import derive_rng
from gamebag.web.db import Store
from gamebag.web.hub import Connection, Hub
from gamebag.web.live import LiveTable, Submission
from gamebag.web.lobby import LobbyError, parse_table_request, rematch_config
from gamebag.web.messages import dumps, state_message, table_meta
from gamebag.web.summary import end_summary

log = logging.getLogger("gamebag.web")

QUICK_AGENT_SECONDS = 0.002  # an agent this quick may choose on the event loop itself


class UnknownTableError(LookupError):
    """A table id that this server does not hold."""


@dataclass
class _TableClock:
    """The turn timer of one table: the step it runs for and its deadline."""

    step: int = -1
    deadline: float | None = None
    handle: asyncio.TimerHandle | None = None


@dataclass
class _Automation:
    """Bot moves already scheduled, by (seat, step), and the turn clock."""

    scheduled: set[tuple[int, int]] = field(default_factory=set)
    clock: _TableClock = field(default_factory=_TableClock)
    agents: dict[int, Agent] = field(default_factory=dict)


class TableManager:
    """Every table of this server, with the hub that carries their messages."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6, allow_seed: bool = False) -> None:
        self.store = store
        self.hub = Hub()
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.tables: dict[str, LiveTable] = {}
        self._automation: dict[str, _Automation] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._agent_seconds: dict[int, float] = {}  # the last decision time of each agent
        self.actions_accepted = 0
        self._summaries: dict[str, dict[str, Any]] = {}  # end summaries of finished tables

    # ---- tables -------------------------------------------------------------------------------
    def start(self) -> None:
        """Load every unfinished table and set its bots and clock going again."""
        for table_id in self.store.table_ids(unfinished_only=True):
            try:
                table = self.get(table_id)
            except Exception:
                log.exception("table %s could not be rebuilt; it stays in the database untouched", table_id)
                continue
            self.automate(table)

    def stop(self) -> None:
        for automation in self._automation.values():
            if automation.clock.handle is not None:
                automation.clock.handle.cancel()
        for task in list(self._tasks):
            task.cancel()

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        stored = self.store.load(table_id) if isinstance(table_id, str) and len(table_id) <= 64 else None
        if stored is None:
            raise UnknownTableError(f"no table {table_id!r} on this server")
        table = LiveTable.rebuild(stored, self.store)
        self.tables[table_id] = table
        return table

    def create(self, request: Any) -> LiveTable:
        """Open a table from a lobby request (``LobbyError`` names what is wrong)."""
        config = parse_table_request(request, allow_seed=self.allow_seed)
        self.store.create_table(config)
        table = self.get(config.id)
        self.automate(table)
        return table

    def rematch(self, table: LiveTable) -> LiveTable:
        """The rematch of a finished table (same game, options and seats), opened once."""
        if not table.is_over:
            raise LobbyError("a rematch can be started once the game is over")
        if table.config.next_id is not None:
            return self.get(table.config.next_id)
        config = rematch_config(table.config)
        self.store.create_table(config)
        self.store.set_rematch(table.id, config.id)
        table.set_rematch(config.id)
        rematch = self.get(config.id)
        self.automate(rematch)
        self.publish(table)  # everyone still at the old table learns where the rematch is
        return rematch

    def rematch_of(self, table: LiveTable) -> LiveTable | None:
        next_id = table.config.next_id
        if next_id is None:
            return None
        try:
            return self.get(next_id)
        except UnknownTableError:
            return None

    def hand_to_bot(self, table: LiveTable, seat: int, agent: str) -> None:
        """A person's seat is played by ``agent`` from now on (a no-show, say)."""
        if table.is_over:
            raise LobbyError("the game is over: there is nothing left to play for that seat")
        table.hand_to_bot(seat, agent, self.store)
        for connection in self.hub.members(table.id):
            if connection.seat == seat:
                connection.seat = None  # the link no longer holds the seat: it watches from now on
        self.publish(table)
        self.automate(table)

    def end_summary(self, table: LiveTable) -> dict[str, Any] | None:
        """Scores by round and every seat's final view, once the game is over (kept)."""
        if not table.is_over:
            return None
        summary = self._summaries.get(table.id)
        if summary is None:
            summary = end_summary(table.game, table.match.state, table.match.record.events)
            self._summaries[table.id] = summary
        return summary

    def list_tables(self, limit: int = 100) -> list[LiveTable]:
        ids = self.store.table_ids()[-limit:]
        tables = []
        for table_id in reversed(ids):
            try:
                tables.append(self.get(table_id))
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
        return tables

    # ---- acting -------------------------------------------------------------------------------
    def act(self, table: LiveTable, seat: int, action_json: Any) -> Submission:
        """Apply one action durably, then tell every reader, then wake bots and the clock."""
        submission = table.submit(seat, action_json, self.store)
        self.actions_accepted += 1
        self.publish(table)
        self.automate(table)
        return submission

    # ---- messages -------------------------------------------------------------------------------
    def meta(self, table: LiveTable) -> dict[str, Any]:
        clock = self._automation.get(table.id)
        deadline = clock.clock.deadline if clock is not None and clock.clock.step == table.step else None
        return table_meta(table, self.hub.connected_seats(table.id), deadline)

    def sync(self, connection: Connection, table: LiveTable) -> None:
        """Send one connection the whole picture, with its seat's recent history."""
        message = state_message(
            table,
            connection.seat,
            self.meta(table),
            with_history=True,
            summary=self.end_summary(table),
            rematch=self.rematch_of(table),
        )
        connection.send(dumps(message))

    def publish(self, table: LiveTable) -> None:
        """Send every connection of the table its own seat's (or the public) picture."""
        members = self.hub.members(table.id)
        if not members:
            return
        meta = self.meta(table)
        summary = self.end_summary(table)
        rematch = self.rematch_of(table)
        by_seat: dict[int | None, list[Connection]] = {}
        for connection in members:
            by_seat.setdefault(connection.seat, []).append(connection)
        for seat, connections in by_seat.items():
            text = dumps(state_message(table, seat, meta, summary=summary, rematch=rematch))
            for connection in connections:
                connection.send(text)

    def announce_presence(self, table: LiveTable) -> None:
        """Tell every reader which seats are connected (public: anyone at a table sees who sits)."""
        text = dumps({"type": "presence", "connected": sorted(self.hub.connected_seats(table.id))})
        for connection in self.hub.members(table.id):
            connection.send(text)

    # ---- bots and the turn clock ----------------------------------------------------------------
    def automate(self, table: LiveTable) -> None:
        """Schedule the bots that must choose now, and (re)start the turn clock."""
        automation = self._automation.setdefault(table.id, _Automation())
        if table.is_over:
            self._stop_clock(automation)
            return
        step = table.step
        automation.scheduled = {key for key in automation.scheduled if key[1] == step}
        waiting = table.waiting_for()
        for seat_config in table.bot_seats():
            key = (seat_config.seat, step)
            if seat_config.seat in waiting and key not in automation.scheduled:
                automation.scheduled.add(key)
                self._spawn(self._bot_move(table, seat_config.seat, step, self.bot_delay))
        self._set_clock(table, automation)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _agent(self, table: LiveTable, seat: int, spec: str) -> Agent:
        automation = self._automation.setdefault(table.id, _Automation())
        agent = automation.agents.get(seat)
        if agent is None:
            agent = make_agent(spec, table.game)
            automation.agents[seat] = agent
        return agent

    async def _choose(self, table: LiveTable, seat: int, agent: Agent, purpose: str) -> Any:
        """An agent's choice for ``seat`` from that seat's view only.

        An agent runs in a worker thread until it has shown itself quick; then it runs
        on the event loop, which spares a thread hand-over per move. A slow decision
        sends it back to the thread.
        """
        view = SeatView(table.game, table.match.state, seat)
        rng = derive_rng(table.config.seed, purpose, seat, table.step)
        started = time.perf_counter()
        if self._agent_seconds.get(id(agent), 1.0) < QUICK_AGENT_SECONDS:
            action = agent.act(view, rng)
        else:
            action = await asyncio.to_thread(agent.act, view, rng)
        self._agent_seconds[id(agent)] = time.perf_counter() - started
        return table.game.action_to_json(action)

    async def _bot_move(self, table: LiveTable, seat: int, step: int, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if table.step != step or seat not in table.waiting_for():
            return
        spec = table.seats[seat].agent or "random"
        try:
            action = await self._choose(table, seat, self._agent(table, seat, spec), "bot")
            if table.step == step and seat in table.waiting_for():
                self.act(table, seat, action)
        except Exception:
            log.exception("bot %s at table %s seat %d failed", spec, table.id, seat)

    def _set_clock(self, table: LiveTable, automation: _Automation) -> None:
        clock = automation.clock
        seconds = table.config.turn_seconds
        humans_waiting = [s for s in table.waiting_for() if s in table.human_seats()]
        if seconds is None or not humans_waiting:
            self._stop_clock(automation)
            return
        if clock.step == table.step and clock.handle is not None:
            return  # the clock already runs for this decision
        self._stop_clock(automation)
        clock.step = table.step
        clock.deadline = time.monotonic() + seconds
        step = table.step
        clock.handle = asyncio.get_running_loop().call_later(seconds, lambda: self._spawn(self._time_out(table, step)))

    @staticmethod
    def _stop_clock(automation: _Automation) -> None:
        clock = automation.clock
        if clock.handle is not None:
            clock.handle.cancel()
        clock.step, clock.deadline, clock.handle = -1, None, None

    async def _time_out(self, table: LiveTable, step: int) -> None:
        """The clock ran out: each person who has not chosen plays the timeout agent's move."""
        automation = self._automation.setdefault(table.id, _Automation())
        automation.clock.handle = None
        for seat in table.human_seats():
            if table.step != step or seat not in table.waiting_for():
                continue
            try:
                agent = make_agent(table.config.timeout_agent, table.game)
                action = await self._choose(table, seat, agent, "timeout")
                if table.step == step and seat in table.waiting_for():
                    self.act(table, seat, action)
            except Exception:
                log.exception("timeout move at table %s seat %d failed", table.id, seat)
        if table.step == step:
            automation.clock.step = -1  # nobody could be moved: let automate() restart the clock
        self.automate(table)
