"""PostgreSQL: an order's write reaches the rows it changes by key, however the tables have
grown since the connection first planned it.

A pooled connection keeps the plan it makes at a prepared statement's sixth run (a generic
plan) for its whole life; nothing makes it again but ANALYZE, and autovacuum may be off.
Made while ``orders`` was a few pages, the batch write's plan read the whole table on
every order ever after: over a minute of bench/submit_orders.py PostgreSQL's CPU per order
grew from 0.35 ms to 1.6 ms. SQLite looks rows up by key whatever the table's size."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from app.clock import FakeClock
from app.db import make_engine, make_sessionmaker
from app.services import games as games_service
from app.services.auth import Principal, principal_for
from app.services.batcher import OrderBatcher
from app.services.orders import submit_order
from tests.service.helpers import TB_SETTINGS

DEPLOYMENTS = ([6, 6, 6, 6, 6], [7, 5, 6, 6, 6], [4, 7, 8, 6, 5], [10, 5, 5, 5, 5])
WARM_UP = 8  # more runs than PostgreSQL makes custom plans for (five) before it keeps one
GROWN = 20_000  # orders added once the plans are kept


async def started_game(
    sessionmaker: async_sessionmaker[AsyncSession], clock: FakeClock
) -> tuple[str, str, str]:
    """A started team battle: (game id, side A's player id, side A's token)."""
    director = Principal("director")
    async with sessionmaker() as session, session.begin():
        created = await games_service.create_game(
            session, "team_battle", "plans", dict(TB_SETTINGS), None, {}, clock.now()
        )
        game = await games_service.load_game(session, created["id"])
        a = await games_service.add_player(session, game, director, "a", "A", clock.now())
        await games_service.add_player(session, game, director, "b", "B", clock.now())
        await games_service.start_game(session, game, director, clock.now())
    return created["id"], a["id"], a["token"]


def deploy(i: int) -> dict[str, Any]:
    return {"type": "deploy", "troops": DEPLOYMENTS[i % len(DEPLOYMENTS)]}


async def grow_orders(engine: AsyncEngine, game_id: str, player_id: str) -> None:
    """``GROWN`` old orders of the game's player, written straight into the table."""
    async with engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO orders (id, game_id, player_id, side, type, body, status, step_seq,"
                " created_at, updated_at)"
                " SELECT 'old' || n, :game, :player, 'A', 'deploy', '{}', 'superseded', 0,"
                " now(), now() FROM generate_series(1, :count) AS n"
            ),
            {"game": game_id, "player": player_id, "count": GROWN},
        )


@contextmanager
def orders_reads(engine: AsyncEngine) -> Iterator[list[tuple[int, int]]]:
    """(sequential scans, index scans) of ``orders`` by each transaction on ``engine``,
    taken just before it commits."""
    seen: list[tuple[int, int]] = []

    def before_commit(session: Session) -> None:
        if session.get_bind() is not engine.sync_engine:
            return
        row = session.execute(
            text(
                "SELECT seq_scan, coalesce(idx_scan, 0) FROM pg_stat_xact_user_tables"
                " WHERE relname = 'orders'"
            )
        ).one()
        seen.append((int(row[0]), int(row[1])))

    event.listen(Session, "before_commit", before_commit)
    try:
        yield seen
    finally:
        event.remove(Session, "before_commit", before_commit)


async def test_an_order_does_not_read_the_orders_table_whole_once_it_has_grown(
    database_url: str,
    db_kind: str,
    engine: AsyncEngine,
    sessionmaker: async_sessionmaker[AsyncSession],
    clock: FakeClock,
) -> None:
    if db_kind == "sqlite":
        return  # SQLite looks a row up by its primary key whatever the table's size
    game_id, player_id, token = await started_game(sessionmaker, clock)
    # One connection each, so that each path's statements are planned and kept on it.
    batched = make_engine(database_url, pool_size=1, pool_overflow=0)
    alone = make_engine(database_url, pool_size=1, pool_overflow=0)
    batches = make_sessionmaker(batched)
    sessions = make_sessionmaker(alone)
    batcher = OrderBatcher(lambda: batches, clock, None)

    async def one_alone(i: int) -> dict[str, Any]:
        async with sessions() as session, session.begin():
            game = await games_service.load_game(session, game_id)
            principal = await principal_for(session, game, token, None)
            accepted = await submit_order(session, game, principal, deploy(i), clock.now())
            # Planned without sequential scans, the write puts them back for what follows.
            assert await session.scalar(text("SHOW enable_seqscan")) == "on"
            return accepted

    paths: dict[str, tuple[AsyncEngine, Callable[[int], Awaitable[dict[str, Any]]]]] = {
        "batched": (batched, lambda i: batcher.submit(game_id, token, deploy(i))),
        "alone": (alone, one_alone),
    }
    try:
        # Each path plans its write while the table holds a handful of orders (each new
        # deployment supersedes the one before: the write updates an order as well).
        for _, submit in paths.values():
            for i in range(WARM_UP):
                assert (await submit(i))["status"] == "pending"
        await grow_orders(engine, game_id, player_id)
        for name, (path_engine, submit) in paths.items():
            with orders_reads(path_engine) as seen:
                accepted = await submit(WARM_UP)
            assert accepted["status"] == "pending"
            assert len(seen) == 1, name
            sequential, by_index = seen[0]
            assert sequential == 0, f"{name}: an order read all {GROWN} orders"
            assert by_index >= 1, name  # the superseded deployment, found by its key
    finally:
        await batched.dispose()
        await alone.dispose()
