"""One declared table of what every client request and socket message may cost the server.

Every HTTP route, mount and socket route of the app has a **cost class** here
(``ROUTE_COSTS``, keyed by method and path template), and every socket message type
has one too (``SOCKET_COSTS``). ``Admission`` (an ASGI middleware behind the guard)
finds the route a request goes to, charges the class's budget per client address
(per /64 for IPv6: ``addresses.rate_key``) and, where the request names a seat
(``X-Seat-Token``), per seat; past either it answers 429 with ``Retry-After`` (a
socket: the same 429, or a close where the server cannot answer with a status) and
nothing behind it runs. The counts are ``RateLimits``' moving windows: in a cluster
they live in the shared PostgreSQL database (``ratestore.py``), so a budget holds for
the whole deployment, not per process.

A route with no declared class (a route added without its line here) is still admitted,
under ``UNDECLARED``: a small bounded budget, never an unlimited one, and one log line
naming it. ``tests/web/test_admission_costs.py`` fails on any such route or message type,
and checks that docs/web.md shows ``markdown_table``'s output.

Some classes are charged by handlers on top of their route's class, for work a request causes
only sometimes: ``load`` (a table not in memory, or no table: a load from the database and a
rebuild), ``open`` (a rematch or quick play that opens a new table), ``sign-in`` (sign-ins,
sign-ups, recoveries) and ``seat-take`` (a free seat taken, "Play now").

Socket messages are admitted per connection (``hub.RateLimiter`` token buckets, one per
class, under the connection's overall flood bucket) and, for the costly answer, per
seat across the seat's sockets (``SEAT_SYNC_*`` in ``hub.py``). Since a client's open
sockets are bounded for the whole cluster (``sockets_per_address``), so is the rate of
messages it can send.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

from starlette.routing import Match

from gamebag.web.admission.addresses import client_address, close_reason
from gamebag.web.settings import Limits
from gamebag.web.words.text import N_

log = logging.getLogger("gamebag.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class CostClass:
    """What one kind of request costs, and its budget (requests a minute, from ``Limits``)."""

    name: str  # the language-neutral code (logs, docs, the refusal's ``cost`` field)
    budget_field: str  # the ``Limits`` field with the budget per client address (and per seat) a minute
    what: str  # the requests in players' words, as the refusal names them ("lobby listings"; N_-marked)
    answer: str  # the bound on the answer's size (docs/web.md)
    hourly_field: str | None = None  # a second, hourly budget (``Limits``), if any

    def per_minute(self, limits: Limits) -> int:
        return int(getattr(limits, self.budget_field))

    def per_hour(self, limits: Limits) -> int | None:
        return None if self.hourly_field is None else int(getattr(limits, self.hourly_field))


COST_CLASSES: dict[str, CostClass] = {
    cost.name: cost
    for cost in (
        CostClass("page", "pages_per_minute", N_("page loads"), "one static HTML page (under 8 KB)"),
        CostClass("static", "static_per_minute", N_("file downloads"), "one static file (under 64 KB)"),
        CostClass(
            "read",
            "reads_per_minute",
            N_("requests"),
            "one table's public facts and view, or the catalogue (under 1 MB)"
        ),
        CostClass(
            "lobby", "lobby_lists_per_minute", N_("lobby listings"), "the newest tables' summary rows (bounded list)"
        ),
        CostClass("agents", "agent_checks_per_minute", N_("bot questions"), "the bots for one game (a few KB)"),
        CostClass(
            "open",
            "tables_per_minute",
            N_("new tables"),
            "the new table's invite links (a few KB)",
            hourly_field="tables_per_hour",
        ),
        CostClass("manage", "manage_per_minute", N_("table changes"), "one table's facts (a few KB)"),
        CostClass("account", "account_requests_per_minute", N_("account requests"), "one account's facts (a few KB)"),
        CostClass("download", "downloads_per_minute", N_("record and replay downloads"), "one game's record or replay"),
        CostClass("analysis", "analysis_polls_per_minute", N_("analysis requests"), "one game's analysis (under 1 MB)"),
        CostClass("advice", "advice_polls_per_minute", N_("coach requests"), "one decision's advice (a few KB)"),
        CostClass(
            "your-move",
            "your_move_lists_per_minute",
            N_('"your move" lists'),
            "at most 20 tables' public facts (a few KB)"
        ),
        CostClass("report", "reports_per_minute", N_("error reports"), "a few bytes (each report is one log line)"),
        CostClass("connect", "connects_per_minute", N_("new connections"), "a socket (its messages: SOCKET_COSTS)"),
        CostClass(
            "load", "loads_per_minute", N_("requests for tables not in memory"), "charged with the route's class"
        ),
        CostClass(
            "sign-in",
            "sign_ins_per_minute",
            N_("sign-in attempts"),
            "charged with the route's class",
            hourly_field="sign_ins_per_hour",
        ),
        CostClass("seat-take", "seat_takes_per_minute", N_("seats taken"), "charged with the route's class"),
        CostClass(
            "unknown",
            "unknown_paths_per_minute",
            N_("requests for unknown addresses"),
            "a short 404 or 405 (under 100 B)"
        ),
        CostClass("undeclared", "undeclared_per_minute", N_("requests"), "a route not in this table: a small budget"),
    )
}
UNDECLARED = "undeclared"  # the class of a route with no line in ROUTE_COSTS (bounded, never free)
UNKNOWN = "unknown"  # the class of a path no route answers (404)
SOCKET = "WS"  # the "method" of socket routes in ROUTE_COSTS

# Every route of the app: (method, path template) -> cost class. HEAD is counted as GET.
ROUTE_COSTS: dict[tuple[str, str], str] = {
    ("GET", "/"): "page",
    ("GET", "/play/{table_id}"): "page",
    ("GET", "/host/{table_id}"): "page",
    ("GET", "/replay/{table_id}"): "page",
    ("GET", "/static"): "static",
    ("GET", "/openapi.json"): "read",
    ("GET", "/api/games"): "read",
    ("POST", "/api/games/agents"): "agents",
    ("GET", "/api/games/{game_id}/rules"): "read",
    ("GET", "/api/server"): "read",
    ("GET", "/api/limits"): "read",
    ("GET", "/api/health"): "read",
    ("GET", "/api/tables"): "lobby",
    ("POST", "/api/tables"): "open",
    ("GET", "/api/tables/{table_id}"): "read",
    ("POST", "/api/tables/{table_id}/close"): "manage",
    ("POST", "/api/tables/{table_id}/clock"): "manage",
    ("POST", "/api/tables/{table_id}/seats/{seat}/reissue"): "manage",
    ("POST", "/api/tables/{table_id}/seats/{seat}/bot"): "manage",
    ("POST", "/api/tables/{table_id}/claim"): "manage",
    ("GET", "/api/tables/{table_id}/host"): "manage",
    ("POST", "/api/tables/{table_id}/rematch"): "manage",
    ("POST", "/api/tables/{table_id}/coach"): "manage",
    ("POST", "/api/tables/{table_id}/coach/consent"): "manage",
    ("GET", "/api/tables/{table_id}/coach/advice"): "advice",
    ("GET", "/api/tables/{table_id}/record"): "download",
    ("GET", "/api/tables/{table_id}/replay"): "download",
    ("GET", "/api/tables/{table_id}/analysis"): "analysis",
    ("POST", "/api/client-errors"): "report",
    (SOCKET, "/ws/tables/{table_id}"): "connect",
    # the players' rules page (rulespage.py)
    ("GET", "/rules/{game_id}"): "page",
    ("GET", "/api/games/{game_id}/players-rules"): "read",
    # the reader's language (words/routes.py): the translation script and the switcher
    ("GET", "/i18n/{name}"): "static",
    ("GET", "/language"): "page",
    # chat (tables/chatroutes.py)
    ("GET", "/api/tables/{table_id}/chat"): "download",
    ("POST", "/api/tables/{table_id}/chat/settings"): "manage",
    ("GET", "/api/tables/{table_id}/chat/settings"): "read",
    # time banks (tables/bankroutes.py)
    ("POST", "/api/tables/{table_id}/vacation"): "manage",
    # accounts, sessions, passkeys and seats that follow people (people/); sign-ins, sign-ups and
    # recoveries are charged ``sign-in`` by their handlers too
    ("GET", "/account"): "page",
    ("GET", "/api/me"): "read",
    ("GET", "/api/me/seats"): "read",
    ("GET", "/api/me/export"): "download",
    ("POST", "/api/account/signup"): "account",
    ("POST", "/api/account/signin"): "account",
    ("POST", "/api/account/recover"): "account",
    ("POST", "/api/account/signout"): "account",
    ("POST", "/api/account/passkey/options"): "account",
    ("POST", "/api/account/passkey"): "account",
    ("POST", "/api/me/name"): "account",
    ("POST", "/api/me/password"): "account",
    ("POST", "/api/me/recovery-codes"): "account",
    ("POST", "/api/me/delete"): "account",
    ("POST", "/api/me/passkeys/options"): "account",
    ("POST", "/api/me/passkeys"): "account",
    ("GET", "/api/me/passkeys"): "read",
    ("POST", "/api/me/passkeys/remove"): "account",
    ("POST", "/api/me/seats/adopt"): "account",
    ("POST", "/api/tables/{table_id}/seats/{seat}/invite-account"): "manage",
    # open tables, quick play, ratings and home pages (people/standingroutes.py); a seat taken and
    # quick play are charged ``seat-take`` (and a table quick play opens ``open``) by their handlers
    ("GET", "/home"): "page",
    ("GET", "/leaderboard"): "page",
    ("GET", "/people/{account_id}"): "page",
    ("POST", "/api/tables/{table_id}/take"): "manage",
    ("POST", "/api/tables/{table_id}/public"): "manage",
    ("GET", "/api/tables/{table_id}/listing"): "read",
    ("POST", "/api/quickplay"): "manage",
    ("GET", "/api/tables/{table_id}/series"): "lobby",
    ("POST", "/api/home"): "lobby",
    ("GET", "/api/leaderboard"): "lobby",
    ("GET", "/api/people/{account_id}"): "lobby",
    # the "your move" list and e-mail notices (notices/routes.py): open pages poll the list, so it
    # has a class of its own and spares the lobby's budget
    ("POST", "/api/yourmove"): "your-move",
    ("GET", "/api/notices/email"): "read",
    ("POST", "/api/notices/email"): "account",
    ("POST", "/api/notices/settings"): "account",
    ("POST", "/api/notices/confirm"): "account",
    ("POST", "/api/notices/unsubscribe"): "account",
    ("GET", "/api/notices/unsubscribe"): "page",
    ("GET", "/notices"): "page",
}


@dataclass(frozen=True)
class SocketCost:
    """What one socket message type costs: a token bucket per connection (and per seat where given)."""

    name: str
    rate: float  # messages a second, on average, per connection
    burst: float  # ... and in one burst
    answer: str  # the bound on the answer's size (docs/web.md)
    per_seat: str = ""  # the budget shared by a seat's sockets, if any (docs/web.md)


# Every socket message type (``ws.MESSAGE_TYPES``), and ``other`` for frames that are not one.
# Every frame also passes the connection's overall bucket (``hub.FLOOD_RATE``/``FLOOD_BURST``).
SOCKET_COSTS: dict[str, SocketCost] = {
    "hello": SocketCost("hello", 1.0, 3.0, "a welcome and one full state (tens of KB on a long game)"),
    "act": SocketCost(
        "act",
        50.0,
        100.0,
        "an ack (under 100 B) or a refusal (under 300 B); the state only within the seat's budget",
        per_seat="3 full states a minute on stale or refused actions",
    ),
    "sync": SocketCost("sync", 1.0, 5.0, "one full state with its history (tens of KB on a long game)"),
    "standing_pass": SocketCost("standing_pass", 5.0, 10.0, "the seat's own state (a few KB)"),
    "ping": SocketCost("ping", 10.0, 20.0, "a pong (under 100 B)"),
    # chat.py's own bounds per seat (and per spectator's address) are the tighter ones; these only
    # cap what a socket's refused lines can cost (each answered with a short refusal)
    "chat": SocketCost(
        "chat", 2.0, 20.0, "one line to the table's readers (200 characters)", per_seat="a line every 3 s, bursts of 5"
    ),
    "react": SocketCost("react", 2.0, 20.0, "one reaction to the table's readers (under 200 B)"),
    "other": SocketCost("other", 5.0, 10.0, "an error (under 300 B)"),
}
SOCKET_OTHER = "other"


def socket_cost(kind: object) -> SocketCost:
    """The cost of a socket message of type ``kind`` (anything undeclared: ``other``, bounded)."""
    return SOCKET_COSTS.get(kind, SOCKET_COSTS[SOCKET_OTHER]) if isinstance(kind, str) else SOCKET_COSTS[SOCKET_OTHER]


def route_key(scope: Scope, path: str) -> tuple[str, str]:
    """The ``ROUTE_COSTS`` key of the route at ``path`` (its template) for a request (``scope``)."""
    method = SOCKET if scope["type"] == "websocket" else str(scope.get("method", "GET")).upper()
    return ("GET" if method == "HEAD" else method, path)


def flat_routes(routes: Iterable[Any], prefix: str = "") -> Iterator[tuple[Any, str]]:
    """Each route of ``routes`` with its whole path, the routes of included routers too (FastAPI
    keeps an included router as one entry holding the router)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            context = getattr(route, "include_context", None)
            yield from flat_routes(inner.routes, prefix + str(getattr(context, "prefix", "") or ""))
        else:
            yield route, prefix + str(getattr(route, "path", ""))


def declared_keys(routes: list[Any]) -> list[tuple[str, str]]:
    """Every (method, path template) ``routes`` answer (mounts as GET, sockets as ``SOCKET``)."""
    keys: list[tuple[str, str]] = []
    for route, path in flat_routes(routes):
        methods = getattr(route, "methods", None)
        if methods:
            keys.extend(("GET" if m == "HEAD" else m, path) for m in sorted(methods))
        elif type(route).__name__.endswith("WebSocketRoute"):
            keys.append((SOCKET, path))
        else:  # a mount (static files)
            keys.append(("GET", path))
    return sorted(set(keys))


def seat_key(scope: Scope) -> str | None:
    """The per-seat budget key of a request naming a seat token (a digest: never the token itself)."""
    for name, value in scope.get("headers", ()):
        if name == b"x-seat-token" and value:
            return "seat " + hashlib.sha256(bytes(value)).hexdigest()[:24]
    return None


Charge = Callable[[str, str, str | None], Awaitable[None]]  # (class, address, seat key) -> raises if refused


class Admission:
    """The ASGI middleware that admits every HTTP request and socket through its route's cost class.

    ``charge`` (``RateLimits.admit``) raises ``RateLimited`` past a budget; the request is then
    answered 429 with ``Retry-After`` here and reaches no route."""

    def __init__(self, app: ASGIApp, charge: Charge, refused: type[Exception]) -> None:
        self.app = app
        self.charge = charge
        self.refused = refused
        self._warned: set[tuple[str, str]] = set()
        self._version: tuple[int, ...] = ()
        self._flat: list[tuple[Any, str, str]] = []

    def cost_of(self, scope: Scope) -> str:
        """The cost class of the route ``scope`` goes to (``UNKNOWN`` when none does)."""
        app = scope.get("app")
        routes: list[Any] = list(getattr(getattr(app, "router", None), "routes", []))
        version = tuple(map(id, routes))
        if version != self._version:  # the app's routes, flattened once (and again if they change)
            self._flat = [
                (route, path, path[: len(path) - len(str(getattr(route, "path", "")))])
                for route, path in flat_routes(routes)
            ]
            self._version = version
        asked = str(scope.get("path", ""))
        for route, path, prefix in self._flat:
            if prefix and not asked.startswith(prefix):
                continue
            match, _ = route.matches({**scope, "path": asked[len(prefix) :]} if prefix else scope)
            if match == Match.FULL:
                return self._declared(scope, path)
        return UNKNOWN  # no route, or a route's path with another method (a short 404 or 405)

    def _declared(self, scope: Scope, path: str) -> str:
        key = route_key(scope, path)
        cost = ROUTE_COSTS.get(key)
        if cost is None:
            if key not in self._warned:
                self._warned.add(key)
                log.warning("route %s %s has no cost class in admission/costs.py; admitted as %r", *key, UNDECLARED)
            return UNDECLARED
        return cost

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        cost = self.cost_of(scope)
        scope["gamebag.cost"] = cost
        try:
            await self.charge(cost, client_address(scope), seat_key(scope))
        except self.refused as refusal:
            await _refuse(scope, send, str(refusal), int(getattr(refusal, "retry_after", 1)), cost)
            return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send, text: str, retry_after: int, cost: str) -> None:
    """429 with ``Retry-After`` (a socket: the same, where the server can answer it with a status)."""
    payload = json.dumps({"error": text, "cost": cost}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"retry-after", str(retry_after).encode()),
    ]
    if scope["type"] == "websocket":
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1013, "reason": close_reason(text)})
            return
        await send({"type": "websocket.http.response.start", "status": 429, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": payload})
        return
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def markdown_table(limits: Limits) -> str:
    """docs/web.md's table of every route's cost class, budget and answer bound (checked by a test)."""
    lines = [
        "| route | cost class | budget per address (and per seat) | answer |",
        "|---|---|---|---|",
    ]
    for (method, path), name in sorted(ROUTE_COSTS.items(), key=lambda item: (item[0][1], item[0][0])):
        cost = COST_CLASSES[name]
        hourly = cost.per_hour(limits)
        budget = f"{cost.per_minute(limits)} a minute" + (f", {hourly} an hour" if hourly else "")
        lines.append(f"| `{method} {path}` | {name} | {budget} | {cost.answer} |")
    for name, cost in COST_CLASSES.items():  # charged by handlers, or with no route of their own
        if name in ROUTE_COSTS.values():
            continue
        hourly = cost.per_hour(limits)
        budget = f"{cost.per_minute(limits)} a minute" + (f", {hourly} an hour" if hourly else "")
        lines.append(f"| ({name}) | {name} | {budget} | {cost.answer} |")
    lines += [
        "",
        "| socket message | rate per connection | burst | per seat | answer |",
        "|---|---|---|---|---|",
    ]
    for name, socket in SOCKET_COSTS.items():
        lines.append(
            f"| `{name}` | {socket.rate:g} a second | {socket.burst:g} | {socket.per_seat or '-'} | {socket.answer} |"
        )
    return "\n".join(lines)
