"""An SQLite WAL index cut short under a running server does not kill it (issue 36, point 5).

SQLite normally maps ``<database>-shm`` into memory; truncating that file while a statement
reads the mapping killed the process by SIGBUS (the checks before each statement narrowed the
window, not closed it). The server's connections now go through the ``unix-excl`` VFS, which
keeps the index in heap memory (``store/engines.py``): there is no ``-shm`` file to cut short.

A child process writes and reads through the server's ``Store`` from two threads while this
process truncates the child's ``-shm`` as fast as it can whenever one exists.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

WORKLOAD = """
import sys, threading, time
from gamebag.web.lobby import parse_table_request
from gamebag.web.store.db import Store
store = Store("sqlite:///" + sys.argv[1])
config = parse_table_request({"game": "pig", "players": 2, "seats": [{}, {}]}, allow_seed=True)
store.create_table(config)
print("ready", flush=True)
stop = time.monotonic() + float(sys.argv[2])
lock = threading.Lock()
steps = [0]
def work():
    while time.monotonic() < stop:
        with lock:
            step = steps[0]
            steps[0] += 1
        try:
            store.save_events(config.id, step, [{"moves": {"0": "roll"}}], False)
            store.load(config.id)
        except Exception:
            pass  # a refused statement is fine: only the process's death is a failure here
threads = [threading.Thread(target=work) for _ in range(2)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("done", steps[0], flush=True)
"""
SECONDS = 1.5


def test_cutting_the_wal_index_short_mid_run_does_not_kill_the_server(tmp_path: Path) -> None:
    database = tmp_path / "web.db"
    source = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": f"{source}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    child = subprocess.Popen(
        [sys.executable, "-c", WORKLOAD, str(database), str(SECONDS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    index = Path(f"{database}-shm")
    cuts = 0
    deadline = time.monotonic() + SECONDS + 30.0
    while child.poll() is None and time.monotonic() < deadline:
        if index.exists():
            try:
                with index.open("r+b") as handle:
                    handle.truncate(0)
                cuts += 1
            except FileNotFoundError:
                pass
        time.sleep(0.0005)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 0, f"the server's process died (exit {child.returncode}) after {cuts} cuts: {err[-800:]}"
    assert out.startswith("done") and int(out.split()[1]) > 10, out
    assert not index.exists(), "the WAL index is a shared-memory file again"
