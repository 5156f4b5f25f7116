"""Alembic environment: async engines for SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
import concurrent.futures
from logging.config import fileConfig
from typing import Any

from alembic import context
from sqlalchemy.engine import Connection

from app.db import make_engine
from app.settings import get_settings
from app.tables import METADATA

config = context.config
if config.config_file_name is not None and not config.attributes.get("skip_logging"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = METADATA


def database_url() -> str:
    url = config.attributes.get("database_url")
    return str(url) if url else get_settings().database_url


def do_run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    engine = make_engine(database_url(), pool_size=1)
    async with engine.connect() as connection:
        await connection.run_sync(do_run_migrations)
        await connection.commit()
    await engine.dispose()


def run_migrations_offline() -> None:
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection: Any = config.attributes.get("connection")
    if connection is not None:
        do_run_migrations(connection)
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(run_async_migrations())
        return
    # Called from async code (an app's start-up, a test): run on a thread of our own.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, run_async_migrations()).result()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
