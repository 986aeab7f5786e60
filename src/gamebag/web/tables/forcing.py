"""Moves made for a person: a seat's only legal move, and the passes it asked for.

No tap without a choice: where a person's seat has exactly one legal move (in Eigen Kweek, a
character window while the seat's character belongs to another phase: only "pass"), the
server makes it; and a seat may ask for a standing pass (``autopass.py``: Eigen Kweek's
character windows for the rest of the round, unless it acts itself).

Nobody else may learn that a move was made for a seat: in Eigen Kweek a forced pass says that
the seat holds no character of this phase. So a move made for a seat goes through the same
door as a tap (``act``), and everything another reader receives is what a tap would have
sent: the same state messages, the same "chosen" badge, no flag, no extra message. The
one thing left is timing, and it is made a person's: the move is made after a delay drawn
for that seat and step from the table's secret seed, uniform in ``Limits.forced_pace``
(1.5 to 4 s by default), never at once (an instant "chosen" would be a tell no person could
give). The draw depends on nothing hidden, so a forced pass looks to every other reader like
a pass tapped after that delay. Only a seat that is connected is moved for (who is connected
is public: an absent seat's pass would say it was forced); one that leaves and comes back is
moved for then, at the same pace. The seat itself is told, in its own messages only
(``done_for_you``), what was done and why; its page writes it in its own log.

A seat's standing pass and its notes are kept in the database (``store/seataid.py``), so a
restart (or the table being unloaded and loaded again, or taken over in a cluster) keeps
them: the pass is stored before it is said to be on, a note once the move it tells of is.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from gamebag.core.errors import GamebagError
from gamebag.core.protocol import JsonDict
from gamebag.core.rng import derive_rng
from gamebag.web.store.seataid import load_seat_aid, save_seat_aid
from gamebag.web.tables.autopass import PASS_RULES, pass_rule
from gamebag.web.tables.live import LiveTable
from gamebag.web.tables.tablestate import ManagerState, SeatAid, StaleStepError, TableAutomation
from gamebag.web.words.text import N_, _

log = logging.getLogger("gamebag.web")

NOTES_KEPT = 20  # moves made for a seat that its messages still tell (the newest)
ONLY_MOVE = "only"  # why a move was made: it was the seat's only legal one
ASKED = "asked"  # the seat's standing pass covered it


class StandingPassError(GamebagError):
    """A standing pass asked for where it cannot be had (the game has none, or a bot's seat)."""


UNSAVED_PASS = N_("your standing pass could not be saved just now; try again in a moment")


class Forcing(ManagerState):
    """Moves made for people's seats, and what each seat alone is told of them."""

    def _aid_seats(self, table: LiveTable, automation: TableAutomation, waiting: tuple[int, ...]) -> None:
        """Schedule the move of each person's seat that has no real choice here (or asked to pass)."""
        step = table.step
        here = self.connected_seats(table.id)
        for seat in table.human_seats():
            key = (seat, step)
            if seat not in waiting or key in automation.scheduled or seat not in here:
                continue
            move = self._move_for(table, automation, seat)
            if move is None:
                continue
            automation.scheduled.add(key)
            low, high = self.limits.forced_pace
            delay = derive_rng(table.config.seed, "pace", seat, step).uniform(low, high)
            self._spawn(automation, self._make_move(table, automation, seat, step, delay, move))

    def _move_for(self, table: LiveTable, automation: TableAutomation, seat: int) -> tuple[str, Any] | None:
        """(why, action) when the server moves for ``seat`` now, else None."""
        legal = table.legal_json(seat)
        if len(legal) == 1:
            return ONLY_MOVE, legal[0]
        rule = pass_rule(table.game.game_id)
        if rule is None or self._standing_period(table, automation, seat) is None:
            return None
        view = table.game.observation(table.match.state, seat)
        if rule.covers(view) and rule.action in legal:
            return ASKED, rule.action
        return None

    def _standing_period(self, table: LiveTable, automation: TableAutomation, seat: int) -> Any:
        """The period of ``seat``'s standing pass while it lasts; None once that period is over."""
        rule = pass_rule(table.game.game_id)
        period = automation.aid.passing.get(seat)
        if rule is None or period is None:
            return None
        if rule.period(table.game.observation(table.match.state, seat)) != period:
            del automation.aid.passing[seat]  # a new round: the toggle resets
            return None
        return period

    async def _make_move(
        self, table: LiveTable, automation: TableAutomation, seat: int, step: int, delay: float, move: tuple[str, Any]
    ) -> None:
        await asyncio.sleep(delay)
        if table.step != step or seat not in table.waiting_for() or self.tables.get(table.id) is not table:
            return  # the seat chose itself meanwhile, or the table moved on
        if seat not in self.connected_seats(table.id):
            automation.scheduled.discard((seat, step))  # made once the seat is back (see the module's words)
            return
        if self._move_for(table, automation, seat) != move:
            return  # the standing pass was taken back meanwhile
        why, action = move
        notes = automation.aid.notes.setdefault(seat, deque(maxlen=NOTES_KEPT))
        note: JsonDict = {"step": step, "action": action, "why": why}
        notes.append(note)  # before acting: the seat's own message about the move tells it
        try:
            await self.act_durably(table, seat, action, step, "a move made for the seat")
        except StaleStepError:
            notes.remove(note)  # the seat's own tap came first
            return
        except Exception:
            notes.remove(note)
            log.exception("the move made for table %s seat %d failed", table.id, seat)
            return
        await self._keep_aid(table, automation, seat)

    # ---- kept in the database (store/seataid.py) ------------------------------------------------
    async def _keep_aid(self, table: LiveTable, automation: TableAutomation, seat: int) -> None:
        """Store ``seat``'s standing pass and notes as they are now (in a thread); a failure is logged,
        and what this process holds stays as it is (the next change stores it again)."""
        async with automation.aid.saving:
            passing = automation.aid.passing.get(seat)
            notes = list(automation.aid.notes.get(seat, ()))
            try:
                await asyncio.to_thread(
                    save_seat_aid, self.store.engine, self.store.node, table.id, seat, passing, notes
                )
            except Exception:
                log.exception("the standing pass and notes of table %s seat %d were not saved", table.id, seat)

    def _read_aid(self, table_id: str) -> SeatAid:
        """The seats' standing passes and notes of ``table_id`` as stored (read in a thread, or where
        the table's own rows are read)."""
        notes, passing = load_seat_aid(self.store.engine, table_id, NOTES_KEPT)
        return SeatAid(notes=notes, passing=passing)

    def _adopt_aid(self, table_id: str, aid: SeatAid) -> None:
        """Hold the stored standing passes and notes of a table this process now serves."""
        self._automation.setdefault(table_id, TableAutomation()).aid = aid

    # ---- what the seat alone is told ------------------------------------------------------------
    def own_facts(self, table: LiveTable, seat: int | None) -> JsonDict:
        """The facts only ``seat``'s own messages carry: the moves made for it, its standing pass."""
        if seat is None or table.seats[seat].agent is not None:
            return {}
        automation = self._automation.get(table.id)
        facts: JsonDict = {}
        if automation is not None and automation.aid.notes.get(seat):
            facts["done_for_you"] = list(automation.aid.notes[seat])
        rule = pass_rule(table.game.game_id)
        if rule is not None and not table.is_over:
            on = automation is not None and self._standing_period(table, automation, seat) is not None
            facts["standing_pass"] = {"label": _(rule.label), "on": on}
        return facts

    async def set_standing_pass(self, table: LiveTable, seat: int, on: bool) -> None:
        """Turn ``seat``'s standing pass on (for the current period) or off, stored first (in a
        thread: a restart keeps it); only the seat is told."""
        rule = pass_rule(table.game.game_id)
        if rule is None:
            offered = ", ".join(sorted(PASS_RULES))
            raise StandingPassError(_("{game} has no standing pass; it is offered in: {games}", game=table.game.game_id,
                                      games=offered))
        if table.seats[seat].agent is not None:
            raise StandingPassError(_("seat {seat} is played by a bot", seat=seat))
        if not self.owns(table):
            raise StandingPassError(_("this table is served by another process just now; try again in a moment"))
        period = rule.period(table.game.observation(table.match.state, seat)) if on else None
        aid = self._automation.setdefault(table.id, TableAutomation()).aid
        async with aid.saving:  # stored first, with the notes held when the write starts
            notes = list(aid.notes.get(seat, ()))
            try:
                await asyncio.to_thread(
                    save_seat_aid, self.store.engine, self.store.node, table.id, seat, period, notes
                )
            except Exception:
                log.exception("the standing pass of table %s seat %d was not saved", table.id, seat)
                raise StandingPassError(_(UNSAVED_PASS)) from None
            if on:
                aid.passing[seat] = period
            else:
                aid.passing.pop(seat, None)
        if not self.owns(table):
            raise StandingPassError(_("this table is served by another process just now; try again in a moment"))
        self.publish(table, {seat})
        self.automate(table)
