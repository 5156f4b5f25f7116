"""Engine and session factory, and what "the database is unavailable" means."""

from __future__ import annotations

import functools
import weakref
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import event, exc
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(
    url: str,
    pool_size: int = 20,
    echo: bool = False,
    *,
    pool_overflow: int | None = None,
    connect_timeout: float | None = None,
    command_timeout: float | None = None,
    pool_timeout: float | None = None,
) -> AsyncEngine:
    """The engine. The timeouts (PostgreSQL; None: the driver's and pool's own) bound how
    long a request can wait on a database that is gone or stopped answering; the app sets
    them from its settings, tools such as migrations leave them unbounded."""
    if is_sqlite(url):
        database = make_url(url).database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, echo=echo, connect_args={"timeout": 30})
        _sqlite_immediate_transactions(engine)
        return engine
    overflow = pool_size if pool_overflow is None else pool_overflow
    kwargs: dict[str, Any] = {"pool_size": pool_size, "max_overflow": overflow}
    if pool_timeout is not None:
        kwargs["pool_timeout"] = pool_timeout
    connect_args: dict[str, Any] = {}
    if connect_timeout is not None:
        connect_args["timeout"] = connect_timeout
    if command_timeout is not None:
        connect_args["command_timeout"] = command_timeout
    # No pool_pre_ping: it costs a round trip on every request. A pooled connection the
    # server closed (a restart) is known closed without one and replaced on checkout; one
    # that fails in use is invalidated with every other connection of its generation.
    engine = create_async_engine(url, echo=echo, connect_args=connect_args, **kwargs)
    _drop_broken_connections(engine)
    return engine


def read_engine(engine: AsyncEngine) -> AsyncEngine:
    """The engine (same pool) for reads that are one statement, or whose statements need
    not agree with each other beyond what each sees (READ COMMITTED gives every statement
    its own snapshot anyway): on PostgreSQL they run without a transaction, which saves
    the BEGIN and ROLLBACK round trips around them. On SQLite they run in a deferred
    transaction (``BEGIN``, not ``BEGIN IMMEDIATE``): one snapshot and no write lock, so
    readers never queue with the writers (WAL: a reader never blocks the writer).
    Nothing run on this engine may write."""
    found = _READ_ENGINES.get(engine.sync_engine)
    if found is None:
        options: dict[str, Any] = {"isolation_level": "AUTOCOMMIT"}
        if engine.dialect.name == "sqlite":
            options = {_DEFERRED: True}
        found = _READ_ENGINES[engine.sync_engine] = engine.execution_options(**options)
    return found


def read_transactions(engine: AsyncEngine) -> AsyncEngine:
    """The engine for a read-only transaction that wants one snapshot (the pages, the
    reads behind ``lock=False``): SQLite's deferred transaction (no write lock, issue 16
    item 28); PostgreSQL's ordinary one."""
    return read_engine(engine) if engine.dialect.name == "sqlite" else engine


# The execution option that makes this module's ``begin`` listener issue a deferred BEGIN.
_DEFERRED = "forumplay_sqlite_deferred"

_READ_ENGINES: weakref.WeakKeyDictionary[Engine, AsyncEngine] = weakref.WeakKeyDictionary()


def _drop_broken_connections(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "checkout")
    def _checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        driver = getattr(dbapi_connection, "driver_connection", None)
        is_closed = getattr(driver, "is_closed", None)
        if is_closed is not None and is_closed():
            raise exc.DisconnectionError("the server closed this pooled connection")

    @event.listens_for(engine.sync_engine, "handle_error")
    def _handle_error(context: Any) -> None:
        # A statement that got no answer in time (or a socket error) leaves the
        # connection in an unknown state: discard it, and the pool's other connections
        # of its generation, instead of rolling back on it and waiting all over again.
        if isinstance(context.original_exception, OSError):  # TimeoutError included
            context.is_disconnect = True


# SQLSTATE classes and codes that say "the database cannot serve you now", not "this
# request is wrong": connection exceptions, operator intervention (shutdown, starting
# up), insufficient resources (too many connections, disk full).
_UNAVAILABLE_SQLSTATES = ("08", "53", "57P")
_UNAVAILABLE_SQLITE = (  # SQLite: busy past its timeout, or its file unreachable
    "database is locked",
    "unable to open database file",
    "disk I/O error",
)
_DRIVER_MODULES = ("sqlalchemy.", "asyncpg.", "aiosqlite.", "sqlite3.")


def database_unavailable(error: BaseException) -> bool:
    """Whether ``error`` means the database is unreachable or not serving for now (a
    retry later may succeed), as opposed to a bug or a bad request."""
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, exc.TimeoutError):  # no pooled connection came free
            return True
        if isinstance(current, exc.DBAPIError) and current.connection_invalidated:
            return True
        if isinstance(current, OSError) and _raised_by_driver(current.__traceback__):
            return True  # refused, reset, timed out while connecting or waiting for an answer
        sqlstate = getattr(current, "sqlstate", None)
        if isinstance(sqlstate, str) and sqlstate.startswith(_UNAVAILABLE_SQLSTATES):
            return True
        if isinstance(current, exc.OperationalError):
            if any(text in str(current.orig) for text in _UNAVAILABLE_SQLITE):
                return True
        pending += [getattr(current, "orig", None), current.__cause__, current.__context__]
    return False


def _raised_by_driver(traceback: TracebackType | None) -> bool:
    """An OSError counts only if it came through the database driver or the pool (not,
    say, from a webhook the request called)."""
    while traceback is not None:
        module = traceback.tb_frame.f_globals.get("__name__", "")
        if isinstance(module, str) and module.startswith(_DRIVER_MODULES):
            return True
        traceback = traceback.tb_next
    return False


def _sqlite_immediate_transactions(engine: AsyncEngine) -> None:
    """SQLite has no row locks: every transaction that may write takes the write lock up
    front (BEGIN IMMEDIATE), so a game's read-modify-write cannot interleave with another.
    Reads (``read_engine``) begin deferred: they must not queue for that lock — readers
    polling in a loop starved the delivery worker's claims for 20 s (issue 16 item 28)."""

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # let us issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine.sync_engine, "handle_error")
    def _finalize_cancelled_statement(context: Any) -> None:
        # A statement cancelled while it ran (the task awaiting it was cancelled: a
        # stream's feed when its last client went away, a timeout) leaves its sqlite3
        # cursor unfinalized. SQLAlchemy then closes the connection without closing the
        # cursor, and SQLite keeps a connection with a live statement open ("zombie"),
        # transaction and write lock included, until the garbage collector frees the
        # cursor — which ``gc.freeze()`` (app/live.py) can postpone forever: every
        # request then waited 30 s for the lock (issue 16 item 31). So close the cursor
        # on the connection's own thread, ahead of the connection's close.
        if isinstance(context.original_exception, Exception):
            return  # an error, not a cancellation: SQLAlchemy closes the cursor itself
        _close_on_worker_thread(getattr(context.execution_context, "cursor", None))

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(conn: Any) -> None:
        deferred = conn.get_execution_options().get(_DEFERRED)
        conn.exec_driver_sql("BEGIN" if deferred else "BEGIN IMMEDIATE")


def _close_on_worker_thread(cursor: Any) -> None:
    """Queue ``close`` of the sqlite3 cursor behind SQLAlchemy's aiosqlite adapter on the
    aiosqlite thread that owns it (it runs after the statement in flight, before any
    close of the connection queued later)."""
    proxy = getattr(cursor, "_cursor", None)  # aiosqlite.Cursor
    raw = getattr(proxy, "_cursor", None)  # sqlite3.Cursor
    queue = getattr(getattr(proxy, "_conn", None), "_tx", None)  # the thread's work queue
    if raw is None or queue is None:
        return
    queue.put_nowait((None, raw.close))


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=True)


def migrations_directory() -> Path:
    """The Alembic scripts: beside the ``app`` package in a checkout, else in the working
    directory (an installed package run from its deployment folder)."""
    beside = Path(__file__).resolve().parent.parent / "migrations"
    return beside if beside.is_dir() else Path.cwd() / "migrations"


@functools.cache
def migration_heads() -> frozenset[str]:
    """The revisions a fully migrated database is at (read from the scripts once)."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory(str(migrations_directory())).get_heads())


async def database_revisions(engine: AsyncEngine) -> frozenset[str]:
    """The revisions the database says it is at (empty: never migrated)."""
    from alembic.runtime.migration import MigrationContext

    async with engine.connect() as conn:
        heads = await conn.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_heads()
        )
    return frozenset(heads)
