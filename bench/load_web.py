"""Load test of the web server on loopback: many WebSocket clients at many tables, with bots.

Starts ``gamebag serve`` on free 127.0.0.1 ports: one process on a fresh SQLite file
(``--db sqlite``), or ``--processes`` processes sharing a throw-away PostgreSQL
database (``--db postgres``; Debian's server, as the tests start it), or both layouts
one after the other (``--compare``: 1 process, then 2, on PostgreSQL). It opens the
tables, connects one client per person's seat (seat ``p`` of table ``t`` to process
``(t + p) mod N``, as a load balancer would spread them, so a table's seats sit on
different processes; ``--route table``: every seat on the process that owns its table),
and lets every client play random legal moves after a think time (a person's pace;
``--think 0``: at once, saturation), until every game ends or the time limit passes.
Everything is bounded: clients, tables and wall time.

The clients run in ``--client-processes`` processes (an event loop each), and each
measures how late its own loop wakes up (``client_lateness``): every latency a client
measures includes that, so a saturated load generator shows there and is not blamed on
the server. The servers' CPU time per acknowledged action is reported too, and the
machine's load average (this benchmark means little on a machine busy with other work).

Reports actions per second, latency from sending an action to receiving its broadcast
(the server acknowledges an action only after queueing the new state to every reader, so
the acknowledgement arrives right behind the acting client's own copy), latency from the
server's commit to the delivery of each state message, errors, lost actions (acknowledged
but missing from the record) and leaked secrets (a message holding another seat's view or
pending choice), and leaks of server resources: sockets still open on the server after
every client left, and the growth of the server processes' memory over the run.

    .venv/bin/python bench/load_web.py --clients 200 --tables 50 --duration 30 --think 0.5
    .venv/bin/python bench/load_web.py --think 0      # every client acts at once: saturation
    .venv/bin/python bench/load_web.py --compare --clients 1000 --tables 250 --think 2 --duration 60

``--attack NAME[,NAME...]`` (or ``all``) runs the attackers of issue 36 while the players
play (``bench/web_attackers.py`` says what each does and how it keeps to the limits), and
adds the honest side's figures: a table opened every 2 s (its time), one analysis asked
(its time), and the fallback moves the server logged at the honest tables.

    .venv/bin/python bench/load_web.py --attack stale --clients 30 --tables 10 --bots 1 --duration 20
    .venv/bin/python bench/load_web.py --attack all --clients 30 --tables 10 --bots 1 --duration 20

``--attack`` alone (``flood``) adds clients that try to make the server wait for them (issue 27): first a long
game is played out by bots (Eigen Kweek, 3 random bots, every coin worth 1, ploughing at 20,
up to 90 rounds: about 1,600 steps); then, while the players above play their tables, four
spectator sockets at that finished game flood ``sync`` (``--attack-syncs`` a second each) and
two clients loop on its replay download, each starting the next as the last ends. The
players' action-to-acknowledgement p99 is the figure that must stay low (under 100 ms);
what the attackers got is reported beside it.

    .venv/bin/python bench/load_web.py --attack --clients 40 --tables 10 --think 0.5 --duration 30
    .venv/bin/python bench/load_web.py --attack --db postgres --clients 40 --tables 10 --think 0.5 --duration 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attack_matrix import matrix_attackers, matrix_databases, matrix_markdown, matrix_runs
from web_attackers import chosen_attackers, fallback_moves, honest_probes, prepare, run_attackers
from web_flood import LONG_GAME, attack, long_finished_game

ROOT = Path(__file__).resolve().parent.parent
# Open limits for one load generator on 127.0.0.1 (the server's defaults are per client address).
OPEN_LIMITS = [
    "--tables-per-minute",
    "100000",
    "--tables-per-hour",
    "1000000",
    "--connects-per-minute",
    "1000000",
    "--sockets-per-address",
    "100000",
]


@dataclass
class ClientStats:
    acted: dict[int, Any] = field(default_factory=dict)  # step -> action acknowledged
    chosen: dict[int, Any] = field(default_factory=dict)  # step -> action sent
    sent_at: dict[int, float] = field(default_factory=dict)  # ref -> send time
    ack_latency: list[float] = field(default_factory=list)
    delivery_latency: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    finished: bool = False
    messages: int = 0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(port: int, db_url: str, sync: str, log: Path | None = None) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-c",
        "from gamebag.cli.app import main; main()",
        "serve",
        "--port",
        str(port),
        "--bot-delay",
        "0",
        "--allow-seed",
        "--sync",
        sync,
        *OPEN_LIMITS,
    ]
    env = {**os.environ, "GAMEBAG_DB": db_url}
    output = log.open("ab") if log is not None else subprocess.DEVNULL  # the log: fallback moves are counted there
    process = subprocess.Popen(command, stdout=output, stderr=output, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def check_secrets(message: dict[str, Any], seat: int, stats: ClientStats) -> None:
    """A seat's state must be its own view, mentioning no pending choice but its own."""
    view = message["view"]
    if message["seat"] != seat or view.get("seat") != seat:
        stats.leaks.append(f"seat {seat} received the view of seat {view.get('seat')}")
    mine = view["choices"]["mine"]
    if mine is not None and stats.chosen.get(message["step"]) != mine:
        stats.leaks.append(f"seat {seat} was shown a pending choice it did not make: {mine!r}")
    for key in ("pending", "pending_grabs", "counts_pending"):
        if key in view:
            stats.leaks.append(f"seat {seat} received {key!r}")


async def play_seat(
    url: str, token: str, seat: int, seed: int, stats: ClientStats, stop_wall: float, think: float
) -> None:
    rng = random.Random(seed)
    stop_at = time.monotonic() + (stop_wall - time.time())
    pending_refs: dict[int, tuple[int, Any]] = {}
    background: set[asyncio.Task[None]] = set()
    async with connect(url, max_size=2**22, open_timeout=30) as ws:
        try:
            await read_and_play(ws, token, seat, rng, stats, stop_at, think, pending_refs, background)
        finally:
            for task in background:  # moves still being "thought about" when the client leaves
                task.cancel()


async def read_and_play(
    ws: Any,
    token: str,
    seat: int,
    rng: random.Random,
    stats: ClientStats,
    stop_at: float,
    think: float,
    pending_refs: dict[int, tuple[int, Any]],
    background: set[asyncio.Task[None]],
) -> None:
    ref = 0
    await ws.send(json.dumps({"type": "hello", "token": token}))
    while time.monotonic() < stop_at:
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop_at - time.monotonic()))
        except TimeoutError:
            return
        received = time.time()
        message = json.loads(raw)
        stats.messages += 1
        kind = message["type"]
        if kind == "error":
            stats.errors.append(message["message"])
        elif kind == "ack":
            sent = stats.sent_at.pop(message["ref"], None)
            step_action = pending_refs.pop(message["ref"], None)
            if sent is not None:
                stats.ack_latency.append(time.perf_counter() - sent)
            if step_action is not None:
                stats.acted[step_action[0]] = step_action[1]
        elif kind == "state":
            stats.delivery_latency.append(max(0.0, received - message["at"]))
            check_secrets(message, seat, stats)
            if message["result"] is not None:
                stats.finished = True
                return
            step = message["step"]
            waiting = message["view"]["choices"]["waiting_for"]
            already = step in stats.acted or any(s == step for s, _ in pending_refs.values())
            if seat in waiting and message["legal"] and not already:
                ref += 1
                action = rng.choice(message["legal"])
                pending_refs[ref] = (step, action)
                stats.chosen[step] = action
                # A person looks at the table before choosing (uniform, mean ``think``);
                # meanwhile this client keeps reading, so no latency is counted twice.
                delay = rng.uniform(0, 2 * think) if think > 0 else 0.0
                send = {"type": "act", "action": action, "step": step, "ref": ref}
                thinking = asyncio.create_task(act_later(ws, send, delay, stats))
                background.add(thinking)
                thinking.add_done_callback(background.discard)


async def act_later(ws: Any, message: dict[str, Any], delay: float, stats: ClientStats) -> None:
    if delay > 0:
        await asyncio.sleep(delay)
    stats.sent_at[message["ref"]] = time.perf_counter()
    await ws.send(json.dumps(message))


def stored(engine: Any, table_id: str) -> tuple[dict[str, Any], dict[int, Any]]:
    """A table's stored events (and whether it finished) and its pending secret choices."""
    with engine.connect() as connection:
        events = [
            json.loads(row[0])
            for row in connection.execute(
                text("SELECT data FROM web_events WHERE table_id = :t ORDER BY idx"), {"t": table_id}
            )
        ]
        pending = {
            int(row[0]): json.loads(row[1])
            for row in connection.execute(
                text("SELECT seat, action FROM web_pending WHERE table_id = :t"), {"t": table_id}
            )
        }
        finished = connection.execute(text("SELECT finished FROM web_tables WHERE id = :t"), {"t": table_id}).scalar()
    return {"events": events, "finished": bool(finished)}, pending


def lost_actions(record: dict[str, Any], seat: int, acted: dict[int, Any], pending: Any = None) -> int:
    """Acknowledged actions of ``seat`` that the database holds neither where they belong nor as pending."""
    lost = 0
    events = record["events"]
    for step, action in acted.items():
        later = [e for e in events[step:] if "moves" in e and str(seat) in e["moves"]]
        if later and later[0]["moves"][str(seat)] == action:
            continue
        if not later and step == len(events) and pending == action:
            continue  # a secret choice made at the current step, not yet revealed
        lost += 1
    return lost


def count_lost(db_url: str, tables: list[dict[str, Any]], stats: list[Any]) -> dict[str, int]:
    """Acknowledged actions missing from the database, and games finished: read straight from
    the database once the servers stopped (an SQLite server holds its file exclusively)."""
    lost = finished = 0
    engine = create_engine(db_url)
    try:
        for table in tables:
            # An acknowledged action was committed, finished game or not.
            record, pending = stored(engine, table["id"])
            finished += bool(record["finished"])
            for owner, seat, client_stats in stats:
                if owner is table:
                    lost += lost_actions(record, seat, client_stats.acted, pending.get(seat))
    finally:
        engine.dispose()
    return {"lost_actions": lost, "games_finished": finished}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a server process has used so far, bot workers excluded."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    """Resident memory of a process and its children (the bot workers), in KiB."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(child) for child in children]
    except OSError:
        pass
    for each in pids:
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


async def run(
    args: argparse.Namespace, bases: list[str], db_url: str, pids: list[int], pool: Any, restart: Any, log: Path
) -> dict[str, Any]:
    seats_per_table = args.clients // args.tables
    players = seats_per_table + args.bots
    base = bases[0]
    names = chosen_attackers(args.attack)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        attacked: tuple[str, int] | None = await long_finished_game(http, base) if "flood" in names else None
        prepared = await prepare(http, base, names, args.game, LONG_GAME)
        if "lobby" in names:  # the tables are written: the lobby is listed after a restart
            pids = await asyncio.to_thread(restart)
        load_before = os.getloadavg()[0]
        tables = []
        for index in range(args.tables):
            seats = [{} for _ in range(seats_per_table)] + [{"bot": args.bot} for _ in range(args.bots)]
            response = await http.post(  # each process opens (and so owns) its share of the tables
                f"{bases[index % len(bases)]}/api/tables",
                json={"game": args.game, "players": players, "seats": seats, "seed": index},
            )
            response.raise_for_status()
            table = response.json()
            for seat in table["seats"]:  # each invite is a one-time claim: the client claims its seat
                if not seat["bot"]:
                    code = seat["invite"].split("#invite=", 1)[1]
                    claimed = await http.post(f"/api/tables/{table['id']}/claim", json={"invite": code})
                    claimed.raise_for_status()
                    seat["token"] = claimed.json()["token"]
            tables.append(table)
        # Memory once the tables are open (bot workers started): the play must not make it grow.
        memory_before = sum(rss_kib(pid) for pid in pids)
        cpu_before = sum(cpu_seconds(pid) for pid in pids)
        started = time.monotonic()
        seats: list[tuple[dict[str, Any], int]] = []
        specs: list[SeatSpec] = []
        for number, table in enumerate(tables):
            for seat in table["seats"]:
                if seat["bot"]:
                    continue
                seats.append((table, seat["seat"]))
                spread = number + seat["seat"] if args.route == "seat" else number  # table: the owner's
                ws_base = bases[spread % len(bases)].replace("http://", "ws://")
                url = f"{ws_base}/ws/tables/{table['id']}"
                seed = 1000 * seat["seat"] + len(specs)
                specs.append(SeatSpec(len(specs), url, seat["token"], seat["seat"], seed))
        shares = [specs[k :: args.client_processes] for k in range(args.client_processes)]
        stop_wall = time.time() + args.duration
        attackers = named = probes = None
        if attacked is not None:
            attackers = pool.apply_async(attack, [(base, attacked[0], stop_wall, args.attack_syncs)])
        if set(names) - {"flood"}:
            named = pool.apply_async(run_attackers, [(base, names, args.game, prepared, stop_wall)])
            stop_at = time.monotonic() + (stop_wall - time.time())
            probes = asyncio.create_task(honest_probes(base, args.game, prepared, stop_at))
        outcomes = await asyncio.to_thread(
            pool.map, play_share, [(share, stop_wall, args.think, args.arrival) for share in shares], 1
        )
        attack_report = await asyncio.to_thread(attackers.get, 120) if attackers is not None else None
        named_report = await asyncio.to_thread(named.get, 180) if named is not None else None
        probe_report = await probes if probes is not None else {}
        by_index: dict[int, ClientStats] = {}
        crashed: list[str] = []
        lateness: list[float] = []
        client_cpu = 0.0
        for outcome in outcomes:
            by_index.update(outcome.stats)
            crashed += outcome.crashed
            lateness += outcome.lateness
            client_cpu += outcome.cpu_seconds
        stats = [(table, seat, by_index[index]) for index, (table, seat) in enumerate(seats)]
        elapsed = time.monotonic() - started
        server_cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
        open_after = await open_sockets(http, bases)
        memory_after = sum(rss_kib(pid) for pid in pids)
    actions = sum(len(s.acted) for _, _, s in stats)
    ack = [x for _, _, s in stats for x in s.ack_latency]
    delivery = [x for _, _, s in stats for x in s.delivery_latency]
    return {
        "game": args.game,
        "clients": len(stats),
        "tables": args.tables,
        "bots_per_table": args.bots,
        "think_seconds_mean": args.think,
        "sqlite_sync": args.sync,
        "seconds": round(elapsed, 2),
        "actions_acknowledged": actions,
        "actions_per_second": round(actions / elapsed, 1) if elapsed else 0.0,
        "messages_received": sum(s.messages for _, _, s in stats),
        "action_to_broadcast_ms_p50": round(1000 * percentile(ack, 0.50), 2),
        "action_to_broadcast_ms_p99": round(1000 * percentile(ack, 0.99), 2),
        "action_to_broadcast_ms_mean": round(1000 * statistics.fmean(ack), 2) if ack else None,
        "commit_to_delivery_ms_p50": round(1000 * percentile(delivery, 0.50), 2),
        "commit_to_delivery_ms_p99": round(1000 * percentile(delivery, 0.99), 2),
        "errors": sum(len(s.errors) for _, _, s in stats) + len(crashed),
        "error_examples": sorted({e for _, _, s in stats for e in s.errors})[:3] + crashed[:3],
        "server_cpu_share": round(server_cpu / elapsed, 2) if elapsed else 0.0,
        "server_cpu_ms_per_action": round(1000 * server_cpu / actions, 2) if actions else None,
        "client_processes": args.client_processes,
        "client_cpu_share": round(client_cpu / elapsed, 2) if elapsed else 0.0,
        "client_lateness_ms_p50": round(1000 * percentile(lateness, 0.50), 2),
        "client_lateness_ms_p99": round(1000 * percentile(lateness, 0.99), 2),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "load_average_1min_at_start": round(load_before, 2),
        "bot_fallback_moves_at_honest_tables": fallback_moves(
            log.read_text("utf-8", "replace"), [t["id"] for t in tables]
        ),
        **probe_report,
        **({} if named_report is None else {"attackers": ",".join(names), "attack_named": named_report}),
        "lost_actions": lambda: count_lost(db_url, tables, stats),  # read once the servers stopped
        "leaked_secrets": sum(len(s.leaks) for _, _, s in stats),
        "sockets_open_after": open_after,
        "server_memory_growth_mib": round((memory_after - memory_before) / 1024, 1),
        **({} if attacked is None else {"attacked_game_steps": attacked[1], "attack": attack_report}),
    }


async def staggered(job: Any, index: int, spread: float) -> None:
    await asyncio.sleep(random.Random(index).uniform(0, spread))
    await job


@dataclass(frozen=True)
class SeatSpec:
    """One client to run: its number, socket address, seat token, seat and seed."""

    index: int
    url: str
    token: str
    seat: int
    seed: int


@dataclass
class ShareOutcome:
    """What one client process brings back."""

    stats: dict[int, ClientStats]
    crashed: list[str]
    lateness: list[float]  # how late the client's own event loop woke up (seconds)
    cpu_seconds: float


LATENESS_TICK = 0.05


async def measure_lateness(stop_at: float, samples: list[float]) -> None:
    """How late this process's event loop wakes up: a latency the server cannot be blamed for.

    Every latency a client measures includes the time its own loop took to get to the
    message; a saturated load generator shows here first.
    """
    while time.monotonic() < stop_at:
        before = time.monotonic()
        await asyncio.sleep(LATENESS_TICK)
        samples.append(max(0.0, time.monotonic() - before - LATENESS_TICK))


async def play_share_async(share: list[SeatSpec], stop_wall: float, think: float, arrival: float) -> ShareOutcome:
    stats = {spec.index: ClientStats() for spec in share}
    lateness: list[float] = []
    stop_at = time.monotonic() + (stop_wall - time.time())
    probe = asyncio.create_task(measure_lateness(stop_at, lateness))
    jobs = [
        staggered(play_seat(s.url, s.token, s.seat, s.seed, stats[s.index], stop_wall, think), s.index, arrival)
        for s in share
    ]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    probe.cancel()
    crashed = [repr(r) for r in results if isinstance(r, BaseException)]
    return ShareOutcome(stats, crashed, lateness, 0.0)


def play_share(arguments: tuple[list[SeatSpec], float, float, float]) -> ShareOutcome:
    """One client process: its share of the clients, each on its own socket, on one event loop."""
    cpu_before = time.process_time()
    outcome = asyncio.run(play_share_async(*arguments))
    outcome.cpu_seconds = time.process_time() - cpu_before
    return outcome


async def open_sockets(http: httpx.AsyncClient, bases: list[str]) -> int:
    """Sockets the servers still hold once every client has left (they close within seconds)."""
    deadline = time.monotonic() + 15
    while True:
        count = sum([(await http.get(f"{base}/api/health")).json()["connections"] for base in bases])
        if count == 0 or time.monotonic() > deadline:
            return int(count)
        await asyncio.sleep(0.2)


def serve_and_run(args: argparse.Namespace, processes: int, db: str) -> dict[str, Any]:
    """Start the servers (and PostgreSQL if asked), run the load, stop everything."""
    with tempfile.TemporaryDirectory() as folder:
        cluster = None
        if db == "postgres":
            sys.path.insert(0, str(ROOT))
            from tests.web.postgres import PostgresCluster

            cluster = PostgresCluster()
            cluster.start()
            db_url = cluster.create_database()
        else:
            db_url = f"sqlite:///{Path(folder) / 'bench.db'}"
        servers = []
        log = Path(folder) / "server.log"
        report: dict[str, Any] | None = None

        def restart() -> list[int]:
            """Stop every server and start it again on its port: tables on disk, none in memory."""
            for index, (port, process) in enumerate(servers):
                process.terminate()
                process.wait(timeout=30)
                servers[index] = (port, start_server(port, db_url, args.sync, log))
            return [process.pid for _, process in servers]

        try:
            for _ in range(processes):
                port = free_port()
                servers.append((port, start_server(port, db_url, args.sync, log)))
            bases = [f"http://127.0.0.1:{port}" for port, _ in servers]
            # The client processes are started (and have imported everything) before the clock runs.
            names = chosen_attackers(args.attack)  # the attackers' own processes: the flood, the named ones
            workers = args.client_processes + ("flood" in names) + bool(set(names) - {"flood"})
            with multiprocessing.get_context("spawn").Pool(workers) as pool:
                pool.map(time.sleep, [0.0] * workers, 1)
                pids = [process.pid for _, process in servers]
                report = asyncio.run(run(args, bases, db_url, pids, pool, restart, log))
            report = {"database": db, "processes": processes, "route": args.route, **report}
        finally:
            for _, process in servers:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:  # a server too busy to stop: its figures are in already
                    process.kill()
                    process.wait(timeout=30)
            try:
                if report is not None:
                    report.update(report.pop("lost_actions")())
            finally:
                if cluster is not None:
                    cluster.stop()
    assert report is not None
    return report


def _with_attack(args: argparse.Namespace, name: str | None) -> argparse.Namespace:
    return argparse.Namespace(**{**vars(args), "attack": name})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=200, help="WebSocket clients (people's seats), at most 1000")
    parser.add_argument("--tables", type=int, default=50, help="tables the clients are spread over")
    parser.add_argument("--bots", type=int, default=1, help="bot seats at each table")
    parser.add_argument("--bot", default="heuristic", help="the agent of the bot seats")
    parser.add_argument("--game", default="wriggle-roulette")
    parser.add_argument("--duration", type=float, default=30.0, help="wall-time limit in seconds (at most 300)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="mean seconds a client looks before each move (uniform 0 to twice this); 0: act at once (saturation)",
    )
    parser.add_argument("--arrival", type=float, default=2.0, help="seconds over which the clients connect")
    parser.add_argument("--sync", choices=("normal", "full"), default="normal", help="the server's SQLite --sync")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite", help="the servers' database")
    parser.add_argument("--processes", type=int, default=1, help="server processes (more than 1: PostgreSQL)")
    parser.add_argument("--compare", action="store_true", help="1 process, then 2, both on PostgreSQL")
    parser.add_argument(
        "--route",
        choices=("seat", "table"),
        default="seat",
        help="seat: a table's seats spread over the processes (the hard case); table: every seat on the table's owner",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=4,
        help="processes the clients are spread over (one event loop each), so the load generator is not the bottleneck",
    )
    parser.add_argument(
        "--attack",
        nargs="?",
        const="flood",
        help="attackers, comma-separated: flood (alone: 4 spectators flood sync, 2 clients loop on a replay), "
        "stale, lobby, slow, replays, solves, analysis, xff, or all (every named one; see bench/web_attackers.py)",
    )
    parser.add_argument("--attack-syncs", type=float, default=31.0, help="syncs a second each flooding spectator sends")
    parser.add_argument(
        "--attack-matrix",
        nargs="?",
        const="sqlite,postgres",
        help="every attacker alone, then all, on each database given (default sqlite,postgres): "
        "one run each, then the markdown table for docs/web.md (bench/attack_matrix.py)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per run")
    args = parser.parse_args()
    if not 1 <= args.clients <= 1000 or not 1 <= args.tables <= args.clients or not 0 < args.duration <= 300:
        raise SystemExit("bounded runs only: 1-1000 clients, 1 to --clients tables, 0-300 seconds")
    if not 1 <= args.client_processes <= 16:
        raise SystemExit("bounded runs only: 1-16 client processes")
    if not 1 <= args.processes <= 8 or not 0 <= args.arrival <= 60:
        raise SystemExit("bounded runs only: 1-8 processes, arrivals over 0-60 seconds")
    if not 0 < args.attack_syncs <= 100:
        raise SystemExit("bounded runs only: 0-100 syncs a second per attacker")
    try:
        if args.attack_matrix is None:
            chosen_attackers(args.attack)
    except ValueError as error:  # an unknown name: one line naming the allowed ones, exit 2
        parser.error(str(error))
    if args.processes > 1 and args.db != "postgres":
        raise SystemExit("several processes share PostgreSQL: add --db postgres")
    if args.attack_matrix is not None:
        try:
            databases, only = matrix_databases(args.attack_matrix), matrix_attackers(args.attack)
        except ValueError as error:
            parser.error(str(error))
        rows = matrix_runs(lambda name, db: serve_and_run(_with_attack(args, name), 1, db), databases, only)
        if args.json:
            print("\n".join(json.dumps(row) for row in rows))
        print(matrix_markdown(rows), flush=True)
        return
    layouts = [(1, "postgres"), (2, "postgres")] if args.compare else [(args.processes, args.db)]
    for processes, db in layouts:
        report = serve_and_run(args, processes, db)
        if args.json:
            print(json.dumps(report), flush=True)
            continue
        width = max(map(len, report))
        for key, value in report.items():
            print(f"{key:<{width}}  {value}")
        print(flush=True)


if __name__ == "__main__":
    main()
