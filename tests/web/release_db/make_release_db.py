"""How the release databases beside this script were made (run once; the files are committed).

``release-66427e3.sqlite`` and ``release-66427e3.postgresql.sql`` are databases written by the
web server of release 66427e3 (the last one before schema migrations), for
``tests/web/test_release_upgrade.py``, which upgrades them and plays their tables to the end.
This script runs that release's own server (``gamebag serve`` from its sources) and makes it
write, through its HTTP API and sockets:

* one unfinished table of every registered game, a few actions in;
* in Eigen Kweek, a secret choice made by one seat while another is still awaited (pending);
* a Pig table with a turn clock, stopped mid-turn;
* a finished Pig table with its rematch opened (not played yet);
* a table whose invites nobody claimed yet;
* a closed table (the host closed it);
* a Catch A Dragon table with a bot seat.

The same scenario runs on an SQLite file and on a PostgreSQL database (a throw-away cluster,
``tests/web/postgres.py``), which ``pg_dump --inserts`` then writes out as plain SQL.
``manifest.json`` names each table's role. To make them again (from the repository root)::

    git worktree add /tmp/release-66427e3 66427e3
    PYTHONPATH=/tmp/release-66427e3/src:tests python -m web.release_db.make_release_db
    git worktree remove --force /tmp/release-66427e3
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

import gamebag
from web.postgres import PostgresCluster, postgres_cluster
from web.serverproc import HTTP_TIMEOUT, ServerProcess
from web.test_restart import RemoteSeat, drive

HERE = Path(__file__).parent
RELEASE = "66427e3"
SHORT_OPTIONS: dict[str, dict[str, Any]] = {"pig": {"goal": 30}, "eigen-kweek": {"max_rounds": 3}}
PLAYERS = {"eigen-kweek": 3, "wriggle-roulette": 3}  # the others: two


def _open(
    base: str, game: str, seed: int, bots: dict[int, str] | None = None, claim: bool = True, **extra: Any
) -> dict[str, Any]:
    players = PLAYERS.get(game, 2)
    seats = [{"name": f"P{p}", "bot": (bots or {}).get(p)} for p in range(players)]
    body = {"game": game, "players": players, "seats": seats, "seed": seed, "options": SHORT_OPTIONS.get(game, {})}
    answer: dict[str, Any] = httpx.post(f"{base}/api/tables", json={**body, **extra}, timeout=HTTP_TIMEOUT).json()
    for seat in answer["seats"]:
        if claim and not seat["bot"]:
            code = seat["invite"].split("#invite=", 1)[1]
            claimed = httpx.post(f"{base}/api/tables/{answer['id']}/claim", json={"invite": code}, timeout=HTTP_TIMEOUT)
            seat["token"] = claimed.json()["token"]
    return answer


def _seats(server: ServerProcess, table: dict[str, Any]) -> list[RemoteSeat]:
    seats = [RemoteSeat(server.ws_base, table["id"], s["token"]) for s in table["seats"] if not s["bot"]]
    for seat in seats:
        seat.connect()
    return seats


def _acted(count: int) -> Any:
    return lambda seats: sum(len(s.acted) for s in seats) >= count or all(s.over for s in seats)


def _leave_pending(seats: list[RemoteSeat]) -> None:
    """Play on until a decision awaits two people; then only the first of them chooses."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for seat in seats:
            seat.pump()
        latest = [s.latest for s in seats]
        if any(m is None for m in latest) or len({m["step"] for m in latest if m}) != 1:
            continue
        waiting = [s for s in seats if s.wants_to_act()]
        if len(waiting) >= 2:
            waiting[0].act()
            time.sleep(0.5)  # the server writes the pending choice before the socket closes
            return
        if waiting:
            waiting[0].act()
    raise RuntimeError("no decision awaited two people")


def scenario(server: ServerProcess) -> dict[str, str]:
    """Write the tables; their roles by id."""
    base, roles, opened = server.base, {}, []
    for index, game in enumerate(gamebag.game_ids()):
        table = _open(base, game, 100 + index)
        seats = _seats(server, table)
        drive(seats, _acted(4))
        if game == "eigen-kweek":
            _leave_pending(seats)
            roles[table["id"]] = "pending secret choice"
        else:
            roles[table["id"]] = "unfinished"
        opened.append(seats)
    clocked = _open(base, "pig", 200, turn_seconds=3600)
    seats = _seats(server, clocked)
    drive(seats, _acted(3))
    opened.append(seats)
    roles[clocked["id"]] = "turn clock, mid-turn"
    finished = _open(base, "pig", 300)
    seats = _seats(server, finished)
    drive(seats, lambda s: all(seat.over for seat in s))
    opened.append(seats)
    roles[finished["id"]] = "finished, with a rematch"
    rematch = httpx.post(
        f"{base}/api/tables/{finished['id']}/rematch",
        headers={"x-host-token": finished["host_token"]},
        timeout=HTTP_TIMEOUT,
    ).json()
    roles[rematch["id"]] = "rematch, not played yet"
    roles[_open(base, "catch-a-dragon", 350, claim=False)["id"]] = "invites unclaimed"
    closed = _open(base, "wriggle-roulette", 400)
    seats = _seats(server, closed)
    drive(seats, _acted(2))
    opened.append(seats)
    httpx.post(
        f"{base}/api/tables/{closed['id']}/close", headers={"x-host-token": closed["host_token"]}, timeout=HTTP_TIMEOUT
    ).raise_for_status()
    roles[closed["id"]] = "closed"
    botted = _open(base, "catch-a-dragon", 500, bots={1: "random"})
    seats = _seats(server, botted)
    drive(seats, _acted(2))
    opened.append(seats)
    roles[botted["id"]] = "unfinished, with a bot"
    for seats in opened:
        for seat in seats:
            seat.close()
    return roles


def _run(db_path: Path, url: str | None) -> dict[str, str]:
    server = ServerProcess(db_path, db_url=url)
    server.start()
    try:
        return scenario(server)
    finally:
        server.stop()


def _dump(cluster: PostgresCluster, url: str, target: Path) -> None:
    database = url.rsplit("/", 1)[1]
    dump = cluster.bin / "pg_dump"
    command = [str(dump), "--inserts", "--no-owner", "--no-privileges", "-h", "127.0.0.1"]
    command += ["-p", str(cluster.port), "-U", cluster.user, database]
    dumped = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    # psql before 15.14 (and 13.22, 14.19, 16.10, 17.6) does not know the \restrict lines newer
    # dumps start and end with; this dump is ours, so any psql may read it without them.
    kept = [line for line in dumped.splitlines() if not line.startswith(("\\restrict", "\\unrestrict"))]
    target.write_text("\n".join(kept) + "\n")


def main() -> None:
    if not gamebag.__file__ or "release-" + RELEASE not in gamebag.__file__:
        sys.exit(f"error: run this with PYTHONPATH=/tmp/release-{RELEASE}/src:tests (see its docstring)")
    manifest: dict[str, Any] = {"release": RELEASE}
    sqlite_file = HERE / f"release-{RELEASE}.sqlite"
    sqlite_file.unlink(missing_ok=True)
    manifest["sqlite"] = _run(sqlite_file, None)
    for leftover in (sqlite_file.with_suffix(".log"), Path(f"{sqlite_file}.lock")):
        leftover.unlink(missing_ok=True)
    with postgres_cluster() as cluster, tempfile.TemporaryDirectory() as scratch:
        url = cluster.create_database()
        manifest["postgresql"] = _run(Path(scratch) / "pg.db", url)
        _dump(cluster, url, HERE / f"release-{RELEASE}.postgresql.sql")
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


if __name__ == "__main__":
    main()
