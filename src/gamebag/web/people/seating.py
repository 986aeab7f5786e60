"""Taking a free seat of a public table, and "Play now" (quick play).

A free seat is a person's seat of a public table that no device has claimed yet. Taking one
is the invite claim (``manager.claim``) done by the server for the asker: the seat's own
token goes to the asking device only, in the answer. One seat per device per table: a device
that shows a seat token of that table (``X-Seat-Token``), or a signed-in person who already
owns a seat there, is refused; a signed-in person's new seat becomes theirs (``set_owner``).

"Play now" seats the asker at an open quick-play table of that game and player count (public,
its bots not yet filled in, a free seat left, none of the asker's) or opens one: every seat a
person's, the rulebook's options (so rated), public and quick, its free seats filled with the
default bot once the wait the opener chose has run out (``upkeep.py``).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

import gamebag
from gamebag.web.admission.bounds import LobbyError
from gamebag.web.people.listing import Listing, is_rated_setup, listing_of, write_listing
from gamebag.web.people.owners import account_names, owners_of_table, set_owner
from gamebag.web.people.standingrows import ListingRow
from gamebag.web.store.db import SeatRow, TableRow, now
from gamebag.web.tables.live import LiveTable, SeatError
from gamebag.web.tables.manager import TableManager
from gamebag.web.words.text import N_, _

QUICK_WAITS = (0, 30, 120)  # the waits "Play now" offers, in seconds, before bots fill the free seats
MAX_HELD = 50  # table ids a device may list as already seated at

TEXT = {
    "private": N_("this table is not open to everyone; ask its host for an invite link"),
    "over": N_("the game at this table is over; there is no seat left to take"),
    "held": N_("this device already holds seat {seat} at this table"),
    "owned": N_("you already have a seat at this table"),
    "full": N_("every seat at this table is taken"),
    "quick_body": N_('the body must be {"game": "<game id>", "players": <count>, "wait": <seconds>} '
    'with an optional "held": [<table ids this device has seats at>]'),
    "game": N_("'game' must be one of: {games}"),
    "wait": N_("'wait' must be one of {waits} seconds"),
}


@dataclass(frozen=True)
class Taken:
    """A seat taken for the asker: its table, number and the seat's own token."""

    table_id: str
    seat: int
    token: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.table_id, "seat": self.seat, "token": self.token, "play": f"/play/{self.table_id}"}


def _public_owners_and_name(
    engine: Engine, table_id: str, account: str | None
) -> tuple[Listing | None, dict[int, str], str | None]:
    """The table's listing, its seats' owners and the asker's account name (None: a guest)."""
    with engine.connect() as connection:
        name = None if account is None else account_names(connection, [account]).get(account)
        return listing_of(connection, table_id), owners_of_table(connection, table_id), name


def _own(engine: Engine, table_id: str, seat: int, account: str) -> None:
    with engine.begin() as connection:
        set_owner(connection, table_id, seat, account)


def _seat_held(table: LiveTable, token: str | None) -> int | None:
    """The claimed seat of this table whose token the device showed (None: it holds none here)."""
    if not token:
        return None
    for seat in table.seats:
        if seat.claimed and seat.agent is None and secrets.compare_digest(seat.token.encode(), token.encode()):
            return seat.seat
    return None


async def take_seat(manager: TableManager, table: LiveTable, account: str | None, held_token: str | None) -> Taken:
    """The lowest free seat of a public table, claimed for the asker (``SeatError``/``LobbyError`` why not)."""
    engine = manager.store.engine
    listing, owners, name = await asyncio.to_thread(_public_owners_and_name, engine, table.id, account)
    if listing is None or not listing.public:
        raise SeatError(_(TEXT["private"]))
    if table.is_over:
        raise LobbyError(_(TEXT["over"]))
    held = _seat_held(table, held_token)
    if held is not None:
        raise SeatError(_(TEXT["held"], seat=held))
    if account is not None and account in owners.values():
        raise SeatError(_(TEXT["owned"]))
    for seat in table.seats:
        if seat.agent is not None or seat.claimed:
            continue
        try:
            number, token = await manager.claim(table, seat.token, name)  # signed in: the account's name
        except SeatError:
            continue  # claimed a moment ago by another device: try the next free seat
        if account is not None:
            await asyncio.to_thread(_own, engine, table.id, number, account)
        return Taken(table.id, number, token)
    raise SeatError(_(TEXT["full"]))


@dataclass(frozen=True)
class QuickRequest:
    game: str
    players: int
    wait: int
    held: frozenset[str]


def parse_quick(data: Any) -> QuickRequest:
    """A "Play now" request, checked (``LobbyError`` in players' words)."""
    if (
        not isinstance(data, dict)
        or not {"game", "players", "wait"} <= set(data)
        or set(data) - {"game", "players", "wait", "held"}
    ):
        raise LobbyError(_(TEXT["quick_body"]))
    game_id, players, wait, held = data["game"], data["players"], data["wait"], data.get("held", [])
    if not isinstance(game_id, str) or game_id not in gamebag.game_ids():
        raise LobbyError(_(TEXT["game"], games=", ".join(gamebag.game_ids())))
    cls = gamebag.entry(game_id).game_class
    if isinstance(players, bool) or not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
        raise LobbyError(
            _("'players' must be from {low} to {high} for {game}", low=cls.min_players, high=cls.max_players,
              game=game_id)
        )
    if isinstance(wait, bool) or wait not in QUICK_WAITS:
        raise LobbyError(_(TEXT["wait"], waits=", ".join(map(str, QUICK_WAITS))))
    if not isinstance(held, list) or len(held) > MAX_HELD or not all(isinstance(t, str) and len(t) <= 64 for t in held):
        raise LobbyError(_(TEXT["quick_body"]))
    return QuickRequest(game_id, players, int(wait), frozenset(held))


def open_quick_tables(engine: Engine, game: str, players: int, limit: int = 5) -> list[str]:
    """Quick-play tables of ``game`` at ``players`` still waiting for people, oldest first."""
    free_seat = select(SeatRow.table_id).where(SeatRow.agent.is_(None), SeatRow.claimed.is_(False))
    with engine.connect() as connection:
        rows = connection.execute(
            select(ListingRow.table_id)
            .join(TableRow, TableRow.id == ListingRow.table_id)
            .where(ListingRow.quick.is_(True), ListingRow.public.is_(True), ListingRow.filled.is_(False))
            .where(TableRow.game == game, TableRow.players == players)
            .where(TableRow.closed.is_(None), TableRow.finished.is_(False))
            .where(TableRow.id.in_(free_seat))
            .order_by(TableRow.created_at)
            .limit(limit)
        ).scalars()
        return [str(row) for row in rows]


async def quick_play(
    manager: TableManager,
    request: QuickRequest,
    account: str | None,
    opener: str,
    charge_open: Callable[[], Awaitable[None]],
) -> tuple[Taken, bool]:
    """Seat the asker at an open quick-play table or open one; (the seat, whether a table was opened)."""
    engine = manager.store.engine
    for table_id in await asyncio.to_thread(open_quick_tables, engine, request.game, request.players):
        if table_id in request.held:
            continue
        try:
            table = await manager.get_async(table_id)
            return await take_seat(manager, table, account, None), False
        except (SeatError, LobbyError):
            continue  # taken meanwhile, or one of the asker's own: look further, else open one
    await charge_open()  # a new table counts against the opener's rate of new tables
    seats: list[dict[str, Any]] = [{} for __ in range(request.players)]
    table = await manager.create({"game": request.game, "players": request.players, "seats": seats}, opener)
    rated = is_rated_setup(table.config.game, table.config.players, table.config.options)
    listing = Listing(public=True, rated=rated, quick=True, fill_at=now() + request.wait)
    await asyncio.to_thread(write_listing, engine, table.id, listing)
    return await take_seat(manager, table, account, None), True
