"""10,000 Team Battle games whose deployment deadlines fall at the same instant.

Run: ``.venv/bin/python bench/deadlines.py`` (PostgreSQL 15 on 127.0.0.1:5432, trust auth);
``--games N`` for another size. A few minutes.

It creates a fresh database ``forumplay_bench_<random>``, migrates it (``python -m app migrate``)
and makes two cohorts of started games (two players each, both sides deployed, so closing the
phase reveals and resolves real work). Each cohort is one game made through the service
functions, copied in bulk (one ``INSERT … SELECT`` per table, every id suffixed, also inside
the JSON documents): seconds instead of 20,000 API calls.

* cohort 1 (measured): ``--games`` games, deployment deadline D1;
* cohort 2 (baseline): as many games, deadline D2 = D1 + 30 min (cohort 1's next deadlines are
  an hour after D1, so they never fall due while cohort 2 runs).

Then it runs the scheduler as the service does: worker processes that each run the service's
own ``app.scheduler.scheduler_loop`` (``run_due_timers`` in a loop, batch and interval from
``Settings``: SCHEDULER_BATCH / SCHEDULER_INTERVAL_SECONDS, overridable here) with a real clock
offset so that "now" starts just past the shared deadline: ``deadline + monotonic elapsed``.

* measured: two workers (this machine has 2 cores) on cohort 1;
* baseline A: one worker alone on cohort 2, same loop, same run;
* baseline B: the bare limit, one asyncpg connection running as many claim-and-mark
  transactions (``SELECT … FOR UPDATE SKIP LOCKED LIMIT 1``; ``UPDATE … SET done_at``;
  ``COMMIT``).

Figures: time until the last game of the cohort is resolved, and lateness p50/p99/max per game:
deadline → the game's resolution seen committed (the parent polls the database every 20 ms).
Target: all resolved within 3x the bare loop (PASS/FAIL). The database is dropped at the end
(``--keep-db`` keeps it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
from sqlalchemy import select  # noqa: E402
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker  # noqa: E402

from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.models import PlayerRow  # noqa: E402
from app.services import orders as orders_service  # noqa: E402
from app.services.auth import PlayerInfo, Principal  # noqa: E402
from app.settings import Settings  # noqa: E402
from bench.pgdb import TB_SETTINGS, driver_url, fresh_database, started_team_battle  # noqa: E402

TARGET_RATIO = 3.0  # all resolved within 3x the bare claim-and-mark loop, same run
DEPLOY_A = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
DEPLOY_B = {"type": "deploy", "troops": [6, 6, 7, 5, 6]}
START_1 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
COHORT_GAP = timedelta(minutes=30)
DEPLOYMENT = timedelta(seconds=TB_SETTINGS["deployment_seconds"])


class OffsetClock:
    """A real clock that reads ``start`` at the moment it was created, then runs in real time."""

    def __init__(self, start: datetime) -> None:
        self._start = start
        self._t0 = time.monotonic()

    def now(self) -> datetime:
        return self._start + timedelta(seconds=time.monotonic() - self._t0)


@dataclass
class Run:
    label: str
    games: int
    seconds: float  # deadline → last game's resolution committed (polled)
    lateness: list[float]  # per game: deadline → its resolution seen committed, seconds

    def pct(self, q: float) -> float:
        values = sorted(self.lateness)
        if not values:
            return float("nan")
        return values[min(len(values) - 1, max(0, round(q / 100 * len(values)) - 1))]


# ----- database ---------------------------------------------------------------------------


async def create_template(
    sessionmaker: async_sessionmaker[AsyncSession], prefix: str, start: datetime
) -> str:
    """One started team battle, both sides deployed, through the service functions."""
    async with sessionmaker() as session, session.begin():
        game, a, b = await started_team_battle(session, f"{prefix} 0", start)
        for player, body in ((a, DEPLOY_A), (b, DEPLOY_B)):
            row = await session.get(PlayerRow, player["id"])
            assert row is not None
            principal = Principal("player", player=PlayerInfo.of(row))
            await orders_service.submit_order(session, game, principal, dict(body), start)
        return game.id


# Columns that hold another row's id (or text that contains ids), per table: a clone gets
# them with the clone's suffix. Columns not named are copied as they are; serial ids are
# left to their sequences. Unique hashes get the suffix too.
CLONED: dict[str, dict[str, str]] = {
    "games": {"id": "id", "title": "title", "director_token_hash": "hash", "state": "text"},
    "players": {"id": "id", "game_id": "id", "token_hash": "hash"},
    "orders": {"id": "id", "game_id": "id", "player_id": "id"},
    "order_revisions": {"order_id": "id", "by_player_id": "id", "body": "text"},
    "steps": {"game_id": "id", "actor_player_id": "id", "payload": "text"},
    "events": {"game_id": "id", "data": "text"},
    "timers": {"game_id": "id", "data": "text"},
    "audit": {"game_id": "id", "payload": "text"},
    "posts": {"id": "id", "game_id": "id", "bodies": "text"},
    "publishing": {"game_id": "id"},
}


async def clone_game(conn: asyncpg.Connection, template: str, prefix: str, count: int) -> None:
    """``count - 1`` copies of the template game, one INSERT … SELECT per table: every id
    (game, players, orders) gets the suffix ``_<n>``, also where it appears inside JSON."""
    ids = [template]
    ids += [
        r["id"] for r in await conn.fetch("SELECT id FROM players WHERE game_id = $1", template)
    ]
    ids += [r["id"] for r in await conn.fetch("SELECT id FROM orders WHERE game_id = $1", template)]

    def with_suffix(column: str, how: str) -> str:
        if how == "id":
            return f"CASE WHEN {column} IS NULL THEN NULL ELSE {column} || '_' || n END"
        if how == "hash":
            return f"left({column}, 48) || lpad(n::text, 16, '0')"
        if how == "title":
            return f"'{prefix} ' || n"
        text = f"{column}::text"
        for old in ids:
            text = f"replace({text}, '\"{old}\"', '\"{old}_' || n || '\"')"
        return f"({text})::json"

    owner = {
        "order_revisions": "order_id IN (SELECT id FROM orders WHERE game_id = $1)",
        "games": "id = $1",
    }
    for table, changed in CLONED.items():
        columns = [
            r["column_name"]
            for r in await conn.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = $1 "
                "AND (column_default IS NULL OR column_default NOT LIKE 'nextval%') "
                "ORDER BY ordinal_position",
                table,
            )
        ]
        values = [with_suffix(c, changed[c]) if c in changed else c for c in columns]
        await conn.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} "
            f"FROM {table}, generate_series(1, $2) AS n "
            f"WHERE {owner.get(table, 'game_id = $1')}",
            template,
            count - 1,
        )
    # Every other table must have nothing of the template's, or the copies would lack it.
    for table in await conn.fetch(
        "SELECT table_name FROM information_schema.columns WHERE column_name = 'game_id' "
        "AND table_schema = 'public'"
    ):
        name = table["table_name"]
        if name not in CLONED:
            found = await conn.fetchval(f"SELECT count(*) FROM {name} WHERE game_id = $1", template)
            if found:
                raise RuntimeError(f"the template game has rows in {name}: clone them too")


async def create_cohort(
    sessionmaker: async_sessionmaker[AsyncSession],
    url: str,
    prefix: str,
    count: int,
    start: datetime,
) -> None:
    """``count`` started team battles, both sides deployed, all created at ``start`` (so
    their deployment deadlines are identical): one made through the service functions,
    the rest copied from it in bulk."""
    template = await create_template(sessionmaker, prefix, start)
    conn = await asyncpg.connect(driver_url(url))
    try:
        async with conn.transaction():
            await clone_game(conn, template, prefix, count)
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def resolved(conn: asyncpg.Connection, prefix: str) -> int:
    count = await conn.fetchval(
        "SELECT count(*) FROM steps s JOIN games g ON g.id = s.game_id "
        "WHERE s.kind = 'timer' AND g.title LIKE $1",
        f"{prefix} %",
    )
    return int(count)


async def check_phases(conn: asyncpg.Connection, prefix: str) -> dict[str, int]:
    rows = await conn.fetch(
        "SELECT state->>'phase' AS phase, count(*) AS n FROM games WHERE title LIKE $1 GROUP BY 1",
        f"{prefix} %",
    )
    return {str(r["phase"]): int(r["n"]) for r in rows}


# ----- scheduler workers ------------------------------------------------------------------


async def worker_main(url: str, start_iso: str, interval: float, batch: int) -> None:
    """One scheduler process: connect, say "ready", wait for "go", then run the service's
    deadline loop with a real clock that starts at ``start_iso`` until terminated."""
    from app import gc_policy
    from app.scheduler import scheduler_loop
    from app.settings import get_settings

    engine = make_engine(url, pool_size=2)
    sessionmaker = make_sessionmaker(engine)
    async with sessionmaker() as session:  # open a connection before the clock starts
        await session.execute(select(1))
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    clock = OffsetClock(datetime.fromisoformat(start_iso))
    # The service runs its scheduler in the app's process, under its collection policy.
    collector = gc_policy.serve(get_settings().gc_full_seconds)
    try:
        await scheduler_loop(sessionmaker, clock, interval, batch)
    finally:
        if collector is not None:
            collector.cancel()
        await engine.dispose()


def spawn_worker(url: str, start: datetime, interval: float, batch: int) -> subprocess.Popen[str]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", url, start.isoformat()]
    command += ["--interval", str(interval), "--batch", str(batch)]
    proc = subprocess.Popen(
        command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "ready":
        raise RuntimeError(f"scheduler worker failed to start: {line!r}")
    return proc


async def run_workers(
    url: str, prefix: str, count: int, deadline: datetime, workers: int, interval: float, batch: int
) -> Run:
    procs = [spawn_worker(url, deadline, interval, batch) for _ in range(workers)]
    conn = await asyncpg.connect(driver_url(url))
    try:
        t0 = time.monotonic()
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        late: list[float] = []  # per game: when its resolution was seen committed
        while True:
            done = await resolved(conn, prefix)
            elapsed = time.monotonic() - t0
            late += [elapsed] * (done - len(late))
            if done >= count:
                break
            if elapsed > 900:
                raise RuntimeError(f"only {done}/{count} resolved after {elapsed:.0f} s")
            await asyncio.sleep(0.02)
        phases = await check_phases(conn, prefix)
    finally:
        await conn.close()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
    if phases != {"command": count}:
        print(f"WARNING: cohort {prefix} phases after the run: {phases}")
    label = f"{workers} scheduler worker{'s' if workers > 1 else ''}"
    return Run(label, count, elapsed, late)


async def bare_loop(url: str, count: int) -> Run:
    """The bare limit: claim-and-mark ``count`` due rows, one transaction each, one
    connection, no ORM, no game logic."""
    conn = await asyncpg.connect(driver_url(url))
    try:
        await conn.execute(
            "CREATE TABLE bench_bare_timers (id serial PRIMARY KEY, due_at timestamptz NOT NULL, "
            "done_at timestamptz)"
        )
        await conn.execute("CREATE INDEX ON bench_bare_timers (due_at) WHERE done_at IS NULL")
        await conn.execute(
            "INSERT INTO bench_bare_timers (due_at) SELECT now() FROM generate_series(1, $1)",
            count,
        )
        started = time.monotonic()
        late: list[float] = []
        for _ in range(count):
            async with conn.transaction():
                row_id = await conn.fetchval(
                    "SELECT id FROM bench_bare_timers WHERE done_at IS NULL "
                    "ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED"
                )
                await conn.execute(
                    "UPDATE bench_bare_timers SET done_at = now() WHERE id = $1", row_id
                )
            late.append(time.monotonic() - started)
        return Run("bare claim+UPDATE loop", count, time.monotonic() - started, late)
    finally:
        await conn.close()


# ----- main -------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    settings = Settings()
    parser = argparse.ArgumentParser(description="10,000 deadlines at the same instant")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument(
        "--interval",
        type=float,
        default=settings.scheduler_interval_seconds,
        help="scheduler_loop interval (default: the service setting)",
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=settings.scheduler_batch,
        help="run_due_timers limit per pass (default: the service setting)",
    )
    parser.add_argument(
        "--no-single", action="store_true", help="skip the one-worker baseline (saves time)"
    )
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--worker", nargs=2, metavar=("URL", "START"), help=argparse.SUPPRESS)
    return parser.parse_args()


async def setup(url: str, count: int) -> float:
    engine = make_engine(url, pool_size=2)
    sessionmaker = make_sessionmaker(engine)
    started = time.perf_counter()
    try:
        await create_cohort(sessionmaker, url, "c1", count, START_1)
        await create_cohort(sessionmaker, url, "c2", count, START_1 + COHORT_GAP)
    finally:
        await engine.dispose()
    return time.perf_counter() - started


def line(run: Run) -> str:
    return (
        f"| {run.label} | {run.games} | {run.seconds:.2f} | {run.games / run.seconds:.0f} "
        f"| {run.pct(50):.2f} | {run.pct(99):.2f} | {max(run.lateness):.2f} |"
    )


def main() -> None:
    args = parse_args()
    if args.worker:
        asyncio.run(worker_main(args.worker[0], args.worker[1], args.interval, args.batch))
        return
    deadline_1 = START_1 + DEPLOYMENT
    deadline_2 = START_1 + COHORT_GAP + DEPLOYMENT
    with fresh_database(args.keep_db) as (name, url):
        print(
            f"database {name}; {os.cpu_count()} cores; scheduler batch {args.batch}, interval "
            f"{args.interval:g} s",
            flush=True,
        )
        took = asyncio.run(setup(url, args.games))
        print(f"set up 2 x {args.games} started, deployed games in {took:.1f} s", flush=True)
        measured = asyncio.run(
            run_workers(url, "c1", args.games, deadline_1, 2, args.interval, args.batch)
        )
        print(f"  {measured.label}: all resolved in {measured.seconds:.2f} s", flush=True)
        single = None
        if not args.no_single:
            single = asyncio.run(
                run_workers(url, "c2", args.games, deadline_2, 1, args.interval, args.batch)
            )
            print(f"  {single.label}: all resolved in {single.seconds:.2f} s", flush=True)
        bare = asyncio.run(bare_loop(url, args.games))
        print(f"  {bare.label}: {bare.seconds:.2f} s", flush=True)

    print()
    print(
        f"{args.games} deadlines at one instant; scheduler_loop batch {args.batch}, "
        f"interval {args.interval:g} s"
    )
    print("| run | games | all resolved (s) | games/s | lateness p50 (s) | p99 (s) | max (s) |")
    print("|---|---|---|---|---|---|---|")
    for run in (measured, single, bare):
        if run is not None:
            print(line(run))
    if single is not None:
        print(f"two workers vs one worker: {single.seconds / measured.seconds:.2f}x faster")
    ratio = measured.seconds / bare.seconds
    verdict = "PASS" if ratio <= TARGET_RATIO else "FAIL"
    print(
        f"all {args.games} resolved in {measured.seconds:.2f} s = {ratio:.2f}x the bare loop "
        f"(target <= {TARGET_RATIO:g}x): {verdict}"
    )


if __name__ == "__main__":
    main()
