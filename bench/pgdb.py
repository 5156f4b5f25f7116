"""A fresh, migrated PostgreSQL database for one benchmark run, dropped afterwards."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game
from app.services import games as games_service
from app.services.auth import Principal

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
        migrate(url)
        yield name, url
    finally:
        if not keep:
            asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def migrate(url: str) -> None:
    """``python -m app migrate`` on the database at ``url`` (the path the service takes)."""
    subprocess.run(
        [sys.executable, "-m", "app", "migrate"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        check=True,
        capture_output=True,
    )


@contextmanager
def sqlite_database() -> Iterator[str]:
    """The SQLAlchemy URL of a new, migrated SQLite database in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="forumplay_bench_") as folder:
        url = f"sqlite+aiosqlite:///{folder}/bench.db"
        migrate(url)
        yield url


def driver_url(url: str) -> str:
    """The plain asyncpg form of a SQLAlchemy URL."""
    return url.replace("postgresql+asyncpg://", "postgresql://")


TB_SETTINGS: dict[str, Any] = {
    "troops": {"A": 30, "B": 30},
    "deployment_seconds": 3600,
    "command_seconds": 3600,
    "battle_seconds": 3600,
    "response_seconds": 600,
}


async def started_team_battle(
    session: AsyncSession, title: str, now: datetime
) -> tuple[Game, dict[str, Any], dict[str, Any]]:
    """A started Team Battle (through the service functions, inside the caller's
    transaction) with one player per side; returns the game and both players (with tokens)."""
    director = Principal("director")
    created = await games_service.create_game(
        session, "team_battle", title, dict(TB_SETTINGS), None, {}, now
    )
    game = await games_service.load_game(session, created["id"])
    a = await games_service.add_player(session, game, director, "a", "A", now)
    b = await games_service.add_player(session, game, director, "b", "B", now)
    await games_service.start_game(session, game, director, now)
    return game, a, b
