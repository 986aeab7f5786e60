"""What an account wrote in table chat goes with the account (issue 40, point 3).

Importing this module registers the step in ``accounts.deletion_steps``: the lines written from
every seat the account owns are deleted in the transaction that deletes the account, before its
seat ownerships go (after that, nothing says which seats were its own). The account routes and
``gamebag users delete`` import it, so both ways of deleting an account take its chat along.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from gamebag.web.people import accounts
from gamebag.web.people.owners import seats_of_account
from gamebag.web.store.chatstore import delete_seats_chat


def delete_account_chat(connection: Connection, account_id: str) -> None:
    """The chat lines and reactions the account's seats wrote, at every table."""
    delete_seats_chat(connection, seats_of_account(connection, account_id))


accounts.deletion_steps["chat"] = delete_account_chat
