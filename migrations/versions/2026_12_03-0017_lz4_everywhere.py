"""The other JSON columns written on every order compressed with lz4 too (PostgreSQL;
storage only, nothing read changes)

0015 gave ``games.state`` lz4. But a games row is over PostgreSQL's 2 KiB TOAST threshold
with a small state as well (a Team Battle game's state and settings are 2.4 and 1.2 KiB),
so every step's UPDATE had PostgreSQL try the default pglz on the row's other wide
values again, the settings first: with pglz that was 40% of the database's CPU per order
(bench/submit_orders.py, 1.2 against 0.7 ms). The same for the rows each order inserts.
Values written before keep their compression until rewritten. A server built without
lz4 keeps pglz; SQLite has no such setting.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-03 12:40:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every JSON column a step, an order or a post writes.
COLUMNS = (
    ("games", "settings"),
    ("games", "options"),
    ("games", "state_delta"),
    ("steps", "payload"),
    ("events", "data"),
    ("events", "audience"),
    ("orders", "body"),
    ("order_revisions", "body"),
    ("posts", "bodies"),
    ("posts", "source"),
    ("idempotency_keys", "body"),
    ("audit", "payload"),
)


def _has_lz4() -> bool:
    found = op.get_bind().execute(
        sa.text(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
            "AND 'lz4' = ANY(enumvals)"
        )
    )
    return found.first() is not None


def _set(method: str) -> None:
    for table, column in COLUMNS:
        op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql" and _has_lz4():
        _set("lz4")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _set("default")
