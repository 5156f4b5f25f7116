"""The database schema's one way in: the Alembic migrations up to head (``forumplay migrate``,
and before ``forumplay serve`` or the delivery worker start).

``ROOT`` is the checkout (or installed tree) that holds ``alembic.ini`` and ``migrations/``.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def migrate(database_url: str | None = None) -> None:
    """Apply the Alembic migrations up to the newest; safe to repeat."""
    from alembic import command
    from alembic.config import Config

    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    if database_url:
        config.attributes["database_url"] = database_url
    command.upgrade(config, "head")
