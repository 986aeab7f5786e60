"""A real ``gamebag serve`` process on a free loopback port, for restart and browser tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

# Seconds a test waits for one HTTP answer: generous, so a loaded machine slows the suite down
# instead of failing it (httpx's own default is 5 s).
HTTP_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``gamebag serve`` in a child process; ``kill()`` sends SIGKILL, ``start()`` runs it again."""

    def __init__(
        self,
        db_path: Path,
        port: int | None = None,
        bot_delay: float = 0.0,
        db_url: str | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        """A server on the SQLite file ``db_path``, or on ``db_url`` (its log then goes next to ``db_path``)."""
        self.db_url = db_url or f"sqlite:///{db_path}"
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = db_path.with_suffix(".log")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90.0) -> None:
        command = [
            sys.executable,
            "-c",
            "from gamebag.cli.app import main; main()",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-delay",
            str(self.bot_delay),
            "--allow-seed",
            *self.extra,
        ]
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early; see {self.log_path}:\n{self.log_path.read_text()}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not answer within {timeout} s; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None


def read_until_closed(raw: socket.socket, limit: float = 30.0) -> bytes:
    """Everything the server sends until it closes the connection (or ``limit`` seconds pass)."""
    raw.settimeout(limit)
    answer = b""
    while True:
        try:
            more = raw.recv(65536)
        except TimeoutError:
            return answer + b"<still open>"
        except ConnectionResetError:
            return answer
        if not more:
            return answer
        answer += more
