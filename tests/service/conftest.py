"""Database, app and client fixtures for the service tests (see tests/conftest.py)."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from httpx import ASGITransport, AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.db import make_engine, make_sessionmaker
from app.main import create_app
from app.migrate import migrate
from app.settings import Settings
from app.tables import METADATA
from tests.service.helpers import served
from tests.service.web_helpers import Browser

DEFAULT_PG = "postgresql+asyncpg://postgres@127.0.0.1:5432"


async def _pg_admin(sql: str) -> None:
    import asyncpg

    base = os.environ.get("TEST_POSTGRES_URL", DEFAULT_PG).replace(
        "postgresql+asyncpg", "postgresql"
    )
    conn = await asyncpg.connect(f"{base}/postgres", timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def db_kind(request: pytest.FixtureRequest) -> str:
    return str(request.config.getoption("--db"))


@pytest.fixture(scope="session")
def database_url(db_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if db_kind == "sqlite":
        path: Path = tmp_path_factory.mktemp("db") / "forumplay.db"
        url = f"sqlite+aiosqlite:///{path}"
        migrate(url)
        yield url
        return
    name = f"forumplay_test_{secrets.token_hex(4)}"
    try:
        asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
    except Exception as error:  # noqa: BLE001 - any connection failure
        message = f"PostgreSQL is not reachable for the test run: {error!r}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    base = os.environ.get("TEST_POSTGRES_URL", DEFAULT_PG)
    url = f"{base}/{name}"
    migrate(url)
    yield url
    asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest_asyncio.fixture(scope="session")
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = make_engine(database_url, pool_size=10)
    yield engine
    await engine.dispose()


@pytest.fixture(scope="session")
def sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return make_sessionmaker(engine)


@pytest_asyncio.fixture(autouse=True)
async def _clean_tables(engine: AsyncEngine) -> AsyncIterator[None]:
    """Every service test starts from empty (migrated) tables."""
    yield
    async with engine.begin() as conn:
        for table in reversed(METADATA.sorted_tables):
            await conn.execute(text(f'DELETE FROM "{table.name}"'))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        scheduler_enabled=False,
        publish_worker_enabled=False,  # tests run the delivery worker's passes themselves
        publish_allow_private_urls=True,  # channels point at local sinks
        admin_token=None,
    )


@pytest_asyncio.fixture
async def client(
    settings: Settings,
    clock: FakeClock,
    engine: AsyncEngine,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> AsyncIterator[AsyncClient]:
    async with served(create_app(settings, clock), engine, sessionmaker) as http:
        yield http


@pytest_asyncio.fixture
async def browser(client: AsyncClient) -> AsyncIterator[Browser]:
    """Fresh browsers (own cookie jars) on the same app, for the page tests."""
    opened: list[AsyncClient] = []

    def make() -> AsyncClient:
        transport = ASGITransport(app=client.app, raise_app_exceptions=False)  # type: ignore[attr-defined]
        http = AsyncClient(transport=transport, base_url="http://test")
        opened.append(http)
        return http

    yield make
    for http in opened:
        await http.aclose()
