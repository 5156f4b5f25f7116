"""Reads under 64 and 16 clients (``GET /view``, ``GET /events``), against the bare limit.

Run: ``.venv/bin/python bench/read_path.py`` (PostgreSQL 15 on 127.0.0.1:5432, trust auth;
``wrk`` on PATH). About 3 min.

It creates a fresh database ``forumplay_bench_<random>``, migrates it, creates started Team
Battle games through the service functions (one player per side, both sides deployed, so the
views and event logs have something in them), then starts two servers on ports the OS chose,
one uvicorn worker each (``--loop uvloop --http httptools``, no access log, pool 20):

* ours: ``app.main:app`` (SCHEDULER_ENABLED=false), loaded with ``GET /api/v1/games/{id}/view``
  and ``GET /api/v1/games/{id}/events?after=0``, each as a player (both sides' tokens), as the
  director and as the public (no token);
* bare: ``bench/bare_select_app.py`` (SELECT the game's row, return it as JSON).

Every scenario is run bare then ours, back to back, for a fixed duration each, at 64 then 16
clients over the same games; the script prints req/s, p50, p99, non-2xx/errors, and per
scenario the target ratios: throughput ours/bare at 64 clients >= 0.8, p99 ours/bare at 16
clients <= 1.5, then one PASS/FAIL line. The database is dropped at the end (``--keep-db``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.clock import SystemClock  # noqa: E402
from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.services import games as games_service  # noqa: E402
from app.services import orders as orders_service  # noqa: E402
from app.services.auth import Principal, principal_for  # noqa: E402
from bench import wrk  # noqa: E402
from bench.pgdb import TB_SETTINGS, fresh_database  # noqa: E402
from bench.submit_orders import Result, stop, verdict, wait_ready  # noqa: E402
from bench.webhook_sink import free_socket  # noqa: E402
from bench.wrk import cpu_seconds  # noqa: E402

THROUGHPUT_TARGET = 0.8  # ours / bare req/s at 64 clients, at least
P99_TARGET = 1.5  # ours / bare p99 at 16 clients, at most
AUDIENCES = ("player", "director", "public")
ROUTES = {"view": "/view", "events": "/events?after=0"}

# ----- database ---------------------------------------------------------------------------


async def create_games(url: str, count: int) -> list[dict[str, str]]:
    """``count`` started team battles, both sides deployed; each: id and the three tokens."""
    engine = make_engine(url, pool_size=2)
    sessionmaker = make_sessionmaker(engine)
    clock = SystemClock()
    director = Principal("director")
    out: list[dict[str, str]] = []
    try:
        for i in range(count):
            async with sessionmaker() as session, session.begin():
                now = clock.now()
                created = await games_service.create_game(
                    session, "team_battle", f"bench {i}", dict(TB_SETTINGS), None, {}, now
                )
                game = await games_service.load_game(session, created["id"])
                tokens = {"id": game.id, "director": created["director_token"]}
                for name in ("A", "B"):
                    added = await games_service.add_player(
                        session, game, director, name.lower(), name, now
                    )
                    tokens[name] = added["token"]
                await games_service.start_game(session, game, director, now)
                for name, troops in (("A", [6, 6, 6, 6, 6]), ("B", [10, 5, 5, 5, 5])):
                    player = await principal_for(session, game, tokens[name], None)
                    body = {"type": "deploy", "troops": troops}
                    await orders_service.submit_order(session, game, player, body, now)
                out.append(tokens)
    finally:
        await engine.dispose()
    return out


# ----- servers ----------------------------------------------------------------------------


def start_server(target: str, sock: socket.socket, url: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DATABASE_URL": url, "SCHEDULER_ENABLED": "false", "DB_POOL_SIZE": "20"}
    command = [sys.executable, "-m", "uvicorn", target, "--fd", str(sock.fileno())]
    command += ["--workers", "1", "--loop", "uvloop", "--backlog", "1024"]
    command += ["--http", "httptools", "--no-access-log", "--log-level", "warning"]
    return subprocess.Popen(command, cwd=ROOT, env=env, pass_fds=[sock.fileno()])


# ----- load -------------------------------------------------------------------------------


def targets_for(
    games: list[dict[str, str]], prefix: str, route: str, audience: str
) -> list[tuple[str, str]]:
    """(path, token or ""): a player scenario alternates both sides' tokens over the games."""
    if audience == "player":
        return [(f"{prefix}{g['id']}{route}", g["A"]) for g in games] + [
            (f"{prefix}{g['id']}{route}", g["B"]) for g in games
        ]
    if audience == "director":
        return [(f"{prefix}{g['id']}{route}", g["director"]) for g in games]
    return [(f"{prefix}{g['id']}{route}", "") for g in games]


def run_wrk(port: int, targets: list[tuple[str, str]], clients: int, seconds: float) -> Result:
    return as_result(wrk.run(port, targets, clients, seconds), clients)


def as_result(raw: dict[str, Any], clients: int) -> Result:
    return Result(
        name="",
        clients=clients,
        requests=int(raw["requests"]),
        seconds=float(raw["duration_us"]) / 1e6,
        non2xx=int(raw["non2xx"]),
        errors=int(raw["errors"]),
        p50_ms=float(raw["p50_us"]) / 1000,
        p99_ms=float(raw["p99_us"]) / 1000,
    )


# ----- main -------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--duration", type=float, default=6.0, help="seconds per measured run")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of warm-up per scenario")
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--clients", type=int, nargs="+", default=[64, 16])
    parser.add_argument("--routes", nargs="+", default=list(ROUTES), choices=list(ROUTES))
    parser.add_argument("--audiences", nargs="+", default=list(AUDIENCES), choices=AUDIENCES)
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is needed: apt-get install -y wrk")
    tool = "wrk"
    runner = run_wrk
    servers: list[subprocess.Popen[bytes]] = []
    sockets = [free_socket(1024), free_socket(1024)]
    ours_port, bare_port = (s.getsockname()[1] for s in sockets)
    scenarios = [(r, a) for r in args.routes for a in args.audiences]
    results: dict[tuple[str, str, int], tuple[Result, Result]] = {}
    cpu_ms: dict[tuple[str, str, int], tuple[float, float]] = {}
    with fresh_database(args.keep_db) as (name, url):
        print(f"database {name}; load generator: {tool}; {os.cpu_count()} cores", flush=True)
        try:
            started = time.perf_counter()
            games = asyncio.run(create_games(url, args.games))
            print(f"set up {len(games)} started games in {time.perf_counter() - started:.1f} s")
            servers.append(start_server("app.main:app", sockets[0], url))
            servers.append(start_server("bench.bare_select_app:app", sockets[1], url))
            wait_ready(ours_port, "/healthz")
            wait_ready(bare_port, "/ping")
            print(f"servers up: ours :{ours_port}, bare :{bare_port}", flush=True)
            for route, audience in scenarios:
                runner(bare_port, targets_for(games, "/games/", ROUTES[route], audience), 16, 1)
                warm = targets_for(games, "/api/v1/games/", ROUTES[route], audience)
                runner(ours_port, warm, 16, args.warmup)
            for clients in args.clients:
                for route, audience in scenarios:
                    bare_targets = targets_for(games, "/games/", ROUTES[route], audience)
                    ours_targets = targets_for(games, "/api/v1/games/", ROUTES[route], audience)
                    cpu = cpu_seconds(servers[1].pid)
                    bare = runner(bare_port, bare_targets, clients, args.duration)
                    bare_cpu = (cpu_seconds(servers[1].pid) - cpu) / max(1, bare.requests)
                    cpu = cpu_seconds(servers[0].pid)
                    ours = runner(ours_port, ours_targets, clients, args.duration)
                    ours_cpu = (cpu_seconds(servers[0].pid) - cpu) / max(1, ours.requests)
                    results[(route, audience, clients)] = (bare, ours)
                    cpu_ms[(route, audience, clients)] = (bare_cpu * 1000, ours_cpu * 1000)
                    print(
                        f"  {clients:3} clients  {route:6} {audience:8}  "
                        f"bare {bare.rps:6.0f} req/s p99 {bare.p99_ms:6.1f} ms   "
                        f"ours {ours.rps:6.0f} req/s p50 {ours.p50_ms:6.1f} p99 {ours.p99_ms:6.1f}"
                        f" ms   CPU/request bare {bare_cpu * 1000:.2f} ours {ours_cpu * 1000:.2f} ms"
                        f"   bad {ours.non2xx + ours.errors + bare.non2xx + bare.errors}",
                        flush=True,
                    )
        finally:
            for proc in servers:
                stop(proc)
            for sock in sockets:
                sock.close()
    report(args, tool, results, cpu_ms)


def report(
    args: argparse.Namespace,
    tool: str,
    results: dict[tuple[str, str, int], tuple[Result, Result]],
    cpu_ms: dict[tuple[str, str, int], tuple[float, float]],
) -> None:
    print()
    print(f"Reads, {args.duration:g} s per run, {tool}, one uvicorn worker each, bare run first")
    print(
        "| route | as | clients | bare req/s | ours req/s | ratio | bare p99 ms | ours p99 ms "
        "| ratio | CPU ms/request bare | ours | non-2xx/errors |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    passed = True
    for (route, audience, clients), (bare, ours) in results.items():
        rps = ours.rps / bare.rps if bare.rps else 0.0
        p99 = ours.p99_ms / bare.p99_ms if bare.p99_ms else float("inf")
        bad = ours.non2xx + ours.errors + bare.non2xx + bare.errors
        passed = passed and bad == 0
        print(
            f"| {route} | {audience} | {clients} | {bare.rps:.0f} | {ours.rps:.0f} | {rps:.2f} "
            f"| {bare.p99_ms:.1f} | {ours.p99_ms:.1f} | {p99:.2f} "
            f"| {cpu_ms[(route, audience, clients)][0]:.2f} "
            f"| {cpu_ms[(route, audience, clients)][1]:.2f} | {bad} |"
        )
    for (route, audience, clients), (bare, ours) in results.items():
        if clients == 64:
            ratio = ours.rps / bare.rps if bare.rps else 0.0
            ok = ratio >= THROUGHPUT_TARGET
            print(
                f"{route} as {audience}: throughput ours/bare at 64 clients {ratio:.2f} "
                f"(target >= {THROUGHPUT_TARGET}) {verdict(ok)}"
            )
            passed = passed and ok
        if clients == 16:
            ratio = ours.p99_ms / bare.p99_ms if bare.p99_ms else float("inf")
            ok = ratio <= P99_TARGET
            print(
                f"{route} as {audience}: p99 ours/bare at 16 clients {ratio:.2f} "
                f"(target <= {P99_TARGET}) {verdict(ok)}"
            )
            passed = passed and ok
    print("PASS" if passed else "FAIL")


if __name__ == "__main__":
    main()
