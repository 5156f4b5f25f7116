"""Order submission under 64 (and 16) concurrent clients, against the bare limit, same run.

Run: ``.venv/bin/python bench/submit_orders.py`` (PostgreSQL 15 on 127.0.0.1:5432, trust auth;
``wrk`` on PATH if possible, else ``bench/http_load.py`` is the load generator). About 1.5 min.

It creates a fresh database ``forumplay_bench_<random>``, migrates it (``python -m app migrate``),
creates started Team Battle games through the service functions (two players each, sides A and
B, deployment phase open for an hour), then starts two servers, one uvicorn worker each
(``--loop uvloop --http httptools``, no access log):

* ours: ``app.main:app`` (SCHEDULER_ENABLED=false, DB_POOL_SIZE=20), loaded with
  ``POST /api/v1/games/{id}/orders`` + ``{"type": "deploy", "troops": [...]}``: every request is
  an accepted order (a side's new deployment replaces its previous one, TB-10); each wrk thread
  owns its own games and tokens, so no two requests in flight wait for the same game lock;
* bare: ``bench/bare_insert_app.py`` (validate a small pydantic body, INSERT one row, pool 20).

Both get the same client, same bodies, same connections, for a fixed duration each, back to
back (``--repeat`` rounds, the order bare/ours swapped every round so that neither always runs
first), and the script prints per run req/s, p50, p99, non-2xx/errors and the CPU time each
server spent per request (from ``/proc``), then the median ratio over the rounds and the
targets: throughput ours/bare ≥ 0.9 at 64 and at 16 clients, p99 ours/bare at 16 clients
≤ 1.5. The database is dropped at the end (``--keep-db`` keeps it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
from sqlalchemy import func, select  # noqa: E402

from app.clock import SystemClock  # noqa: E402
from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.models import OrderRow  # noqa: E402
from bench import wrk  # noqa: E402
from bench.pgdb import fresh_database, started_team_battle  # noqa: E402
from bench.wrk import cpu_seconds, database_cpu_seconds  # noqa: E402

# Valid deployments (five slots, 30 troops): bodies vary, no Idempotency-Key is sent.
BODIES = [
    json.dumps({"type": "deploy", "troops": t}, separators=(",", ":"))
    for t in (
        [6, 6, 6, 6, 6],
        [7, 5, 6, 6, 6],
        [4, 7, 8, 6, 5],
        [6, 6, 7, 5, 6],
        [10, 5, 5, 5, 5],
        [5, 5, 5, 5, 10],
        [2, 8, 8, 8, 4],
        [6, 4, 6, 8, 6],
    )
]
THROUGHPUT_TARGET = 0.9  # ours / bare req/s at 64 and at 16 clients, at least
P99_TARGET = 1.5  # ours / bare p99 at 16 clients, at most


@dataclass
class Result:
    name: str
    clients: int
    requests: int
    seconds: float
    non2xx: int
    errors: int
    p50_ms: float
    p99_ms: float
    cpu_ms: float = 0.0  # the server's CPU time per request
    db_cpu_ms: float = 0.0  # PostgreSQL's CPU time per request (all its processes)

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


# ----- database ---------------------------------------------------------------------------


async def create_games(url: str, count: int) -> list[tuple[str, str, str]]:
    """``count`` started team battles; returns (game id, side A token, side B token)."""
    engine = make_engine(url, pool_size=2)
    sessionmaker = make_sessionmaker(engine)
    clock = SystemClock()
    out: list[tuple[str, str, str]] = []
    try:
        async with sessionmaker() as session, session.begin():
            for i in range(count):
                game, a, b = await started_team_battle(session, f"bench {i}", clock.now())
                out.append((game.id, a["token"], b["token"]))
    finally:
        await engine.dispose()
    return out


async def count_orders(url: str) -> int:
    engine = make_engine(url, pool_size=1)
    try:
        async with make_sessionmaker(engine)() as session:
            return int(await session.scalar(select(func.count()).select_from(OrderRow)) or 0)
    finally:
        await engine.dispose()


async def count_bare_rows(url: str) -> int:
    conn = await asyncpg.connect(url.replace("+asyncpg", ""))
    try:
        return int(await conn.fetchval("SELECT count(*) FROM bench_bare_orders"))
    finally:
        await conn.close()


# ----- servers ----------------------------------------------------------------------------


def start_server(target: str, port: int, url: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SCHEDULER_ENABLED": "false",
        "DB_POOL_SIZE": "20",
    }
    command = [sys.executable, "-m", "uvicorn", target, "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", "1", "--loop", "uvloop"]
    command += ["--http", "httptools", "--no-access-log", "--log-level", "warning"]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def wait_ready(port: int, path: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"server on port {port} did not become ready")
        time.sleep(0.2)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# ----- load -------------------------------------------------------------------------------


def interleaved_targets(games: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(game id, token): all side-A tokens, then all side-B ones. Thread/connection k takes
    every n-th, so consecutive requests of one thread go to different games."""
    return [(g, a) for g, a, _ in games] + [(g, b) for g, _, b in games]


def run_wrk(
    port: int, prefix: str, targets: list[tuple[str, str]], clients: int, seconds: float
) -> dict[str, Any]:
    paths = [(f"{prefix}{game}/orders", token) for game, token in targets]
    return wrk.run(port, paths, clients, seconds, BODIES)


def run_python_load(
    port: int, prefix: str, targets: list[tuple[str, str]], clients: int, seconds: float
) -> dict[str, Any]:
    spec = {
        "host": "127.0.0.1",
        "port": port,
        "connections": clients,
        "duration": seconds,
        "targets": [[f"{prefix}{g}/orders", t] for g, t in targets],
        "bodies": BODIES,
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(spec, f)
        path = f.name
    try:
        command = [sys.executable, str(ROOT / "bench" / "http_load.py"), path]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    return dict(json.loads(out.strip().splitlines()[-1]))


def load(
    tool: str,
    name: str,
    port: int,
    prefix: str,
    targets: list[tuple[str, str]],
    clients: int,
    seconds: float,
) -> Result:
    runner = run_wrk if tool == "wrk" else run_python_load
    raw = runner(port, prefix, targets, clients, seconds)
    return Result(
        name=name,
        clients=clients,
        requests=int(raw["requests"]),
        seconds=float(raw["duration_us"]) / 1e6,
        non2xx=int(raw["non2xx"]),
        errors=int(raw["errors"]),
        p50_ms=float(raw["p50_us"]) / 1000,
        p99_ms=float(raw["p99_us"]) / 1000,
    )


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


# ----- main -------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--duration", type=float, default=6.0, help="seconds per measured run")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of bare/ours runs")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of warm-up per server")
    parser.add_argument("--games", type=int, default=256, help="games (two tokens each)")
    parser.add_argument("--clients", type=int, nargs="+", default=[64, 16])
    parser.add_argument("--tool", choices=["auto", "wrk", "python"], default="auto")
    parser.add_argument("--port", type=int, default=18431, help="ours; bare uses port + 1")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    parser.add_argument(
        "--hold",
        type=float,
        default=0.0,
        help="after the runs, keep loading ours at --hold-clients clients for this many "
        "seconds (attach a profiler to the printed pid meanwhile)",
    )
    parser.add_argument("--hold-clients", type=int, default=16, help="clients while holding")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    tool = args.tool
    if tool == "auto":
        tool = "wrk" if shutil.which("wrk") else "python"
    servers: list[subprocess.Popen[bytes]] = []
    with fresh_database(args.keep_db) as (name, url):
        print(f"database {name}; load generator: {tool}; {os.cpu_count()} cores", flush=True)
        try:
            started = time.perf_counter()
            games = asyncio.run(create_games(url, args.games))
            print(f"set up {len(games)} started games in {time.perf_counter() - started:.1f} s")
            targets = interleaved_targets(games)
            ours_port, bare_port = args.port, args.port + 1
            ours = start_server("app.main:app", ours_port, url)
            servers.append(ours)
            bare = start_server("bench.bare_insert_app:app", bare_port, url)
            servers.append(bare)
            wait_ready(ours_port, "/healthz")
            wait_ready(bare_port, "/ping")
            print(f"servers up: ours pid {ours.pid} :{ours_port}, bare pid {bare.pid} :{bare_port}")
            endpoints = {
                "bare": (bare_port, "/games/"),
                "ours": (ours_port, "/api/v1/games/"),
            }
            for label, (port, prefix) in endpoints.items():
                load(tool, label, port, prefix, targets, 16, args.warmup)
            orders_before = asyncio.run(count_orders(url))
            bare_before = asyncio.run(count_bare_rows(url))

            results: dict[tuple[str, int], list[Result]] = {}
            pids = {"ours": ours.pid, "bare": bare.pid}
            for round_ in range(args.repeat):
                for clients in args.clients:
                    order = list(endpoints.items())
                    for label, (port, prefix) in order if round_ % 2 == 0 else order[::-1]:
                        before = cpu_seconds(pids[label])
                        db_before = database_cpu_seconds()
                        r = load(tool, label, port, prefix, targets, clients, args.duration)
                        r.cpu_ms = (cpu_seconds(pids[label]) - before) * 1000 / max(1, r.requests)
                        db_spent = database_cpu_seconds() - db_before
                        r.db_cpu_ms = db_spent * 1000 / max(1, r.requests)
                        results.setdefault((label, clients), []).append(r)
                        print(
                            f"  round {round_ + 1} {label:4} {clients:3} clients: {r.rps:7.0f} "
                            f"req/s  p50 {r.p50_ms:7.1f} ms  p99 {r.p99_ms:7.1f} ms  CPU/request "
                            f"{r.cpu_ms:.2f} ms (database {r.db_cpu_ms:.2f} ms)  "
                            f"non-2xx {r.non2xx}  errors {r.errors}",
                            flush=True,
                        )
            orders_after = asyncio.run(count_orders(url))
            bare_after = asyncio.run(count_bare_rows(url))

            if args.hold > 0:
                print(
                    f"holding ours (pid {ours.pid}) at {args.hold_clients} clients for "
                    f"{args.hold:g} s",
                    flush=True,
                )
                load(
                    tool, "ours", ours_port, "/api/v1/games/", targets, args.hold_clients, args.hold
                )
        finally:
            for proc in servers:
                stop(proc)

    report(args, tool, results, orders_after - orders_before, bare_after - bare_before)


def report(
    args: argparse.Namespace,
    tool: str,
    results: dict[tuple[str, int], list[Result]],
    ours_rows: int,
    bare_rows: int,
) -> None:
    print()
    print(
        f"Order submission, {args.duration:g} s per run, {args.repeat} rounds, {tool}, "
        "one uvicorn worker each (medians over the rounds; ratio = median of the rounds' ratios)"
    )
    print(
        "| clients | bare req/s | ours req/s | ratio | bare p99 ms | ours p99 ms | ratio "
        "| CPU ms/request bare | ours | database's, bare | ours | non-2xx/errors |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    ratios: dict[int, tuple[float, float]] = {}
    for clients in args.clients:
        bare, ours = results[("bare", clients)], results[("ours", clients)]
        rps = statistics.median(o.rps / b.rps for b, o in zip(bare, ours, strict=True) if b.rps)
        p99 = statistics.median(o.p99_ms / b.p99_ms for b, o in zip(bare, ours, strict=True))
        ratios[clients] = (rps, p99)
        bad = sum(r.non2xx + r.errors for r in bare + ours)

        def med(rs: list[Result], field: str) -> float:
            return statistics.median(float(getattr(r, field)) for r in rs)

        print(
            f"| {clients} | {med(bare, 'rps'):.0f} | {med(ours, 'rps'):.0f} | {rps:.2f} "
            f"| {med(bare, 'p99_ms'):.1f} | {med(ours, 'p99_ms'):.1f} | {p99:.2f} "
            f"| {med(bare, 'cpu_ms'):.2f} | {med(ours, 'cpu_ms'):.2f} "
            f"| {med(bare, 'db_cpu_ms'):.2f} | {med(ours, 'db_cpu_ms'):.2f} | {bad} |"
        )
    ours_ok = sum(
        r.requests - r.non2xx for (lb, _), rs in results.items() for r in rs if lb == "ours"
    )
    bare_ok = sum(
        r.requests - r.non2xx for (lb, _), rs in results.items() for r in rs if lb == "bare"
    )
    print(
        f"accepted orders stored: ours {ours_rows} rows for {ours_ok} 2xx; "
        f"bare {bare_rows} rows for {bare_ok} 2xx (rows may exceed 2xx by "
        "the requests still in flight when a run stopped)"
    )
    good = True
    for clients, (rps, p99) in ratios.items():
        ok = rps >= THROUGHPUT_TARGET
        good &= ok
        print(
            f"throughput ours/bare at {clients} clients: {rps:.2f} "
            f"(target >= {THROUGHPUT_TARGET}) {verdict(ok)}"
        )
        if clients == 16:
            ok = p99 <= P99_TARGET
            good &= ok
            print(f"p99 ours/bare at 16 clients: {p99:.2f} (target <= {P99_TARGET}) {verdict(ok)}")
    bad = sum(r.non2xx + r.errors for rs in results.values() for r in rs)
    if bad:
        good = False
        print(f"WARNING: {bad} non-2xx responses or socket errors")
    print("PASS" if good else "MISS", "orders at the bare endpoint's speed")


if __name__ == "__main__":
    main()
