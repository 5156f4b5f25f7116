"""Backups as docs/operations.md describes them: a finished game survives ``pg_dump`` and
``pg_restore`` into a fresh database, where GET /verify still says ok.

PostgreSQL only (SQLite is backed up by copying its file). Under CI=true a missing
``pg_dump`` fails the run instead of skipping it."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from httpx import ASGITransport, AsyncClient
from sqlalchemy.engine import make_url

from app.clock import FakeClock
from app.db import make_engine, make_sessionmaker
from app.main import create_app
from app.settings import Settings
from tests.service.conftest import DEFAULT_PG, _pg_admin
from tests.service.helpers import ok
from tests.service.test_archive import finished_team_battle


def libpq(url: str) -> str:
    """The SQLAlchemy URL as the PostgreSQL tools take it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (Debian: postgresql-client)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest_asyncio.fixture
async def fresh_database(db_kind: str) -> AsyncIterator[str]:
    """An empty database to restore into; dropped afterwards."""
    if db_kind != "postgres":
        pytest.skip("pg_dump backups are for PostgreSQL (SQLite: copy the file)")
    name = f"forumplay_restore_{secrets.token_hex(4)}"
    await _pg_admin(f'CREATE DATABASE "{name}"')
    try:
        yield f"{os.environ.get('TEST_POSTGRES_URL', DEFAULT_PG)}/{name}"
    finally:
        await _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_a_restored_dump_still_verifies(
    client: AsyncClient,
    clock: FakeClock,
    database_url: str,
    fresh_database: str,
    tmp_path: Path,
) -> None:
    game = await finished_team_battle(client, clock)
    archive = ok(await game.get("/archive"))
    verified = ok(await game.get("/verify"))
    assert verified["ok"] is True

    dump = tmp_path / "forumplay.dump"
    subprocess.run(
        [tool("pg_dump"), "--format=custom", f"--file={dump}", libpq(database_url)],
        check=True,
        timeout=120,
    )
    subprocess.run(
        [tool("pg_restore"), "--no-owner", f"--dbname={libpq(fresh_database)}", str(dump)],
        check=True,
        timeout=120,
    )

    settings = Settings(
        database_url=fresh_database, scheduler_enabled=False, publish_worker_enabled=False
    )
    restored = create_app(settings, clock)
    engine = make_engine(fresh_database, pool_size=2)
    restored.state.engine, restored.state.sessionmaker = engine, make_sessionmaker(engine)
    try:
        transport = ASGITransport(app=restored)
        async with AsyncClient(transport=transport, base_url="http://restored") as http:
            again = ok(await http.get(f"/api/v1/games/{game.id}/verify"))
            assert again == verified
            assert ok(await http.get(f"/api/v1/games/{game.id}/archive")) == archive
            # The restored database is a working one: new games can be made and played.
            made = ok(await http.post("/api/v1/games", json={"ruleset": "team_battle"}), 201)
            assert made["id"] != game.id
    finally:
        await engine.dispose()
