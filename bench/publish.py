"""1,000 games close a phase at one instant; each game's posts go to its signed webhook.

Run: ``.venv/bin/python bench/publish.py`` (PostgreSQL 15 on 127.0.0.1:5432, trust auth).
About 2 minutes.

It creates a fresh database ``forumplay_bench_<random>`` (``python -m app migrate``) and,
through the service functions with an injected ``FakeClock``, two cohorts of ``--games``
started Team Battle games, both sides deployed, each game with a ``webhook`` channel to a
local receiver (``bench/webhook_sink.py``, its own process, which checks every signature and
counts ``webhook-id``\\s). Cohort 2's deadline is 30 minutes after cohort 1's.

* measured (cohort 1): two scheduler processes (the service's ``scheduler_loop``, as in
  ``bench/deadlines.py``) close the phase of every game at the deadline; the outbox writes the
  posts in those transactions; one delivery process (``python -m app publish-worker``, the
  service's own worker and settings) sends them. Figures: deadline → all games resolved, and
  deadline → the receiver has every post.
* baseline, same run: a bare loop POSTs as many signed bodies (the same bodies) to a fresh
  receiver with one ``httpx.AsyncClient``, as many in flight as the worker's batch.
* crash run (cohort 2): the same, but the delivery process is killed with ``kill -9`` once the
  receiver has half the posts, and started again.

Target: deadline → all delivered within 2× (bare loop + deadline → all resolved); 0 posts lost
and 0 posts under two ids, also in the crash run. A post re-sent after the crash keeps its
``webhook-id`` (receivers drop it: Standard Webhooks); the script prints how many there were.
The delivery process runs with ``PUBLISH_LEASE_SECONDS=5`` so that re-sending after the crash
does not wait the default two minutes. The database is dropped at the end (``--keep-db``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
import httpx  # noqa: E402
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker  # noqa: E402

from app.clock import FakeClock  # noqa: E402
from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.models import PlayerRow  # noqa: E402
from app.services import orders as orders_service  # noqa: E402
from app.services import publishing  # noqa: E402
from app.services.auth import PlayerInfo, Principal  # noqa: E402
from app.settings import Settings  # noqa: E402
from bench.deadlines import spawn_worker  # noqa: E402
from bench.pgdb import TB_SETTINGS, driver_url, fresh_database, started_team_battle  # noqa: E402
from bench.webhook_sink import signature  # noqa: E402

SECRET = "whsec_" + "QmVuY2htYXJrU2VjcmV0S2V5MDEyMzQ1Njc4OWFiY2Q="
DEPLOY_A = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
DEPLOY_B = {"type": "deploy", "troops": [6, 6, 7, 5, 6]}
START_1 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
COHORT_GAP = timedelta(minutes=30)
DEPLOYMENT = timedelta(seconds=TB_SETTINGS["deployment_seconds"])
TARGET_RATIO = 2.0
LIMIT_SECONDS = 300.0


class Sink:
    """A receiver process (``bench/webhook_sink.py``) and its counters."""

    def __init__(self) -> None:
        command = [sys.executable, str(ROOT / "bench" / "webhook_sink.py"), "--secret", SECRET]
        self.proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().split()
        if len(line) != 2 or line[0] != "PORT":
            raise RuntimeError(f"webhook sink failed to start: {line!r}")
        self.base = f"http://127.0.0.1:{line[1]}"
        self.url = f"{self.base}/hook"

    async def stats(self, http: httpx.AsyncClient) -> dict[str, Any]:
        return (await http.get(f"{self.base}/stats")).json()

    async def bodies(self, http: httpx.AsyncClient) -> list[dict[str, Any]]:
        return (await http.get(f"{self.base}/posts")).json()

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


@dataclass
class Run:
    label: str
    posts: int
    resolved: float  # deadline → every game's phase close committed
    delivered: float  # deadline → the receiver has every post
    received: int
    unique: int
    bad_signatures: int
    posts_twice: int  # the same post under two webhook-ids: a duplicate no receiver can drop
    killed_at: int | None = None


# ----- setup ------------------------------------------------------------------------------


async def create_cohort(
    sessionmaker: async_sessionmaker[AsyncSession],
    prefix: str,
    count: int,
    start: datetime,
    sink_url: str,
) -> None:
    """``count`` started team battles, both sides deployed, each with a webhook channel,
    all created at ``start`` (identical deadlines), 100 games per transaction."""
    clock = FakeClock(start)
    config = {"url": sink_url, "secret": SECRET}
    for first in range(0, count, 100):
        async with sessionmaker() as session, session.begin():
            for i in range(first, min(count, first + 100)):
                now = clock.now()
                game, a, b = await started_team_battle(session, f"{prefix} {i}", now)
                await publishing.create_channel(
                    session,
                    game,
                    Principal("director"),
                    "webhook",
                    "bench",
                    None,
                    config,
                    True,
                    now,
                )
                for player, body in ((a, DEPLOY_A), (b, DEPLOY_B)):
                    row = await session.get(PlayerRow, player["id"])
                    assert row is not None
                    principal = Principal("player", player=PlayerInfo.of(row))
                    await orders_service.submit_order(session, game, principal, dict(body), now)


async def setup(url: str, count: int, sinks: tuple[Sink, Sink]) -> float:
    engine = make_engine(url, pool_size=2)
    sessionmaker = make_sessionmaker(engine)
    started = time.perf_counter()
    try:
        await create_cohort(sessionmaker, "c1", count, START_1, sinks[0].url)
        await create_cohort(sessionmaker, "c2", count, START_1 + COHORT_GAP, sinks[1].url)
    finally:
        await engine.dispose()
    return time.perf_counter() - started


# ----- runs -------------------------------------------------------------------------------


def spawn_delivery(url: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "PUBLISH_LEASE_SECONDS": "5",
        "PUBLISH_ALLOW_PRIVATE_URLS": "true",  # the receiver listens on 127.0.0.1
    }
    command = [sys.executable, "-m", "app", "publish-worker"]
    return subprocess.Popen(command, cwd=ROOT, env=env)


async def _count(conn: asyncpg.Connection, sql: str, prefix: str) -> int:
    return int(await conn.fetchval(sql, f"{prefix} %"))


RESOLVED = (
    "SELECT count(*) FROM steps s JOIN games g ON g.id = s.game_id "
    "WHERE s.kind = 'timer' AND g.title LIKE $1"
)
DELIVERIES = (
    "SELECT count(*) FROM deliveries d JOIN games g ON g.id = d.game_id WHERE g.title LIKE $1"
)


async def run_cohort(
    url: str, prefix: str, count: int, deadline: datetime, sink: Sink, kill_at: int | None
) -> Run:
    """Run one cohort; with ``kill_at``, ``kill -9`` the delivery process once the receiver
    has that many posts, and start it again."""
    kill_halfway = kill_at is not None
    settings = Settings()
    delivery = spawn_delivery(url)
    schedulers = [
        spawn_worker(url, deadline, settings.scheduler_interval_seconds, settings.scheduler_batch)
        for _ in range(2)
    ]
    conn = await asyncpg.connect(driver_url(url))
    killed_at: int | None = None
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            await _wait_for_worker(conn)
            t0 = time.monotonic()
            for proc in schedulers:
                assert proc.stdin is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
            resolved_at = expected = None
            while True:
                elapsed = time.monotonic() - t0
                if resolved_at is None and await _count(conn, RESOLVED, prefix) >= count:
                    resolved_at = elapsed
                    expected = await _count(conn, DELIVERIES, prefix)
                stats = await sink.stats(http)
                if kill_at is not None and killed_at is None and stats["unique"] >= kill_at:
                    delivery.send_signal(signal.SIGKILL)
                    delivery.wait(timeout=30)
                    killed_at = stats["unique"]
                    delivery = spawn_delivery(url)
                if expected is not None and stats["unique"] >= expected:
                    delivered_at = elapsed
                    break
                if elapsed > LIMIT_SECONDS:
                    raise RuntimeError(f"{prefix}: {stats} after {elapsed:.0f} s")
                await asyncio.sleep(0.02)
            # Let anything still in flight land before counting duplicates.
            await asyncio.sleep(6 if kill_halfway else 1)
            stats = await sink.stats(http)
    finally:
        await conn.close()
        delivery.terminate()
        delivery.wait(timeout=30)
        for proc in schedulers:
            proc.terminate()
            proc.wait(timeout=30)
    assert expected is not None and resolved_at is not None
    label = "crash run: delivery process killed -9 halfway" if kill_halfway else "measured"
    return Run(
        label,
        expected,
        resolved_at,
        delivered_at,
        stats["received"],
        stats["unique"],
        stats["bad_signatures"],
        stats["posts_under_two_ids"],
        killed_at,
    )


async def _wait_for_worker(conn: asyncpg.Connection) -> None:
    """Until the delivery process has connected (it migrates first): a bounded wait."""
    for _ in range(3000):
        n = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        )
        if n >= 2:
            return
        await asyncio.sleep(0.02)
    raise RuntimeError("the delivery process did not connect")


async def bare_loop(bodies: list[dict[str, Any]], in_flight: int) -> tuple[float, dict[str, Any]]:
    """The bare limit: POST the same signed bodies with httpx, ``in_flight`` at a time."""
    sink = Sink()
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            gate = asyncio.Semaphore(in_flight)

            async def post(i: int, body: dict[str, Any]) -> None:
                raw = json.dumps(body, ensure_ascii=False).encode()
                msg_id, stamp = f"bare-{i}", str(int(time.time()))
                headers = {
                    "webhook-id": msg_id,
                    "webhook-timestamp": stamp,
                    "webhook-signature": signature(SECRET, msg_id, stamp, raw),
                    "content-type": "application/json",
                }
                async with gate:
                    response = await http.post(sink.url, content=raw, headers=headers)
                    response.raise_for_status()

            started = time.monotonic()
            await asyncio.gather(*(post(i, b) for i, b in enumerate(bodies)))
            took = time.monotonic() - started
            return took, await sink.stats(http)
    finally:
        sink.stop()


# ----- main -------------------------------------------------------------------------------


def main() -> None:
    # Channel secrets are sealed here and opened by the delivery process: one key for both.
    os.environ.setdefault("SECRET_KEY", "bench-publish-secret-key")
    parser = argparse.ArgumentParser(description="1,000 phase closes published to webhooks")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args()
    settings = Settings()
    sinks = (Sink(), Sink())
    try:
        with fresh_database(args.keep_db) as (name, url):
            print(f"database {name}; {os.cpu_count()} cores", flush=True)
            took = asyncio.run(setup(url, args.games, sinks))
            print(f"set up 2 x {args.games} games with a webhook each in {took:.1f} s", flush=True)
            measured = asyncio.run(
                run_cohort(url, "c1", args.games, START_1 + DEPLOYMENT, sinks[0], None)
            )
            print(f"  measured: {measured}", flush=True)
            bodies = asyncio.run(_bodies(sinks[0]))
            bare_seconds, bare_stats = asyncio.run(bare_loop(bodies, settings.publish_worker_batch))
            print(f"  bare loop: {bare_seconds:.2f} s {bare_stats}", flush=True)
            crash = asyncio.run(
                run_cohort(
                    url,
                    "c2",
                    args.games,
                    START_1 + COHORT_GAP + DEPLOYMENT,
                    sinks[1],
                    kill_at=measured.posts // 2,  # the same posts as cohort 1: half of them
                )
            )
            print(f"  crash run: {crash}", flush=True)
    finally:
        for sink in sinks:
            sink.stop()

    print()
    print(f"{args.games} games close a phase at one instant; one webhook per game")
    print(
        "| run | posts | all resolved (s) | all delivered (s) | received | unique | "
        "same post twice | bad signatures |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for run in (measured, crash):
        print(
            f"| {run.label} | {run.posts} | {run.resolved:.2f} | {run.delivered:.2f} | "
            f"{run.received} | {run.unique} | {run.posts_twice} | {run.bad_signatures} |"
        )
    print(
        f"| bare httpx loop ({settings.publish_worker_batch} in flight) | {len(bodies)} | – | "
        f"{bare_seconds:.2f} | {bare_stats['received']} | {bare_stats['unique']} | – | "
        f"{bare_stats['bad_signatures']} |"
    )
    budget = bare_seconds + measured.resolved
    ratio = measured.delivered / budget
    print(
        f"all delivered / (bare loop + all resolved) = {measured.delivered:.2f} / {budget:.2f} = "
        f"{ratio:.2f} (target <= {TARGET_RATIO:g}) {'PASS' if ratio <= TARGET_RATIO else 'MISS'}"
    )
    for run in (measured, crash):
        lost = run.posts - run.unique
        ok = lost == 0 and run.posts_twice == 0 and run.bad_signatures == 0
        resent = run.received - run.unique
        print(
            f"{run.label}: lost {lost}, same post twice {run.posts_twice}, re-sent under the "
            f"same webhook-id {resent} {'PASS' if ok else 'MISS'}"
        )


async def _bodies(sink: Sink) -> list[dict[str, Any]]:
    """What the measured run delivered, each post once: the bare loop sends the same."""
    async with httpx.AsyncClient(timeout=30) as http:
        unique = {b["post"]["id"]: b for b in await sink.bodies(http)}
    return list(unique.values())


if __name__ == "__main__":
    main()
