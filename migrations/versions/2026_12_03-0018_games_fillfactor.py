"""Room on each page of ``games`` for the row's next version (PostgreSQL; storage only)

Every step rewrites its game's row. PostgreSQL keeps the new version on the same page,
with no new entries in the table's indexes (a HOT update), only when the page has room
for it; a games row is a few KiB, so full pages held three or four rows and two updates
in three were not HOT (bench/submit_orders.py: 217 of 672). Each of those added an entry
to both indexes of ``games`` and left them to be cleaned up. With half of every page
kept free, every update of the benchmark was HOT. The table holds one row per game, so
doubling its size costs little. Pages written before keep their fill until rewritten.
SQLite has no such setting.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-03 20:20:00

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FILLFACTOR = 50


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE games SET (fillfactor = {FILLFACTOR})")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games RESET (fillfactor)")
