"""``gamebag serve``: the multiplayer web server (lobby, tables, bots) on one address."""

from __future__ import annotations

import logging
import socket

import typer

from gamebag.core.errors import OptionError
from gamebag.web.settings import DEFAULT_DB_URL, SYNC_MODES


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
        port: int = typer.Option(8000, "--port", "-p", min=1, max=65535, help="TCP port to listen on."),
        db: str = typer.Option(
            DEFAULT_DB_URL,
            "--db",
            help="SQLAlchemy database URL; the default is an SQLite file in the working folder. "
            "PostgreSQL: postgresql+psycopg://user:password@host/dbname.",
        ),
        bot_delay: float = typer.Option(
            0.6, "--bot-delay", min=0.0, max=30.0, help="Seconds a bot waits before acting, so people can follow."
        ),
        allow_seed: bool = typer.Option(
            False, "--allow-seed", help="Let table requests choose their seed (for tests; it reveals the draws)."
        ),
        sync: str = typer.Option(
            "normal",
            "--sync",
            help="SQLite commits: normal (each action survives the server being killed) or full "
            "(also a power cut: the disk is flushed on every commit, a few ms each).",
        ),
        public_url: str = typer.Option(
            "",
            "--public-url",
            help="The address others open (a reverse proxy's https://...); invite links use it. "
            "Default: the LAN address when --host is 0.0.0.0.",
        ),
        log_level: str = typer.Option("warning", "--log-level", help="uvicorn log level (info shows each request)."),
    ) -> None:
        """Play any game in the browser with friends and bots. Prints the address to open."""
        import uvicorn

        from gamebag.web.app import create_app

        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        if sync not in SYNC_MODES:
            raise OptionError(f"--sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        from gamebag.web.invites import invite_base

        base = invite_base(host, port, public_url)
        application = create_app(db, bot_delay=bot_delay, allow_seed=allow_seed, sync=sync, invite_base=base)
        for address in _addresses(host):
            typer.echo(f"gamebag web: open http://{address}:{port}/")
        if base:
            typer.echo(f"invite links use {base} (what phones on this network open)")
        typer.echo(f"database: {db}  (Ctrl-C stops the server)")
        uvicorn.run(
            application,
            host=host,
            port=port,
            log_level=log_level,
            ws_max_size=64 * 1024,
            ws_per_message_deflate=False,  # messages are small; compressing them costs more CPU than it saves
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
        )


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
