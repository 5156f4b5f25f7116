"""/readyz: ready only when the database answers and is migrated to the head revision;
/healthz says the process is alive whatever the database does."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from httpx import ASGITransport, AsyncClient
from sqlalchemy.ext.asyncio import AsyncEngine

from app.clock import FakeClock
from app.db import make_engine, make_sessionmaker
from app.main import create_app
from app.settings import Settings
from tests.service.conftest import DEFAULT_PG, _pg_admin
from tests.service.helpers import ok, problem

ROOT = Path(__file__).resolve().parents[2]


def alembic_config(url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = url
    return config


def head_revisions() -> list[str]:
    return sorted(ScriptDirectory.from_config(alembic_config("")).get_heads())


@pytest_asyncio.fixture
async def empty_database(db_kind: str, tmp_path: Path) -> AsyncIterator[str]:
    """A database of the run's kind that nothing has migrated yet."""
    if db_kind == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
        return
    name = f"forumplay_readyz_{secrets.token_hex(4)}"
    await _pg_admin(f'CREATE DATABASE "{name}"')
    try:
        yield f"{os.environ.get('TEST_POSTGRES_URL', DEFAULT_PG)}/{name}"
    finally:
        await _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.asynccontextmanager
async def serving(settings: Settings, engine: AsyncEngine) -> AsyncIterator[AsyncClient]:
    """The app on ``engine`` instead of the run's database."""
    app = create_app(settings, FakeClock())
    app.state.engine = engine
    app.state.sessionmaker = make_sessionmaker(engine)
    transport = ASGITransport(app=app, raise_app_exceptions=False)
    async with AsyncClient(transport=transport, base_url="http://test") as http:
        yield http


async def test_ready_when_the_database_is_migrated_to_head(client: AsyncClient) -> None:
    assert head_revisions()  # the scripts have a head to compare with
    assert ok(await client.get("/readyz")) == {"status": "ready", "revisions": head_revisions()}
    assert ok(await client.get("/healthz")) == {"ok": True}


async def test_not_ready_until_the_migrations_reach_head(
    settings: Settings, empty_database: str
) -> None:
    engine = make_engine(empty_database, pool_size=2)
    try:
        async with serving(settings, engine) as http:
            body = problem(await http.get("/readyz"), 503, "migrations_pending")
            assert (body["revisions"], body["head"]) == ([], head_revisions())
            assert "迁移" in body["detail"]

            # Part of the way: still not ready, and it says where the database stands.
            first = ScriptDirectory.from_config(alembic_config("")).get_base()
            assert isinstance(first, str) and [first] != head_revisions()
            config = alembic_config(empty_database)
            config.attributes["skip_logging"] = True
            await asyncio.to_thread(command.upgrade, config, first)
            body = problem(await http.get("/readyz"), 503, "migrations_pending")
            assert body["revisions"] == [first]

            await asyncio.to_thread(command.upgrade, config, "head")
            assert ok(await http.get("/readyz"))["status"] == "ready"
            assert ok(await http.get("/healthz")) == {"ok": True}
    finally:
        await engine.dispose()
