"""Slow connections against one ``gamebag serve``: are other clients still answered? (issue 36)

Starts ``gamebag serve`` on a free 127.0.0.1 port with a fresh SQLite file and the usual
open-file limit of a login shell (``--files``, soft and hard, in the server's process only),
opens ``--connections`` connections from 127.0.0.1 that each send a POST's headers and the
first bytes of its body and stop, then sends ``--requests`` health requests from another
address (127.0.0.2) and reports how many were answered and how fast, how many slow
connections the server still held, and the tracebacks and open-file line in its log.

    .venv/bin/python bench/slow_connections.py                 # 1,030 slow connections, 37 requests
    .venv/bin/python bench/slow_connections.py --src /other/src  # another checkout's code, for comparison
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BODY = b'{"game": "pig", "players": 2, "seats": [{"name": "A"}, {"name": "B"}]}'
HEAD = (
    b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: %d\r\n\r\n" % len(BODY)
)
HEALTH = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start(folder: Path, port: int, files: int, src: str | None) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    command = [sys.executable, "-c", "from gamebag.cli.app import main; main()", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{folder / 'slow.db'}"]

    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    log = (folder / "slow.log").open("wb")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, preexec_fn=limit_files)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as raw:
                raw.sendall(HEALTH)
                if raw.recv(100).startswith(b"HTTP/1.1 200"):
                    return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start; see {folder / 'slow.log'}")


def _health_from(port: int, source: str) -> float | None:
    """Seconds to a 200 from ``source``, None when not answered within 5 s."""
    with socket.socket() as raw:
        raw.settimeout(5)
        raw.bind((source, 0))
        started = time.monotonic()
        try:
            raw.connect(("127.0.0.1", port))
            raw.sendall(HEALTH)
            return time.monotonic() - started if raw.recv(100).startswith(b"HTTP/1.1 200") else None
        except OSError:
            return None


def _still_open(held: list[socket.socket]) -> int:
    count = 0
    for raw in held:
        raw.setblocking(False)
        try:
            raw.recv(100)  # an answer or end of file: the server let it go
        except BlockingIOError:
            count += 1
        except OSError:
            pass
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1030, help="slow connections from one address")
    parser.add_argument("--requests", type=int, default=37, help="requests from another address meanwhile")
    parser.add_argument("--files", type=int, default=1024, help="the server's open-file limit (soft and hard)")
    parser.add_argument("--src", default=None, help="a source folder to run the server from (PYTHONPATH)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = args.connections + 256
    if soft < wanted:
        wanted = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    with tempfile.TemporaryDirectory() as folder:
        port = _free_port()
        server = _start(Path(folder), port, args.files, args.src)
        held: list[socket.socket] = []
        try:
            for _ in range(args.connections):
                try:
                    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
                    raw.sendall(HEAD + BODY[:5])
                    held.append(raw)
                except OSError:
                    break
            time.sleep(1.0)
            times = [t for t in (_health_from(port, "127.0.0.2") for _ in range(args.requests)) if t is not None]
            still = _still_open(held)
        finally:
            for raw in held:
                raw.close()
            time.sleep(0.5)
            server.terminate()
            server.wait(timeout=30)
        log = (Path(folder) / "slow.log").read_text()
    median = f"{1000 * statistics.median(times):.1f} ms" if times else "-"
    print(f"answered {len(times)}/{args.requests} from another address (median {median})")
    print(f"slow connections the server still held after 1 s: {still}/{len(held)}")
    print(f"tracebacks in the server's log: {log.count('Traceback')}")
    for line in log.splitlines():
        if "open files" in line or "went away while sending" in line:
            print(f"log: {line}")


if __name__ == "__main__":
    main()
