"""games.state compressed with lz4 on PostgreSQL (storage only; nothing read changes)

A step rewrites the game's whole state (400 KiB of JSON with 1,000 players): with the
default pglz its compression is most of the UPDATE; lz4 does it several times faster
(bench/roster.py). Rows written before keep pglz until their next step. A server built
without lz4 keeps pglz; SQLite has no such setting.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02 14:20:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _has_lz4() -> bool:
    found = op.get_bind().execute(
        sa.text(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
            "AND 'lz4' = ANY(enumvals)"
        )
    )
    return found.first() is not None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql" and _has_lz4():
        op.execute("ALTER TABLE games ALTER COLUMN state SET COMPRESSION lz4")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games ALTER COLUMN state SET COMPRESSION default")
