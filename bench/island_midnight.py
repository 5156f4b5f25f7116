"""The island 24:00 resolution through the service, against PostgreSQL.

Creates a fresh database ``forumplay_bench_<random>`` on ``BENCH_POSTGRES_URL`` (default
postgresql+asyncpg://postgres@127.0.0.1:5432), migrates it with ``python -m app migrate``,
and drops it at the end. Games are set up through the service functions (create_game,
add_player, start_game, submit_order) in a few transactions, then:

(a) one game with 200 players and 100 assassination orders: its midnight, run by
    ``app.scheduler.run_due_timers``, timed;
(b) 500 games of 12 players with 4 assassinations each, sharing one midnight, resolved by
    two scheduler worker processes: time until all are done (target: within 30 s).

Each figure comes with a baseline measured in the same run: the engine-only time of the same
midnights (``app.rules.island`` applied directly to the same stored states), and the ratio.

    python bench/island_midnight.py [--games 500] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select  # noqa: E402
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker  # noqa: E402

from app.clock import FakeClock  # noqa: E402
from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.models import StepRow, Timer  # noqa: E402
from app.rules.base import SYSTEM, Step, step_rng  # noqa: E402
from app.rules.island import RULESET  # noqa: E402
from app.scheduler import run_due_timers  # noqa: E402
from app.services import games as games_service  # noqa: E402
from app.services import orders as orders_service  # noqa: E402
from app.services.auth import PlayerInfo, Principal  # noqa: E402
from bench.pgdb import fresh_database  # noqa: E402

TZ = "Asia/Shanghai"
DAY = date(2026, 3, 10)
TARGET_SECONDS = 30.0
DIRECTOR = Principal("director")


def local(h: int, d: date = DAY) -> datetime:
    return datetime.combine(d, datetime.min.time(), tzinfo=ZoneInfo(TZ)).replace(hour=h)


MIDNIGHT = local(0, DAY + timedelta(days=1)).astimezone(UTC)


def island_settings(players: int, side: int) -> dict[str, Any]:
    """A quiet island ``side`` cells wide; players stand in pairs, one pair per cell of its
    first ``side`` rows. It has as many rows as it takes to have a cell per player (IS-4:
    an island takes at most one player per cell)."""
    return {
        "width": side,
        "height": max(side, -(-players // side)),
        "terrains": {"plain": {"encounter_chance": 0.0}},
        "monster_check_times": [],
        "end_when_alive_at_most": 0,
        "start_positions": {
            str(i + 1): [1 + (i // 2) % side, 1 + (i // (2 * side)) % side] for i in range(players)
        },
    }


async def setup_game(
    session: AsyncSession, n_players: int, n_orders: int, side: int, now: datetime
) -> str:
    """One started game with ``n_orders`` assassinations (player 2k -> 2k+1, same cell)."""
    created = await games_service.create_game(
        session, "island", "bench", island_settings(n_players, side), TZ, {}, now
    )
    game = await games_service.load_game(session, created["id"], lock=True)
    for i in range(n_players):
        await games_service.add_player(session, game, DIRECTOR, f"p{i}", None, now)
    await games_service.start_game(session, game, DIRECTOR, now)
    rows = await games_service.roster(session, game)
    for k in range(n_orders):
        assassin, target = rows[2 * k], rows[2 * k + 1]
        body = {"type": "assassinate", "target": target.id}
        await orders_service.submit_order(
            session, game, Principal("player", PlayerInfo.of(assassin)), body, now
        )
    return game.id


async def setup_many(
    sm: async_sessionmaker[AsyncSession],
    count: int,
    n_players: int,
    n_orders: int,
    side: int,
    concurrency: int = 8,
    per_tx: int = 25,
) -> list[str]:
    now = local(10).astimezone(UTC)
    ids: list[str] = []

    async def chunk(n: int) -> None:
        async with sm() as session, session.begin():
            for _ in range(n):
                ids.append(await setup_game(session, n_players, n_orders, side, now))

    sizes = [per_tx] * (count // per_tx) + ([count % per_tx] if count % per_tx else [])
    sem = asyncio.Semaphore(concurrency)

    async def limited(n: int) -> None:
        async with sem:
            await chunk(n)

    await asyncio.gather(*(limited(n) for n in sizes))
    return ids


async def stored_states(sm: async_sessionmaker[AsyncSession], ids: list[str]) -> list[Any]:
    from app.models import Game

    async with sm() as session:
        rows = (await session.scalars(select(Game).where(Game.id.in_(ids)))).all()
        return [(g.seed, g.state) for g in rows]


def engine_midnights(states: list[Any]) -> float:
    """The baseline: the same midnight steps applied by the pure engine, no database."""
    step = Step("s-bench", "timer", SYSTEM, {"kind": "midnight", "key": "midnight", "data": {}})
    t0 = time.perf_counter()
    for seed, state in states:
        RULESET.apply(state, step, step_rng(seed, step.id), MIDNIGHT)
    return time.perf_counter() - t0


async def count_midnights(sm: async_sessionmaker[AsyncSession], ids: list[str]) -> int:
    async with sm() as session:
        n = await session.scalar(
            select(func.count())
            .select_from(StepRow)
            .where(StepRow.kind == "timer", StepRow.game_id.in_(ids))
        )
        pending = await session.scalar(
            select(func.count())
            .select_from(Timer)
            .where(Timer.done_at.is_(None), Timer.due_at <= MIDNIGHT, Timer.game_id.in_(ids))
        )
        assert pending == 0, f"{pending} due timers left"
        return int(n or 0)


async def worker(url: str) -> None:
    """One scheduler process: run every due timer, print how many and how long."""
    engine = make_engine(url, pool_size=2)
    t0 = time.perf_counter()
    ran = await run_due_timers(make_sessionmaker(engine), FakeClock(MIDNIGHT), limit=100_000)
    print(f"{ran} {time.perf_counter() - t0:.3f}", flush=True)
    await engine.dispose()


def verdict(seconds: float, target: float) -> str:
    return "PASS" if seconds <= target else "MISS"


async def bench(url: str, games: int, workers: int) -> bool:
    engine = make_engine(url, pool_size=10)
    sm = make_sessionmaker(engine)
    try:
        # (a) one big game
        t0 = time.perf_counter()
        [big] = await setup_many(sm, 1, 200, 100, 10, concurrency=1, per_tx=1)
        print(
            f"setup: 1 game x 200 players + 100 assassinations in {time.perf_counter() - t0:.1f} s"
        )
        big_states = await stored_states(sm, [big])
        t_engine_big = engine_midnights(big_states)
        t0 = time.perf_counter()
        ran = await run_due_timers(sm, FakeClock(MIDNIGHT))
        t_big = time.perf_counter() - t0
        assert ran == 1 and await count_midnights(sm, [big]) == 1
        print(
            f"(a) 200 players, 100 assassinations, one midnight via the scheduler: "
            f"{t_big * 1000:.0f} ms; engine-only baseline {t_engine_big * 1000:.0f} ms; "
            f"ratio {t_big / t_engine_big:.1f}x  {verdict(t_big, TARGET_SECONDS)}"
        )

        # (b) many games sharing one midnight
        t0 = time.perf_counter()
        ids = await setup_many(sm, games, 12, 4, 4)
        print(
            f"setup: {games} games x 12 players x 4 assassinations in {time.perf_counter() - t0:.1f} s"
        )
        states = await stored_states(sm, ids)
        t_engine_many = engine_midnights(states)
        t0 = time.perf_counter()
        procs = [
            subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--worker", url],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(workers)
        ]
        outs = [await asyncio.to_thread(p.communicate, timeout=600) for p in procs]
        t_many = time.perf_counter() - t0
        for p, (_out, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0, err
        per_worker = [out.split() for out, _ in outs]
        ran_total = sum(int(w[0]) for w in per_worker)
        done = await count_midnights(sm, ids)
        assert ran_total == games and done == games, (ran_total, done)
        print(
            f"(b) {games} games sharing one midnight, {workers} scheduler processes: "
            f"{t_many:.2f} s wall (incl. process start; per worker: "
            + ", ".join(f"{int(w[0])} timers in {float(w[1]):.2f} s" for w in per_worker)
            + f"); engine-only baseline {t_engine_many:.2f} s; ratio {t_many / t_engine_many:.1f}x"
        )
        print(
            f"target: all {games} done within {TARGET_SECONDS:.0f} s: {verdict(t_many, TARGET_SECONDS)}"
        )
        return t_many <= TARGET_SECONDS and t_big <= TARGET_SECONDS
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        asyncio.run(worker(args.worker))
        return
    with fresh_database() as (_, url):
        passed = asyncio.run(bench(url, args.games, args.workers))
    print("PASS" if passed else "MISS")


if __name__ == "__main__":
    main()
