"""The FastAPI application: lobby API, record and replay downloads, pages, and the table socket.

``create_app`` builds a server around one database; ``gamebag serve`` runs it
with uvicorn. Seat and host tokens travel only in a WebSocket ``hello`` or a
header, never in a page URL the server sees (invite links carry a one-time
invite code after ``#``, which the page exchanges for the seat's own token:
``claims.py``). Every route sits behind ``guard.Guard`` (this server's own
names only, body sizes, JSON-only changes, origin checks, security headers);
every request and socket is then admitted through its route's cost class
(``admission/costs.py``: a budget per address and per seat, 429 past it);
the API docs page is off (it would load third-party scripts), the OpenAPI
schema stays at ``/openapi.json``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from gamebag.core.errors import GamebagError
from gamebag.web.admission.addresses import allowed_host_names
from gamebag.web.admission.bounds import BadJsonError, parse_json
from gamebag.web.admission.costs import Admission
from gamebag.web.admission.guard import Guard, RateLimited, RateLimits, client_address
from gamebag.web.admission.logsafe import guard_log
from gamebag.web.admission.ratestore import PostgresRateStorage, SharedSocketCounts
from gamebag.web.lobby import (
    agent_bounds,
    agents_for,
    agents_for_request,
    catalogue,
    check_agent_for,
    preferred_bot,
    rules_markdown,
)
from gamebag.web.notices.rounds import NoticeTiming, start_notices
from gamebag.web.notices.routes import register as register_notices
from gamebag.web.people import seatroutes
from gamebag.web.people.listing import TEXT as LISTING_TEXT
from gamebag.web.people.listing import copy_listing, is_rated_setup, split_listing, write_listing
from gamebag.web.people.routes import register as register_people
from gamebag.web.people.standingroutes import router as people_router
from gamebag.web.people.upkeep import Upkeep
from gamebag.web.rulespage import rules_router
from gamebag.web.settings import DEFAULT_DB_URL, Limits
from gamebag.web.store.db import Store
from gamebag.web.store.faults import readiness, register_storage_faults
from gamebag.web.tables.analysis import register as register_analysis
from gamebag.web.tables.bankroutes import router as bank_router
from gamebag.web.tables.chatroutes import router as chat_router
from gamebag.web.tables.claims import BY_HOST, invite_path
from gamebag.web.tables.coaching import change_setting
from gamebag.web.tables.coaching import register as register_coach
from gamebag.web.tables.downloads import Downloads
from gamebag.web.tables.invites import lan_address, qr_rows
from gamebag.web.tables.live import LiveTable, SeatError
from gamebag.web.tables.manager import HostError, TableClosedError, TableManager, UnknownTableError
from gamebag.web.tables.messages import record_with_forfeits, rematch_path, result_json
from gamebag.web.tables.tablelist import listed
from gamebag.web.tables.ws import table_socket
from gamebag.web.words.pages import page
from gamebag.web.words.reader import ReaderLanguage
from gamebag.web.words.routes import words_router
from gamebag.web.words.text import _

APP_FACTORY = "gamebag.web.app:app_from_environment"  # what each of ``serve --workers N`` runs
SETTINGS_ENV = "GAMEBAG_SERVE_SETTINGS"  # the settings ``serve`` hands to those processes (JSON)
STATIC_DIR = Path(str(resources.files("gamebag.web").joinpath("static")))

log = logging.getLogger("gamebag.web")


def _json_bytes(value: Any) -> bytes:
    """``value`` as ``JSONResponse`` writes it (compact, UTF-8)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _json_list_bytes(values: list[Any]) -> bytes:
    """``_json_bytes(values)``, one item at a time: one call for megabytes would hold the
    interpreter's lock, and so the event loop, for its whole length, even in a thread."""
    return b"[" + b",".join(_json_bytes(value) for value in values) + b"]"


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


def host_path(table_id: str, token: str) -> str:
    return f"/host/{table_id}#host={token}"


def _next_for_host(manager: TableManager, table: LiveTable) -> str | None:
    """Where the host page sends the host once a rematch is open: the rematch's own host page."""
    rematch = manager.rematch_of(table)
    if rematch is None or not rematch.config.host_token:
        return None if table.config.next_id is None else f"/play/{table.config.next_id}"
    return host_path(rematch.id, rematch.config.host_token)


def _seat_from_request(request: Request, table: LiveTable) -> int | None:
    # A header, not a query parameter: URLs end up in access logs.
    token = request.headers.get("x-seat-token")
    if not token:
        return None
    return table.seat_of_token(token)


@dataclasses.dataclass(frozen=True)
class ServeSettings:
    """Everything ``create_app`` takes, as ``serve --workers N`` passes it to its processes."""

    db_url: str
    bot_delay: float
    allow_seed: bool
    sync: str
    limits: Limits
    invite_base: str | None = None
    host_names: tuple[str, ...] = ()  # names besides the defaults this server answers to
    secure_cookies: bool = False  # behind TLS: session cookies get the Secure flag (serve --secure-cookies)
    smtp: str | None = None  # the mail server "your move" notices go through (serve --smtp); None: no e-mail

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ServeSettings:
        data = json.loads(text)
        limits = data.pop("limits")
        limits["allowed_origins"] = tuple(limits["allowed_origins"])
        data["host_names"] = tuple(data.get("host_names", ()))
        return cls(limits=Limits(**limits), **data)

    def app_arguments(self) -> dict[str, Any]:
        return {
            "db_url": self.db_url,
            "bot_delay": self.bot_delay,
            "allow_seed": self.allow_seed,
            "sync": self.sync,
            "limits": self.limits,
            "invite_base": self.invite_base,
            "host_names": self.host_names,
            "secure_cookies": self.secure_cookies,
            "smtp": self.smtp,
        }


def app_from_environment() -> FastAPI:
    """The app of one of ``serve --workers N``'s processes, from ``$GAMEBAG_SERVE_SETTINGS``."""
    text = os.environ.get(SETTINGS_ENV)
    if not text:
        raise RuntimeError(f"{SETTINGS_ENV} is not set: start the processes with gamebag serve --workers N")
    return create_app(**ServeSettings.from_json(text).app_arguments())


def create_app(
    db_url: str = DEFAULT_DB_URL,
    *,
    bot_delay: float = 0.6,
    allow_seed: bool = False,
    sync: str = "normal",
    limits: Limits | None = None,
    invite_base: str | None = None,
    host_names: tuple[str, ...] = (),
    secure_cookies: bool = False,
    smtp: str | None = None,
    notice_timing: NoticeTiming | None = None,
) -> FastAPI:
    """A server on the database at ``db_url``; unfinished tables carry on when first asked for.

    ``invite_base`` (say ``http://192.168.1.20:8000``) is the address other devices reach
    this server at; invite links and QR codes use it (None: the address the host opened).
    ``host_names``: the names (Host headers) this server answers to besides the loopback
    names, the LAN address and ``invite_base``'s host; other Hosts get 421 (DNS rebinding).
    ``secure_cookies``: the server is reached over TLS (a proxy's https), so session cookies are
    marked Secure (``people/sessions.py``). ``smtp``: the mail server's URL for "your move" e-mails
    (``notices/mailer.py``; None: none is ever sent); ``notice_timing``: their delays and clock.
    """
    limits = limits or Limits()
    guard_log(log)  # what clients put in the log cannot forge lines
    rates = RateLimits(limits)
    downloads = Downloads()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url, sync=sync)
        if store.is_postgresql:
            rates.share(PostgresRateStorage(store.engine))  # one set of counts for every process
        manager = TableManager(store, bot_delay=bot_delay, allow_seed=allow_seed, limits=limits)
        app.state.manager = manager
        manager.cluster_solves = rates if rates.shared else None  # the solve budget over every process
        await manager.start()
        app.state.upkeep = upkeep = Upkeep(manager)  # quick play's bot fill, finished tables rated
        upkeep.start()
        app.state.notices = notices = start_notices(manager, smtp, notice_timing)  # None without --smtp
        if manager.node is not None:  # a cluster: open sockets count over every live process
            rates.share_sockets(SharedSocketCounts(store.engine, manager.node))
        try:
            yield
        finally:
            await upkeep.stop()
            if notices is not None:
                await notices.stop()
            await rates.stop()
            await manager.stop()
            store.close()

    app = FastAPI(title="gamebag", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.rates = rates
    app.state.downloads = downloads
    app.state.invite_base = invite_base
    names = allowed_host_names(host_names, public_url=invite_base, lan=lan_address())
    register_people(app, STATIC_DIR, secure_cookies)  # accounts, sessions, seats that follow people
    app.add_middleware(Admission, charge=rates.admit, refused=RateLimited)  # every route's cost class
    app.add_middleware(Guard, limits=limits, host_names=names)
    app.add_middleware(ReaderLanguage)  # outermost: every answer, refusals too, in the reader's language
    app.include_router(words_router())  # the translation script and the language switcher
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    def manager_of(request: Request | WebSocket) -> TableManager:
        manager: TableManager = request.app.state.manager
        return manager

    async def table_of(request: Request, table_id: str) -> LiveTable:
        """The table, loaded off the event loop if need be; a load (or an unknown id) is counted
        against the client's budget of loads."""
        manager = manager_of(request)
        if not manager.is_loaded(table_id):
            await rates.table_load(client_address(request.scope))
        return await manager.get_async(table_id)

    @app.exception_handler(UnknownTableError)
    async def _unknown_table(_request: Request, error: UnknownTableError) -> JSONResponse:
        return _error(404, str(error))

    @app.exception_handler(TableClosedError)
    async def _closed_table(_request: Request, error: TableClosedError) -> JSONResponse:
        return _error(410, str(error))

    @app.exception_handler(HostError)
    async def _not_host(_request: Request, error: HostError) -> JSONResponse:
        return _error(403, str(error))

    @app.exception_handler(RateLimited)
    async def _rate_limited(_request: Request, error: RateLimited) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=429, headers={"Retry-After": str(error.retry_after)})

    @app.exception_handler(SeatError)
    async def _bad_seat(_request: Request, error: SeatError) -> JSONResponse:
        return _error(403, str(error))

    register_storage_faults(app, lambda request: manager_of(request).storage)

    @app.exception_handler(GamebagError)
    async def _bad_request(_request: Request, error: GamebagError) -> JSONResponse:
        return _error(400, str(error))

    # ---- pages --------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> HTMLResponse:
        return await page("index.html")

    @app.get("/play/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> HTMLResponse:
        return await page("table.html")

    @app.get("/host/{table_id}", include_in_schema=False)
    async def host_page(table_id: str) -> HTMLResponse:
        return await page("host.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> HTMLResponse:
        return await page("replay.html")

    app.include_router(rules_router(STATIC_DIR))  # the players' rules page and its text (rulespage.py)

    # ---- lobby API ----------------------------------------------------------------------------
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        """Every game, its player counts, options and the agents that can fill a seat."""
        return catalogue()

    @app.post("/api/games/agents")
    async def game_agents(request: Request) -> JSONResponse:
        """The bots that can play a table of this game, player count and options (no solve: quick checks)."""
        body = await request.body()  # the guard has bounded its size while it was read
        try:
            data = parse_json(body or b"null")
        except BadJsonError as error:
            example = _('the request body must be JSON, for example {{"game": "eel-harvest"}}: {error}', error=error)
            return _error(400, example)
        return JSONResponse(agents_for_request(data))

    @app.get("/api/games/{game_id}/rules")
    async def rules(game_id: str) -> dict[str, Any]:
        """A game's rules page (Markdown), for the table's "How to play" sheet."""
        return {"game": game_id, "markdown": rules_markdown(game_id)}

    @app.get("/api/server")
    async def server_facts() -> dict[str, Any]:
        """What pages need to know about this server: the address invites should use."""
        return {"invite_base": invite_base}

    @app.get("/api/limits")
    async def server_limits() -> dict[str, Any]:
        """The bounds this server keeps (agent parameters, sizes, rates, expiry)."""
        return {"agents": agent_bounds(), "server": dataclasses.asdict(limits)}

    @app.get("/api/tables")
    async def tables(request: Request) -> list[dict[str, Any]]:
        """The most recent tables (public facts only), newest first: their summary rows, one query;
        abandoned tables left out, winners named (``tablelist.py``)."""
        return listed(await manager_of(request).lobby())

    @app.post("/api/tables")
    async def open_table(request: Request) -> JSONResponse:
        """Open a table; the answer holds one invite link per person's seat (a one-time claim: the
        first device to open it gets the seat's token) and the host token that manages the table."""
        body = await request.body()  # the guard has bounded its size while it was read
        try:
            data = parse_json(body or b"null")
        except BadJsonError as error:
            example = _(
                'the request body must be JSON, for example {{"game": "wriggle-roulette"}}: {error}', error=error
            )
            return _error(400, example)
        listing, data = split_listing(data)  # public and rated: the table's listing (people/listing.py)
        table = await manager_of(request).create(data, client_address(request.scope))
        rated = listing.rated and is_rated_setup(table.game.game_id, table.game.num_players, table.config.options)
        await asyncio.to_thread(
            write_listing, manager_of(request).store.engine, table.id, dataclasses.replace(listing, rated=rated)
        )
        seats = []
        for seat in table.seats:
            item: dict[str, Any] = {"seat": seat.seat, "name": seat.name, "bot": seat.agent is not None}
            if seat.agent is None:
                item["invite"] = invite_path(table.id, seat.token)  # the seat's one-time invite code
            else:
                item["agent"] = seat.agent
            seats.append(item)
        # The bot of a seat whose timer runs out, and why it is not the heuristic where the game has none.
        preferred = preferred_bot(table.game)
        fallback = preferred["notice"] if table.config.timeout_agent == preferred["agent"] else None
        casual = LISTING_TEXT["casual"] if listing.rated and not rated else None
        return JSONResponse(
            {
                "timeout_agent": table.config.timeout_agent,
                "notices": [notice for notice in (fallback, casual) if notice],
                "public": listing.public,
                "rated": rated,
                "id": table.id,
                "game": table.game.game_id,
                "players": table.game.num_players,
                "seats": seats,
                "spectate": f"/play/{table.id}",
                "replay": f"/replay/{table.id}",
                "host_token": table.config.host_token,
                "host": host_path(table.id, table.config.host_token),
            },
            status_code=201,
        )

    @app.post("/api/tables/{table_id}/close")
    async def close_table(request: Request, table_id: str) -> dict[str, Any]:
        """The host closes the table for good (``X-Host-Token``); everyone connected is told."""
        manager = manager_of(request)
        table = await table_of(request, table_id)
        manager.check_host(table, request.headers.get("x-host-token"))
        manager.close(table, "host")
        return {"id": table_id, "closed": True}

    @app.post("/api/tables/{table_id}/clock")
    async def start_clock(request: Request, table_id: str) -> dict[str, Any]:
        """The host starts the turn clock (``X-Host-Token``) before every person's seat has connected."""
        manager = manager_of(request)
        table = await table_of(request, table_id)
        manager.check_host(table, request.headers.get("x-host-token"))
        manager.start_clock(table)
        return {"id": table.id, "clock_waits": manager.clock_waits(table)}

    @app.post("/api/tables/{table_id}/seats/{seat}/reissue")
    async def reissue_seat(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        """The host gives a seat a new invite link (``X-Host-Token``): the device that claimed the
        seat (or the old link) no longer holds it; the next device to open the new link does."""
        manager = manager_of(request)
        table = await table_of(request, table_id)
        manager.check_host(table, request.headers.get("x-host-token"))
        code = manager.reissue(table, seat)
        await seatroutes.release_owner(request, table.id, seat)  # the seat's account loses it too
        change_setting(manager, table, forget=seat)  # another person may hold the seat now: asked afresh
        return {"seat": seat, "invite": invite_path(table.id, code)}

    @app.post("/api/tables/{table_id}/claim", response_model=None)
    async def claim(request: Request, table_id: str) -> JSONResponse | dict[str, Any]:
        """A device opens an invite link: ``{"invite": code}`` gives it the seat and the seat's own
        token, once; the link then gives nothing more."""
        try:
            data = parse_json(await request.body() or b"null")
        except BadJsonError:
            data = None
        code = data.get("invite") if isinstance(data, dict) and set(data) == {"invite"} else None
        if not isinstance(code, str) or not 0 < len(code) <= 128:
            return _error(400, _('the body must be {"invite": "<the code after #invite= in the link>"}'))
        table = await table_of(request, table_id)
        name = await seatroutes.check_reserved(request, table, code)  # a seat kept for an account: its own
        seat, token = await manager_of(request).claim(table, code, name)  # signed in: the account's name
        await seatroutes.own_claimed(request, table.id, seat)  # signed in: the seat follows its claimer
        return {"seat": seat, "token": token, "play": f"/play/{table.id}"}

    @app.get("/api/tables/{table_id}/host")
    async def host(request: Request, table_id: str) -> dict[str, Any]:
        """For the host only: each unclaimed seat's invite link with its QR code, which seats are
        claimed and connected; never a claimed seat's token (nor any hand)."""
        manager = manager_of(request)
        table = await table_of(request, table_id)
        manager.check_host(table, request.headers.get("x-host-token"))
        meta = manager.meta(table)
        base = invite_base or str(request.base_url).rstrip("/")
        kept = await seatroutes.kept_for(request, table)  # unclaimed seats kept for a friend's account
        seats = []
        for seat, facts in zip(table.seats, meta["seats"], strict=True):
            item: dict[str, Any] = dict(facts)
            if seat.agent is None and not seat.claimed:
                link = base + invite_path(table.id, seat.token)
                item.update(invite=link, qr=qr_rows(link), kept_for=kept.get(seat.seat))
            seats.append(item)
        spectate = f"{base}/play/{table.id}"
        return {
            "table": meta,
            "seats": seats,
            "spectate": spectate,
            "spectate_qr": qr_rows(spectate),
            "invite_base": invite_base,
            "agents": agents_for(table.game),
            "timeout_agent": table.config.timeout_agent,
            "next": _next_for_host(manager, table),
        }

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", response_model=None)
    async def seat_to_bot(request: Request, table_id: str, seat: int) -> JSONResponse | dict[str, Any]:
        """For the host only: a person's seat (a no-show) is played by a bot from now on."""
        manager = manager_of(request)
        table = await table_of(request, table_id)
        manager.check_host(table, request.headers.get("x-host-token"))
        try:
            data = parse_json(await request.body() or b"{}")
        except BadJsonError:
            data = None
        if not isinstance(data, dict) or set(data) - {"agent"}:
            return _error(400, _('the body must be {"agent": "<agent spec>"} or {} (the table\'s timeout agent)'))
        agent = check_agent_for(data.get("agent") or table.config.timeout_agent, table.game, "agent")
        await manager.hand_to_bot(table, seat, agent, client_address(request.scope))
        return {"table": manager.meta(table)}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(request: Request, table_id: str) -> dict[str, Any]:
        """A seat or the host opens the rematch (same seats); each seat gets its own new link, the
        host (the X-Host-Token header) the rematch's host link."""
        manager = manager_of(request)
        table = await table_of(request, table_id)
        seat = _seat_from_request(request, table)
        host_token = request.headers.get("x-host-token")
        if seat is None or host_token:
            # The host; or a seat that is also the host (both tokens): it hosts the rematch too,
            # and its browser lists it with the tables it opened. Checked before anything opens.
            manager.check_host(table, host_token)
        if table.is_over and table.config.next_id is None:
            # Opening the rematch opens a table: it counts as one (else a bots-only game and its
            # rematches, each opening the next, would open tables past the rate).
            await rates.new_table(client_address(request.scope))
        following = await manager.rematch(
            table, BY_HOST if seat is None else table.seats[seat].name, client_address(request.scope)
        )
        await asyncio.to_thread(copy_listing, manager.store.engine, table.id, following.id)  # rated as its table
        answer = {"id": following.id, "path": rematch_path(following, seat)}
        if seat is None or host_token:  # the host: the rematch's host token, which the old one does not open
            token = following.config.host_token
            answer.update(host_token=token, host=host_path(following.id, token))
        return answer

    @app.post("/api/client-errors")
    async def client_error(request: Request) -> dict[str, Any]:
        """A page reports that drawing a table failed; the server logs it (bounded by the guard and a rate)."""
        body = (await request.body())[:2048]
        log.warning("browser reported: %s", body.decode("utf-8", "replace"))  # escaped by LogSafe
        return {"ok": True}

    @app.get("/api/tables/{table_id}")
    async def table_info(request: Request, table_id: str) -> dict[str, Any]:
        """A table's public facts and the spectators' view."""
        table = await table_of(request, table_id)
        return {"table": manager_of(request).meta(table), "view": table.view(None), "result": result_json(table)}

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> Response:
        """The finished game's record, as ``gamebag replay`` reads it."""
        table = await table_of(request, table_id)
        if not table.is_over:
            return _error(409, _("the record can be downloaded once the game is over"))
        forfeited = manager_of(request).forfeited(table)  # seats out of time are placed last (tables/banks.py)
        text = await downloads.get(
            (table.id, "record"), lambda: json.dumps(record_with_forfeits(table, forfeited), indent=1).encode()
        )
        filename = f"{table.game.game_id}-{table.id}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/tables/{table_id}/replay", response_model=None)
    async def replay(request: Request, table_id: str) -> Response:
        """Every step of a finished game as a seat saw it (token given) or as spectators did."""
        table = await table_of(request, table_id)
        if not table.is_over:
            return _error(409, _("a game can be replayed once it is over"))
        seat = _seat_from_request(request, table)
        # The steps are built once per reader in a thread and kept; the table's facts are fresh.
        steps = await downloads.get((table.id, "replay", seat), lambda: _json_list_bytes(table.step_views(seat)))
        meta = _json_bytes(manager_of(request).meta(table))
        result = _json_bytes(result_json(table))
        body = b'{"table":%b,"seat":%b,"steps":%b,"result":%b}' % (meta, _json_bytes(seat), steps, result)
        return Response(body, media_type="application/json")

    app.include_router(people_router)  # open tables, quick play, ratings, home pages (people/standingroutes.py)
    register_analysis(app, table_of, lambda request: manager_of(request).pool)
    app.include_router(chat_router)
    app.include_router(bank_router)  # a seat's vacation from its time bank (tables/bankroutes.py)
    register_notices(app)  # the "your move" list and e-mail notices (notices/routes.py)
    register_coach(app, manager_of)

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        manager = manager_of(request)
        return {
            "ok": True,
            **await readiness(manager.storage, manager.store.engine),
            "tables": len(manager.tables),
            "connections": manager.hub.count(),
            "bot_workers": manager.pool.processes,
            "owned": len(manager.tables),
            "watched": len(manager.replicas),
            "takeovers": manager.takeovers,
            "node": manager.node,
        }

    # ---- the table socket ---------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await table_socket(websocket, table_id, manager_of(websocket), rates)

    return app
