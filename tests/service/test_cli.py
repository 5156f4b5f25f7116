"""The ``forumplay`` command line, on the test database: create, list, show and export
games through the same services as the API; verify an archive with no database; rotate
the admin token."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import Result
from httpx import AsyncClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from typer.testing import CliRunner

from app.cli import app as cli
from app.clock import FakeClock
from app.main import create_app
from app.models import Game as GameRow
from app.settings import Settings
from tests.service.helpers import Game, bearer, ok
from tests.service.test_archive import finished_team_battle

runner = CliRunner()


async def forumplay(database_url: str, *args: str) -> Result:
    """Run the command in a thread of its own (it runs its own event loop)."""
    env = {"DATABASE_URL": database_url, "ADMIN_TOKEN": ""}
    return await asyncio.to_thread(runner.invoke, cli, list(args), env=env)


def test_help_lists_every_command() -> None:
    shown = runner.invoke(cli, ["--help"])
    assert shown.exit_code == 0
    for command in ("serve", "migrate", "game", "verify", "admin-token"):
        assert command in shown.output
    games = runner.invoke(cli, ["game", "--help"])
    for command in ("create", "list", "show", "export"):
        assert command in games.output
    assert "rotate" in runner.invoke(cli, ["admin-token", "--help"]).output
    # `python -m app` is the same command line.
    module = subprocess.run(
        [sys.executable, "-m", "app", "--help"], capture_output=True, text=True, timeout=60
    )
    assert module.returncode == 0 and "admin-token" in module.stdout


async def test_migrate_is_safe_to_repeat(database_url: str) -> None:
    result = await forumplay(database_url, "migrate")
    assert result.exit_code == 0, result.output


async def test_create_list_show_a_game_the_api_then_serves(
    database_url: str, client: AsyncClient, tmp_path: Path
) -> None:
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(
        "title: 周末团战\nsettings:\n  troops: {A: 20, B: 20}\n  dice: low\n", encoding="utf-8"
    )
    made = await forumplay(
        database_url, "game", "create", "--ruleset", "team_battle", "--scenario", str(scenario)
    )
    assert made.exit_code == 0, made.output
    created = json.loads(made.stdout)
    assert created["title"] == "周末团战"
    assert created["director_token"].startswith("fpd")
    # The director token printed works over HTTP.
    game = Game(http=client, id=created["id"], director=created["director_token"], created=created)
    await game.add_player("a1", "A")
    summary = await game.summary()
    assert summary["ruleset"] == "team_battle" and summary["status"] == "setup"
    settings = ok(await client.get(f"{game.url}/view", headers=bearer(game.director)))
    assert settings["status"] == "setup"

    titled = await forumplay(
        database_url, "game", "create", "--ruleset", "island", "--title", "荒岛"
    )
    assert titled.exit_code == 0, titled.output
    listed = await forumplay(database_url, "game", "list")
    assert listed.exit_code == 0
    rows = json.loads(listed.stdout)
    assert {(r["id"], r["ruleset"], r["title"]) for r in rows} == {
        (created["id"], "team_battle", "周末团战"),
        (json.loads(titled.stdout)["id"], "island", "荒岛"),
    }
    shown = await forumplay(database_url, "game", "show", created["id"])
    assert shown.exit_code == 0
    assert json.loads(shown.stdout) == json.loads(json.dumps(summary))


async def test_refusals_are_explained_and_change_nothing(
    database_url: str, sessionmaker: async_sessionmaker[AsyncSession], tmp_path: Path
) -> None:
    unknown = await forumplay(database_url, "game", "create", "--ruleset", "chess")
    assert unknown.exit_code == 1
    assert "chess" in unknown.stderr and "没有" in unknown.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"troops": {"A": -3, "B": 30}}', encoding="utf-8")
    invalid = await forumplay(
        database_url, "game", "create", "--ruleset", "team_battle", "--scenario", str(bad)
    )
    assert invalid.exit_code == 1 and "TB-10" in invalid.stderr and "游戏设置有误" in invalid.stderr
    missing = await forumplay(database_url, "game", "show", "nope")
    assert missing.exit_code == 1
    async with sessionmaker() as session:
        assert await session.scalar(select(func.count()).select_from(GameRow)) == 0


async def test_export_then_verify_offline_and_tampering_is_named(
    database_url: str, client: AsyncClient, clock: FakeClock, tmp_path: Path
) -> None:
    game = await finished_team_battle(client, clock)
    exported = await forumplay(database_url, "game", "export", game.id)
    assert exported.exit_code == 0, exported.output
    archive: dict[str, Any] = json.loads(exported.stdout)
    assert archive == ok(await game.get("/archive"))
    path = tmp_path / "archive.json"
    path.write_text(exported.stdout, encoding="utf-8")

    verified = runner.invoke(
        cli, ["verify", str(path)], env={"DATABASE_URL": "postgresql://nowhere/"}
    )
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.startswith("OK")

    step = archive["steps"][4]
    step["state_hash"] = "f" * 64
    path.write_text(json.dumps(archive), encoding="utf-8")
    tampered = runner.invoke(cli, ["verify", str(path)])
    assert tampered.exit_code == 1
    assert f"step {step['seq']}:" in tampered.stdout and "state differs" in tampered.stdout

    path.write_text("{not json", encoding="utf-8")
    unreadable = runner.invoke(cli, ["verify", str(path)])
    assert unreadable.exit_code == 1 and "archive" in unreadable.stderr


async def test_an_unfinished_game_has_no_archive(database_url: str, client: AsyncClient) -> None:
    created = ok(await client.post("/api/v1/games", json={"ruleset": "team_battle"}), 201)
    exported = await forumplay(database_url, "game", "export", created["id"])
    assert exported.exit_code == 1
    assert "finished" in exported.stderr and exported.stdout == ""


async def test_rotating_the_admin_token_replaces_it_in_the_settings_file(
    database_url: str, tmp_path: Path, clock: FakeClock
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("LOG_LEVEL=INFO\nADMIN_TOKEN=old-token\n", encoding="utf-8")
    first = runner.invoke(
        cli, ["admin-token", "rotate", "--env-file", str(env_file)], env={"ADMIN_TOKEN": ""}
    )
    assert first.exit_code == 0, first.output
    token = first.stdout.strip()
    second = runner.invoke(
        cli, ["admin-token", "rotate", "--env-file", str(env_file)], env={"ADMIN_TOKEN": ""}
    )
    newest = second.stdout.strip()
    assert newest != token and len(newest) > 30
    lines = env_file.read_text(encoding="utf-8").splitlines()
    assert lines == ["LOG_LEVEL=INFO", f"ADMIN_TOKEN={newest}"]
    assert env_file.stat().st_mode & 0o077 == 0  # not readable by others

    # A service started with that file requires the new token, and only it.
    settings = Settings(_env_file=str(env_file), database_url=database_url)  # type: ignore[call-arg]
    assert settings.admin_token == newest
    from httpx import ASGITransport

    from app.db import make_engine, make_sessionmaker

    app = create_app(settings, clock)
    engine = make_engine(database_url, pool_size=2)
    app.state.engine, app.state.sessionmaker = engine, make_sessionmaker(engine)
    try:
        async with AsyncClient(transport=ASGITransport(app=app), base_url="http://t") as http:
            body = {"ruleset": "team_battle"}
            old = await http.post("/api/v1/games", json=body, headers=bearer(token))
            assert old.status_code == 401  # no longer the admin token (issue 7: 401)
            ok(await http.post("/api/v1/games", json=body, headers=bearer(newest)), 201)
    finally:
        await engine.dispose()
