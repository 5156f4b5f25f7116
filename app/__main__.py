"""``python -m app …``: the same command line as ``forumplay`` (app/cli.py).

``python -m app serve`` applies migrations, then serves on http://127.0.0.1:8000.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def migrate(database_url: str | None = None) -> None:
    """Apply the Alembic migrations up to head (``forumplay migrate``)."""
    from alembic import command
    from alembic.config import Config

    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    if database_url:
        config.attributes["database_url"] = database_url
    command.upgrade(config, "head")


def main() -> None:
    from app.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
