"""What keeps one client from taking the server: request guards, rate limits, security headers.

``Guard`` is an ASGI middleware in front of every route:

* a request (or socket) to a name this server is not known by (the Host header:
  DNS rebinding) is refused with 421 (``addresses.py``);
* request bodies are counted while they are read and cut off past the limit
  with 413 (a ``Content-Length`` over it is refused before reading anything),
  so a huge or endless chunked upload costs the server nothing; a body must be in
  within ``BODY_SECONDS`` (408 and the connection closed), and a client that goes
  away mid-body is one short log line (``QuietLine``), never a traceback;
* a request that changes something (POST, PUT, PATCH, DELETE) must carry JSON
  (415 otherwise) and, if the browser names an ``Origin``, come from this
  server's own origin or an allowed one (403): a page on another site cannot
  open or close tables with a visitor's browser; the same holds for sockets;
* every page and answer carries a content security policy (scripts only from
  this server, no inline script, no framing) and the usual hardening headers.

``RateLimits`` counts table creations and new sockets per client address with
the ``limits`` library (moving windows: in this process's memory, or in a
cluster in the shared PostgreSQL database, ``ratestore.py``, so the limits hold
for the whole deployment) and the open sockets per address, per table and per
seat (likewise in memory, or in a cluster over every live process).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from limits import RateLimitItem, RateLimitItemPerHour, RateLimitItemPerMinute
from limits.storage import MemoryStorage, Storage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import ClientDisconnect

from gamebag.core.i18n import formatted
from gamebag.web.admission.addresses import client_address as client_address  # imported from here too
from gamebag.web.admission.addresses import close_reason, host_refusal
from gamebag.web.admission.costs import COST_CLASSES, CostClass
from gamebag.web.admission.ratestore import SharedSocketCounts, SocketKey
from gamebag.web.settings import Limits
from gamebag.web.words.text import N_, _

Scope = MutableMapping[str, Any]
_Result = TypeVar("_Result")
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("gamebag.web")

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        # Inline style attributes are allowed (layout only); scripts never are.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
# The one form a mail provider posts (RFC 8058 one-click unsubscribe: ``List-Unsubscribe=One-Click``):
# the only path that may change something without a JSON body; its token is in the URL.
FORM_PATHS = frozenset({"/api/notices/unsubscribe"})
CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class _BodyTooLarge(Exception):
    """Raised from ``receive`` when a body passes the limit; the guard answers 413."""


class _BodyTooSlow(Exception):
    """Raised from ``receive`` when a body is not in by ``BODY_SECONDS``; the guard answers 408."""


class QuietLine:
    """One short log line for something clients can cause at will, at most once per ``seconds``
    (with how many more there were): a flood of them costs the log a line, not megabytes."""

    def __init__(self, what: str, seconds: float = 10.0) -> None:
        self.what, self.seconds = what, seconds
        self.said_at = -math.inf
        self.unsaid = 0

    def note(self, detail: str) -> None:
        now = time.monotonic()
        if now - self.said_at < self.seconds:
            self.unsaid += 1
            return
        more = f" ({self.unsaid} more since the last such line)" if self.unsaid else ""
        log.info("%s: %s%s", self.what, detail, more)
        self.said_at, self.unsaid = now, 0


BODY_SECONDS = 10.0  # a request's body must have arrived by then, from its first read
ABORTED_BODIES = QuietLine("a client went away while sending a request body")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def same_origin(scope: Scope, allowed: tuple[str, ...]) -> bool:
    """Whether the request's Origin (if any) is this server's own or an allowed one."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True  # not sent by a browser on another page (scripts, same-origin GETs)
    host = _header(scope, b"host") or ""
    if origin in allowed:
        return True
    scheme, _sep, rest = origin.partition("://")
    return bool(rest) and rest == host and scheme in ("http", "https")


async def _send_json(send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> None:
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


class Guard:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app: ASGIApp, limits: Limits, host_names: frozenset[str] | None = None) -> None:
        self.app = app
        self.limits = limits
        self.host_names = host_names  # None: any Host (only an app built without names)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = None
        if scope["type"] in ("http", "websocket") and self.host_names is not None:
            refusal = host_refusal(_header(scope, b"host"), self.host_names)
        if refusal is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": close_reason(refusal)})
            else:
                await _send_json(send, 421, {"error": refusal}, list(SECURITY_HEADERS))
            return
        if scope["type"] == "websocket":
            if not same_origin(scope, self.limits.allowed_origins):
                reason = close_reason(_("cross-site socket refused"))
                await send({"type": "websocket.close", "code": 1008, "reason": reason})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {bytes(k).lower() for k, _value in message.get("headers", ())}
                message["headers"] = list(message.get("headers", ())) + [
                    (k, v) for k, v in SECURITY_HEADERS if k not in present
                ]
            await send(message)

        if scope["method"] not in CHANGING_METHODS:
            await self.app(scope, receive, send_with_headers)
            return
        if not same_origin(scope, self.limits.allowed_origins):
            await _send_json(send_with_headers, 403, {"error": _("requests from another site's pages are refused")}, [])
            return
        kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        length_text = _header(scope, b"content-length")
        has_body = length_text != "0" and (length_text is not None or _header(scope, b"transfer-encoding"))
        one_click = kind == "application/x-www-form-urlencoded" and scope["path"] in FORM_PATHS
        if has_body and kind != "application/json" and not one_click:
            await _send_json(
                send_with_headers, 415, {"error": _("send JSON: the Content-Type must be application/json")}, []
            )
            return
        limit = self.limits.max_body
        if length_text is not None and (not length_text.isdigit() or int(length_text) > limit):
            too_large = _("request too large: at most {limit} bytes", limit=limit)
            await _send_json(send_with_headers, 413, {"error": too_large}, [])
            return
        received = 0
        started = False
        deadline: float | None = None
        body_done = False

        async def limited_receive() -> Message:
            nonlocal received, deadline, body_done
            if body_done:  # waiting for the client to go away (a streamed answer): not timed
                return await receive()
            if deadline is None:  # the whole body, however it trickles in, within BODY_SECONDS
                deadline = time.monotonic() + BODY_SECONDS
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise _BodyTooSlow from None
            body_done = message["type"] != "http.request" or not message.get("more_body", False)
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send_with_headers(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _BodyTooLarge:
            if not started:
                await _send_json(
                    send_with_headers,
                    413,
                    {"error": _("request too large: at most {limit} bytes", limit=limit)},
                    [(b"connection", b"close")],
                )
        except _BodyTooSlow:
            if not started:
                await _send_json(
                    send_with_headers,
                    408,
                    {"error": _("request body not received within {seconds} s", seconds=formatted(BODY_SECONDS, "g"))},
                    [(b"connection", b"close")],
                )
        except ClientDisconnect:  # the client went away mid-body: nobody to answer, nothing to trace
            ABORTED_BODIES.note(f"{scope['method']} {scope['path']} from {client_address(scope)}")


# The refusals, in players' words (``what``: the cost class's requests, ``per``: minute or hour).
ADDRESS_REFUSAL = N_("too many {what} from your address: at most {amount} per {per}; try again in {wait} s")
SEAT_REFUSAL = N_("too many {what} for your seat: at most {amount} per {per}; try again in {wait} s")
# A rate's window in the refusals' words (the ``per`` above), by the limits library's granularity.
PER_WORDS = {
    "second": N_("second"),
    "minute": N_("minute"),
    "hour": N_("hour"),
    "day": N_("day"),
}
# The cluster's shared counts failing (the database down): one log line now and then, and
# each process counts on its own meanwhile (still a bound: the process's own budget).
SHARED_COUNTS_DOWN = QuietLine("the shared request counts cannot be read", seconds=60.0)
# New solves' worker time, shared by a cluster's processes: counted in tenths of a second (the
# window's bound is only how many it can hold; the budget is ``Limits.solve_budget_seconds``).
SOLVE_TENTHS_COUNTED = 100_000
SOLVES_REFUSAL = N_(
    "your tables' new solves took {spent:.0f} worker seconds in the last minute (at most {budget:g}); "
    "choose options opened before, or try again in {wait} s"
)
# Classes their handler charges itself: a socket's ``connect`` together with the open-socket bound.
HANDLER_CHARGED = frozenset({"connect"})


def _items_of(cost: CostClass, limits: Limits) -> list[RateLimitItem]:
    items: list[RateLimitItem] = [RateLimitItemPerMinute(cost.per_minute(limits))]
    hourly = cost.per_hour(limits)
    if hourly is not None:
        items.append(RateLimitItemPerHour(hourly))
    return items


class RateLimited(Exception):
    """A client over a limit; ``retry_after`` is in whole seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimits:
    """Rates per client address (``limits`` moving windows) and open-socket counts.

    Open sockets are counted per client address (from the moment they connect), and once
    they say hello, per table they watch (spectators) or per seat token they hold. Seats
    and watchers are counted apart, so spectators (or anyone knowing a table's id) can
    never fill a table and lock its players out. The counts are in this process's memory,
    or in a cluster over every live process (``share_sockets``, in the shared database), so
    a client reaching several processes still gets the documented bound in all.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._local = MovingWindowRateLimiter(MemoryStorage())  # this process's counts
        self._limiter = self._local  # the counts in use: shared by the cluster once ``share`` is called
        self.shared = False
        # One budget (or two: a minute's and an hour's) per cost class (``costs.py``).
        self._items: dict[str, list[RateLimitItem]] = {
            name: _items_of(cost, limits) for name, cost in COST_CLASSES.items()
        }
        # This process's open sockets (in a cluster, also written to the shared counts).
        self.sockets_by_address: Counter[str] = Counter()
        self.sockets_by_table: Counter[str] = Counter()  # sockets watching each table (spectators)
        self.sockets_by_seat: Counter[tuple[str, int]] = Counter()
        self._sockets: SharedSocketCounts | None = None
        self._sockets_stale = False  # a release could not be written: rewrite this process's counts
        self._releasing: set[asyncio.Task[None]] = set()
        # The shared counts' database calls get threads of their own: a burst of arriving sockets
        # waits on one address's lock there, and must not hold the default threads that write
        # the tables' actions.
        self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="gamebag-limits")

    async def _off_loop(self, call: Callable[..., _Result], *args: Any) -> _Result:
        """``call(*args)`` on this object's own threads, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, call, *args)

    def share(self, storage: Storage) -> None:
        """Count the rates in ``storage``, which every process of the deployment shares, from now on."""
        self._limiter = MovingWindowRateLimiter(storage)
        self.shared = True

    def share_sockets(self, counts: SharedSocketCounts) -> None:
        """Count open sockets over every live process of the cluster, from now on."""
        self._sockets = counts

    async def stop(self) -> None:
        """This process stops serving: its sockets leave the shared counts."""
        if self._releasing:
            await asyncio.wait(set(self._releasing), timeout=5.0)
        counts, self._sockets = self._sockets, None
        if counts is not None:
            try:
                await self._off_loop(counts.forget)
            except Exception:  # its rows stop counting anyway once its heartbeat runs out
                log.warning("the open-socket counts could not be cleared", exc_info=True)

    def _hit(self, items: list[RateLimitItem], key: str, cost: str, refusal: str = ADDRESS_REFUSAL) -> None:
        if self.shared:
            try:
                self._hit_in(self._limiter, items, key, cost, refusal)
                return
            except SQLAlchemyError as error:  # the shared counts cannot be read: this process's own count
                SHARED_COUNTS_DOWN.note(f"{type(error).__name__}; counting {cost} in this process meanwhile")
        self._hit_in(self._local, items, key, cost, refusal)

    def _hit_in(
        self, limiter: MovingWindowRateLimiter, items: list[RateLimitItem], key: str, cost: str, refusal: str
    ) -> None:
        if len(items) > 1:  # a minute's and an hour's budget: neither is spent when the other refuses
            for item in items:
                if not limiter.test(item, cost, key):
                    self._refuse(limiter, item, key, cost, refusal)
        for item in items:
            if not limiter.hit(item, cost, key):  # over (or another process took the last one meanwhile)
                self._refuse(limiter, item, key, cost, refusal)

    def _refuse(
        self, limiter: MovingWindowRateLimiter, item: RateLimitItem, key: str, cost: str, refusal: str
    ) -> None:
        reset, _remaining = limiter.get_window_stats(item, cost, key)
        wait = max(1, math.ceil(reset - time.time()))
        what = _(COST_CLASSES[cost].what)
        per = item.GRANULARITY.name
        per = _(PER_WORDS[per]) if per in PER_WORDS else per
        raise RateLimited(_(refusal, what=what, amount=item.amount, per=per, wait=wait), wait)

    async def _hit_async(self, items: list[RateLimitItem], key: str, cost: str, refusal: str = ADDRESS_REFUSAL) -> None:
        """``_hit``; off the event loop when the counts are in the shared database."""
        if self.shared:
            await self._off_loop(self._hit, items, key, cost, refusal)
        else:
            self._hit(items, key, cost, refusal)

    async def admit(self, cost: str, address: str, seat: str | None = None) -> None:
        """Charge one request of cost class ``cost`` (``costs.COST_CLASSES``) to ``address`` and, for
        a request naming a seat, to ``seat`` (a key per seat token); ``RateLimited`` past a budget."""
        if cost in HANDLER_CHARGED:
            return
        await self.charge(cost, address)
        if seat is not None:
            await self._hit_async(self._items[cost], seat, cost, SEAT_REFUSAL)

    async def charge(self, cost: str, address: str) -> None:
        """Charge one request of cost class ``cost`` to ``address``: for the classes handlers charge
        on top of their route's (``load``, ``open``); ``RateLimited`` past the budget."""
        await self._hit_async(self._items[cost], address, cost)

    async def new_table(self, address: str) -> None:
        """Count a table creation (a rematch's); ``RateLimited`` past the limits."""
        await self.charge("open", address)

    async def table_load(self, address: str) -> None:
        """Count a request for a table that is not in memory (or does not exist): each is a load
        from the database and a rebuild; ``RateLimited`` past the rate."""
        await self.charge("load", address)

    async def check_solves(self, owner: str, budget_seconds: float) -> None:
        """Refuse (``RateLimited``) a new solve for ``owner`` whose new solves took ``budget_seconds``
        of worker time in the last minute on all the cluster's processes together (shared counts
        only: a single process's own pool keeps this count itself, ``workers.check_solve_budget``)."""
        if not self.shared:
            return
        item = RateLimitItemPerMinute(SOLVE_TENTHS_COUNTED)
        reset, remaining = await self._off_loop(self._limiter.get_window_stats, item, "solve", owner)
        spent = (SOLVE_TENTHS_COUNTED - remaining) / 10
        if spent >= budget_seconds:
            wait = max(1, math.ceil(reset - time.time()))
            raise RateLimited(_(SOLVES_REFUSAL, spent=spent, budget=budget_seconds, wait=wait), wait)

    async def charge_solve(self, owner: str, seconds: float) -> None:
        """Count ``seconds`` of worker time of a new solve against ``owner`` for the whole cluster."""
        if not self.shared:
            return
        item = RateLimitItemPerMinute(SOLVE_TENTHS_COUNTED)
        tenths = min(SOLVE_TENTHS_COUNTED, max(1, math.ceil(seconds * 10)))
        await self._off_loop(partial(self._limiter.hit, item, "solve", owner, cost=tenths))

    async def sign_in(self, address: str) -> None:
        """Count a sign-in, sign-up or recovery attempt from ``address``; ``RateLimited`` past the rate."""
        await self.charge("sign-in", address)

    def _account_check(self, account: str, failed: bool) -> None:
        item, key = RateLimitItemPerHour(self.limits.account_failures_per_hour), "failed sign-ins of one account"
        if not self._limiter.test(item, key, account) or (failed and not self._limiter.hit(item, key, account)):
            reset, _remaining = self._limiter.get_window_stats(item, key, account)
            wait = max(1, math.ceil(reset - time.time()))
            raise RateLimited(
                _("too many failed sign-ins for this account: at most {amount} per hour; try again in {wait} s",
                  amount=item.amount, wait=wait),
                wait,
            )

    async def account_sign_in(self, account: str, failed: bool = False) -> None:
        """Before a sign-in to ``account``: ``RateLimited`` if it has had its most failures this hour;
        ``failed``: count one more failure (whatever the address it came from)."""
        if self.shared:
            await self._off_loop(self._account_check, account, failed)
        else:
            self._account_check(account, failed)

    async def seat_take(self, address: str) -> None:
        """Count a free seat taken or a "Play now" request; ``RateLimited`` past the rate."""
        await self.charge("seat-take", address)

    def _own_counts(self) -> dict[SocketKey, int]:
        counts: dict[SocketKey, int] = {}
        counts.update({("address", a): n for a, n in self.sockets_by_address.items()})
        counts.update({("table", t): n for t, n in self.sockets_by_table.items()})
        counts.update({("seat", f"{t}/{s}"): n for (t, s), n in self.sockets_by_seat.items()})
        return counts

    async def _take_shared(self, counts: SharedSocketCounts, wanted: list[tuple[str, str, int]]) -> list[str]:
        if self._sockets_stale:
            self._sockets_stale = False
            await self._off_loop(counts.replace, self._own_counts())
        return await self._off_loop(counts.take, wanted)

    def _release_shared(self, keys: list[SocketKey]) -> None:
        """Release ``keys`` in the shared counts, in a task of its own: a socket's handler can be
        cancelled as it ends, and its sockets must be released all the same."""
        counts = self._sockets
        if counts is None:
            return
        task = asyncio.get_running_loop().create_task(self._release_in_thread(counts, keys))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def _release_in_thread(self, counts: SharedSocketCounts, keys: list[SocketKey]) -> None:
        try:
            await self._off_loop(counts.release, keys)
        except Exception:
            log.warning("an open-socket count could not be released; rewriting them later", exc_info=True)
            self._sockets_stale = True

    async def open_socket(self, address: str) -> None:
        """Count a new socket from ``address``; ``RateLimited`` past the rate or the open-socket bound."""
        bound = self.limits.sockets_per_address
        refusal = RateLimited(_("too many open connections from your address: at most {bound}", bound=bound), 5)
        counts = self._sockets
        if counts is None:
            if self.sockets_by_address[address] >= bound:
                raise refusal
            await self.charge("connect", address)
        else:
            if await self._take_shared(counts, [("address", address, bound)]):
                raise refusal
            try:
                await self.charge("connect", address)
            except BaseException:
                self._release_shared([("address", address)])
                raise
        self.sockets_by_address[address] += 1

    async def watch_table(self, table_id: str) -> bool:
        """Count a socket watching ``table_id`` (a spectator); False when the table has its most watchers."""
        counts = self._sockets
        bound = self.limits.sockets_per_table
        if counts is None:
            if self.sockets_by_table[table_id] >= bound:
                return False
        elif await self._take_shared(counts, [("table", table_id, bound)]):
            return False
        self.sockets_by_table[table_id] += 1
        return True

    async def take_seat(self, table_id: str, seat: int) -> bool:
        """Count a socket holding ``seat``; False when the seat has its most sockets already."""
        counts = self._sockets
        if counts is None:
            if self.sockets_by_seat[(table_id, seat)] >= self.limits.sockets_per_seat:
                return False
        elif await self._take_shared(counts, [("seat", f"{table_id}/{seat}", self.limits.sockets_per_seat)]):
            return False
        self.sockets_by_seat[(table_id, seat)] += 1
        return True

    def close_socket(self, address: str, watched: str | None = None, seat: tuple[str, int] | None = None) -> None:
        """A socket closed: it counts no more (under the table it watched or the seat it held, if any)."""
        released: list[SocketKey] = [("address", address)]
        _decrement(self.sockets_by_address, address)
        if watched is not None:
            _decrement(self.sockets_by_table, watched)
            released.append(("table", watched))
        if seat is not None:
            _decrement(self.sockets_by_seat, seat)
            released.append(("seat", f"{seat[0]}/{seat[1]}"))
        self._release_shared(released)


def _decrement(counter: Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]
