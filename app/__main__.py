"""``python -m app serve``: apply migrations, then serve on http://127.0.0.1:8000."""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def migrate(database_url: str | None = None) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    if database_url:
        config.attributes["database_url"] = database_url
    command.upgrade(config, "head")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m app")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="apply migrations, then serve")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    sub.add_parser("migrate", help="apply migrations only")
    sub.add_parser("publish-worker", help="apply migrations, then only deliver posts")
    args = parser.parse_args()
    migrate()
    if args.command == "publish-worker":
        import asyncio

        from app.publish.worker import run_standalone

        asyncio.run(run_standalone())
    elif args.command == "serve":
        import uvicorn

        uvicorn.run("app.main:app", host=args.host, port=args.port, proxy_headers=True)


if __name__ == "__main__":
    main()
