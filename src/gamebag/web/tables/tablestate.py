"""What every part of the table manager shares: its state, its errors, and the parts' interface.

``TableManager`` (``manager.py``) is assembled from three parts that each read alone:
``acting.py`` (apply an action, send each reader its view), ``automation.py`` (bots and the
turn clock) and ``ownership.py`` (a cluster's leases, replicas, promotion and forwarding).
They share the state held here; ``ManagerState`` also declares the few methods one part calls
in another, so each part names what it relies on.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gamebag.core.errors import GamebagError
from gamebag.core.i18n import use_language
from gamebag.core.protocol import JsonDict
from gamebag.web.admission.guard import RateLimits
from gamebag.web.settings import Limits
from gamebag.web.store.busseal import Sealer
from gamebag.web.store.cluster import Bus
from gamebag.web.store.db import Store, StoredTable, sqlite_path
from gamebag.web.store.faults import StorageHealth, watch_sqlite_files
from gamebag.web.tables.chat import TableChat
from gamebag.web.tables.claims import MOVED_TEXT
from gamebag.web.tables.hub import Hub
from gamebag.web.tables.live import LiveTable, Staged, Submission
from gamebag.web.tables.turnclock import BankClock, BankSettings, SeatBank, TableBanks
from gamebag.web.words.text import N_, _
from gamebag.web.work.workers import AgentKey, WorkerPool


class UnknownTableError(LookupError):
    """A table id that this server does not hold."""


class TableClosedError(LookupError):
    """A table closed by its host or expired: it is kept (its record too) but nobody plays it."""


class HostError(PermissionError):
    """A host-only request without the table's host token."""


class ForwardError(GamebagError):
    """An action for a table owned by another process that could not be confirmed."""


class StaleStepError(GamebagError):
    """An action chosen at a step the table has moved on from (or for a seat that already chose)."""


@dataclass
class TableClock:
    """The turn timer of one table: the step it runs for and its deadline."""

    step: int = -1
    deadline: float | None = None
    handle: asyncio.TimerHandle | None = None


@dataclass
class SeatAid:
    """What the server does for a table's people (``forcing.py``), each seat's own business.

    ``notes``: the moves made for each seat (its only legal move, or a pass it asked for),
    newest last, told to that seat alone; ``passing``: the period (an Eigen Kweek round) for
    which each seat asked to pass the character windows unless it acts. Both are stored
    (``store/seataid.py``), one write at a time (``saving``).
    """

    notes: dict[int, deque[JsonDict]] = field(default_factory=dict)
    passing: dict[int, Any] = field(default_factory=dict)
    # one write of a table's aid at a time, each storing what is held when it starts (forcing.py)
    saving: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class TableAutomation:
    """Bot moves already scheduled, by (seat, step), the turn clock and the table's running tasks."""

    scheduled: set[tuple[int, int]] = field(default_factory=set)
    clock: TableClock = field(default_factory=TableClock)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    touched: float = field(default_factory=time.monotonic)
    # a cluster: the clock needs storing (and the task storing it runs); the clock the previous
    # owner stored (step, wall-clock deadline), kept by a process that takes the table over
    clock_dirty: bool = False
    clock_writing: bool = False
    inherited: tuple[int, float | None] | None = None
    # the turn clock waits until every person's seat has connected once (or the host starts it)
    everyone_came: bool = False
    aid: SeatAid = field(default_factory=SeatAid)
    warmed: bool = False  # a worker was asked to get ready for this finished game's analysis


def agent_key(table: LiveTable, spec: str) -> AgentKey:
    config = table.config
    return (config.game, config.players, json.dumps(config.options, sort_keys=True), spec)


BankChanges = dict[int, SeatBank]  # the seats' banks an action changes (``banks.py``)

LOADS_AT_ONCE = 2  # tables read and rebuilt in threads at once; more wait their turn


class ManagerState:
    """The state of every table of this server, shared by the manager's parts."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        allow_seed: bool = False,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.hub = Hub()
        self.pool = WorkerPool(self.limits.bot_workers)
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.tables: dict[str, LiveTable] = {}
        self._automation: dict[str, TableAutomation] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._summaries: dict[str, dict[str, Any]] = {}  # end summaries of loaded finished tables
        self._summarizing: set[str] = set()  # end summaries being built in threads (acting.py)
        self._no_rematch: set[str] = set()  # rematches found closed or gone: never loaded again
        self._loading: dict[str, asyncio.Task[LiveTable]] = {}  # tables being loaded off the loop (manager.py)
        self._load_slots = asyncio.Semaphore(LOADS_AT_ONCE)
        self.actions_accepted = 0
        self.fallback_moves = 0
        self.storage = StorageHealth()  # whether the database takes writes (``/api/health``'s ready)
        watch_sqlite_files(store.engine, sqlite_path(store.url))
        # a cluster (PostgreSQL): this process's id, the bus, tables owned elsewhere that local
        # clients watch, forwarded actions awaiting their answer, seats connected elsewhere
        self.node: str | None = None
        self.bus: Bus | None = None
        self.replicas: dict[str, LiveTable] = {}
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._remote_seats: dict[str, dict[str, set[int]]] = {}
        self._owner_of: dict[str, str] = {}  # the process that last wrote each watched table
        self._remote_clocks: dict[str, tuple[int, float | None]] = {}  # the owner's clock: step, deadline
        self._leases: asyncio.Task[None] | None = None
        self.takeovers = 0
        self.sealer: Sealer | None = None  # seals forwarded actions on the bus (busseal.py)
        # a cluster: the new solves' worker time every process counts (app.py sets it on PostgreSQL)
        self.cluster_solves: RateLimits | None = None
        self.chat = TableChat(self)  # the tables' chat and reactions (chat.py)
        self.banks: dict[str, TableBanks] = {}  # time banks of loaded tables (banks.py)
        self.bank_clock = BankClock()  # the one source of time for banks (tests move it by days)
        self._bank_checker: asyncio.Task[None] | None = None
        # banks read in a loading thread with their table's rows, taken as it is installed (banks.py)
        self._banks_read: dict[str, tuple[BankSettings | None, dict[int, SeatBank]]] = {}

    def owns(self, table: LiveTable) -> bool:
        return self.tables.get(table.id) is table

    def _spawn(self, automation: TableAutomation, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        automation.tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(automation.tasks.discard)

    def _spawn_task(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---- what one part calls in another: declared for the type checker, defined in manager.py,
    # acting.py, automation.py and ownership.py (the parts TableManager is made of)
    if TYPE_CHECKING:
        def get(self, table_id: str) -> LiveTable:
            ...

        def _unload(self, table_id: str, release: bool = True) -> None:
            ...

        async def get_async(self, table_id: str) -> LiveTable:
            ...

        async def act(
            self, table: LiveTable, seat: int, action_json: Any, step: int | None = None, waiting: bool = False
        ) -> Submission:
            ...

        async def act_durably(self, table: LiveTable, seat: int, action_json: Any, step: int, why: str) -> None:
            ...

        def publish(self, table: LiveTable, only: Collection[int] | None = None) -> None:
            ...

        def announce_presence(self, table: LiveTable, broadcast: bool = True) -> None:
            ...

        def automate(self, table: LiveTable) -> None:
            ...

        def _take_clock(self, table_id: str, message: dict[str, Any]) -> None:
            ...

        def _inherit_clock(self, stored: StoredTable) -> None:
            ...

        def _adopt_stored_clock(self, stored: StoredTable) -> None:
            ...

        def _demote(self, table_id: str) -> None:
            ...

        def _aid_seats(self, table: LiveTable, automation: TableAutomation, waiting: tuple[int, ...]) -> None:
            ...

        def own_facts(self, table: LiveTable, seat: int | None) -> JsonDict:
            ...

        def _read_aid(self, table_id: str) -> SeatAid:
            ...

        def _adopt_aid(self, table_id: str, aid: SeatAid) -> None:
            ...

        def _on_presence(self, table: LiveTable) -> None:
            ...

        def clock_waits(self, table: LiveTable) -> bool:
            ...

        def connected_seats(self, table_id: str) -> set[int]:
            ...

        def banks_after(self, table: LiveTable, staged: Staged) -> BankChanges:
            ...

        async def banks_written(self, table: LiveTable, changed: BankChanges) -> None:
            ...

        def bank_facts(self, table: LiveTable) -> JsonDict | None:
            ...

        def _load_table_banks(self, table: LiveTable) -> None:
            ...

        def start_banks(self, table: LiveTable) -> None:
            ...

        def take_banks(self, table_id: str, message: dict[str, Any]) -> None:
            ...


# Why a table closed (its stored ``reason``: "host", or the sweep's), as its readers are told.
CLOSED_TEXTS = {
    "host": N_("this table was closed by its host"),
    "idle": N_("this table was closed after a long time with no move"),
}
CLOSED_TABLE_TEXTS = {
    "host": N_("table {table} was closed by its host"),
    "idle": N_("table {table} was closed after a long time with no move"),
}


def closed_words(reason: str, table_id: str | None = None) -> str:
    """Why the table closed, in the current language: "this table was closed by its host", or with
    the table's id where it is named (``table_id``)."""
    key = "host" if reason == "host" else "idle"
    if table_id is None:
        return _(CLOSED_TEXTS[key])
    return _(CLOSED_TABLE_TEXTS[key], table=table_id)


def closed_message(reason: str, language: str) -> str:
    """The ``closed`` message of one reader, in its language."""
    with use_language(language):
        return json.dumps({"type": "closed", "reason": reason, "message": closed_words(reason)}, separators=(",", ":"))


def moved_notice(language: str) -> str:
    """The notice to a seat's sockets that the host re-issued its invite, in the reader's language."""
    with use_language(language):
        text = _(MOVED_TEXT)
    return json.dumps({"type": "error", "code": "moved", "message": text, "ref": None}, separators=(",", ":"))
