"""Web server settings: the database, the limits that keep one client from taking the server.

Kept free of the server's libraries so that the command line can read them
without importing FastAPI.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_DB_URL = "sqlite:///gamebag-web.db"
DB_ENV = "GAMEBAG_DB"  # the database URL, when --db is not given (keeps a password off the command line)
SYNC_MODES = ("normal", "full")


def database_url(given: str | None) -> str:
    """The database to use: ``given``, else ``$GAMEBAG_DB``, else the SQLite file in the working folder."""
    return given or os.environ.get(DB_ENV) or DEFAULT_DB_URL


@dataclass(frozen=True)
class Limits:
    """Every bound the server keeps on what clients can make it do (see docs/web.md)."""

    # bot work
    bot_workers: int = 2  # worker processes for bots, searches and solves
    move_seconds: float = 5.0  # a bot past this plays its fallback move (a random legal one)
    # a person's only legal move (or a pass they asked for) is made for them after a delay drawn
    # from this range of seconds, as a person's tap might come: never sooner (docs/web.md)
    forced_pace: tuple[float, float] = (1.5, 4.0)
    solve_seconds: float = 60.0  # building an agent (a solve) past this refuses the table
    # worker seconds of new solves one client address may cause in a minute (measured, charged
    # to the table's opener); past it, tables needing a new solve are refused (429) for a while
    solve_budget_seconds: float = 30.0
    # requests
    max_body: int = 64 * 1024  # bytes of a request body, counted while it is read
    tables_per_minute: int = 20  # new tables per client address
    tables_per_hour: int = 200
    connects_per_minute: int = 120  # new sockets per client address
    reports_per_minute: int = 30  # error reports from pages per client address (each is a log line)
    downloads_per_minute: int = 30  # record and replay downloads per client address (each can be megabytes)
    loads_per_minute: int = 60  # requests per client address for a table not in memory (or no table): each a load
    lobby_lists_per_minute: int = 60  # lobby listings (GET /api/tables) per client address
    your_move_lists_per_minute: int = 60  # "your move" lists (POST /api/yourmove: every open page asks) per address
    seat_takes_per_minute: int = 20  # free seats taken and "Play now" requests per client address
    agent_checks_per_minute: int = 120  # POST /api/games/agents per client address (the lobby form asks on each change)
    # the other cost classes' budgets per client address (and per seat) a minute (admission/costs.py)
    pages_per_minute: int = 600  # HTML pages
    static_per_minute: int = 3000  # files under /static (a page loads a few dozen)
    reads_per_minute: int = 600  # table facts, the catalogue, rules, limits, health
    manage_per_minute: int = 300  # claims, host actions, rematches, coach settings
    account_requests_per_minute: int = 120  # account requests (sign-ins are bounded apart, below)
    analysis_polls_per_minute: int = 240  # GET .../analysis (the page asks every second)
    advice_polls_per_minute: int = 300  # GET .../coach/advice (the page asks every 0.4 s)
    unknown_paths_per_minute: int = 120  # requests no route answers (404)
    undeclared_per_minute: int = 60  # a route with no declared cost class: small, never unlimited
    # accounts: sign-in, sign-up and recovery attempts per client address, and failed sign-ins per
    # account (an attacker spreading guesses over many addresses still meets the account's bound)
    sign_ins_per_minute: int = 10
    sign_ins_per_hour: int = 100
    account_failures_per_hour: int = 20
    sockets_per_address: int = 64  # open sockets per client address
    sockets_per_table: int = 32  # open sockets watching one table (spectators; seats count apart)
    sockets_per_seat: int = 3  # open sockets holding one seat token (phone, laptop, a reconnect)
    hello_seconds: float = 10.0  # a socket that has not said hello by then is closed
    live_tables: int = 2000  # tables held in memory (idle ones are unloaded first)
    # lifecycle
    idle_expiry_hours: float = 24.0  # an unfinished table nobody acted at for this long is closed
    unload_seconds: float = 600.0  # an idle table with nobody connected leaves memory after this
    sweep_seconds: float = 30.0  # how often expiry and unloading are checked
    allowed_origins: tuple[str, ...] = ()  # origins besides the server's own that may POST and connect
    # a cluster (PostgreSQL)
    lease_seconds: float = 10.0  # a table whose owner stops renewing is taken over after this
