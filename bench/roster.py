"""An island order's cost against the size of the roster, through the service.

Sets up three started island games, with 6, 200 and 1,000 players (service functions:
create_game, add_player, start_game), then submits the same ``--orders`` guard orders to
each (the first six players guarding one another), one order per transaction, the way
POST /orders does one: lock the game row (``load_game(lock=True)``), find the player by
token (``principal_for``), ``orders.submit_order``, commit. Prints the median ms per order
for each size, the ratios 200/6 and 1000/6 (measured in the same run), the target
(1000/6 <= 1.5) and PASS/MISS.

PostgreSQL (default): a fresh database ``forumplay_bench_<random>`` on ``BENCH_POSTGRES_URL``
(default postgresql+asyncpg://postgres@127.0.0.1:5432), migrated and dropped at the end.
``--db sqlite``: a fresh SQLite file in a temporary directory.

    python bench/roster.py [--db postgres|sqlite] [--orders 30] [--sizes 6,200,1000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker  # noqa: E402

from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.services import games as games_service  # noqa: E402
from app.services import orders as orders_service  # noqa: E402
from app.services.auth import Principal, principal_for  # noqa: E402
from bench.pgdb import fresh_database, sqlite_database  # noqa: E402

TZ = "Asia/Shanghai"
DAY = date(2026, 3, 10)
TARGET_RATIO = 1.5
DIRECTOR = Principal("director")
NOW = datetime.combine(DAY, datetime.min.time(), tzinfo=ZoneInfo(TZ)).replace(hour=10)
NOW = NOW.astimezone(UTC)


def island_settings(players: int) -> dict[str, Any]:
    """A quiet island with a cell for every player; players stand in pairs."""
    side = max(4, int(players**0.5) + 1)
    return {
        "width": side,
        "height": side,
        "terrains": {"plain": {"encounter_chance": 0.0}},
        "monster_check_times": [],
        "guard_cost": 0,  # any number of guard orders, every one the same work
        "end_when_alive_at_most": 0,
        "start_positions": {
            str(i + 1): [1 + (i // 2) % side, 1 + (i // (2 * side)) % side] for i in range(players)
        },
    }


async def setup_game(sm: async_sessionmaker[AsyncSession], n_players: int) -> tuple[str, list[str]]:
    """A started game with ``n_players``; its id and the first six players' tokens."""
    async with sm() as session, session.begin():
        created = await games_service.create_game(
            session, "island", f"roster {n_players}", island_settings(n_players), TZ, {}, NOW
        )
        game = await games_service.load_game(session, created["id"], lock=True)
        tokens = []
        for i in range(n_players):
            added = await games_service.add_player(session, game, DIRECTOR, f"p{i}", None, NOW)
            if i < 6:
                tokens.append(added["token"])
        await games_service.start_game(session, game, DIRECTOR, NOW)
        return game.id, tokens


async def one_order(
    sm: async_sessionmaker[AsyncSession], game_id: str, token: str, body: dict[str, Any]
) -> float:
    """One order in its own transaction, as POST /orders runs one; its wall time."""
    t0 = time.perf_counter()
    async with sm() as session, session.begin():
        game = await games_service.load_game(session, game_id, lock=True)
        principal = await principal_for(session, game, token, None)
        await orders_service.submit_order(session, game, principal, body, NOW)
    return time.perf_counter() - t0


def order_plan(n: int) -> list[tuple[int, int]]:
    """``n`` distinct (guard, target) pairs among the first six players."""
    pairs = [(a, b) for a in range(6) for b in range(6) if a != b]
    assert n <= len(pairs), f"at most {len(pairs) - 1} orders"
    return pairs[:n]


async def first_six(sm: async_sessionmaker[AsyncSession], game_id: str) -> list[str]:
    async with sm() as session:
        game = await games_service.load_game(session, game_id)
        return [r.id for r in (await games_service.roster(session, game))[:6]]


async def bench(url: str, sizes: list[int], n_orders: int) -> bool:
    engine = make_engine(url, pool_size=4)
    sm = make_sessionmaker(engine)
    try:
        games: dict[int, tuple[str, list[str], list[str]]] = {}
        for n in sizes:
            t0 = time.perf_counter()
            game_id, tokens = await setup_game(sm, n)
            games[n] = (game_id, tokens, await first_six(sm, game_id))
            print(f"setup: {n} players in {time.perf_counter() - t0:.1f} s", flush=True)
        # The sizes take turns, order by order, so that a slower moment of the machine
        # falls on all of them alike. The first order of each game is not counted (warm-up).
        times: dict[int, list[float]] = {n: [] for n in sizes}
        for a, b in order_plan(n_orders + 1):
            for n in sizes:
                game_id, tokens, ids = games[n]
                body = {"type": "guard", "target": ids[b]}
                times[n].append(await one_order(sm, game_id, tokens[a], body))
        medians: dict[int, float] = {}
        for n in sizes:
            counted = times[n][1:]
            medians[n] = statistics.median(counted) * 1000
            print(
                f"{n:>5} players: median {medians[n]:.2f} ms/order over {len(counted)} orders "
                f"(min {min(counted) * 1000:.2f}, max {max(counted) * 1000:.2f})"
            )
        base = medians[sizes[0]]
        for n in sizes[1:]:
            print(f"ratio {n}/{sizes[0]}: {medians[n] / base:.2f}x")
        worst = medians[sizes[-1]] / base
        print(f"target: {sizes[-1]}/{sizes[0]} <= {TARGET_RATIO:.1f}x")
        return worst <= TARGET_RATIO
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--orders", type=int, default=29, help="orders per game (at most 29)")
    parser.add_argument("--sizes", default="6,200,1000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.db == "sqlite":
        with sqlite_database() as url:
            passed = asyncio.run(bench(url, sizes, args.orders))
    else:
        with fresh_database() as (_, url):
            passed = asyncio.run(bench(url, sizes, args.orders))
    print("PASS" if passed else "MISS")


if __name__ == "__main__":
    main()
