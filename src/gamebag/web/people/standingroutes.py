"""The HTTP routes of open tables, quick play, ratings and home pages (included by ``app.py``).

Every database call runs in a thread; every request is counted against its address's rates
(``guard.RateLimits``); bad input gets a 4xx with one JSON line in players' words.
"""

from __future__ import annotations

import asyncio
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

import gamebag
from gamebag.web.admission.bounds import BadJsonError, LobbyError, parse_json
from gamebag.web.admission.guard import RateLimited, client_address
from gamebag.web.people.homepage import home_rows, my_seats, parse_home
from gamebag.web.people.listing import Listing, listing_of, set_public
from gamebag.web.people.owners import account_names
from gamebag.web.people.ratings import LEADERBOARD_LIMIT, leaderboard, ratings_of
from gamebag.web.people.requests import manager_of, rates_of, table_of
from gamebag.web.people.seating import parse_quick, quick_play, take_seat
from gamebag.web.people.series import series_tally
from gamebag.web.people.whoami import account_of
from gamebag.web.words.pages import page
from gamebag.web.words.text import N_, _

STATIC_DIR = Path(str(resources.files("gamebag.web").joinpath("static")))

TEXT = {
    "json": N_("the request body must be JSON"),
    "public": N_('the body must be {"public": true} or {"public": false}'),
    "game": N_("'game' must be one of: {games}"),
    "players": N_("'players' must be a whole number of players"),
    "count": N_("'players' must be from {low} to {high} for {game}"),
    "page": N_("'page' must be a whole number from 0"),
    "account": N_("there is no such person on this server"),
}

router = APIRouter()


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


async def _body(request: Request) -> Any:
    try:
        return parse_json(await request.body() or b"null")
    except BadJsonError:
        raise LobbyError(_(TEXT["json"])) from None


# ---- pages ------------------------------------------------------------------------------------
@router.get("/home", include_in_schema=False)
async def home_page() -> HTMLResponse:
    return await page("home.html")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> HTMLResponse:
    return await page("leaderboard.html")


@router.get("/people/{account_id}", include_in_schema=False)
async def profile_page(account_id: str) -> HTMLResponse:
    return await page("profile.html")


# ---- open tables --------------------------------------------------------------------------------
@router.post("/api/tables/{table_id}/take")
async def take(request: Request, table_id: str) -> dict[str, Any]:
    """Anyone takes the lowest free seat of a public table: its token, to this device only."""
    await rates_of(request).seat_take(client_address(request.scope))
    table = await table_of(request, table_id)
    taken = await take_seat(manager_of(request), table, account_of(request), request.headers.get("x-seat-token"))
    return taken.to_json()


@router.post("/api/tables/{table_id}/public")
async def make_public(request: Request, table_id: str) -> dict[str, Any]:
    """The host lists the table in the lobby (free seats open to anyone) or takes it off the list."""
    manager = manager_of(request)
    table = await table_of(request, table_id)
    manager.check_host(table, request.headers.get("x-host-token"))
    data = await _body(request)
    if not isinstance(data, dict) or set(data) != {"public"} or not isinstance(data["public"], bool):
        raise LobbyError(_(TEXT["public"]))
    await asyncio.to_thread(set_public, manager.store.engine, table.id, data["public"])
    return {"id": table.id, "public": data["public"]}


@router.get("/api/tables/{table_id}/listing")
async def listing(request: Request, table_id: str) -> dict[str, Any]:
    """How a table is offered (public facts: the lobby shows them): public, rated, quick play."""
    table = await table_of(request, table_id)

    def read() -> Listing | None:
        with manager_of(request).store.engine.connect() as connection:
            return listing_of(connection, table.id)

    found = await asyncio.to_thread(read) or Listing()
    return {"id": table.id, "public": found.public, "rated": found.rated, "quick": found.quick}


@router.post("/api/quickplay")
async def play_now(request: Request) -> JSONResponse:
    """Play now: a seat at an open quick-play table of this game and player count, or a new one."""
    address = client_address(request.scope)
    rates = rates_of(request)
    await rates.seat_take(address)
    wanted = parse_quick(await _body(request))

    async def charge_open() -> None:
        await rates.new_table(address)

    taken, opened = await quick_play(manager_of(request), wanted, account_of(request), address, charge_open)
    if opened and wanted.wait == 0:
        request.app.state.upkeep.wake()  # no wait: the bots sit down at once
    return JSONResponse({**taken.to_json(), "opened": opened, "wait": wanted.wait}, status_code=201 if opened else 200)


@router.get("/api/tables/{table_id}/series")
async def series(request: Request, table_id: str) -> dict[str, Any]:
    """Wins per seat over this table's series of rematches (public once each game is over)."""
    # counted as a lobby listing by its cost class (admission/costs.py)
    table = await table_of(request, table_id)
    return await asyncio.to_thread(series_tally, manager_of(request).store.engine, table.id)


# ---- home, ratings, profiles -----------------------------------------------------------------------
@router.post("/api/home")
async def home(request: Request) -> dict[str, Any]:
    """The asker's tables (their move first), finished games (a page) and statistics."""
    # counted as a lobby listing by its cost class (admission/costs.py)
    wanted = parse_home(await _body(request))
    manager = manager_of(request)
    engine = manager.store.engine
    mine = await asyncio.to_thread(my_seats, engine, wanted.tokens, account_of(request))
    rows = await asyncio.to_thread(home_rows, engine, mine, wanted.page)
    address = client_address(request.scope)
    for row in rows["open"]:
        row["your_move"] = None  # unknown: the table could not be loaded just now
        try:
            if not manager.is_loaded(row["id"]):
                await rates_of(request).table_load(address)  # each load counts, as a table page's does
            table = await manager.get_async(row["id"])  # whose move it is: public at the table
            row["your_move"] = row["seat"] in table.waiting_for() and not table.is_over
        except (LookupError, RateLimited):
            continue
    rows["open"].sort(key=lambda row: row["your_move"] is not True)  # stable: newest first within each
    rows["account"] = account_of(request)
    return rows


def _whole(value: str | None, default: int, text: str) -> int:
    if value is None:
        return default
    if not value.isdigit() or len(value) > 6:
        raise LobbyError(text)
    return int(value)


@router.get("/api/leaderboard")
async def leaderboard_api(request: Request) -> dict[str, Any]:
    """The rated accounts of a game and player count, best first (``?game=&players=&page=``)."""
    # counted as a lobby listing by its cost class (admission/costs.py)
    game = request.query_params.get("game")
    if game not in gamebag.game_ids():
        raise LobbyError(_(TEXT["game"], games=", ".join(gamebag.game_ids())))
    cls = gamebag.entry(game).game_class
    players = _whole(request.query_params.get("players"), cls.default_players, _(TEXT["players"]))
    if not cls.min_players <= players <= cls.max_players:
        raise LobbyError(_(TEXT["count"], game=game, low=cls.min_players, high=cls.max_players))
    page = _whole(request.query_params.get("page"), 0, _(TEXT["page"]))

    def read() -> dict[str, Any]:
        with manager_of(request).store.engine.connect() as connection:
            return leaderboard(connection, game, players, LEADERBOARD_LIMIT, page * LEADERBOARD_LIMIT)

    return await asyncio.to_thread(read)


@router.get("/api/people/{account_id}", response_model=None)
async def profile(request: Request, account_id: str) -> dict[str, Any] | JSONResponse:
    """A person's public profile: name, ratings with their uncertainty and history, games per game."""
    # counted as a lobby listing by its cost class (admission/costs.py)
    if len(account_id) > 32:
        return _error(404, _(TEXT["account"]))

    def read() -> dict[str, Any] | None:
        with manager_of(request).store.engine.connect() as connection:
            names = account_names(connection, [account_id])
            if account_id not in names:
                return None
            return {"account": account_id, "name": names[account_id], "ratings": ratings_of(connection, account_id)}

    found = await asyncio.to_thread(read)
    if found is None:
        return _error(404, _(TEXT["account"]))
    mine = await asyncio.to_thread(my_seats, manager_of(request).store.engine, (), account_id)
    rows = await asyncio.to_thread(home_rows, manager_of(request).store.engine, mine, 0)
    found["stats"] = rows["stats"]
    return found
