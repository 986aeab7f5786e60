"""The people room's HTTP routes, added to the app in one call (``register``)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse

from gamebag.web.people import accountroutes, passkeys, seatroutes
from gamebag.web.people.ratings import register_personal_data
from gamebag.web.people.requests import PeopleRefusal, refusal_response
from gamebag.web.people.sessions import SessionLayer
from gamebag.web.words.pages import page


def register(app: FastAPI, static_dir: object, secure_cookies: bool = False) -> None:
    """The account, passkey and seat routes, the /account page, and the session layer (which sets
    ``request.state.account_id`` for every request and socket that carries a session)."""
    app.state.secure_cookies = secure_cookies
    register_personal_data()  # an export holds the ratings; a deletion removes them
    app.add_middleware(SessionLayer)
    for module in (accountroutes, passkeys, seatroutes):
        app.include_router(module.router)

    @app.exception_handler(PeopleRefusal)
    async def _refused(_request: Request, refusal: PeopleRefusal) -> JSONResponse:
        return refusal_response(refusal)

    @app.get("/account", include_in_schema=False)
    async def account_page() -> HTMLResponse:
        return await page("account.html")
