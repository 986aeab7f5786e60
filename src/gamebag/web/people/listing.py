"""How a table is offered: public or by invite, rated or casual (``web_listings``).

The lobby form (``POST /api/tables``) may add ``"public"`` and ``"rated"`` (booleans) to a
table request; they are taken out here before the table itself is checked, and written to the
table's listing once it is open. A table is rated only when its setup is one the site rates
(``is_rated_setup``): the rulebook's options, or a named preset the site declares rated. A
request for a rated table with other options opens a casual one and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Engine

import gamebag
from gamebag.core.presets import preset_options, rated_presets
from gamebag.web.admission.bounds import LobbyError
from gamebag.web.people.standingrows import ListingRow
from gamebag.web.store.db import now
from gamebag.web.words.text import N_, _

LISTING_FIELDS = ("public", "rated")

# What a player is told about a listing request (whole sentences, one place).
TEXT = {
    "flag": N_("'{field}' must be true or false"),
    "casual": N_("This table is casual: only the rulebook's setup is rated, and these options differ from it."),
}


@dataclass(frozen=True)
class Listing:
    """A table's listing as the host asked for it."""

    public: bool = False
    rated: bool = False
    quick: bool = False
    fill_at: float | None = None


def split_listing(data: Any) -> tuple[Listing, Any]:
    """The listing fields of a table request, and the request without them (``LobbyError`` on bad values)."""
    if not isinstance(data, dict):
        return Listing(), data
    flags: dict[str, bool] = {}
    for field in LISTING_FIELDS:
        value = data.get(field, False)
        if not isinstance(value, bool):
            raise LobbyError(_(TEXT["flag"], field=field))
        flags[field] = value
    rest = {key: value for key, value in data.items() if key not in LISTING_FIELDS}
    return Listing(public=flags["public"], rated=flags["rated"]), rest


def is_rated_setup(game_id: str, players: int, options: dict[str, Any]) -> bool:
    """Whether a table of ``game_id`` for ``players`` with ``options`` (as stored: every option
    named, ``options_to_json``) may be rated: the options of one of the game's presets declared
    rated (``core/presets.py``: the rulebook's setup, and any the game marks ``rated``)."""
    try:
        game_class = gamebag.entry(game_id).game_class
        gamebag.make(game_id, players)  # a player count the game does not have: never rated
        rated = rated_presets(game_class)
        return any(preset_options(game_class, preset) == options for preset in rated)
    except Exception:  # a game or player count this server does not have: never rated
        return False


def write_listing(engine: Engine, table_id: str, listing: Listing) -> None:
    """Store a new table's listing (in a thread: it is a database write)."""
    with engine.begin() as connection:
        connection.execute(
            insert(ListingRow).values(
                table_id=table_id,
                public=listing.public,
                rated=listing.rated,
                quick=listing.quick,
                fill_at=listing.fill_at,
                filled=False,
                settled=False,
                created_at=now(),
            )
        )


def copy_listing(engine: Engine, table_id: str, rematch_id: str) -> None:
    """A rematch is rated as its table was, and (its seats being the same people's) not public."""
    with engine.begin() as connection:
        rated = connection.execute(select(ListingRow.rated).where(ListingRow.table_id == table_id)).scalar()
        present = connection.execute(select(ListingRow.table_id).where(ListingRow.table_id == rematch_id)).scalar()
        if present is None:
            connection.execute(
                insert(ListingRow).values(
                    table_id=rematch_id,
                    public=False,
                    rated=bool(rated),
                    quick=False,
                    filled=False,
                    settled=False,
                    created_at=now(),
                )
            )


def listing_of(connection: Connection, table_id: str) -> Listing | None:
    """A table's listing (None: a table opened before listings, or none by that id)."""
    row = connection.execute(
        select(ListingRow.public, ListingRow.rated, ListingRow.quick, ListingRow.fill_at).where(
            ListingRow.table_id == table_id
        )
    ).first()
    if row is None:
        return None
    return Listing(public=bool(row[0]), rated=bool(row[1]), quick=bool(row[2]), fill_at=row[3])


def set_public(engine: Engine, table_id: str, public: bool) -> None:
    """The host lists a table in the lobby or takes it off the list."""
    with engine.begin() as connection:
        changed = connection.execute(
            update(ListingRow).where(ListingRow.table_id == table_id).values(public=public)
        ).rowcount
        if not changed:
            connection.execute(
                insert(ListingRow).values(
                    table_id=table_id,
                    public=public,
                    rated=False,
                    quick=False,
                    filled=False,
                    settled=False,
                    created_at=now(),
                )
            )
