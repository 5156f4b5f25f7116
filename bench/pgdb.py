"""A fresh, migrated PostgreSQL database for one benchmark run, dropped afterwards."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg

ROOT = Path(__file__).resolve().parents[1]
BASE_URL = os.environ.get("BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432")


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(f"{BASE_URL.replace('postgresql+asyncpg', 'postgresql')}/postgres")
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def fresh_database(keep: bool = False) -> Iterator[tuple[str, str]]:
    """Yield (name, SQLAlchemy URL) of a new database migrated with ``python -m app migrate``
    (the same path the service takes); drop it at the end unless ``keep``."""
    name = f"forumplay_bench_{secrets.token_hex(4)}"
    url = f"{BASE_URL}/{name}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        env = {**os.environ, "DATABASE_URL": url}
        subprocess.run(
            [sys.executable, "-m", "app", "migrate"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        yield name, url
    finally:
        if not keep:
            asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def driver_url(url: str) -> str:
    """The plain asyncpg form of a SQLAlchemy URL."""
    return url.replace("postgresql+asyncpg://", "postgresql://")
