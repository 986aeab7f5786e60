"""Bots and the turn clock of the tables this process owns.

Agents never run on the event loop: bots and timed-out seats choose in the bounded
worker pool (``workers.py``) with a time limit per move (a bot that overruns plays a
random legal move instead), and act through the same door as people (``act``), with
generators derived from the table's secret seed and the event index, so a rebuilt
table's bots choose exactly as they would have. In a cluster the owner stores and
announces its turn clock, so other processes' readers see the same deadline and a
process taking the table over keeps it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from gamebag.core.rng import derive_rng
from gamebag.web.store.db import StoredTable
from gamebag.web.tables.analysis import analysis_key
from gamebag.web.tables.live import LiveTable
from gamebag.web.tables.tablestate import ForwardError, ManagerState, StaleStepError, TableAutomation, agent_key
from gamebag.web.words.text import _
from gamebag.web.work.workers import AgentKey, JobFailed, JobTimeout, MoveJob, WarmJob

log = logging.getLogger("gamebag.web")

WARM_SECONDS = 60.0  # a warm-up's bound (a fresh checkout compiles the kernels first)
WARM_QUEUE_SECONDS = 5.0  # busy workers: no warm-up (the analysis will start cold)


class Automating(ManagerState):
    """Bot moves, timeouts and the turn clock (stored and announced in a cluster)."""

    # ---- bots and the turn clock ----------------------------------------------------------------
    def automate(self, table: LiveTable) -> None:
        """Schedule the bots that must choose now, and (re)start the turn clock."""
        automation = self._automation.setdefault(table.id, TableAutomation())
        automation.touched = time.monotonic()
        if table.is_over:
            self._stop_clock(automation)
            self._warm_analysis(table, automation)
            return
        step = table.step
        automation.scheduled = {key for key in automation.scheduled if key[1] == step}
        waiting = table.waiting_for()
        for seat_config in table.bot_seats():
            key = (seat_config.seat, step)
            if seat_config.seat in waiting and key not in automation.scheduled:
                automation.scheduled.add(key)
                self._spawn(automation, self._bot_move(table, seat_config.seat, step, self.bot_delay))
        self._aid_seats(table, automation, waiting)
        self._set_clock(table, automation)

    def _warm_analysis(self, table: LiveTable, automation: TableAutomation) -> None:
        """Once a game ends, get a worker ready for its analysis (its tables and kernels loaded), so
        the analysis a player asks for next shows within seconds; at most once per table, and not
        where a worker already holds the configuration."""
        if automation.warmed:
            return
        automation.warmed = True
        key = analysis_key(table.config.game, table.config.players, table.config.options)
        if not self.pool.holds(key):
            self._spawn(automation, self._warm(key))

    async def _warm(self, key: AgentKey) -> None:
        try:
            await self.pool.run(WarmJob(key), WARM_SECONDS, queue_seconds=WARM_QUEUE_SECONDS)
        except (JobTimeout, JobFailed) as error:  # only a head start is lost: the analysis starts cold
            log.info("no warm-up for the analysis of %s: %s", key[0], error)

    async def _choose(self, table: LiveTable, seat: int, spec: str, purpose: str) -> Any:
        """An agent's choice for ``seat`` from that seat's view only, made in a bot worker.

        A choice past ``Limits.move_seconds`` (or a failing agent) gives way to the
        fallback: a uniformly random legal action, drawn from the seat's own stream.
        """
        step = table.step
        job = MoveJob(agent_key(table, spec), table.match.state, seat, (table.config.seed, purpose, seat, step))
        try:
            return await self.pool.run(job, self.limits.move_seconds)
        except (JobTimeout, JobFailed) as error:
            log.warning("agent %s at table %s seat %d: %s; playing the fallback move", spec, table.id, seat, error)
        self.fallback_moves += 1
        legal = table.legal_json(seat)
        return derive_rng(table.config.seed, "fallback", seat, step).choice(legal)

    async def _bot_move(self, table: LiveTable, seat: int, step: int, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if table.step != step or seat not in table.waiting_for():
            return
        spec = table.seats[seat].agent or "random"
        try:
            action = await self._choose(table, seat, spec, "bot")
            if table.step == step and seat in table.waiting_for() and self.tables.get(table.id) is table:
                await self.act_durably(table, seat, action, step, f"bot {spec}'s move")
        except StaleStepError:
            pass  # a person (or the clock) moved the table on meanwhile
        except Exception:
            log.exception("bot %s at table %s seat %d failed", spec, table.id, seat)
            # Not scheduled any more: the next change of the table (or of who is here) tries again.
            self._automation.setdefault(table.id, TableAutomation()).scheduled.discard((seat, step))

    def _set_clock(self, table: LiveTable, automation: TableAutomation) -> None:
        clock = automation.clock
        seconds = table.config.turn_seconds
        humans_waiting = [s for s in table.waiting_for() if s in table.human_seats()]
        if seconds is None or not humans_waiting or not self._clock_may_run(table, automation):
            running = clock.deadline is not None
            self._stop_clock(automation)
            if running:
                self._announce_clock(table)
            return
        if clock.step == table.step and clock.handle is not None:
            return  # the clock already runs for this decision
        self._stop_clock(automation)
        inherited, automation.inherited = automation.inherited, None
        if inherited is not None and inherited[0] == table.step and inherited[1] is not None:
            seconds = min(seconds, max(0.0, inherited[1] - time.time()))
        clock.step = table.step
        clock.deadline = time.monotonic() + seconds
        step = table.step
        clock.handle = asyncio.get_running_loop().call_later(
            seconds, lambda: self._spawn(automation, self._time_out(table, step))
        )
        self._announce_clock(table)

    def _clock_may_run(self, table: LiveTable, automation: TableAutomation) -> bool:
        """Whether the turn clock may run: once every person's seat has connected (or the host
        said start). Friends open their links some seconds apart: a clock started at the
        table's creation played the first move of the late ones for them."""
        if not automation.everyone_came and set(table.human_seats()) <= self.connected_seats(table.id):
            automation.everyone_came = True
        return automation.everyone_came

    def _on_presence(self, table: LiveTable) -> None:
        """A seat connected or left: a move waiting for that seat to be here is made now (``forcing.py``),
        and if it was the last person awaited, the clock starts (and readers see it)."""
        if not self.owns(table) or table.is_over:
            return
        automation = self._automation.setdefault(table.id, TableAutomation())
        starts = self._waits_for_everyone(table) and not automation.everyone_came
        self.automate(table)
        if starts and self._clock_may_run(table, automation):
            self.start_banks(table)  # a real-time bank runs from now
            self.publish(table)

    def start_clock(self, table: LiveTable) -> None:
        """The host starts the turn clock without waiting for every person's seat to connect."""
        if not self.owns(table):
            raise ForwardError(_("this table is served by another process just now; try again in a moment"))
        automation = self._automation.setdefault(table.id, TableAutomation())
        if automation.everyone_came:
            return
        automation.everyone_came = True
        self.automate(table)
        self.start_banks(table)
        self.publish(table)

    def clock_waits(self, table: LiveTable) -> bool:
        """A timed table whose clock waits for every person's seat to connect (said on the table)."""
        if not self._waits_for_everyone(table) or table.is_over or not self.owns(table):
            return False
        automation = self._automation.get(table.id)
        if automation is not None and automation.everyone_came:
            return False
        return not set(table.human_seats()) <= self.connected_seats(table.id)  # (no person: nobody to wait for)

    def _waits_for_everyone(self, table: LiveTable) -> bool:
        """A table whose clock waits for every person to come: a per-move timer, or a real-time bank
        (a turn-based bank runs at once: its friends come over days)."""
        banks = self.banks.get(table.id)
        return table.config.turn_seconds is not None or (banks is not None and banks.settings.mode == "realtime")

    @staticmethod
    def _stop_clock(automation: TableAutomation) -> None:
        clock = automation.clock
        if clock.handle is not None:
            clock.handle.cancel()
        clock.step, clock.deadline, clock.handle = -1, None, None

    async def _time_out(self, table: LiveTable, step: int) -> None:
        """The clock ran out: each person who has not chosen plays the timeout agent's move."""
        automation = self._automation.setdefault(table.id, TableAutomation())
        automation.clock.handle = None
        for seat in table.human_seats():
            if table.step != step or seat not in table.waiting_for():
                continue
            try:
                action = await self._choose(table, seat, table.config.timeout_agent, "timeout")
                if table.step == step and seat in table.waiting_for() and self.tables.get(table.id) is table:
                    await self.act_durably(table, seat, action, step, "the turn clock's move")
            except StaleStepError:
                continue
            except Exception:
                log.exception("timeout move at table %s seat %d failed", table.id, seat)
        if table.step == step:
            automation.clock.step = -1  # nobody could be moved: let automate() restart the clock
        if self.tables.get(table.id) is table:
            self.automate(table)

    def _announce_clock(self, table: LiveTable) -> None:
        """Store and announce the turn clock of a table this process owns (timed tables in a cluster).

        Stored with the table's row, so a process that starts following the table mid-step
        (a spectator or seat connecting there) shows the deadline in its first message, and
        a process taking the table over keeps it. One task per table writes, always the
        clock as it is now, so a later write never loses to an earlier one.
        """
        if self.node is None or table.config.turn_seconds is None:
            return
        automation = self._automation.setdefault(table.id, TableAutomation())
        automation.clock_dirty = True
        if not automation.clock_writing:
            automation.clock_writing = True
            self._spawn(automation, self._write_clock(table, automation))

    async def _write_clock(self, table: LiveTable, automation: TableAutomation) -> None:
        try:
            while automation.clock_dirty:
                automation.clock_dirty = False
                clock, step = automation.clock, table.step
                deadline = None
                if clock.step == step and clock.deadline is not None:
                    # Wall-clock time between processes (and machines): a monotonic clock is per machine.
                    deadline = time.time() + (clock.deadline - time.monotonic())
                try:
                    await asyncio.to_thread(self.store.save_clock, table.id, step, deadline)
                except Exception:
                    log.warning("the turn clock of table %s could not be stored", table.id, exc_info=True)
        finally:
            automation.clock_writing = False

    def _take_clock(self, table_id: str, message: dict[str, Any]) -> None:
        """The owner's turn clock for a table this process follows (or is loading)."""
        if table_id in self.tables:
            return
        step, until = int(message.get("s", -1)), message.get("d")
        self._remote_clocks[table_id] = (step, None if until is None else _monotonic_from_wall(float(until)))
        replica = self.replicas.get(table_id)
        if replica is not None and step == replica.step:
            self.publish(replica)

    def _inherit_clock(self, stored: StoredTable) -> None:
        """A table this process takes over from an owner that stopped renewing its lease: its
        turn clock runs on where that owner left it (the deadline its readers were shown),
        rather than starting afresh. A table loaded afresh (after a restart of every
        process, or unloaded while idle) starts its clock afresh, as on one process."""
        if self.node is not None and stored.clock is not None and stored.config.turn_seconds is not None:
            automation = self._automation.setdefault(stored.config.id, TableAutomation())
            automation.inherited = stored.clock
            automation.everyone_came = True  # the clock ran at the previous owner: it runs on

    def _adopt_stored_clock(self, stored: StoredTable) -> None:
        """The clock stored with a table this process starts following, unless the bus told a newer one."""
        if stored.clock is None:
            return
        step, until = stored.clock
        known = self._remote_clocks.get(stored.config.id)
        if known is not None and known[0] >= step:
            return
        self._remote_clocks[stored.config.id] = (step, None if until is None else _monotonic_from_wall(until))


def _monotonic_from_wall(until: float) -> float:
    """A wall-clock deadline (another process's) on this process's monotonic clock."""
    return time.monotonic() + (until - time.time())
