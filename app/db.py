"""Engine and session factory; nothing else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(url: str, pool_size: int = 20, echo: bool = False) -> AsyncEngine:
    if is_sqlite(url):
        database = make_url(url).database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, echo=echo, connect_args={"timeout": 30})
        _sqlite_immediate_transactions(engine)
        return engine
    kwargs: dict[str, Any] = {"pool_size": pool_size, "max_overflow": pool_size}
    # No pool_pre_ping: it costs a round trip on every request; a dead connection fails
    # that one transaction, which rolls back and changes nothing.
    return create_async_engine(url, echo=echo, **kwargs)


def _sqlite_immediate_transactions(engine: AsyncEngine) -> None:
    """SQLite has no row locks: every transaction takes the write lock up front
    (BEGIN IMMEDIATE), so a game's read-modify-write cannot interleave with another."""

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # let us issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=True)
