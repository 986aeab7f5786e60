"""The coach at a practice table: the host's offer, each seat's consent, and advice off the event loop.

Routes (``docs/analysis.md``, the coach):

* ``POST /api/tables/{id}/coach`` ``{"on": true|false}`` with ``X-Host-Token``: the host offers the
  coach (every human seat is asked afresh) or withdraws it;
* ``POST /api/tables/{id}/coach/consent`` ``{"agree": true|false}`` with ``X-Seat-Token``: a person's
  seat agrees to the offer or takes its consent back;
* ``GET /api/tables/{id}/coach/advice`` with ``X-Seat-Token``: the advice for that seat's decision
  now. Refused (403) without a seat token: spectators never get advice. Refused (409) unless the
  coach is on (offered, and every human seat agreed: ``coachsetting.CoachSetting``) and the seat has
  a choice to make. The first request at a step starts the job in the bounded worker pool (never on
  the event loop), in the pool's slow lane with a share per client address (``fairshare.py``), with
  a time budget (``COACH_SECONDS``); every request answers its state at once (``running``, ``done``
  with the advice, ``failed``). Answers stay in a bounded cache; at most
  ``MAX_UNFINISHED_PER_ADDRESS`` jobs of one address and ``MAX_UNFINISHED`` of all run or wait at
  once (429 past that).

The setting is stored with the table, changed in one transaction (read, change, write), and every
reader's table message carries it (``table.coach``), so every seat and spectator sees whether the
coach is on. The advice job gets the record's events so far (never the pending secret choices)
and values the seat's choices from its own information (``gamebag.analysis.coach``).

The advice is kept as the worker made it (its figures are language-neutral; the worker process
speaks English) and said per reader: the first request in a language makes the choices' names and
the words again from the seat's own view in that language (``coach.reworded``), kept beside it. The
refusals are the ``analysis`` catalogue's.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select, update

from gamebag.analysis.translation import _, ngettext
from gamebag.core.i18n import current_language, join_list
from gamebag.core.protocol import JsonDict
from gamebag.web.admission.bounds import BadJsonError, parse_json
from gamebag.web.admission.guard import client_address
from gamebag.web.store.db import Store, TableRow
from gamebag.web.tables.coachsetting import CoachError, CoachSetting
from gamebag.web.tables.live import LiveTable, SeatError
from gamebag.web.work.workers import CoachJob, JobFailed, JobTimeout, WorkerPool

if TYPE_CHECKING:
    from gamebag.web.tables.manager import TableManager

COACH_SECONDS = 30.0  # the time budget of one piece of advice (a cold worker compiles its playouts)
KEPT_ADVICE = 256  # pieces of advice kept, least recently asked for first out
MAX_UNFINISHED = 64  # advice jobs running or waiting at once, of all addresses; more are refused (429)
MAX_UNFINISHED_PER_ADDRESS = 4  # of one client address: its flood never takes the others' places
QUEUE_SECONDS = 120.0  # advice waiting longer than this for a worker fails (ask again)
RETRY_SECONDS = 2


class CoachBusy(Exception):
    """Too many advice jobs are running or waiting."""


def write_setting(store: Store, table_id: str, change: Callable[[CoachSetting], CoachSetting]) -> CoachSetting:
    """Read the stored setting, change it and write it back in one transaction; other processes hear of it."""
    with store.engine.begin() as connection:
        query = select(TableRow.coach).where(TableRow.id == table_id)
        if store.is_postgresql:
            query = query.with_for_update()  # two seats agreeing at once: one waits for the other
        current = CoachSetting.parse(connection.execute(query).scalar_one_or_none())
        setting = change(current)
        if setting != current:
            connection.execute(update(TableRow).where(TableRow.id == table_id).values(coach=setting.dump()))
            store.announce(connection, table_id, -1, "seats")
    return setting


def change_setting(manager: TableManager, table: LiveTable, **change: Any) -> CoachSetting:
    """Apply one change (``CoachSetting.changed``'s keywords), keep it, and show it to every reader."""
    humans, step = table.human_seats(), table.step
    setting = write_setting(manager.store, table.id, lambda current: current.changed(humans, step, **change))
    if setting.dump() != table.config.coach:
        table.reconfigure(dataclasses.replace(table.config, coach=setting.dump()))
        manager.publish(table)
    return setting


class CoachAdvice:
    """Advice per (table, step, seat): started on first request, then kept."""

    def __init__(self, pool: WorkerPool, seconds: float = COACH_SECONDS) -> None:
        self.pool = pool
        self.seconds = seconds
        self.started = 0
        self._entries: OrderedDict[tuple[str, int, int], JsonDict] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()

    def status(self, table: LiveTable, seat: int, owner: str = "") -> JsonDict:
        """The advice for ``seat`` now, starting its job (in the share of the client address ``owner``)."""
        key = (table.id, table.step, seat)
        entry = self._entries.get(key)
        if entry is None:
            if self.unfinished_of(owner) >= MAX_UNFINISHED_PER_ADDRESS:
                raise CoachBusy(
                    _(
                        "{count} pieces of advice you asked for are being worked out; ask again soon",
                        count=MAX_UNFINISHED_PER_ADDRESS,
                    )
                )
            if self.unfinished >= MAX_UNFINISHED:
                raise CoachBusy(
                    _("{count} pieces of advice are already being worked out; ask again soon", count=MAX_UNFINISHED)
                )
            entry = {"status": "running", "step": table.step, "since": time.monotonic(), "owner": owner, "words": {}}
            self._entries[key] = entry
            finished = [k for k, kept in self._entries.items() if kept["status"] != "running"]
            while len(self._entries) > KEPT_ADVICE and finished:
                del self._entries[finished.pop(0)]
            record = table.match.record.to_json()  # the events so far: never the pending secret choices
            config = table.config
            options = json.dumps(config.options, sort_keys=True)
            job = CoachJob((config.game, config.players, options, "coach"), record, seat)
            task = asyncio.get_running_loop().create_task(self._run(entry, job, owner))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            self.started += 1
        self._entries.move_to_end(key)
        answer = {k: v for k, v in entry.items() if k not in ("since", "owner", "words")}
        answer.setdefault("seconds", round(time.monotonic() - entry["since"], 1))
        if entry["status"] == "done":
            answer["advice"] = self.said(entry, table, seat)
        return answer

    @staticmethod
    def said(entry: JsonDict, table: LiveTable, seat: int) -> JsonDict:
        """The advice of a finished entry in the current language (made once per language, then kept),
        from ``seat``'s view of the table now (the entry's step: its key)."""
        language = current_language()
        kept: dict[str, JsonDict] = entry["words"]
        advice = kept.get(language)
        if advice is None:
            from gamebag.analysis.coach import reworded  # the solvers' modules: loaded when advice is first said

            try:
                view = table.game.observation(table.match.state, seat)
                advice = reworded(table.game, view, entry["advice"])
            except (KeyError, TypeError, ValueError, IndexError):  # advice that no longer fits: as it was made
                advice = entry["advice"]
            kept[language] = advice
        return advice

    @property
    def unfinished(self) -> int:
        return sum(1 for entry in self._entries.values() if entry["status"] == "running")

    def unfinished_of(self, owner: str) -> int:
        """Advice jobs the client address ``owner`` started that are running or waiting."""
        return sum(1 for entry in self._entries.values() if entry["status"] == "running" and entry["owner"] == owner)

    async def _run(self, entry: JsonDict, job: CoachJob, owner: str) -> None:
        try:
            advice = await self.pool.run(job, self.seconds, owner=owner, queue_seconds=QUEUE_SECONDS)
        except (JobTimeout, JobFailed) as error:
            entry.update(status="failed", error=str(error), seconds=round(time.monotonic() - entry["since"], 1))
            return
        entry.update(status="done", advice=advice, seconds=round(time.monotonic() - entry["since"], 1))


def register(app: FastAPI, manager_of: Callable[[Request], TableManager]) -> None:
    """Add the coach's routes to ``app``."""

    async def body_of(request: Request, key: str) -> bool:
        try:
            data = parse_json(await request.body() or b"{}")
        except BadJsonError:
            data = None
        if not isinstance(data, dict) or set(data) != {key} or not isinstance(data[key], bool):
            raise CoachError(_('the body must be {{"{key}": true}} or {{"{key}": false}}', key=key))
        return bool(data[key])

    def seat_of(request: Request, table: LiveTable) -> int | None:
        token = request.headers.get("x-seat-token")
        return table.seat_of_token(token) if token else None

    @app.post("/api/tables/{table_id}/coach")
    async def offer(request: Request, table_id: str) -> dict[str, Any]:
        """The host offers the coach (each person's seat must then agree) or withdraws it."""
        manager = manager_of(request)
        table = await manager.get_async(table_id)  # loaded off the event loop if need be
        manager.check_host(table, request.headers.get("x-host-token"))
        on = await body_of(request, "on")
        if on and table.is_over:
            raise CoachError(_("the game is over: there is nothing left to coach"))
        setting = change_setting(manager, table, offer=on)
        return {"coach": setting.public(table.human_seats())}

    @app.post("/api/tables/{table_id}/coach/consent")
    async def consent(request: Request, table_id: str) -> dict[str, Any]:
        """A person's seat agrees to the host's offer of a coach, or takes its consent back."""
        manager = manager_of(request)
        table = await manager.get_async(table_id)  # loaded off the event loop if need be
        seat = seat_of(request, table)
        if seat is None:
            raise SeatError(_("only a person's seat agrees to the coach (the X-Seat-Token header)"))
        agree = await body_of(request, "agree")
        setting = change_setting(manager, table, seat=seat, agree=agree)
        return {"coach": setting.public(table.human_seats())}

    @app.get("/api/tables/{table_id}/coach/advice", response_model=None)
    async def advice(request: Request, table_id: str) -> JSONResponse | JsonDict:
        """The advice for the asking seat's decision now, while the coach is on."""
        manager = manager_of(request)
        table = await manager.get_async(table_id)  # loaded off the event loop if need be
        seat = seat_of(request, table)
        if seat is None:
            return JSONResponse({"error": _("the coach advises a seat, never spectators")}, status_code=403)
        humans = table.human_seats()
        setting = CoachSetting.parse(table.config.coach)
        if manager.store.is_postgresql:  # another process may have changed it a moment ago (read off the loop)
            setting = await asyncio.to_thread(write_setting, manager.store, table.id, lambda current: current)
        if not setting.is_on(humans):
            missing = sorted(set(humans) - setting.agreed)
            if not setting.offered:
                why = _("the coach is off at this table: the host has not offered it")
            else:
                why = ngettext(
                    "the coach is off at this table: seat {seats} has not agreed",
                    "the coach is off at this table: seats {seats} have not agreed",
                    len(missing),
                    seats=join_list([str(s) for s in missing]),
                )
            return JSONResponse({"error": why}, status_code=409)
        if table.is_over or seat not in table.acting() or len(table.legal_json(seat)) < 2:
            return JSONResponse({"error": _("seat {seat} has no choice to make now", seat=seat)}, status_code=409)
        if setting.noted(humans, table.step) != setting:  # on since a seat went to a bot: the record says so
            change_setting(manager, table)
        coach: CoachAdvice | None = getattr(request.app.state, "coach", None)
        if coach is None:
            coach = request.app.state.coach = CoachAdvice(manager.pool)
        try:
            return coach.status(table, seat, client_address(request.scope))
        except CoachBusy as error:
            return JSONResponse({"error": str(error)}, status_code=429, headers={"Retry-After": str(RETRY_SECONDS)})
