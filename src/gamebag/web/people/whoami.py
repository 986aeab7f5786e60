"""Who is asking: the signed-in account of a request or socket, if any (guests have none).

The sign-in layer sets ``request.state.account_id`` from the session cookie; everything else asks here.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection


def account_of(connection: HTTPConnection) -> str | None:
    """The account id signed in on this request or socket, or ``None`` for a guest."""
    account = getattr(connection.state, "account_id", None)
    return account if isinstance(account, str) and account else None
