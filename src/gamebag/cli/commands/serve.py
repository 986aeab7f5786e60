"""``gamebag serve``: the multiplayer web server (lobby, tables, bots) on one address."""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import socket
import sys
from typing import Any

import typer

from gamebag.cli.database import db_help, sqlite_file, unreachable, upgrade_schema
from gamebag.core.errors import OptionError
from gamebag.core.translation import _, ngettext
from gamebag.web.settings import SYNC_MODES, Limits, database_url


def register(app: typer.Typer) -> None:
    @app.command("serve", help=_("Play any game in the browser with friends and bots. Prints the address to open."))
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help=_("Address to listen on (0.0.0.0: every interface).")),
        port: int = typer.Option(8000, "--port", "-p", min=1, max=65535, help=_("TCP port to listen on.")),
        db: str | None = typer.Option(None, "--db", help=db_help(), show_default=False),
        upgrade: bool = typer.Option(
            True,
            "--upgrade/--no-upgrade",
            help=_("Upgrade an older database's schema on start (the default), or refuse to start on one "
            "(then run `gamebag db upgrade` after a backup)."),
        ),
        bot_delay: float = typer.Option(
            0.6, "--bot-delay", min=0.0, max=30.0, help=_("Seconds a bot waits before acting, so people can follow.")
        ),
        allow_seed: bool = typer.Option(
            False, "--allow-seed", help=_("Let table requests choose their seed (for tests; it reveals the draws).")
        ),
        sync: str = typer.Option(
            "normal",
            "--sync",
            help=_("SQLite commits: normal (each action survives the server being killed) or full "
            "(also a power cut: the disk is flushed on every commit, a few ms each)."),
        ),
        public_url: str = typer.Option(
            "",
            "--public-url",
            help=_("The address others open (a reverse proxy's https://...); invite links use it. "
            "Default: the LAN address when --host is 0.0.0.0."),
        ),
        log_level: str = typer.Option("warning", "--log-level", help=_("uvicorn log level (info shows each request).")),
        bot_workers: int = typer.Option(
            2, "--bot-workers", min=1, max=64, help=_("Worker processes for bots, searches and solves.")
        ),
        move_seconds: float = typer.Option(
            5.0, "--move-seconds", min=0.1, max=60.0, help=_("A bot past this plays a random legal move instead.")
        ),
        solve_seconds: float = typer.Option(
            60.0, "--solve-seconds", min=1.0, max=600.0, help=_("Preparing an agent (a solve) past this refuses it.")
        ),
        expiry_hours: float = typer.Option(
            24.0, "--expiry-hours", min=0.01, max=24.0 * 365, help=_("Close unfinished tables idle this long.")
        ),
        tables_per_minute: int = typer.Option(
            20, "--tables-per-minute", min=1, max=100000, help=_("New tables per client address and minute.")
        ),
        tables_per_hour: int = typer.Option(
            200, "--tables-per-hour", min=1, max=1000000, help=_("New tables per client address and hour.")
        ),
        connects_per_minute: int = typer.Option(
            120, "--connects-per-minute", min=1, max=1000000, help=_("New sockets per client address and minute.")
        ),
        sockets_per_address: int = typer.Option(
            64, "--sockets-per-address", min=1, max=100000, help=_("Open sockets per client address.")
        ),
        allow_origin: list[str] = typer.Option(
            [], "--allow-origin", help=_("Another origin whose pages may open tables and sockets (repeatable).")
        ),
        workers: int = typer.Option(
            1, "--workers", min=1, max=64, help=_("Server processes on this address (more than 1 needs PostgreSQL).")
        ),
        lease_seconds: float = typer.Option(
            10.0, "--lease-seconds", min=1.0, max=600.0, help=_("PostgreSQL: a dead process's tables move after this.")
        ),
        forwarded_allow: list[str] = typer.Option(
            [],
            "--forwarded-allow",
            help=_("A reverse proxy's address or network (repeatable or comma-separated) whose X-Forwarded-For "
            "names the client. Default: none, so every client counts under its own address."),
        ),
        secure_cookies: bool = typer.Option(
            False,
            "--secure-cookies",
            help=_("The server is reached over TLS (a reverse proxy's https): sign-in cookies are sent over https "
            "only. Requests that arrive as https (X-Forwarded-Proto from a --forwarded-allow proxy) get it anyway."),
        ),
        host_name: list[str] = typer.Option(
            [],
            "--host-name",
            help=_("A name (Host header) this server answers to, besides its bound address, localhost, "
            "127.0.0.1, ::1, the LAN address and --public-url's host (repeatable); others get 421."),
        ),
        smtp: str = typer.Option(
            "",
            "--smtp",
            help=_("A mail server for \"your move\" e-mails: smtp://[user@]host[:port][?from=address] (STARTTLS when "
            "offered) or smtps://... (TLS); the password in the URL or in $GAMEBAG_SMTP_PASSWORD. Default: no e-mail."),
        ),
    ) -> None:
        """Serve the web app (the help text is the command's ``help``)."""
        import uvicorn

        from gamebag.web.app import APP_FACTORY, SETTINGS_ENV, ServeSettings, create_app
        from gamebag.web.store.db import DatabaseInUseError, lock_sqlite, safe_url, unlock_sqlite

        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        if sync not in SYNC_MODES:
            raise OptionError(
                _("--sync must be one of {modes}, not {given}", modes=", ".join(SYNC_MODES), given=repr(sync))
            )
        proxies, given_names = _proxies(forwarded_allow), _host_names(host_name)
        _check_smtp(smtp)
        url = database_url(db)
        database = sqlite_file(url)
        limits = Limits(
            bot_workers=bot_workers,
            move_seconds=move_seconds,
            solve_seconds=solve_seconds,
            idle_expiry_hours=expiry_hours,
            tables_per_minute=tables_per_minute,
            tables_per_hour=tables_per_hour,
            connects_per_minute=connects_per_minute,
            sockets_per_address=sockets_per_address,
            allowed_origins=tuple(allow_origin),
            lease_seconds=lease_seconds,
        )
        if workers > 1 and database is not None:
            raise OptionError(
                _("--workers above 1 needs PostgreSQL (--db postgresql+psycopg://...); one process serves an SQLite "
                  "file")
            )
        try:
            lock = lock_sqlite(url)  # held for the life of this process; refused if another server has it
        except DatabaseInUseError as error:
            typer.echo(_("error: {reason}", reason=error), err=True)
            sys.exit(1)
        from gamebag.web.tables.invites import invite_base

        names = (*given_names, *(address.strip("[]") for address in _addresses(host)))
        base = invite_base(host, port, public_url)
        settings = ServeSettings(url, bot_delay, allow_seed, sync, limits, base, names, secure_cookies, smtp or None)
        for address in _addresses(host):
            typer.echo(_("gamebag web: open {address}", address="http://" + address + ":" + str(port) + "/"))
        if base:
            typer.echo(_("invite links use {address} (what phones on this network open)", address=base))
        if workers > 1:
            typer.echo(ngettext("database: {url}, {n} process  (Ctrl-C stops the server)",
                                "database: {url}, {n} processes  (Ctrl-C stops the server)", workers,
                                url=safe_url(url)))
        else:
            typer.echo(_("database: {url}  (Ctrl-C stops the server)", url=safe_url(url)))
        try:
            _upgrade_schema(url, sync, upgrade)  # once, before any worker process starts
            if workers > 1:
                # uvicorn starts the processes; each builds its app from the settings in the environment.
                os.environ[SETTINGS_ENV] = settings.to_json()
                _run(uvicorn, APP_FACTORY, host, port, log_level, proxies, workers=workers)
            else:
                _run(uvicorn, create_app(**settings.app_arguments()), host, port, log_level, proxies)
        finally:
            unlock_sqlite(lock)


def _check_smtp(url: str) -> None:
    """A ``--smtp`` URL the mailer can use (refused: one line naming what is allowed, exit 2)."""
    if not url:
        return
    from gamebag.web.notices.mailer import SmtpTarget, SmtpUrlError

    try:
        SmtpTarget.parse(url)
    except SmtpUrlError as error:
        raise OptionError(str(error)) from None


def _upgrade_schema(url: str, sync: str, allowed: bool) -> None:
    """Bring the database's schema to head before serving (refused: one line, exit 2); logs what it did."""
    from sqlalchemy.exc import OperationalError

    try:
        line = upgrade_schema(url, sync, allowed)
    except OperationalError as error:  # not reachable: the one line, and the server does not start
        typer.echo(_("error: {reason}", reason=unreachable(url, error)), err=True)
        sys.exit(3)
    if line is not None:
        logging.getLogger("gamebag.web").info(line)


def _proxies(given: list[str]) -> tuple[str, ...]:
    """The ``--forwarded-allow`` proxies, each an IP address or network (or * for any)."""
    proxies = tuple(item.strip() for text in given for item in text.split(",") if item.strip())
    for proxy in proxies:
        if proxy == "*":
            continue
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise OptionError(
                _("--forwarded-allow {given} is not an IP address or network; give a proxy's address such as "
                  "127.0.0.1 or 10.0.0.0/8 (repeatable), or * for any", given=repr(proxy[:60]))
            ) from None
    return proxies


def _host_names(given: list[str]) -> tuple[str, ...]:
    """The ``--host-name`` names, each a DNS name or an IP address (without a port)."""
    for name in given:
        if not re.fullmatch(r"[A-Za-z0-9.-]{1,253}|\[?[0-9A-Fa-f:.]{2,45}\]?", name):
            raise OptionError(
                _("--host-name {given} is not a host name; give a name such as games.example.org or an IP address, "
                  "without scheme or port", given=repr(name[:60]))
            )
    return tuple(name.strip("[]") for name in given)


def _run(
    uvicorn: Any,
    application: Any,
    host: str,
    port: int,
    log_level: str,
    proxies: tuple[str, ...] = (),
    workers: int = 1,
) -> None:
    """Serve ``application`` until stopped; a start-up failure (a database it cannot open) exits non-zero."""
    from gamebag.web.serving import open_file_limit, uvicorn_options

    typer.echo(open_file_limit()[1])  # raised where allowed, before any worker starts
    if workers > 1:
        uvicorn.run(
            application,
            factory=True,
            workers=workers,
            host=host,
            port=port,
            log_level=log_level,
            **uvicorn_options(proxies),
        )
        return
    config = uvicorn.Config(
        application,
        host=host,
        port=port,
        log_level=log_level,
        **uvicorn_options(proxies),  # socket frame sizes, and bounds on request headers' size and time
    )
    server = uvicorn.Server(config)
    server.run()
    if not server.started:
        sys.exit(3)


def _addresses(host: str) -> list[str]:
    """Where the server can be opened: the host itself, or on every interface this machine's names."""
    if host not in ("0.0.0.0", "::", ""):
        return [f"[{host}]" if ":" in host else host]
    found = ["127.0.0.1"]
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if address not in found and not address.startswith("127."):
            found.append(address)  # what a phone on the same network opens
    return found
