"""The ``forumplay`` command line (also ``python -m app``): serve, migrate, games, archives.

Commands that read or change games talk to the database directly, through the same
services as the HTTP API, with the same settings (``DATABASE_URL``, ``.env``). Whoever can
run them can read the database, so they need no admin token. JSON goes to stdout (pipe it
to ``jq`` or a file); messages go to stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import SystemClock
from app.errors import AppError
from app.rules.base import RuleViolation
from app.rules.registry import all_rulesets
from app.settings import Settings

T = TypeVar("T")

app = typer.Typer(
    name="forumplay",
    help="forumplay: director-moderated forum games (论坛戏). Run `forumplay COMMAND --help`.",
    no_args_is_help=True,
    add_completion=False,
)
game_app = typer.Typer(help="Create, list, show and export games.", no_args_is_help=True)
admin_app = typer.Typer(help="The server-wide admin token.", no_args_is_help=True)
app.add_typer(game_app, name="game")
bot_app = typer.Typer(help="Chat bots (Telegram, Discord, QQ/OneBot).", no_args_is_help=True)
app.add_typer(admin_app, name="admin-token")
app.add_typer(bot_app, name="bot")

DatabaseOption = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        envvar="DATABASE_URL",
        help="SQLAlchemy URL (default: the DATABASE_URL setting, else embedded SQLite).",
        show_default=False,
    ),
]


def _settings(database_url: str | None) -> Settings:
    settings = Settings()
    if database_url:
        settings = settings.model_copy(update={"database_url": database_url})
    return settings


def _print_json(value: Any) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(1)


def _in_transaction(database_url: str | None, action: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run ``action`` in one committed transaction on the configured database."""
    from app.db import make_engine, make_sessionmaker

    async def go() -> T:
        settings = _settings(database_url)
        engine = make_engine(settings.database_url, pool_size=1)
        try:
            async with make_sessionmaker(engine)() as session, session.begin():
                return await action(session)
        finally:
            await engine.dispose()

    with _refusals():
        return asyncio.run(go())


@contextlib.contextmanager
def _refusals() -> Iterator[None]:
    """A refusal from the services (bad settings, unknown game…) becomes a message in both
    languages and exit code 1, as the API would answer problem+json."""
    try:
        yield
    except RuleViolation as violation:
        raise _fail(f"{violation.message_zh} / {violation.message_en}") from None
    except AppError as error:
        raise _fail(f"{error.message_zh} / {error.message_en}") from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
) -> None:
    """Apply migrations, then serve the API and the web pages (uvicorn)."""
    import uvicorn

    from app.migrate import migrate as run_migrations
    from app.serving import uvicorn_options
    from app.settings import get_settings

    run_migrations()
    # The h11 protocol with header, header-time and body-time limits (app/serving.py).
    uvicorn.run("app.main:app", host=host, port=port, **uvicorn_options(get_settings()))


@app.command()
def migrate(database_url: DatabaseOption = None) -> None:
    """Apply the database migrations (Alembic) up to the newest; safe to repeat."""
    from app.migrate import migrate as run_migrations

    run_migrations(database_url)
    typer.echo("migrations applied (at head)", err=True)


@app.command("publish-worker")
def publish_worker() -> None:
    """Apply migrations, then only deliver posts and chat bots' private messages."""
    from app.migrate import migrate as run_migrations
    from app.observability import configure_logging

    configure_logging()
    run_migrations()
    asyncio.run(_workers())


async def _workers() -> None:
    """The delivery worker and the chat bots' outbox, on one engine."""
    from app import gc_policy
    from app.chat.worker import ChatWorker
    from app.db import make_engine, make_sessionmaker
    from app.publish.worker import DeliveryWorker
    from app.settings import get_settings
    from app.web.lines import describe_event

    settings = get_settings()
    engine = make_engine(
        settings.database_url, settings.db_pool_size, pool_overflow=settings.db_pool_overflow
    )
    sessionmaker, clock = make_sessionmaker(engine), SystemClock()
    collector = gc_policy.serve(settings.gc_full_seconds)  # as the app's own process does
    try:
        await asyncio.gather(
            DeliveryWorker(sessionmaker, clock, settings).loop(),
            ChatWorker(sessionmaker, clock, settings, describe_event).loop(),
        )
    finally:
        if collector is not None:
            collector.cancel()
        await engine.dispose()


@game_app.command("create")
def game_create(
    ruleset: Annotated[str, typer.Option(help=f"{' or '.join(all_rulesets())}.")],
    scenario: Annotated[
        Path | None,
        typer.Option(exists=True, dir_okay=False, help="Settings as a JSON or YAML file."),
    ] = None,
    title: Annotated[str | None, typer.Option(help="Defaults to the scenario's title.")] = None,
    timezone: Annotated[str | None, typer.Option(help="e.g. Asia/Shanghai (default).")] = None,
    database_url: DatabaseOption = None,
) -> None:
    """Create a game; prints its id and the director token (shown once: keep it)."""
    from app.services import games

    with _refusals():
        parsed = games.parse_scenario(
            scenario.read_text(encoding="utf-8") if scenario is not None else None
        )
    name = title or parsed.get("title") or ruleset

    async def action(session: AsyncSession) -> dict[str, Any]:
        return await games.create_game(
            session,
            ruleset,
            str(name),
            parsed.get("settings", {}),
            timezone,
            {},
            SystemClock().now(),
        )

    created = _in_transaction(database_url, action)
    _print_json(
        {
            "id": created["id"],
            "director_token": created["director_token"],
            "ruleset": created["ruleset"],
            "title": created["title"],
            "seed_commitment": created["seed_commitment"],
        }
    )


@game_app.command("list")
def game_list(database_url: DatabaseOption = None) -> None:
    """Every game, newest first: id, ruleset, status, title."""
    from app.models import Game

    async def action(session: AsyncSession) -> list[dict[str, Any]]:
        rows = await session.execute(
            select(Game.id, Game.ruleset, Game.status, Game.title, Game.created_at).order_by(
                Game.created_at.desc(), Game.id
            )
        )
        return [
            {"id": i, "ruleset": r, "status": s, "title": t, "created_at": c.isoformat()}
            for i, r, s, t, c in rows
        ]

    _print_json(_in_transaction(database_url, action))


GameId = Annotated[str, typer.Argument(metavar="ID")]


def _print_for_game(
    database_url: str | None,
    game_id: str,
    read: Callable[[AsyncSession, Any], Awaitable[dict[str, Any]]],
) -> None:
    """Load game ``game_id`` (unknown: exit 1), print what ``read`` makes of it."""
    from app.services.games import load_game

    async def action(session: AsyncSession) -> dict[str, Any]:
        return await read(session, await load_game(session, game_id))

    _print_json(_in_transaction(database_url, action))


@game_app.command("show")
def game_show(game_id: GameId, database_url: DatabaseOption = None) -> None:
    """A game's public summary (as GET /api/v1/games/ID)."""
    from app.services.games import summary

    _print_for_game(database_url, game_id, summary)


@game_app.command("export")
def game_export(game_id: GameId, database_url: DatabaseOption = None) -> None:
    """A finished game's archive (as GET /api/v1/games/ID/archive), to stdout."""
    from app.services.archive import build_archive

    _print_for_game(database_url, game_id, build_archive)


@app.command("verify")
def verify(
    archive_file: Annotated[
        Path, typer.Argument(metavar="ARCHIVE", exists=True, dir_okay=False, help="archive.json")
    ],
) -> None:
    """Re-run an archive's every step with no server or database (exit 1: names the first bad step).

    Exit code 0 when every step's public events and state hash match; 1 otherwise."""
    from app.services.archive import ArchiveError, verify_archive

    try:
        result = verify_archive(json.loads(archive_file.read_text(encoding="utf-8")))
    except (ValueError, ArchiveError) as error:  # JSONDecodeError is a ValueError
        raise _fail(f"存档无法读取 / unreadable archive: {error}") from None
    except (AppError, RuleViolation) as error:
        raise _fail(f"存档无法重放 / cannot replay: {error.message_en}") from None
    summary = (
        f"{result['steps']} steps, {result['events']} public events, "
        f"{result['receipts']} receipts checked"
    )
    if result.get("undos"):  # undone steps are replayed like the others
        summary += f", {result['undos']} undos (undone steps replayed too)"
    if result["ok"]:
        typer.echo(f"OK: {summary}; seed matches its commitment.")
        return
    first = result["first_bad_step"]
    if first is not None:
        problems = ", ".join(m["problem"] for m in result["mismatches"] if m["step"] == first)
        typer.echo(f"MISMATCH at step {first}: {problems} ({summary})")
    else:
        typer.echo(f"MISMATCH: {result['mismatches'][0]['problem']} ({summary})")
    raise typer.Exit(1)


@admin_app.command("rotate")
def admin_token_rotate(
    env_file: Annotated[
        Path, typer.Option(help="The settings file the service reads (ADMIN_TOKEN=…).")
    ] = Path(".env"),
) -> None:
    """Make a new admin token, write it to the settings file (replacing the old one) and
    print it once. Every process reads it when it starts: restart them to apply it."""
    token = f"fpa_{secrets.token_urlsafe(32)}"
    lines = env_file.read_text(encoding="utf-8").splitlines() if env_file.exists() else []
    kept = [line for line in lines if not line.strip().startswith("ADMIN_TOKEN=")]
    kept.append(f"ADMIN_TOKEN={token}")
    # Written whole beside the old file, readable by its owner only, then swapped in: a
    # reader never sees half a file, and the token is never world-readable.
    fresh = env_file.with_name(f".{env_file.name}.{secrets.token_hex(4)}")
    descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write("\n".join(kept) + "\n")
    os.replace(fresh, env_file)
    if os.environ.get("ADMIN_TOKEN"):
        typer.echo(
            "注意 / note: ADMIN_TOKEN is set in this environment and overrides the file: "
            "change it there too.",
            err=True,
        )
    typer.echo(f"new admin token written to {env_file}; restart the service to apply it.", err=True)
    typer.echo(token)


@bot_app.command("add")
def bot_add(
    kind: Annotated[str, typer.Argument(help="telegram | discord | onebot")],
    name: Annotated[str, typer.Argument(help="A name for the admin's list")],
    config: Annotated[str, typer.Option(help="The bot's config as JSON (see README).")],
    database_url: DatabaseOption = None,
) -> None:
    """Register a chat bot (its secrets are stored sealed); prints its webhook path."""
    from app.chat import bots

    try:
        parsed = json.loads(config)
    except ValueError:
        raise _fail("--config must be JSON") from None

    async def action(session: AsyncSession) -> dict[str, Any]:
        now = SystemClock().now()
        return await bots.add_bot(session, kind, name, parsed, now, _settings(database_url))

    _print_json(_in_transaction(database_url, action))


@bot_app.command("list")
def bot_list(database_url: DatabaseOption = None) -> None:
    """The registered chat bots (no secrets)."""
    from app.chat import bots

    _print_json(_in_transaction(database_url, bots.list_bots))


@bot_app.command("remove")
def bot_remove(bot_id: str, database_url: DatabaseOption = None) -> None:
    """Remove a chat bot: it stops answering and sending."""
    from app.chat import bots

    async def action(session: AsyncSession) -> dict[str, Any]:
        return await bots.remove_bot(session, bot_id, SystemClock().now())

    _print_json(_in_transaction(database_url, action))


@bot_app.command("commands")
def bot_commands(bot_id: str, database_url: DatabaseOption = None) -> None:
    """Discord: register the slash commands (/order, /link, /status, /ready, /withdraw)."""
    from app.chat import bots

    async def action(session: AsyncSession) -> dict[str, Any]:
        return await bots.register_discord_commands(session, bot_id, _settings(database_url))

    _print_json(_in_transaction(database_url, action))


def main() -> None:
    app()
