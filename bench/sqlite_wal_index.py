"""SQLite's WAL index in shared memory ("unix") or in heap memory ("unix-excl"): commit latency
and whether a ``-shm`` file cut short mid-run kills the process (issue 36, point 5).

For each VFS, alternating ``--rounds`` times so that a busy machine weighs on both alike, a
fresh database gets ``--commits`` one-move commits through the server's own ``Store``
(``save_events``, as a move at a table is saved); the commit latencies are pooled per VFS.
Then a child process writes and reads through a ``Store`` from two threads for ``--seconds``
while this process truncates the child's ``<database>-shm`` whenever one exists; the child's
exit status is reported (-7: killed by SIGBUS).

    .venv/bin/python bench/sqlite_wal_index.py
    .venv/bin/python bench/sqlite_wal_index.py --commits 500 --rounds 1 --seconds 1
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gamebag.web.lobby import parse_table_request
from gamebag.web.store import db
from gamebag.web.store.engines import make_engine

VFSES = ("unix", "unix-excl")
CHILD = """
import sys, threading, time
from gamebag.web.store import db
from gamebag.web.store.engines import make_engine
from gamebag.web.lobby import parse_table_request
vfs = sys.argv[3]
db.make_engine = lambda url, sync: make_engine(url, sync, vfs)
store = db.Store("sqlite:///" + sys.argv[1])
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
            pass
threads = [threading.Thread(target=work) for _ in range(2)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("done", steps[0], flush=True)
"""


def _commit_times(vfs: str, commits: int) -> list[float]:
    """Seconds per commit of ``commits`` one-move commits on a fresh database through ``vfs``."""
    original = db.make_engine
    db.make_engine = lambda url, sync: make_engine(url, sync, vfs)  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as folder:
            store = db.Store(f"sqlite:///{Path(folder) / 'web.db'}")
            try:
                config = parse_table_request({"game": "pig", "players": 2, "seats": [{}, {}]}, allow_seed=True)
                store.create_table(config)
                times = []
                for step in range(commits):
                    started = time.perf_counter()
                    store.save_events(config.id, step, [{"moves": {"0": "roll"}}], False)
                    times.append(time.perf_counter() - started)
                return times
            finally:
                store.close()
    finally:
        db.make_engine = original  # type: ignore[assignment]


def _survives_cuts(vfs: str, seconds: float) -> tuple[int | None, int, bool]:
    """The child's exit status, how many times its ``-shm`` was cut short, whether one ever existed."""
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "web.db"
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(database), str(seconds), vfs],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert child.stdout is not None
        child.stdout.readline()
        index = Path(f"{database}-shm")
        cuts, seen = 0, False
        deadline = time.monotonic() + seconds + 60.0
        while child.poll() is None and time.monotonic() < deadline:
            if index.exists():
                seen = True
                try:
                    with index.open("r+b") as handle:
                        handle.truncate(0)
                    cuts += 1
                except FileNotFoundError:
                    pass
            time.sleep(0.0005)
        if child.poll() is None:
            child.kill()
        child.wait()
        return child.returncode, cuts, seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commits", type=int, default=2000, help="commits per VFS and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, alternating the VFSes")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long the child writes while its -shm is cut")
    args = parser.parse_args()
    if not 1 <= args.commits <= 100_000 or not 1 <= args.rounds <= 20 or not 0.1 <= args.seconds <= 120:
        parser.error("--commits must be 1..100000, --rounds 1..20 and --seconds 0.1..120")
    times: dict[str, list[float]] = {vfs: [] for vfs in VFSES}
    for _ in range(args.rounds):
        for vfs in VFSES:
            times[vfs].extend(_commit_times(vfs, args.commits))
    load = os.getloadavg()[0]
    print(f"load average {load:.1f}; {args.commits} commits x {args.rounds} rounds per VFS\n")
    print("| VFS | commit p50 | p90 | p99 | mean | -shm file | with its -shm cut short |")
    print("|---|---|---|---|---|---|---|")
    for vfs in VFSES:
        ordered = sorted(times[vfs])
        p50, p90, p99 = (ordered[int(q * (len(ordered) - 1))] * 1e3 for q in (0.5, 0.9, 0.99))
        status, cuts, seen = _survives_cuts(vfs, args.seconds)
        outcome = "survived" if status == 0 else f"killed (exit {status})"
        print(
            f"| {vfs} | {p50:.3f} ms | {p90:.3f} ms | {p99:.3f} ms | {statistics.mean(ordered) * 1e3:.3f} ms "
            f"| {'yes' if seen else 'none'} | {outcome} after {cuts} cuts |"
        )


if __name__ == "__main__":
    main()
