"""``gamebag users``: the operator manages the web server's accounts (list, disable, enable, delete).

It works on the server's database (``--db`` or ``$GAMEBAG_DB``, as ``serve``), while the server
runs too: disabling an account signs it out everywhere at once (its sessions are deleted).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import typer

from gamebag.core.errors import OptionError
from gamebag.core.translation import N_, _, ngettext
from gamebag.web.settings import DB_ENV, database_url

if TYPE_CHECKING:  # the web server's modules load only when a command runs
    from sqlalchemy.engine import Connection

    from gamebag.web.people.accounts import Account
    from gamebag.web.store.db import Store

def db_help() -> str:
    """The ``--db`` option's help in the reader's language."""
    return _("SQLAlchemy database URL of the web server (default: ${variable}, else gamebag-web.db here).",
             variable=DB_ENV)
USERS_TEXTS = {
    "unknown": N_("no account is named {name!r} (or looks like it); `gamebag users list` shows them"),
    "confirm": N_("deleting an account cannot be undone: add --yes to delete {name!r}"),
    "none": N_("no accounts yet"),
}


def _engine(db: str | None) -> Store:
    """The server's database, checked first: a bad URL or a missing SQLite file is one line (exit 2),
    and nothing is created (accounts live only in a database a server already made)."""
    from gamebag.cli.database import sqlite_file, unreachable
    from gamebag.web.store.db import Store

    url = database_url(db)
    sqlite_file(url, must_exist=True)
    try:
        return Store(url)
    except OptionError:
        raise
    except Exception as error:
        raise OptionError(unreachable(url, error)) from None


def _find(connection: Connection, name: str) -> Account:
    from gamebag.web.people.accounts import account_by_name

    account = account_by_name(connection, name)
    if account is None:
        raise OptionError(_(USERS_TEXTS["unknown"], name=name))
    return account


def register(app: typer.Typer) -> None:
    from gamebag.cli.app import GamebagGroup  # the group that turns mistakes into one line

    users = typer.Typer(help=_("Manage the web server's accounts (list, disable, enable, delete)."),
                        no_args_is_help=True, cls=GamebagGroup)
    app.add_typer(users, name="users")

    @users.command("list", help=_("Every account: name, id, created, disabled, seats owned."))
    def list_users(
        db: str | None = typer.Option(None, "--db", help=db_help(), show_default=False),
        as_json: bool = typer.Option(False, "--json", help=_("One JSON object per account, one a line.")),
    ) -> None:
        """Every account: name, id, created, disabled, seats owned."""
        from gamebag.web.people.accounts import list_accounts
        from gamebag.web.people.owners import seats_of_account

        store = _engine(db)
        try:
            with store.engine.connect() as connection:
                rows = [(a, len(seats_of_account(connection, a.id))) for a in list_accounts(connection)]
        finally:
            store.close()
        if not rows and not as_json:
            typer.echo(_(USERS_TEXTS["none"]))
        for account, seats in rows:
            created = time.strftime("%Y-%m-%d %H:%M", time.gmtime(account.created_at))
            fact = {"name": account.name, "id": account.id, "created": created, "disabled": account.disabled}
            if as_json:
                typer.echo(json.dumps({**fact, "seats": seats}, ensure_ascii=False))
            else:
                state = _("disabled") if account.disabled else _("active")
                seats_words = ngettext("{n} seat", "{n} seats", seats)
                typer.echo(f"{account.name}\t{account.id}\t{created} UTC\t{state}\t{seats_words}")

    def _set_disabled(name: str, db: str | None, disabled: bool) -> None:
        from gamebag.web.people.accounts import set_disabled

        store = _engine(db)
        try:
            with store.engine.begin() as connection:
                account = _find(connection, name)
                set_disabled(connection, account.id, disabled)
        finally:
            store.close()
        if disabled:
            typer.echo(_("{name}: disabled, signed out everywhere", name=account.name))
        else:
            typer.echo(_("{name}: enabled", name=account.name))

    @users.command(
        "disable", help=_("Disable an account: it is signed out everywhere and cannot sign in until enabled.")
    )
    def disable(
        name: str = typer.Argument(..., help=_("The account's display name (any case).")),
        db: str | None = typer.Option(None, "--db", help=db_help(), show_default=False),
    ) -> None:
        """Disable an account: it is signed out everywhere and cannot sign in until enabled."""
        _set_disabled(name, db, True)

    @users.command("enable", help=_("Enable a disabled account again."))
    def enable(
        name: str = typer.Argument(..., help=_("The account's display name (any case).")),
        db: str | None = typer.Option(None, "--db", help=db_help(), show_default=False),
    ) -> None:
        """Enable a disabled account again."""
        _set_disabled(name, db, False)

    @users.command(
        "delete", help=_("Delete an account and its personal data, as its owner can from the profile page.")
    )
    def delete(
        name: str = typer.Argument(..., help=_("The account's display name (any case).")),
        db: str | None = typer.Option(None, "--db", help=db_help(), show_default=False),
        yes: bool = typer.Option(False, "--yes", help=_("Really delete (it cannot be undone).")),
    ) -> None:
        """Delete an account and its personal data, as its owner can from the profile page."""
        import gamebag.web.notices.addresses  # noqa: F401  (registers the notices' deletion step)
        from gamebag.web.people import chatdeletion  # noqa: F401  (its import registers the chat's deletion step)
        from gamebag.web.people.accounts import delete_account
        from gamebag.web.people.ratings import register_personal_data

        register_personal_data()  # the ratings and their history go with the account
        if not yes:
            raise OptionError(_(USERS_TEXTS["confirm"], name=name))
        store = _engine(db)
        if store.is_postgresql:  # a cluster's servers hear of renamed seats on the bus, as from one of them
            from gamebag.web.store.cluster import new_node_id

            store.node = new_node_id()
        try:
            with store.engine.begin() as connection:
                account = _find(connection, name)
                for table_id in delete_account(connection, account.id):
                    store.announce(connection, table_id, -1, "seats")  # a cluster's processes reload the names
        finally:
            store.close()
        typer.echo(_("{name}: deleted", name=account.name))
