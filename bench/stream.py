"""2,000 live streams on one server process: how long until the last one hears a phase close.

Run: ``.venv/bin/python bench/stream.py`` (PostgreSQL 15 on 127.0.0.1:5432, trust auth;
``--db sqlite`` uses an embedded file instead). About a minute.

* A fresh database with one started Team Battle, both sides deployed (service functions).
* The app in ONE uvicorn process (uvloop, httptools, SCHEDULER_ENABLED=false), as
  ``make run`` serves it, on a socket bound here.
* ``--subscribers`` (2,000) ``GET /stream`` connections from this process, over raw
  asyncio sockets, in three audiences: a third each the public, side A, side B.
* ``--rounds`` times: the director closes the phase (``POST /advance``, the clock starts
  when the request is sent); each subscriber notes when the ``phase_closed`` event arrives.
  Latency = that moment minus the request's start: p50, p99, max over every subscriber of
  every round.
* Baseline, same run: a bare asyncio server process holding as many connections writes
  the same bytes (the batch the public stream got for a phase close) to each of them on a
  signal; measured the same way. It is the floor for "write N sockets from one process".

Target: p99 ≤ 1 s for 2,000 subscribers.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.clock import SystemClock  # noqa: E402
from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.services import games as games_service  # noqa: E402
from app.services import orders as orders_service  # noqa: E402
from app.services.auth import PlayerInfo, Principal  # noqa: E402
from bench.pgdb import TB_SETTINGS, fresh_database, sqlite_database  # noqa: E402
from bench.webhook_sink import free_socket  # noqa: E402

TARGET_P99 = 1.0
DEPLOY = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}


# --- setting up -----------------------------------------------------------------------------
async def make_game(url: str) -> tuple[str, str, str, str]:
    """A started team battle, both sides deployed; (game id, director, a, b tokens)."""
    engine = make_engine(url, pool_size=2)
    sessionmaker = make_sessionmaker(engine)
    now = SystemClock().now()
    director = Principal("director")
    async with sessionmaker() as session, session.begin():
        created = await games_service.create_game(
            session, "team_battle", "stream bench", dict(TB_SETTINGS), None, {}, now
        )
        game = await games_service.load_game(session, created["id"])
        tokens = []
        for name, side in (("a", "A"), ("b", "B")):
            added = await games_service.add_player(session, game, director, name, side, now)
            tokens.append(added)
        await games_service.start_game(session, game, director, now)
        for added, side in zip(tokens, ("A", "B"), strict=True):
            info = PlayerInfo(id=added["id"], game_id=game.id, name=added["name"], side=side)
            await orders_service.submit_order(
                session, game, Principal("player", player=info), dict(DEPLOY), now
            )
    await engine.dispose()
    return created["id"], created["director_token"], tokens[0]["token"], tokens[1]["token"]


@contextmanager
def serve(command: list[str], env: dict[str, str]) -> Iterator[int]:
    sock = free_socket(4096)
    port = sock.getsockname()[1]
    process = subprocess.Popen(
        [*command, "--fd", str(sock.fileno())]
        if "uvicorn" in command
        else [*command, str(sock.fileno())],
        cwd=ROOT,
        env={**os.environ, **env},
        pass_fds=[sock.fileno()],
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                    probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    if probe.recv(64).startswith(b"HTTP/1.1 200"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("server did not start")
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        sock.close()


# --- subscribers --------------------------------------------------------------------------------
class Subscriber:
    def __init__(self, port: int, path: str, token: str | None) -> None:
        self.port, self.path, self.token = port, path, token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.connected = asyncio.Event()
        self.arrivals: list[float] = []
        self.sample: bytes = b""

    async def run(self, marker: bytes) -> None:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", self.port, limit=2**20
        )
        auth = f"Authorization: Bearer {self.token}\r\n" if self.token else ""
        self.writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n{auth}\r\n".encode()
        )
        await self.writer.drain()
        buffer = b""
        while True:
            chunk = await self.reader.read(65536)
            if not chunk:
                return
            buffer += chunk
            if not self.connected.is_set() and b": connected" in buffer:
                self.connected.set()
                buffer = buffer[buffer.index(b": connected") :]
            if marker in buffer:
                self.arrivals.append(time.perf_counter())
                if not self.sample:
                    self.sample = buffer
                buffer = b""

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def percentiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.median(ordered), p99, ordered[-1]


async def open_all(subscribers: list[Subscriber], marker: bytes) -> list[asyncio.Task[None]]:
    tasks = []
    for i, sub in enumerate(subscribers):
        tasks.append(asyncio.create_task(sub.run(marker)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # let the server accept in waves
    await asyncio.wait_for(asyncio.gather(*(s.connected.wait() for s in subscribers)), 300)
    return tasks


async def post(port: int, path: str, token: str) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n"
        "Content-Length: 0\r\nConnection: close\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    assert b" 200 " in status, status
    await reader.read()
    writer.close()


async def measure_app(
    port: int, game: tuple[str, str, str, str], n: int, rounds: int
) -> tuple[list[float], bytes]:
    game_id, director, a, b = game
    path = f"/api/v1/games/{game_id}/stream"
    tokens = [None, a, b]
    subscribers = [Subscriber(port, path, tokens[i % 3]) for i in range(n)]
    tasks = await open_all(subscribers, b'"kind":"phase_closed"')
    latencies: list[float] = []
    for round_no in range(rounds):
        start = time.perf_counter()
        await post(port, f"/api/v1/games/{game_id}/advance", director)
        answered = time.perf_counter() - start
        await asyncio.wait_for(_all_have(subscribers, round_no + 1), timeout=120)
        this = [s.arrivals[round_no] - start for s in subscribers]
        if os.environ.get("BENCH_VERBOSE"):
            p50, p99, top = percentiles(this)
            print(
                f"  round {round_no + 1}: advance answered in {answered * 1000:.0f} ms; "
                f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms"
            )
        latencies.extend(this)
    sample = next(s.sample for s in subscribers if s.token is None)
    for s in subscribers:
        s.close()
    for task in tasks:
        task.cancel()
    return latencies, sample


async def _all_have(subscribers: list[Subscriber], count: int) -> None:
    while any(len(s.arrivals) < count for s in subscribers):
        await asyncio.sleep(0.005)


# --- the bare baseline ---------------------------------------------------------------------------
def bare_server(fd: int) -> None:
    """Holds stream connections; ``POST /go?<hex payload>`` writes the payload to them all."""

    async def main() -> None:
        writers: list[asyncio.StreamWriter] = []

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            line = await reader.readline()
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            if line.startswith(b"GET /healthz"):
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                await writer.drain()
                writer.close()
            elif line.startswith(b"POST /go"):
                payload = bytes.fromhex(line.split(b"?", 1)[1].split(b" ", 1)[0].decode())
                for w in writers:
                    w.write(payload)
                await asyncio.gather(*(w.drain() for w in writers), return_exceptions=True)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                await writer.drain()
                writer.close()
            else:
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                    b"transfer-encoding: chunked\r\n\r\n"
                )
                writer.write(b"retry: 2000\n: connected\n\n")
                await writer.drain()
                writers.append(writer)

        sock = socket.socket(fileno=fd)
        server = await asyncio.start_server(handle, sock=sock, backlog=4096)
        async with server:
            await server.serve_forever()

    import uvloop

    uvloop.run(main())


async def measure_bare(port: int, payload: bytes, n: int, rounds: int) -> list[float]:
    subscribers = [Subscriber(port, "/stream", None) for _ in range(n)]
    tasks = await open_all(subscribers, b'"kind":"phase_closed"')
    latencies: list[float] = []
    for round_no in range(rounds):
        start = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"POST /go?{payload.hex()} HTTP/1.1\r\nHost: b\r\n\r\n".encode())
        await writer.drain()
        await asyncio.wait_for(_all_have(subscribers, round_no + 1), timeout=120)
        latencies.extend(s.arrivals[round_no] - start for s in subscribers)
        writer.close()
    for s in subscribers:
        s.close()
    for task in tasks:
        task.cancel()
    return latencies


# --- main ----------------------------------------------------------------------------------------
def report(label: str, latencies: list[float]) -> float:
    p50, p99, top = percentiles(latencies)
    print(
        f"{label:<34} p50 {p50 * 1000:8.1f} ms   p99 {p99 * 1000:8.1f} ms   max {top * 1000:8.1f} ms"
    )
    return p99


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--subscribers", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args()

    @contextmanager
    def database() -> Iterator[str]:
        if args.db == "sqlite":
            with sqlite_database() as url:
                yield url
        else:
            with fresh_database(args.keep_db) as (_name, url):
                yield url

    with database() as url:
        game = asyncio.run(make_game(url))
        app_command = [
            sys.executable,
            "-m",
            "uvicorn",
            "app.main:app",
            "--loop",
            "uvloop",
            "--http",
            "httptools",
            "--no-access-log",
            "--log-level",
            "warning",
        ]
        env = {"DATABASE_URL": url, "SCHEDULER_ENABLED": "false", "DB_POOL_SIZE": "20"}
        with serve(app_command, env) as port:
            latencies, sample = asyncio.run(measure_app(port, game, args.subscribers, args.rounds))
        payload = sample[sample.index(b"id:") :] if b"id:" in sample else sample
        with serve([sys.executable, __file__, "--bare-fd"], {}) as port:
            bare = asyncio.run(measure_bare(port, payload, args.subscribers, args.rounds))
    print(
        f"{args.subscribers:,} subscribers on one process ({args.db}), {args.rounds} phase closes; "
        f"payload {len(payload)} bytes per subscriber"
    )
    ours = report("GET /stream (forumplay)", latencies)
    base = report("bare asyncio broadcast", bare)
    print(f"ratio p99 forumplay / bare: {ours / base:.1f}x")
    print(f"target p99 <= {TARGET_P99} s: {'MET' if ours <= TARGET_P99 else 'MISSED'}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--bare-fd":
        bare_server(int(sys.argv[2]))
    else:
        main()
